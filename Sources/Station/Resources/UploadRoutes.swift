import Archive
import ArchiveKit
import ColdChain
import ColdTapBase
import ColdTapKit
import Foundation
import JSONOutput
import LoggerFormats
import TransparencyLog

/// Reads uploaded.
struct UploadRoutes: RouteCollection {
    unowned let station: Station

    func register(in router: inout StationRouter) {
        router.post("/api/v1/reads", .site(.upload)) { context in
            _ = try context.request.typedQuery(NoFields.self)
            return try upload(context.request, caller: context.requireCaller())
        }
    }
}

extension UploadRoutes {
    func upload(_ request: HTTPRequest, caller: Caller) throws -> HTTPResponse {
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
        var read: NewRead
        do {
            read = try decodeBlocking(upload)
        } catch let rejection as UploadRejection where rejection.needsLoggerTimeZone {
            // No zone sent: the site's setting, asked for only by a read that needs one.
            guard let setting = try pool.with({ try $0.loggerTimeZone(siteID: site.id) }),
                let zone = ArchivedReads.zone(fromText: setting.zone)
            else { throw rejection }
            upload.siteLoggerTimeZone = zone
            read = try decodeBlocking(upload)
        }
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
                    ("site", .string(site.name)), ("logger", station.loggerJSON(logger, site: site)), ("read", readJSON),
                    ("verdict", .string(Verdict.alarm.rawValue)), ("reasons", .array((assessment?.reasons ?? []).map { .string($0) })),
                ])
        }
        return .json(
            status,
            .object([
                ("read", readJSON),
                ("logger", station.loggerJSON(logger, site: site)),
                ("newSamples", .int(summary.newSamples)),
                ("duplicates", .int(summary.duplicates)),
                ("conflicts", .int(summary.conflicts)),
                ("verdict", .optional(assessment?.verdict ?? Verdict.inconclusive.rawValue)),
                ("reasons", .array((assessment?.reasons ?? []).map { .string($0) })),
            ]), headers: [("Location", "/api/v1/loggers/\(Station.pathSegment(loggerID))")])
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
}

extension Station {
    /// A read is its bytes; `application/x-www-form-urlencoded` is what `curl --data-binary`
    /// and URLSession send when not told, so it is taken as bytes too.
    static let acceptedUploadTypes: Set<String> = [
        "application/octet-stream", "text/plain", "text/uri-list", "application/x-ndef",
        "application/x-www-form-urlencoded",
    ]

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
}
