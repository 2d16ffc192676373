import Archive
import ArchiveKit
import ColdTapBase
import Foundation

/// `/audit`: the site's audit trail for its admins and reviewers (docs/accounts.md), with
/// filters by user, logger and time, and the same list as CSV and JSON.
extension Station {
    /// Admins and reviewers read the audit trail; before users, an admin token's session.
    static func mayReadAudit(_ caller: Caller?) -> Bool {
        guard let caller else { return false }
        return caller.user.map { $0.role >= .reviewer } ?? (caller.scope >= .admin)
    }

    /// Entries shown on the page at most (the downloads hold them all).
    static let listedAuditEntries = 500

    func auditPage(_ context: WebContext, query: AuditQuery, format: String?) throws -> HTTPResponse {
        guard let caller = context.caller, Station.mayReadAudit(caller) else {
            throw HTTPFailure(403, "forbidden", "the audit trail is for the site's admins and reviewers.")
        }
        let request = context.request
        func day(_ name: String, end: Bool) throws -> Date? {
            guard let text = name == "from" ? query.from : query.to, !text.isEmpty else { return nil }
            guard let time = Station.parsePageTime(text, zone: context.zone, endOfDay: end) else {
                throw HTTPFailure.badRequest("\(name) '\(text.prefix(40))' is not a day (2024-04-09) or a time (2024-04-09T08:35:00Z).")
            }
            return time
        }
        let filter = AuditFilter(
            user: query.user.flatMap { $0.isEmpty ? nil : $0 }, logger: query.logger.flatMap { $0.isEmpty ? nil : $0 },
            from: try day("from", end: false), to: try day("to", end: true))
        let entries = try pool.with { try AuditTrail.entries(store: $0, site: caller.site, filter: filter) }
        switch format {
        case "audit.csv":
            return HTTPResponse(
                status: 200,
                headers: [
                    ("Content-Type", "text/csv; charset=utf-8"), ("Content-Disposition", "attachment; filename=\"audit.csv\""), ("Cache-Control", "no-store"),
                ], body: Data(AuditTrail.csv(entries).utf8))
        case "audit.json":
            return .json(200, AuditTrail.json(entries, site: caller.site))
        default:
            break
        }
        let words = context.text.accounts
        let f = context.formatter
        var body = "<h1>\(HTML.escape(words.audit))</h1><p class=\"muted\">\(HTML.escape(words.auditHint))</p>"
        body += "<form method=\"get\" action=\"/audit\" class=\"inline filters\">"
        for (name, label, type) in [
            ("user", words.userLabel, "text"), ("logger", words.logger, "text"), ("from", context.text.from, "date"), ("to", context.text.to, "date"),
        ] {
            body +=
                "<label>\(HTML.escape(label)) <input type=\"\(type)\" name=\"\(name)\" value=\"\(HTML.escape(request.query(name) ?? ""))\" maxlength=\"200\"></label> "
        }
        body += "<button type=\"submit\">\(HTML.escape(words.filter))</button></form>"
        let query = Station.query(request.query.filter { ["user", "logger", "from", "to"].contains($0.0) })
        body += "<p class=\"noprint\"><a href=\"/audit.csv\(HTML.escape(query))\">CSV</a> · <a href=\"/audit.json\(HTML.escape(query))\">JSON</a></p>"
        guard !entries.isEmpty else { return page(context, status: 200, title: words.audit, body: body + "<p>\(HTML.escape(words.noEvents))</p>") }
        body += "<div class=\"scroll\"><table class=\"audit\"><thead><tr><th>\(HTML.escape(words.when))</th><th>\(HTML.escape(words.who))</th>"
        body += "<th>\(HTML.escape(words.what))</th><th>\(HTML.escape(words.logger))</th><th>\(HTML.escape(words.why))</th></tr></thead><tbody>"
        for entry in entries.prefix(Station.listedAuditEntries) {
            body +=
                "<tr class=\"k-\(HTML.escape(entry.kind))\"><td class=\"nowrap\"><time datetime=\"\(entry.time.isoUTC)\">\(HTML.escape(f.dateTime(entry.time)))</time></td>"
            // Times inside the words are shown as "When" is: in the page's zone.
            let what = entry.what.parts.map { part -> String in
                switch part {
                case .text(let words): return HTML.escape(words)
                case .time(let time): return "<time datetime=\"\(time.isoUTC)\">\(HTML.escape(f.dateTime(time)))</time>"
                }
            }.joined()
            body += "<td>\(HTML.escape(entry.who))</td><td>\(what)"
            if entry.old != nil || entry.new != nil {
                body += "<br><span class=\"muted\">\(HTML.escape(entry.old ?? "–")) → \(HTML.escape(entry.new ?? "–"))</span>"
            }
            body += "</td><td>\(entry.logger.map { "<a href=\"\(HTML.escape(Station.loggerLink($0)))\">\(HTML.escape($0))</a>" } ?? "")</td>"
            body += "<td>\(HTML.escape(entry.why ?? ""))</td></tr>"
        }
        body += "</tbody></table></div>"
        if entries.count > Station.listedAuditEntries {
            body += "<p class=\"muted\">\(entries.count - Station.listedAuditEntries) more in the CSV and JSON.</p>"
        }
        return page(context, status: 200, title: words.audit, body: body)
    }
}
