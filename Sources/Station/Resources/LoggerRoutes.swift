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

/// A site's loggers, their samples, reports, signatures and acknowledgements.
struct LoggerRoutes: RouteCollection {
    unowned let station: Station

    func register(in router: inout StationRouter) {
        router.get("/api/v1/loggers", .site(.read)) { context in
            try loggers(context.request, query: context.request.typedQuery(PageQuery.self), caller: context.requireCaller())
        }
        router.get("/api/v1/loggers/{id}", .site(.read)) { context in
            let (loggerID, caller) = try owned(context)
            _ = try context.request.typedQuery(NoFields.self)
            guard let summary = try station.pool.with({ try $0.summary(loggerID: loggerID) }) else { throw Station.noSuchLogger }
            return .json(200, station.loggerJSON(summary, site: caller.site))
        }
        router.get("/api/v1/loggers/{id}/samples", .site(.read)) { context in
            let (loggerID, _) = try owned(context)
            return try samples(context.request, query: context.request.typedQuery(SamplesQuery.self), loggerID: loggerID)
        }
        router.get("/api/v1/loggers/{id}/report.{kind}", .site(.read), label: "/api/v1/loggers/{id}/report") { context in
            let (loggerID, caller) = try owned(context)
            let kind = try context.parameters.require("kind", as: ReportFile.self).kind
            return try report(context.request.typedQuery(ReportQueryFields.self), loggerID: loggerID, kind: kind, site: caller.site)
        }
        router.get("/api/v1/loggers/{id}/epcis", .site(.read)) { context in
            let (loggerID, caller) = try owned(context)
            return try epcis(context.request.typedQuery(EPCISQuery.self), loggerID: loggerID, site: caller.site)
        }
        router.get("/api/v1/loggers/{id}/signatures", .site(.read)) { context in
            let (loggerID, _) = try owned(context)
            _ = try context.request.typedQuery(NoFields.self)
            return try station.signatures(loggerID: loggerID)
        }
        router.post("/api/v1/loggers/{id}/acknowledgements", .site(.upload)) { context in
            let (loggerID, caller) = try owned(context)
            _ = try context.request.typedQuery(NoFields.self)
            return try acknowledge(context.request.jsonBody(AcknowledgementBody.self), loggerID: loggerID, caller: caller)
        }
    }

    /// The path's logger, when it is the caller's site's: another site's is answered as an
    /// unknown one.
    private func owned(_ context: RequestContext) throws -> (String, Station.Caller) {
        let caller = try context.requireCaller()
        let loggerID = try context.parameters.require("id", as: String.self)
        guard try station.pool.with({ try $0.siteID(ofLogger: loggerID) }) == caller.site.id else { throw Station.noSuchLogger }
        return (loggerID, caller)
    }
}

extension LoggerRoutes {
    func loggers(_ request: HTTPRequest, query: PageQuery, caller: Caller) throws -> HTTPResponse {
        let limit = try Station.limit(query.limit, default: 100, max: 1000)
        let cursor = query.cursor
        if let cursor, cursor.count > 400 { throw HTTPFailure.badRequest("the cursor is not one this station gave.") }
        let (summaries, more) = try pool.with { store -> ([LoggerSummary], Bool) in
            let ids = try store.loggerIDs(siteID: caller.site.id, after: cursor, limit: limit + 1)
            return (try ids.prefix(limit).compactMap { try store.summary(loggerID: $0) }, ids.count > limit)
        }
        let next = more ? summaries.last?.logger.id : nil
        return .json(
            200, .object([("loggers", .array(summaries.map { station.loggerJSON($0, site: caller.site) })), ("next", .optional(next))]),
            headers: next.map { [("Link", Station.nextLink(request, cursor: $0))] } ?? [])
    }

    private func period(from: String?, to: String?) throws -> (from: Date?, to: Date?) {
        func parse(_ name: String) throws -> Date? {
            guard let text = name == "from" ? from : to else { return nil }
            guard let date = Station.parseTime(text) ?? Station.parseDay(text) else {
                throw HTTPFailure.badRequest("\(name) '\(text.prefix(64))' is not a time; write it like 2024-04-09T08:35:00Z or 2024-04-09.")
            }
            return date
        }
        let period = (try parse("from"), try parse("to"))
        if let from = period.0, let to = period.1, from > to { throw HTTPFailure.badRequest("from is after to.") }
        return period
    }

    /// The logger's record of a period as an EPCIS 2.0 document (`coldtap export epcis`), read
    /// at the caller's site.
    func epcis(_ query: EPCISQuery, loggerID: String, site: StationSite) throws -> HTTPResponse {
        let period = try period(from: query.from, to: query.to)
        let document = try pool.with { store in
            let request = EPCISExport.LoggerRequest(
                loggerID: loggerID, from: period.from, to: period.to, names: try EPCISExport.Names.of(site: site, in: store))
            return try EPCISExport.loggerDocument(request, archive: store.archive, signatures: try store.signatures(loggerID: loggerID))
        }
        return .jsonLD(document)
    }

    func samples(_ request: HTTPRequest, query: SamplesQuery, loggerID: String) throws -> HTTPResponse {
        let accept = request.header("Accept")?.lowercased() ?? "*/*"
        let csv: Bool
        if accept.contains("text/csv") {
            csv = true
        } else if accept.contains("application/json") || accept.contains("*/*") || accept.contains("application/*") {
            csv = false
        } else {
            throw HTTPFailure(406, "not acceptable", "samples come as application/json or text/csv, not \(accept.prefix(80)).")
        }
        let period = try period(from: query.from, to: query.to)
        let limit = try Station.limit(query.limit, default: 10_000, max: 100_000)
        var after: Int64?
        if let cursor = query.cursor {
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

    func report(_ fields: ReportQueryFields, loggerID: String, kind: ReportFileKind, site: StationSite) throws -> HTTPResponse {
        let period = try period(from: fields.from, to: fields.to)
        let query = ReportQuery(
            profile: try station.reportProfile(fields.profile, site: site), language: fields.lang,
            timeZone: try fields.tz.map { try station.reportTimeZone($0) })
        let report = try pool.with { store in
            try RuleBook.loggerReport(
                loggerID: loggerID, from: period.from, to: period.to, profile: query.profile, defaultProfile: configuration.defaultProfile,
                timeZone: query.timeZone ?? configuration.timeZone, archive: store.archive, accounts: store)
        }
        guard !report.history.isEmpty else {
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

    func acknowledge(_ body: AcknowledgementBody, loggerID: String, caller: Caller) throws -> HTTPResponse {
        guard let start = Station.parseTime(body.excursion) else {
            throw HTTPFailure.badRequest("\"excursion\" must be the excursion's start as an ISO 8601 time with a zone.")
        }
        // Once the station has users an acknowledgement is a signature: a name and password.
        let signer =
            try pool.with({ try $0.hasUsers() })
            ? try station.signer(caller, name: body.user, password: body.password) : nil
        let ack = try station.recordAcknowledgement(
            loggerID: loggerID, excursionStart: start, by: body.by, comment: body.comment, again: body.again == true, caller: caller, signer: signer)
        return .json(201, .object([("acknowledgement", ArchiveJSON.acknowledgement(ack, loggerID: loggerID))]))
    }
}

extension Station {
    static func limit(_ text: String?, default value: Int, max: Int) throws -> Int {
        guard let text else { return value }
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
}
