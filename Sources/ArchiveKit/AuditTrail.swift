import Archive
import ColdTapBase
import ColdTapKit
import Foundation
import JSONOutput

/// A site's audit trail (docs/accounts.md, "The audit trail"): every event of the site the
/// record holds — uploads, acknowledgements, signatures, sign-ins and their failures, user
/// and token changes, profile changes with their old and new values — as one list, newest
/// first, for the station's page and its CSV and JSON downloads.
public struct AuditEntry: Sendable, Equatable {
    public var time: Date
    /// Who did it: a user's name, a typed name (acknowledgements before users), a token,
    /// the command line's operating-system user, or the station.
    public var who: String
    /// The kind, a fixed word: `upload`, `acknowledgement`, `signature`, `sign_in`, …
    public var kind: String
    public var logger: String?
    /// What happened, in words.
    public var what: String
    /// Why, where it was said: a comment, a failure's reason.
    public var why: String?
    /// A change's values before and after.
    public var old: String?
    public var new: String?
    /// The user the event is of or by, for the user filter.
    public var user: String?
}

public struct AuditFilter: Sendable, Equatable {
    public var user: String?
    public var logger: String?
    public var from: Date?
    public var to: Date?

    public init(user: String? = nil, logger: String? = nil, from: Date? = nil, to: Date? = nil) {
        self.user = user
        self.logger = logger
        self.from = from
        self.to = to
    }

    func admits(_ entry: AuditEntry) -> Bool {
        if let user, entry.user != user { return false }
        if let logger, entry.logger != logger { return false }
        if let from, entry.time < from { return false }
        if let to, entry.time >= to { return false }
        return true
    }
}

public enum AuditTrail {
    /// The site's events that `filter` admits, newest first.
    public static func entries(store: StationStore, site: StationSite, filter: AuditFilter = AuditFilter()) throws -> [AuditEntry] {
        let users = Dictionary(try store.users(siteID: site.id).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func name(_ id: Int64?) -> String? { id.flatMap { users[$0]?.name } }
        var entries: [AuditEntry] = []
        for event in try store.accountEvents(siteID: site.id) {
            entries.append(accountEntry(event, user: name(event.userID)))
        }
        let tokens = try store.tokens().filter { $0.site?.id == site.id }
        let tokenByID = Dictionary(tokens.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for upload in try store.uploads(siteID: site.id) {
            let device = upload.device ?? tokenByID[upload.tokenID]?.device
            let by = name(upload.userID)
            entries.append(
                AuditEntry(
                    time: upload.uploaded, who: by ?? "token #\(upload.tokenID)", kind: "upload", logger: upload.loggerID,
                    what: "read #\(upload.readID) uploaded\(upload.newRead ? "" : " again (already kept)") with token #\(upload.tokenID)"
                        + (device.map { " from \($0)" } ?? ""),
                    user: by))
        }
        let signatures = try store.signatures(siteID: site.id)
        let signedAcks = Set(signatures.compactMap { signature in signature.acknowledgementID.map { "\(signature.loggerID)/\($0)" } })
        for signature in signatures {
            let period = signature.subject == .review ? "\(signature.from.isoUTC) – \(signature.to.isoUTC)" : "the excursion from \(signature.from.isoUTC)"
            entries.append(
                AuditEntry(
                    time: signature.signed, who: "\(signature.printedName) (\(signature.userName), \(signature.role.rawValue))", kind: "signature",
                    logger: signature.loggerID,
                    what: "signed \(signature.meaning.rawValue): \(signature.subject.rawValue) of \(period), statement SHA-256 \(signature.statementSHA256)",
                    why: signature.comment, user: signature.userName))
        }
        for (loggerID, ack) in try store.siteAcknowledgements(siteID: site.id) where !signedAcks.contains("\(loggerID)/\(ack.id)") {
            entries.append(
                AuditEntry(
                    time: ack.at, who: ack.by, kind: "acknowledgement", logger: loggerID,
                    what: "acknowledged the excursion from \(ack.excursionStart.isoUTC) (a typed name, no signature)", why: ack.comment))
        }
        for token in tokens {
            let owner = name(token.createdByUser)
            let made =
                "token #\(token.id) made with the \(token.scope.rawValue) scope" + (token.device.map { " for the device \($0)" } ?? "")
                + (owner.map { " of \($0)" } ?? "") + (token.expires.map { ", until \($0.isoUTC)" } ?? "")
            entries.append(AuditEntry(time: token.created, who: owner ?? "operator", kind: "token_created", what: made, user: owner))
            if let revoked = token.revoked {
                entries.append(AuditEntry(time: revoked, who: "operator", kind: "token_revoked", what: "token #\(token.id) revoked", user: owner))
            }
        }
        var previous: [String: SiteProfile] = [:]
        for profile in try store.siteProfiles(siteID: site.id).sorted(by: { ($0.name, $0.version) < ($1.name, $1.version) }) {
            let before = previous[profile.name]
            let changed = changedValues(from: before?.json, to: profile.json)
            entries.append(
                AuditEntry(
                    time: profile.added, who: profile.addedBy, kind: "profile",
                    what: before == nil ? "profile \(profile.name) added (v\(profile.version))" : "profile \(profile.name) changed to v\(profile.version)",
                    old: before == nil ? nil : changed.old, new: changed.new))
            previous[profile.name] = profile
        }
        for webhook in try store.webhooks(siteID: site.id) {
            guard let created = webhook.created else { continue }
            entries.append(AuditEntry(time: created, who: "operator", kind: "webhook", what: "webhook #\(webhook.id) added: \(webhook.url)"))
        }
        return entries.filter(filter.admits).sorted { ($0.time, $0.kind) > ($1.time, $1.kind) }
    }

    static func accountEntry(_ event: AccountEvent, user: String?) -> AuditEntry {
        let detail = event.detail
        let subject = user ?? detail["name"] ?? "an unknown name"
        let what: String
        var why: String?
        var old: String?
        var new: String?
        switch event.kind {
        case .userAdded: (what, new) = ("user \(subject) added", detail["role"])
        case .roleChanged: (what, old, new) = ("role of \(subject) changed", detail["old_role"], detail["role"])
        case .passwordSet: what = "password of \(subject) set"
        case .passwordReset: what = "password of \(subject) reset (a new set-up link)"
        case .disabled: what = "user \(subject) disabled"
        case .signIn:
            what = detail["purpose"] == "signature" ? "\(subject) gave the password for a signature" : "\(subject) signed in (\(detail["purpose"] ?? "web"))"
        case .signInFailed: (what, why) = ("sign-in of \(subject) refused (\(detail["purpose"] ?? "web"))", detail["reason"])
        case .locked:
            let until = detail["until_ms"].flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000).isoUTC } ?? "?"
            (what, why) = ("account \(subject) locked until \(until)", "\(detail["failures"] ?? "?") wrong passwords in a row")
        case .signedOut: what = "\(subject) signed out"
        case .sessionsEnded: (what, why) = ("\(detail["sessions"] ?? "") session(s) of \(subject) ended", detail["reason"])
        }
        let who = event.actor.hasPrefix("user:") ? String(event.actor.dropFirst(5)) : event.actor
        return AuditEntry(time: event.at, who: who, kind: event.kind.rawValue, what: what, why: why, old: old, new: new, user: user)
    }

    /// The values a JSON document's change touched, flattened to `path=value` lines: what
    /// the older text had there and what the newer has.
    static func changedValues(from older: String?, to newer: String) -> (old: String, new: String) {
        func flat(_ text: String?) -> [String: String] {
            guard let text, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else { return [:] }
            var out: [String: String] = [:]
            func walk(_ value: Any, _ path: String) {
                if let dictionary = value as? [String: Any] {
                    for (key, inner) in dictionary { walk(inner, path.isEmpty ? key : path + "." + key) }
                } else if let array = value as? [Any] {
                    for (index, inner) in array.enumerated() { walk(inner, "\(path)[\(index)]") }
                } else {
                    out[path] = "\(value)"
                }
            }
            walk(object, "")
            return out
        }
        let before = flat(older)
        let after = flat(newer)
        let paths = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        return (
            paths.compactMap { path in before[path].map { "\(path)=\($0)" } }.joined(separator: "\n"),
            paths.compactMap { path in after[path].map { "\(path)=\($0)" } }.joined(separator: "\n")
        )
    }

    /// The entries as CSV (RFC 4180); a field a spreadsheet would take for a formula starts
    /// with an apostrophe.
    public static func csv(_ entries: [AuditEntry]) -> String {
        func field(_ text: String?) -> String {
            guard var text else { return "" }
            if let first = text.first, "=+-@\t\r".contains(first) { text = "'" + text }
            return LogExport.csvField(text)
        }
        var lines = ["time,who,kind,logger,what,why,old,new"]
        for entry in entries {
            lines.append(
                [entry.time.isoUTC, entry.who, entry.kind, entry.logger, entry.what, entry.why, entry.old, entry.new].map(field).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    public static func json(_ entries: [AuditEntry], site: StationSite) -> JSONValue {
        .object([
            ("site", .string(site.name)),
            (
                "events",
                .array(
                    entries.map { entry in
                        .object([
                            ("time", .string(entry.time.isoUTC)), ("who", .string(entry.who)), ("kind", .string(entry.kind)),
                            ("logger", .optional(entry.logger)), ("what", .string(entry.what)), ("why", .optional(entry.why)),
                            ("old", .optional(entry.old)), ("new", .optional(entry.new)),
                        ])
                    })
            ),
        ])
    }
}
