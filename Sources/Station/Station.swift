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
    let batcher: WriteBatcher
    /// Signs the record's checkpoints; `nil` when the station has no key.
    let recordHead: LockedValue<RecordHead?>
    /// Signs report PDFs (set by `start()`).
    let reportSigner = LockedValue<PDFSigningIdentity?>(nil)
    /// Folds the leaves a write appended into the record's checkpoint (after each upload
    /// batch, and after a lot's write).
    let signRecord: @Sendable (StationStore) -> Void
    /// The route table (`Station.routes`), made once when the station is.
    private(set) var router = StationRouter()

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
        router = Station.routes(self)
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

        /// Who did something, as the record says it (`RecordActor`): the signed-in user; for
        /// a token, the user it was made for (`tokenUser`) with the token and its device, else
        /// the token with its device.
        func actor(tokenUser: StationUser?) -> RecordActor {
            if let user { return .user(name: user.name) }
            let id = token?.id ?? 0
            if let tokenUser { return .user(name: tokenUser.name, tokenID: id, device: token?.device) }
            return .token(id: id, device: token?.device)
        }
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
        let resolution = request.pathSegments.map { router.resolve(method: request.method, path: $0) } ?? .notFound
        let route: String
        switch resolution {
        case .notFound: route = "other"
        case .methodNotAllowed(let label, _): route = label
        case .found(let found, _): route = found.label
        }
        var caller: Caller? = preset
        var response: HTTPResponse
        var internalError: String?
        do {
            // A name never holds a control character: `fridge%00x` is not `fridge` (issue 43).
            if let segments = request.pathSegments, segments.contains(where: { RequestText.hasControlCharacter($0, allowingLineBreaks: false) }) {
                throw HTTPFailure.badRequest("the path holds a control character (such as %00); no name has one.")
            }
            response = try answer(request, resolution, caller: &caller)
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
        var detail = response.status >= 400 ? ErrorBody.read(response.body)?.error : nil
        if let internalError { detail = (detail ?? "") + ": " + internalError }
        log.write(
            method: request.method, path: request.path, route: route, status: response.status, milliseconds: seconds * 1000,
            bytesIn: request.body.count, bytesOut: response.body.count, site: caller?.site.name, tokenID: caller?.token?.id,
            detail: detail)
        return response
    }

    /// The route's answer: its method (405), who asks (401, 403, or a page's sign-in), then
    /// its handler with the caller found.
    private func answer(_ request: HTTPRequest, _ resolution: StationRouter.Resolution, caller: inout Caller?) throws -> HTTPResponse {
        if request.bodyTooLarge {
            throw HTTPFailure(413, "body too large", "the body is over the station's limit of \(configuration.http.maxBody) bytes (set by its operator).")
        }
        let (route, parameters): (Route, PathParameters)
        switch resolution {
        case .notFound:
            throw HTTPFailure.notFound("there is no such path on this station; the API is under /api/v1 (README, \"Station\").")
        case .methodNotAllowed(_, let allowed):
            let methods = allowed.joined(separator: " and ")
            throw HTTPFailure(
                405, "method not allowed", "\(request.path) answers \(methods), not \(request.method.prefix(16)).",
                headers: [("Allow", allowed.joined(separator: ", "))])
        case .found(let found, let values):
            (route, parameters) = (found, values)
        }
        switch route.access {
        case .open:
            break
        case .stationOperator:
            let token = try authenticate(request)
            guard token.scope == .operator else {
                throw HTTPFailure(
                    403, "forbidden", "the metrics are the station's, not a site's: they need the station operator's token (a token of the operator scope).")
            }
        case .site(let scope):
            let who = try caller ?? siteCaller(request)
            caller = who
            try require(who, scope)
        case .page, .auditReaders:
            guard let who = try sessionCaller(request) else { return try signInFirst(request) }
            caller = who
            if route.access == .auditReaders, !Station.mayReadAudit(who) {
                throw HTTPFailure(403, "forbidden", "the audit trail is for the site's admins and reviewers.")
            }
        }
        let context = RequestContext(request: request, parameters: parameters, caller: caller)
        defer { caller = context.caller }
        return try route.handler(context)
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

    func authenticate(_ request: HTTPRequest) throws -> StationToken {
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
    func siteCaller(_ request: HTTPRequest) throws -> Caller {
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

    /// Keeps an acknowledgement of the excursion of `loggerID` starting near `excursionStart`
    /// and tells the site's webhooks: the one rule of the API and the logger page's form.
    /// With `signer` it is their electronic signature (meaning `acknowledged`), kept with the
    /// acknowledgement in one transaction; the name shown is theirs, not a typed one.
    /// The caller's scope and site were checked by the route.
    /// - Throws: `HTTPFailure`: 400 for a missing name or comment, 422 for no such excursion,
    ///   409 for one acknowledged already (unless `again`), worded by `refusal` (the API's
    ///   words unless a page gives its own).
    func recordAcknowledgement(
        loggerID: String, excursionStart start: Date, by: String?, comment: String?, again: Bool,
        caller: Caller, signer: StationUser? = nil, refusal: (AcknowledgementError) -> HTTPFailure = Station.failure
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
            throw refusal(error)
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
