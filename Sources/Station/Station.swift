import Archive
import ArchiveKit
import ColdChain
import ColdTapBase
import ColdTapKit
import Digest
import Foundation
import JSONOutput
import LoggerFormats
import PDFSigning
import TempChart
import TransparencyLog

/// The station: the HTTP API of README "Station" over one archive. It keeps no state of its
/// own beyond counters, so any number can run in front of one PostgreSQL archive.
/// `handle(_:)` answers one request (tests call it without a socket); `start()` serves it
/// over libmicrohttpd.
public final class Station: @unchecked Sendable {
    public struct Configuration: Sendable {
        /// A SQLite path or a `postgresql://` URI.
        public var archive: String
        public var http = HTTPServer.Configuration()
        /// Attempts per webhook event, and the first wait between them (then doubled, with jitter).
        public var webhookAttempts = 24
        public var webhookBackoff: TimeInterval = 2
        /// Webhook delivery workers (one delivery in flight per webhook, whatever their number).
        public var webhookWorkers = 4
        /// One attempt's limit, and an event's: after `webhookDeadline` it is given up.
        public var webhookAttemptTimeout: TimeInterval = 10
        public var webhookDeadline: TimeInterval = 6 * 3600
        /// Webhooks to plain http URLs (`--allow-http-webhooks`: tests).
        public var allowHTTPWebhooks = false
        /// Webhooks to loopback, private and link-local addresses (`--allow-private-webhooks`).
        public var allowPrivateWebhookTargets = false
        /// What reads are assessed against, and an acknowledgement's excursion looked up
        /// under when the logger has no assessment yet.
        public var defaultProfile = Profile.vaccineFridge
        /// The zone the web pages and reports show times in (the system's unless given).
        public var timeZone = TimeZone.utc
        /// The file of the key that signs the record's checkpoints; `nil`: next to a SQLite
        /// archive (made on first use), none for PostgreSQL (then no checkpoint is served).
        public var signingKey: String?
        /// A browser session's idle time-out and absolute limit (`--session-idle`).
        public var sessionLimits = SessionLimits()
        /// The key and certificate (PEM files) that sign report PDFs (`--report-key`,
        /// `--report-cert`); `nil`: a self-signed pair next to a SQLite archive (made on first
        /// use), or for PostgreSQL one made at start and kept in memory.
        public var reportSigning: (key: String, certificate: String)?

        public init(archive: String) {
            self.archive = archive
        }
    }

    public let configuration: Configuration
    let pool: StorePool
    let metrics = StationMetrics()
    let log: RequestLog
    let webhooks: WebhookSender
    /// Uploads refused since this station started, for the reads page.
    let rejectedUploads = RejectedUploads()
    private var server: HTTPServer?
    /// Keeps uploads' reads, several in one transaction when they arrive together.
    private let batcher: WriteBatcher
    /// Signs the record's checkpoints; `nil` when the station has no key.
    let recordHead: LockedValue<RecordHead?>
    /// Signs report PDFs (set by `start()`).
    let reportSigner = LockedValue<PDFSigningIdentity?>(nil)
    /// Folds the leaves a write appended into the record's checkpoint (after each upload
    /// batch, and after a lot's write).
    let signRecord: @Sendable (StationStore) -> Void

    /// - Parameter logLine: where the JSON request log goes (standard error by default).
    public init(configuration: Configuration, logLine: (@Sendable (String) -> Void)? = nil) {
        self.configuration = configuration
        pool = StorePool(location: configuration.archive)
        let recordHead = LockedValue<RecordHead?>(nil)
        self.recordHead = recordHead
        let log = logLine.map { RequestLog(sink: $0) } ?? .standardError
        self.log = log
        // The record's checkpoint is signed again after each batch (its new leaves only); a
        // record that lost what was signed is said in the log (checkpoints then answer 503).
        let signRecord: @Sendable (StationStore) -> Void = { store in
            do {
                _ = try recordHead.withLock({ $0 })?.advance(store)
            } catch let error as ArchiveError where error.kind == .verificationFailed {
                log.sink(
                    JSONValue.object([("time", .string(Date().isoUTC)), ("recordNotSigned", .string(error.message))]).serialized(pretty: false))
            } catch {}
        }
        self.signRecord = signRecord
        batcher = WriteBatcher(pool: pool, metrics: metrics, afterCommit: signRecord)
        webhooks = WebhookSender(
            pool: pool, batcher: batcher, metrics: metrics,
            settings: .init(
                workers: configuration.webhookWorkers, attempts: configuration.webhookAttempts, backoff: configuration.webhookBackoff,
                attemptTimeout: configuration.webhookAttemptTimeout, deadline: configuration.webhookDeadline,
                policy: WebhookTargetPolicy(allowHTTP: configuration.allowHTTPWebhooks, allowPrivate: configuration.allowPrivateWebhookTargets)),
            logLine: log.sink, checkpoint: { recordHead.withLock { $0 }?.newestNote })
    }

    /// Opens the archive (creating the station tables) and starts serving.
    /// - Throws: `ArchiveError` when the archive cannot be opened; `HTTPServer.StartError`.
    public func start() throws {
        try pool.warmUp()
        if let file = configuration.signingKey ?? RecordSigningKey.defaultFile(forArchive: configuration.archive) {
            let origin = try pool.with { try $0.archive.recordOrigin() }
            let head = RecordHead(signer: try RecordSigningKey.loadOrCreate(file: file, origin: origin).signer)
            try pool.with { try head.advance($0) }
            recordHead.withLock { $0 = head }
        }
        reportSigner.withLock { $0 = nil }
        let identity = try Station.reportIdentity(configuration)
        reportSigner.withLock { $0 = identity }
        let server = HTTPServer(configuration: configuration.http) { [unowned self] request in self.handle(request) }
        try server.start()
        self.server = server
        webhooks.start()
    }

    /// The identity that signs report PDFs: the operator's files, or a self-signed one.
    /// - Throws: `PDFSigningError` naming the file that cannot be used.
    static func reportIdentity(_ configuration: Configuration) throws -> PDFSigningIdentity {
        let name = "ColdTap station"
        if let files = configuration.reportSigning {
            return try PDFSigningIdentity.load(keyFile: files.key, certificateFile: files.certificate)
        }
        if let files = defaultReportIdentityFiles(forArchive: configuration.archive) {
            return try PDFSigningIdentity.loadOrCreate(keyFile: files.key, certificateFile: files.certificate, commonName: name)
        }
        return try PDFSigningIdentity.selfSigned(commonName: name)
    }

    /// Where the self-signed identity of a SQLite archive's station is kept (beside the
    /// archive, as its record's signing key is); `nil` for PostgreSQL, which has no file.
    public static func defaultReportIdentityFiles(forArchive location: String) -> (key: String, certificate: String)? {
        guard RecordSigningKey.defaultFile(forArchive: location) != nil else { return nil }
        return (location + ".report-key.pem", location + ".report-cert.pem")
    }

    /// The identity that signs report PDFs (after `start()`), for the operator to check.
    public var reportSigningIdentity: PDFSigningIdentity? { reportSigner.withLock { $0 } }

    /// Connections cut because a request did not arrive whole within the deadline.
    public var connectionsCutAtDeadline: Int { server?.connectionsCutAtDeadline ?? 0 }

    /// The port listened on (the ephemeral one when 0 was asked for).
    public var port: UInt16 { server?.port ?? 0 }

    /// Stops taking connections, lets requests in flight finish, waits briefly for webhook
    /// deliveries under way, closes the archive.
    public func stop(grace: TimeInterval = 10) {
        server?.stop(grace: grace)
        server = nil
        webhooks.stop(waiting: min(grace, 5))
        pool.closeAll()
    }

    /// For tests: waits for queued webhook deliveries (with their retries) to end.
    public func drainWebhooks(timeout: TimeInterval) -> Bool { webhooks.drain(timeout: timeout) }

    // MARK: Answering

    /// Who is asking: a token of a site, or a person signed in to a browser session (an
    /// operator token is no caller of a site's routes).
    struct Caller {
        var site: StationSite
        /// What may be done: the token's scope, or the signed-in user's role's.
        var scope: TokenScope
        /// The API token asked with (also behind a web session opened with a token).
        var token: StationToken?
        /// The signed-in person (`nil` for a token alone).
        var user: StationUser?
        /// The browser session, for web pages.
        var session: StationSession?

        init?(token: StationToken, session: StationSession? = nil) {
            guard let site = token.site else { return nil }
            self.site = site
            scope = token.scope
            self.token = token
            self.session = session
        }

        init(user: StationUser, site: StationSite, session: StationSession) {
            self.site = site
            scope = user.role.scope
            self.user = user
            self.session = session
        }

        /// Who did something, as the record says it: `user:NAME` or `token #ID`.
        var actor: String { user.map { "user:\($0.name)" } ?? "token #\(token?.id ?? 0)" }
    }

    /// The answer to anything about a logger that is not the caller's site's: the same
    /// whether another site has it or nobody does, with no name in it.
    static let noSuchLogger = HTTPFailure.notFound("this site has no such logger.")
    /// The same for an upload naming (or carrying) another site's logger.
    static let noSuchLoggerForUpload = HTTPFailure.notFound(
        "this site has no such logger; a read is kept under a logger of this site or a new one (name it with \(UploadHeader.loggerID)).")

    /// Answers one request: never throws, never crashes on what a client sends.
    public func handle(_ request: HTTPRequest) -> HTTPResponse { handle(request, authenticatedAs: nil) }

    /// Answers `request`; with `authenticatedAs`, as that caller without a token (a web
    /// session's downloads, which are the API's answers).
    func handle(_ request: HTTPRequest, authenticatedAs preset: Caller?) -> HTTPResponse {
        let started = Date()
        let parsed = request.pathSegments.flatMap(StationRoute.init(segments:))
        let route = parsed?.label ?? request.pathSegments.flatMap(Station.webRoute) ?? "other"
        var caller: Caller?
        var response: HTTPResponse
        var internalError: String?
        do {
            caller = preset
            response = try answer(request, route: parsed, caller: &caller)
        } catch let failure as HTTPFailure {
            response = failure.response
        } catch let rejection as UploadRejection {
            response = .error(rejection.status, rejection.status == 415 ? "unsupported content" : "read does not decode", rejection.message)
        } catch let error as ArchiveError {
            response = Station.response(for: error)
        } catch {
            // The error's text stays in the request log; the answer names nothing of the server.
            response = .error(500, "internal error", "the station failed to answer this request; its log says why.")
            internalError = String(describing: error)
        }
        let seconds = Date().timeIntervalSince(started)
        if route == "/api/v1/reads", request.method == "POST", response.status >= 400, let caller { recordRejection(request, response, caller: caller) }
        metrics.request(route: route, method: Station.methodLabel(request.method), status: response.status)
        if route == "/api/v1/reads", request.method == "POST" { metrics.upload(seconds: seconds) }
        var detail: String?
        if response.status >= 400, let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] {
            detail = object["error"] as? String
        }
        if let internalError { detail = (detail ?? "") + ": " + internalError }
        log.write(
            method: request.method, path: request.path, route: route, status: response.status, milliseconds: seconds * 1000,
            bytesIn: request.body.count, bytesOut: response.body.count, site: caller?.site.name, tokenID: caller?.token?.id,
            detail: detail)
        return response
    }

    static func response(for error: ArchiveError) -> HTTPResponse {
        switch error.kind {
        case .notFound: return .error(404, "not found", error.message)
        case .conflict: return .error(409, "conflict", error.message)
        case .invalidRead:
            // What an uploader can do is name the logger; the rest is the operator's.
            let advice = error.hint == .nameTheLogger ? " Send \(UploadHeader.loggerID) with the logger's name." : ""
            return .error(422, "read does not decode", error.message + advice)
        case .unavailable, .connectionLost, .busy, .full, .readOnly:
            return .error(503, "archive unavailable", error.message, headers: [("Retry-After", "5")])
        case .corrupt, .newerVersion, .verificationFailed, .engine:
            return .error(503, "archive unavailable", error.message, headers: [("Retry-After", "30")])
        }
    }

    static func methodLabel(_ method: String) -> String {
        ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"].contains(method) ? method : "other"
    }

    private func answer(_ request: HTTPRequest, route: StationRoute?, caller: inout Caller?) throws -> HTTPResponse {
        if request.bodyTooLarge {
            throw HTTPFailure(413, "body too large", "the body is over the station's limit of \(configuration.http.maxBody) bytes (set by its operator).")
        }
        if caller == nil, let page = try webResponse(request, caller: &caller) { return page }
        guard let route else {
            throw HTTPFailure.notFound("there is no such path on this station; the API is under /api/v1 (README, \"Station\").")
        }
        switch route {
        case .openAPI:
            try requireMethod(request, "GET")
            return OpenAPIDocument.response
        case .healthz:
            // Says the archive answers, nothing of what it holds (no token is needed here).
            try requireMethod(request, "GET")
            _ = try pool.with { try $0.archive.chainHead() }
            return .json(200, .object([("status", .string("ok"))]))
        case .metrics:
            try requireMethod(request, "GET")
            let token = try authenticate(request)
            guard token.scope == .operator else {
                throw HTTPFailure(
                    403, "forbidden", "the metrics are the station's, not a site's: they need the station operator's token (a token of the operator scope).")
            }
            let counts = try pool.with { try $0.counts() }
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                body: Data(metrics.text(reads: counts.reads, loggers: counts.loggers, samples: counts.samples).utf8))
        case .deviceTokens:
            try requireMethod(request, "POST")
            return try createDeviceToken(request, caller: &caller)
        default:
            break
        }
        let who = try caller ?? siteCaller(request)
        caller = who
        switch route {
        case .reads:
            try requireMethod(request, "POST")
            try require(who, .upload)
            return try upload(request, caller: who)
        case .loggers:
            try requireMethod(request, "GET")
            try require(who, .read)
            return try loggers(request, caller: who)
        case .checkpoint:
            try requireMethod(request, "GET")
            try require(who, .read)
            return try checkpoint(request)
        case .lots, .lot, .lotMoves, .lotClose, .lotReport:
            return try answerLots(request, route: route, caller: who)
        default:
            guard let loggerID = route.loggerID else { throw Station.noSuchLogger }
            try require(who, .read)
            try requireOwned(loggerID, caller: who)
            switch route {
            case .samples:
                try requireMethod(request, "GET")
                return try samples(request, loggerID: loggerID)
            case .acknowledgements:
                try requireMethod(request, "POST")
                try require(who, .upload)
                return try acknowledge(request, loggerID: loggerID, caller: who)
            case .report(_, let name):
                try requireMethod(request, "GET")
                return try report(request, loggerID: loggerID, name: name, site: who.site)
            case .signatures:
                try requireMethod(request, "GET")
                return try signatures(loggerID: loggerID)
            default:
                try requireMethod(request, "GET")
                guard let summary = try pool.with({ try $0.summary(loggerID: loggerID) }) else { throw Station.noSuchLogger }
                return .json(200, loggerJSON(summary, site: who.site))
            }
        }
    }

    func requireMethod(_ request: HTTPRequest, _ method: String) throws {
        guard request.method == method || (method == "GET" && request.method == "HEAD") else {
            throw HTTPFailure(405, "method not allowed", "\(request.path) answers \(method), not \(request.method.prefix(16)).", headers: [("Allow", method)])
        }
    }

    private func authenticate(_ request: HTTPRequest) throws -> StationToken {
        let challenge = [("WWW-Authenticate", "Bearer realm=\"coldtap\"")]
        guard let header = request.header("Authorization") else {
            throw HTTPFailure(401, "unauthorized", "this request needs 'Authorization: Bearer TOKEN' (coldtap token create).", headers: challenge)
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw HTTPFailure(401, "unauthorized", "the Authorization header must be 'Bearer TOKEN'.", headers: challenge)
        }
        let presented = parts[1].trimmingCharacters(in: .whitespaces)
        guard let token = try pool.with({ try $0.authenticate(presented) }) else {
            throw HTTPFailure(401, "unauthorized", "the token is unknown, revoked or expired.", headers: challenge)
        }
        return token
    }

    /// The caller of a site's route: a token of a site.
    private func siteCaller(_ request: HTTPRequest) throws -> Caller {
        guard let caller = Caller(token: try authenticate(request)) else {
            throw HTTPFailure(403, "forbidden", "an operator token reads the station's metrics only; a site's loggers need one of the site's tokens.")
        }
        return caller
    }

    func require(_ caller: Caller, _ scope: TokenScope) throws {
        guard caller.scope >= scope else {
            if let user = caller.user {
                throw HTTPFailure(403, "forbidden", "this needs a user allowed to \(scope.rawValue); \(user.name) is a \(user.role.rawValue).")
            }
            throw HTTPFailure(403, "forbidden", "this needs a token with the \(scope.rawValue) scope; this one has \(caller.scope.rawValue).")
        }
    }

    /// Another site's logger is answered exactly as an unknown one.
    private func requireOwned(_ loggerID: String, caller: Caller) throws {
        guard try pool.with({ try $0.siteID(ofLogger: loggerID) }) == caller.site.id else { throw Station.noSuchLogger }
    }

    // MARK: Uploads

    /// A read is its bytes; `application/x-www-form-urlencoded` is what `curl --data-binary`
    /// and URLSession send when not told, so it is taken as bytes too.
    static let acceptedUploadTypes: Set<String> = [
        "application/octet-stream", "text/plain", "text/uri-list", "application/x-ndef",
        "application/x-www-form-urlencoded",
    ]

    private func upload(_ request: HTTPRequest, caller: Caller) throws -> HTTPResponse {
        if let type = request.header("Content-Type") {
            let bare = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            guard Station.acceptedUploadTypes.contains(bare) else {
                throw UploadRejection(
                    status: 415,
                    "a read is sent as its bytes (application/octet-stream: a tag memory dump or NDEF message; text/plain: a Flipper file, hex text or a cuplTag URL), not as \(type.prefix(80))."
                )
            }
        }
        guard !request.body.isEmpty else {
            throw HTTPFailure.badRequest("the body is empty; send the read's bytes (a tag memory dump, an NDEF message, a Flipper file or a cuplTag URL).")
        }
        let readTime = try Station.readTime(request, arrival: Date())
        let givenID = request.header(UploadHeader.loggerID).map { $0.trimmingCharacters(in: .whitespaces) }
        if let givenID, !Station.isValidLoggerName(givenID) {
            throw HTTPFailure.badRequest(
                "\(UploadHeader.loggerID) must be 1 to 200 letters, digits, '.', '_', ':', '@', '+' or '-', starting with a letter or digit.")
        }
        let source = request.header(UploadHeader.source).map {
            String(String.UnicodeScalarView($0.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }).prefix(200))
        }
        let site = caller.site
        // What the station keeps of the named logger, in one round trip; another site's
        // logger is refused before its secret could decode this read.
        let known = try givenID.map { id in try pool.with { try $0.uploadFacts(loggerID: id) } }
        if let owner = known?.owner, owner != site.id { throw Station.noSuchLoggerForUpload }
        var upload = Upload(
            raw: request.body, readTime: readTime, source: source, loggerID: givenID, secret: known?.secret, siteName: site.name)
        if let stated = request.header(UploadHeader.readTimeSource) {
            guard stated == "file-modification-time" else {
                throw HTTPFailure.badRequest(
                    "\(UploadHeader.readTimeSource) '\(stated.prefix(64))' is unknown; the one value is file-modification-time (leave the header out for a read time the uploader knows)."
                )
            }
            upload.readTimeSource = .fileModificationTime
        }
        if let zoneText = request.header(UploadHeader.loggerTimeZone) {
            guard let zone = ArchivedReads.zone(fromText: zoneText.trimmingCharacters(in: .whitespaces)) else {
                throw HTTPFailure.badRequest(
                    "\(UploadHeader.loggerTimeZone) '\(zoneText.prefix(64))' is not a time zone; send a name like Europe/Paris or UTC, or an offset like +02:00."
                )
            }
            upload.loggerTimeZone = zone
        }
        var read = try decodeBlocking(upload)
        let loggerID: String
        if let givenID {
            try Station.checkGivenID(givenID, agreesWith: read.log, kept: known?.logger)
            loggerID = givenID
        } else {
            loggerID = try carriedLoggerID(read.log, site: site)
            // A logger found in the read: decode again with its secret when the station holds one.
            if let secret = try pool.with({ try $0.secret(loggerID: loggerID) }) {
                upload.secret = secret
                upload.loggerID = loggerID
                read = try decodeBlocking(upload)
            }
        }
        read.loggerID = loggerID
        let prepared = try Archive.prepare(read)
        let token = caller.token
        let added = try batcher.keep { store, transaction in
            do {
                let added = try store.archive.keep(prepared, claimingFor: site.id, in: transaction)
                // Who sent it, in the same transaction: the token, and its user and device.
                if let token {
                    try store.recordUpload(
                        loggerID: added.loggerID, readID: added.readID, siteID: site.id, token: token, newRead: !added.alreadyKept, in: transaction)
                }
                return added
            } catch is Archive.LoggerOfAnotherSite {
                throw Station.noSuchLoggerForUpload
            }
        }
        // Read back after the commit, on any connection: no writer's turn needed.
        let (status, result) = try pool.with { store -> (Int, (AddResult, ReadSummary, LoggerSummary, (verdict: String, reasons: [String])?)) in
            guard let summary = try store.read(loggerID: loggerID, readID: added.readID),
                let logger = try store.summary(loggerID: loggerID)
            else {
                throw ArchiveError(.engine, "the read just kept cannot be read back.")
            }
            return (added.alreadyKept ? 200 : 201, (added, summary, logger, try store.assessment(loggerID: loggerID, readID: added.readID)))
        }
        let (_, summary, logger, assessment) = result
        let readJSON = ArchiveJSON.read(summary)
        if status == 201, assessment?.verdict == Verdict.alarm.rawValue {
            webhooks.send(
                type: "alarm", siteID: site.id,
                members: [
                    ("site", .string(site.name)), ("logger", loggerJSON(logger, site: site)), ("read", readJSON),
                    ("verdict", .string(Verdict.alarm.rawValue)), ("reasons", .array((assessment?.reasons ?? []).map { .string($0) })),
                ])
        }
        return .json(
            status,
            .object([
                ("read", readJSON),
                ("logger", loggerJSON(logger, site: site)),
                ("newSamples", .int(summary.newSamples)),
                ("duplicates", .int(summary.duplicates)),
                ("conflicts", .int(summary.conflicts)),
                ("verdict", .optional(assessment?.verdict ?? Verdict.inconclusive.rawValue)),
                ("reasons", .array((assessment?.reasons ?? []).map { .string($0) })),
            ]), headers: [("Location", "/api/v1/loggers/\(Station.pathSegment(loggerID))")])
    }

    /// The earliest read time an upload may give; the latest is a day after it arrived.
    static let earliestReadTime = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01T00:00:00Z

    /// `X-ColdTap-Read-Time`, if given: 400 when it is not a time, 422 when it is outside
    /// [2000-01-01, arrival + 1 day] (a phone's clock that is off, or a value made to overflow).
    static func readTime(_ request: HTTPRequest, arrival: Date) throws -> Date? {
        guard let text = request.header(UploadHeader.readTime) else { return nil }
        let latest = Date(timeIntervalSince1970: (arrival.timeIntervalSince1970 + 86_400).rounded(.down))
        guard let date = Station.parseTime(text) else {
            // A year of more than four digits, signed, or before the Gregorian calendar's (which
            // ISO 8601 times are read in): a time, but none a read can have.
            if Station.hasExpandedYear(text) || Int(text.prefix(4)).map({ $0 < 2000 && text.dropFirst(4).first == "-" }) == true {
                throw HTTPFailure(
                    422, "read time out of range",
                    "\(UploadHeader.readTime) '\(text.prefix(64))' is outside the times a read can have been made: from \(earliestReadTime.isoUTC) to \(latest.isoUTC) (a day after the station received it); check the reading device's clock."
                )
            }
            throw HTTPFailure.badRequest("\(UploadHeader.readTime) '\(text.prefix(64))' is not an ISO 8601 time with a zone, e.g. 2024-04-09T08:35:00Z.")
        }
        guard date >= earliestReadTime, date <= latest else {
            throw HTTPFailure(
                422, "read time out of range",
                "\(UploadHeader.readTime) \(date.isoUTC) is outside the times a read can have been made: from \(earliestReadTime.isoUTC) to \(latest.isoUTC) (a day after the station received it); check the reading device's clock."
            )
        }
        return date
    }

    /// ISO 8601's expanded form: a sign or more than four digits before the first `-`.
    static func hasExpandedYear(_ text: String) -> Bool {
        var scalars = Substring(text.trimmingCharacters(in: .whitespaces)).unicodeScalars[...]
        let signed = scalars.first == "+" || scalars.first == "-"
        if signed { scalars = scalars.dropFirst() }
        let digits = scalars.prefix { (0x30...0x39).contains($0.value) }
        return digits.count <= 40 && scalars.dropFirst(digits.count).first == "-" && (digits.count > 4 || (signed && digits.count == 4))
    }

    /// A logger id given with an upload joins only the logger the read is from: an id of the
    /// form `FORMAT:SERIAL` must be the read's own identity (else one site could take the id
    /// another logger's reads will carry), and a kept logger must carry the same identity.
    static func checkGivenID(_ givenID: String, agreesWith log: TemperatureLog, kept logger: LoggerRecord?) throws {
        let carried = Archive.loggerID(for: log)
        if givenID.contains(":"), givenID != carried {
            throw HTTPFailure(
                422, "logger id does not match the read",
                "\(UploadHeader.loggerID) '\(givenID)' has the form FORMAT:SERIAL, which is the id of the logger that carries it; this read "
                    + (carried.map { "carries \($0)" } ?? "carries no serial or tag UID")
                    + ". Name the logger without ':' (e.g. the label on it), or send no id.")
        }
        if let mismatch = StationStore.identityMismatch(of: logger, log: log) {
            throw HTTPFailure(
                422, "logger id does not match the read",
                "\(UploadHeader.loggerID) names another logger: \(mismatch). A read joins only its own logger's record; give this logger a name of its own.")
        }
    }

    /// The site's logger a read that gives no id belongs to.
    private func carriedLoggerID(_ log: TemperatureLog, site: StationSite) throws -> String {
        switch try pool.with({ try $0.loggerID(carriedBy: log, siteID: site.id) }) {
        case .none:
            throw HTTPFailure(
                422, "logger id needed",
                "this \(log.format) log names no logger (no serial, no tag UID), so the station cannot tell whose record it belongs to; send \(UploadHeader.loggerID) (e.g. the label on the logger)."
            )
        case .otherSite:
            throw Station.noSuchLoggerForUpload
        case .ambiguous(let identity, let names):
            throw HTTPFailure(
                422, "logger id needed",
                "this log is \(identity), and this site keeps that logger under \(names.count) names (\(names.joined(separator: ", "))), so the station cannot tell whose record this read belongs to; send \(UploadHeader.loggerID) with one of them."
            )
        case .site(let id), .new(let id):
            return id
        }
    }

    private func decodeBlocking(_ upload: Upload) throws -> NewRead {
        let (profile, zone) = (configuration.defaultProfile, configuration.timeZone)
        return try runBlocking { try await Station.decode(upload, profile: profile, timeZone: zone) }
    }

    // MARK: Reading

    static func limit(_ request: HTTPRequest, default value: Int, max: Int) throws -> Int {
        guard let text = request.query("limit") else { return value }
        guard let limit = Int(text), (1...max).contains(limit) else {
            throw HTTPFailure.badRequest("limit must be a whole number from 1 to \(max), not '\(text.prefix(32))'.")
        }
        return limit
    }

    /// `<path?query with cursor>; rel="next"`.
    static func nextLink(_ request: HTTPRequest, cursor: String) -> String {
        let query = request.query.filter { $0.0 != "cursor" } + [("cursor", cursor)]
        return "<\(Station.link(request, query: query))>; rel=\"next\""
    }

    // MARK: The record

    /// The record's checkpoint now, signed, and with `since=SIZE` the consistency proof from
    /// the tree of that size (a witness's older checkpoint) to it.
    private func checkpoint(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let head = recordHead.withLock({ $0 }) else {
            throw HTTPFailure(503, "unavailable", "this station keeps no signing key, so it signs no checkpoints (its operator can give it one).")
        }
        var since: Int?
        if let text = request.query("since") {
            guard let value = Int(text), value >= 0 else {
                throw HTTPFailure.badRequest("since must be the size of a checkpoint you hold, a whole number from 0, not '\(text.prefix(32))'.")
            }
            since = value
        }
        let (note, proof) = try pool.with { store -> (SignedNote, [[UInt8]]?) in
            // Refused before anything is signed: an answer that refuses changes nothing.
            let size = try store.archive.recordSize()
            if let since, since > size {
                throw HTTPFailure(
                    409, "conflict",
                    "the record holds \(size) leaves, fewer than the \(since) of the checkpoint you hold: this station no longer has everything it showed before."
                )
            }
            let note = try head.advance(store)
            try store.archive.keepCheckpoint(note)
            guard let since else { return (note, nil) }
            return (note, try store.archive.consistencyProof(from: since, to: try Checkpoint(text: note.text).treeSize))
        }
        let checkpoint = try Checkpoint(text: note.text)
        var members: [(String, JSONValue)] = [
            ("checkpoint", .string(note.formatted)), ("origin", .string(checkpoint.origin)), ("treeSize", .int(checkpoint.treeSize)),
            ("rootHash", .string(checkpoint.rootHash.hexString(uppercase: false))), ("publicKey", .string(head.signer.verifier.text)),
        ]
        if let since, let proof {
            members.append(
                (
                    "consistency",
                    .object([
                        ("from", .int(since)), ("to", .int(checkpoint.treeSize)), ("proof", .array(proof.map { .string($0.hexString(uppercase: false)) })),
                    ])
                ))
        }
        return .json(200, .object(members))
    }

    private func loggers(_ request: HTTPRequest, caller: Caller) throws -> HTTPResponse {
        let limit = try Station.limit(request, default: 100, max: 1000)
        let cursor = request.query("cursor")
        if let cursor, cursor.count > 400 { throw HTTPFailure.badRequest("the cursor is not one this station gave.") }
        let (summaries, more) = try pool.with { store -> ([LoggerSummary], Bool) in
            let ids = try store.loggerIDs(siteID: caller.site.id, after: cursor, limit: limit + 1)
            return (try ids.prefix(limit).compactMap { try store.summary(loggerID: $0) }, ids.count > limit)
        }
        let next = more ? summaries.last?.logger.id : nil
        return .json(
            200, .object([("loggers", .array(summaries.map { loggerJSON($0, site: caller.site) })), ("next", .optional(next))]),
            headers: next.map { [("Link", Station.nextLink(request, cursor: $0))] } ?? [])
    }

    private func period(_ request: HTTPRequest) throws -> (from: Date?, to: Date?) {
        func parse(_ name: String) throws -> Date? {
            guard let text = request.query(name) else { return nil }
            guard let date = Station.parseTime(text) ?? Station.parseDay(text) else {
                throw HTTPFailure.badRequest("\(name) '\(text.prefix(64))' is not a time; write it like 2024-04-09T08:35:00Z or 2024-04-09.")
            }
            return date
        }
        let period = (try parse("from"), try parse("to"))
        if let from = period.0, let to = period.1, from > to { throw HTTPFailure.badRequest("from is after to.") }
        return period
    }

    private func samples(_ request: HTTPRequest, loggerID: String) throws -> HTTPResponse {
        let accept = request.header("Accept")?.lowercased() ?? "*/*"
        let csv: Bool
        if accept.contains("text/csv") {
            csv = true
        } else if accept.contains("application/json") || accept.contains("*/*") || accept.contains("application/*") {
            csv = false
        } else {
            throw HTTPFailure(406, "not acceptable", "samples come as application/json or text/csv, not \(accept.prefix(80)).")
        }
        let period = try period(request)
        let limit = try Station.limit(request, default: 10_000, max: 100_000)
        var after: Int64?
        if let cursor = request.query("cursor") {
            guard let date = Station.parseTime(cursor) else { throw HTTPFailure.badRequest("the cursor is not one this station gave.") }
            after = Int64((date.timeIntervalSince1970 * 1000).rounded())
        }
        let rows = try pool.with {
            try $0.samples(
                loggerID: loggerID, from: period.from.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) },
                to: period.to.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }, after: after, limit: limit + 1)
        }
        let page = rows.prefix(limit)
        let next = rows.count > limit ? page.last?.sample.time.isoUTC : nil
        let link = next.map { [("Link", Station.nextLink(request, cursor: $0))] } ?? []
        if csv {
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/csv; charset=utf-8")] + link,
                body: Data(ArchiveJSON.samplesCSV(page).utf8))
        }
        return .json(
            200,
            .object([
                ("logger", .string(loggerID)),
                ("from", .optional(period.from?.isoUTC)), ("to", .optional(period.to?.isoUTC)),
                ("samples", .array(page.map(ArchiveJSON.sample))),
                ("next", .optional(next)),
            ]), headers: link)
    }

    private func report(_ request: HTTPRequest, loggerID: String, name: String, site: StationSite) throws -> HTTPResponse {
        guard name.hasPrefix("report."), let kind = ReportFileKind(rawValue: String(name.dropFirst("report.".count))), kind != .csv else {
            throw HTTPFailure.notFound("reports are report.pdf, report.html, report.png and report.svg.")
        }
        let period = try period(request)
        let query = ReportQuery(
            profile: try reportProfile(request.query("profile"), site: site), language: request.query("lang"),
            timeZone: try request.query("tz").map { try reportTimeZone($0) })
        let report = try pool.with { store in
            try RuleBook.loggerReport(
                loggerID: loggerID, from: period.from, to: period.to, profile: query.profile, defaultProfile: configuration.defaultProfile,
                timeZone: query.timeZone ?? configuration.timeZone, archive: store.archive, accounts: store)
        }
        guard !report.history.samples.isEmpty else {
            throw HTTPFailure.notFound("\(loggerID) has no samples" + (period.from != nil || period.to != nil ? " in that period." : "."))
        }
        // The record's checkpoint kept up after the last write, and the proofs of this
        // record's reads and acknowledgements under it.
        let record = try recordHead.withLock({ $0 }).map { head in
            try pool.with { store -> ReportArchiveSection.RecordEvidence in
                let note = try head.advance(store)
                try store.archive.keepCheckpoint(note)
                return try RecordEvidence.make(for: report.history, archive: store.archive, signer: head.signer, note: note).evidence
            }
        }
        var body = try Station.report(kind, report, language: query.language, record: record)
        if kind == .pdf, let identity = reportSigner.withLock({ $0 }) {
            // The PDF signed as a PDF (docs/pdf-signatures.md), its reason chosen by the rule book.
            do {
                body = try PDFSigner(identity: identity).sign(
                    body, reason: report.pdfSignatureReason(), name: identity.commonName, location: site.name, contactInfo: nil, at: Date())
            } catch {
                throw HTTPFailure(500, "internal error", "the station could not sign the report's PDF; its log says why.")
            }
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", kind.contentType)], body: body)
    }

    /// `?profile=NAME`: a built-in profile, `logger` (the logger's own limits) or one
    /// registered for the caller's site. Only names: nothing in a request names a file.
    func reportProfile(_ name: String?, site: StationSite) throws -> Profile? {
        guard let name else { return nil }
        guard SiteProfile.isValidName(name) else {
            throw HTTPFailure.badRequest(
                "profile is a profile's name (1 to 64 letters, digits, '.', '_' or '-'): a built-in one or one registered for this site.")
        }
        if let builtIn = Profile.builtIn(named: name.lowercased()) { return builtIn }
        if name.lowercased() == Profile.loggerLimitsName { return .loggerLimits }
        let registered = try pool.with { store -> (SiteProfile?, [String]) in
            guard let found = try store.siteProfile(siteID: site.id, name: name) else {
                return (nil, try store.siteProfiles(siteID: site.id).map(\.name))
            }
            return (found, [])
        }
        guard let profile = registered.0 else {
            let names = Profile.builtIn.map(\.name) + [Profile.loggerLimitsName] + registered.1
            throw HTTPFailure.badRequest("there is no profile '\(name)' for this site; it has \(names.joined(separator: ", ")).")
        }
        do {
            return try Profile.fromJSON(Data(profile.json.utf8))
        } catch {
            // Checked when it was added; `archive verify` names a profile changed since.
            throw HTTPFailure(
                503, "archive unavailable",
                "this site's profile '\(name)' no longer reads as a profile; the station's operator should run 'coldtap archive verify'.")
        }
    }

    /// `?tz=`: a zone of the system's list (any case), `UTC`, a known abbreviation or an offset
    /// (`+02:00`, `-0530`). The text is looked up in those lists, never handed to the system
    /// as a zone file's name.
    func reportTimeZone(_ text: String) throws -> TimeZone {
        if text.count <= 64 {
            if text == configuration.timeZone.identifier { return configuration.timeZone }
            if let name = TimeZone.knownTimeZoneIdentifiers.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }),
                let zone = TimeZone(identifier: name)
            {
                return zone
            }
            let upper = text.uppercased()
            if upper == "UTC" || upper == "GMT" || upper == "Z" { return TimeZone.utc }
            if TimeZone.abbreviationDictionary[upper] != nil, let zone = TimeZone(abbreviation: upper) { return zone }
            if let seconds = Station.offsetSeconds(text), let zone = TimeZone(secondsFromGMT: seconds) { return zone }
        }
        throw HTTPFailure.badRequest("tz '\(text.prefix(64))' is not a time zone; give an IANA name (Europe/Berlin), UTC, or an offset (+02:00).")
    }

    /// `+HH:MM`, `-HHMM` or `+HH` as seconds east of UTC (up to ±18 h), else `nil`.
    static func offsetSeconds(_ text: String) -> Int? {
        let scalars = Array(text.unicodeScalars)
        guard let sign = scalars.first, sign == "+" || sign == "-" else { return nil }
        let digits = scalars.dropFirst().filter { $0 != ":" }
        guard [2, 4].contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0.value) }),
            scalars.count == digits.count + 1 || (scalars.count == 6 && scalars[3] == ":")
        else { return nil }
        let numbers = digits.map { Int($0.value - 0x30) }
        let hours = numbers[0] * 10 + numbers[1], minutes = numbers.count == 4 ? numbers[2] * 10 + numbers[3] : 0
        guard hours <= 18, minutes <= 59 else { return nil }
        return (hours * 3600 + minutes * 60) * (sign == "-" ? -1 : 1)
    }

    // MARK: Acknowledgements

    private func acknowledge(_ request: HTTPRequest, loggerID: String, caller: Caller) throws -> HTTPResponse {
        let object = try Station.jsonObject(
            request,
            shape:
                "{\"excursion\": \"START-TIME\", \"by\": \"NAME\", \"comment\": \"TEXT\"} (and \"again\": true for a follow-up; once the station has users, \"user\" and \"password\" instead of \"by\")"
        )
        guard let startText = object["excursion"] as? String, let start = Station.parseTime(startText) else {
            throw HTTPFailure.badRequest("\"excursion\" must be the excursion's start as an ISO 8601 time with a zone.")
        }
        // Once the station has users an acknowledgement is a signature: a name and password.
        let signer =
            try pool.with({ try $0.hasUsers() })
            ? try self.signer(caller, name: object["user"] as? String, password: object["password"] as? String) : nil
        let ack = try recordAcknowledgement(
            loggerID: loggerID, excursionStart: start, by: object["by"] as? String,
            comment: object["comment"] as? String, again: object["again"] as? Bool == true, caller: caller, signer: signer)
        return .json(201, .object([("acknowledgement", ArchiveJSON.acknowledgement(ack, loggerID: loggerID))]))
    }

    /// Keeps an acknowledgement of the excursion of `loggerID` starting near `excursionStart`
    /// and tells the site's webhooks: the one rule of the API and the logger page's form.
    /// With `signer` it is their electronic signature (meaning `acknowledged`), kept with the
    /// acknowledgement in one transaction; the name shown is theirs, not a typed one.
    /// The caller's scope and site were checked by the route.
    /// - Throws: `HTTPFailure`: 400 for a missing name or comment, 422 for no such excursion,
    ///   409 for one acknowledged already (unless `again`).
    func recordAcknowledgement(
        loggerID: String, excursionStart start: Date, by: String?, comment: String?, again: Bool,
        caller: Caller, signer: StationUser? = nil
    ) throws -> Acknowledgement {
        let request = AcknowledgementRequest(
            loggerID: loggerID, excursionStart: start, by: by, comment: comment, again: again, signer: signer, session: caller.session,
            defaultProfile: configuration.defaultProfile, timeZone: configuration.timeZone)
        let ack: Acknowledgement
        do {
            ack = try pool.with { store -> Acknowledgement in
                let ack = try RuleBook.acknowledgeExcursion(request, archive: store.archive, accounts: store)
                if signer != nil { signRecord(store) }
                return ack
            }
        } catch let error as AcknowledgementError {
            throw Station.failure(error)
        }
        webhooks.send(
            type: "acknowledgement", siteID: caller.site.id,
            members: [("site", .string(caller.site.name)), ("acknowledgement", ArchiveJSON.acknowledgement(ack, loggerID: loggerID))])
        return ack
    }

    // MARK: JSON

    func loggerJSON(_ summary: LoggerSummary, site: StationSite) -> JSONValue {
        ArchiveJSON.logger(summary, site: site.name)
    }

    static func parseTime(_ text: String) -> Date? {
        guard text.count <= 64 else { return nil }
        return ISO8601Time.parse(text)
    }

    static func parseDay(_ text: String) -> Date? {
        guard text.count == 10 else { return nil }
        return CalendarDay.parse(text, in: .utc)
    }
}
