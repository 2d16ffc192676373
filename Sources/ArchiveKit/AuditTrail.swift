import Archive
import ColdTapBase
import ColdTapKit
import Foundation
import JSONOutput

/// Words of an audit entry with the times in them kept as times, so that each front end
/// shows them in its own zone (the page in the station's, the JSON and CSV in UTC).
public struct AuditText: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public enum Part: Sendable, Equatable {
        case text(String)
        case time(Date)
    }

    public var parts: [Part]

    public init(stringLiteral value: String) { parts = [.text(value)] }

    public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) { append(literal) }

        /// A time: kept as a time.
        public mutating func appendInterpolation(_ time: Date) { parts.append(.time(time)) }

        public mutating func appendInterpolation(_ text: AuditText) {
            for part in text.parts { if case .text(let words) = part { append(words) } else { parts.append(part) } }
        }

        public mutating func appendInterpolation(_ value: some CustomStringConvertible) { append(value.description) }

        private mutating func append(_ text: String) {
            guard !text.isEmpty else { return }
            if case .text(let before)? = parts.last {
                parts[parts.count - 1] = .text(before + text)
            } else {
                parts.append(.text(text))
            }
        }
    }

    public static func + (lhs: AuditText, rhs: AuditText) -> AuditText { "\(lhs)\(rhs)" }

    /// The words with each time written by `time`.
    public func rendered(time: (Date) -> String) -> String {
        parts.map { part in
            switch part {
            case .text(let words): return words
            case .time(let date): return time(date)
            }
        }.joined()
    }

    /// As the JSON and the CSV keep it: times in ISO 8601, UTC.
    public var description: String { rendered(time: \.isoUTC) }
}

/// A site's audit trail (docs/accounts.md, "The audit trail"): every event of the site the
/// record holds — uploads, acknowledgements, signatures, sign-ins and their failures, user
/// and token changes, profile changes with their old and new values, loggers joining and
/// their decode secrets, products its lots are judged by, lots, their moves and closes — as
/// one list, newest first, for the station's page and its CSV and JSON downloads.
public struct AuditEntry: Sendable, Equatable {
    public var time: Date
    /// Who did it: a user's name, a typed name (acknowledgements before users), a token,
    /// the command line's operating-system user, or the station.
    public var who: String
    /// The kind, a fixed word: `upload`, `acknowledgement`, `signature`, `sign_in`, `lot`, …
    public var kind: String
    public var logger: String?
    /// What happened, in words; the times in it are kept as times.
    public var what: AuditText
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
                    what:
                        "read #\(upload.readID) uploaded\(upload.newRead ? "" : " again (already kept)") with token #\(upload.tokenID)\(device.map { " from \($0)" } ?? "")",
                    user: by))
        }
        let signatures = try store.signatures(siteID: site.id)
        let signedAcks = Set(signatures.compactMap { signature in signature.acknowledgementID.map { "\(signature.loggerID)/\($0)" } })
        for signature in signatures {
            let period: AuditText =
                signature.subject == .review ? "\(signature.from) – \(signature.to)" : "the excursion from \(signature.from)"
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
                    what: "acknowledged the excursion from \(ack.excursionStart) (a typed name, no signature)", why: ack.comment))
        }
        for token in tokens {
            let owner = name(token.createdByUser)
            let until: AuditText = token.expires.map { ", until \($0)" } ?? ""
            let made: AuditText =
                "token #\(token.id) made with the \(token.scope.rawValue) scope\(token.device.map { " for the device \($0)" } ?? "")\(owner.map { " of \($0)" } ?? "")\(until)"
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
        for join in try store.loggerJoins(siteID: site.id) {
            entries.append(
                AuditEntry(time: join.joined, who: "station", kind: "logger_joined", logger: join.loggerID, what: "logger \(join.loggerID) joined the site"))
            if let set = join.secretSet {
                entries.append(
                    AuditEntry(time: set, who: "operator", kind: "logger_secret", logger: join.loggerID, what: "decode secret of \(join.loggerID) set"))
            }
        }
        entries += try lotEntries(store: store, site: site, tokens: tokenByID, userNames: name)
        return entries.filter(filter.admits).sorted { ($0.time, $0.kind) > ($1.time, $1.kind) }
    }

    /// The site's lots, their moves and closes, and the product versions they are judged by.
    static func lotEntries(
        store: StationStore, site: StationSite, tokens: [Int64: StationToken], userNames: (Int64?) -> String?
    ) throws -> [AuditEntry] {
        var entries: [AuditEntry] = []
        var products = Set<String>()
        for lot in try store.archive.lots(siteID: site.id) {
            let creator = Actor(RecordActor(text: lot.createdBy), tokens: tokens, userNames: userNames)
            let quantity = lot.quantity.map { ", \($0) units" } ?? ""
            let version = lot.productVersion == 0 ? "built-in" : "v\(lot.productVersion)"
            entries.append(
                AuditEntry(
                    time: lot.created, who: creator.who, kind: "lot",
                    what: "lot \(lot.id) of \(lot.productName) (\(version), SHA-256 \(lot.productSHA256)) created\(quantity)\(creator.via)",
                    why: lot.note.isEmpty ? nil : lot.note, user: creator.user))
            if lot.productVersion > 0, products.insert("\(lot.productName)/\(lot.productVersion)").inserted,
                let product = try store.archive.product(named: lot.productName, version: lot.productVersion)
            {
                let by = Actor(RecordActor(text: product.addedBy), tokens: tokens, userNames: userNames)
                entries.append(
                    AuditEntry(
                        time: product.added, who: by.who, kind: "product",
                        what: "product \(product.name) v\(product.version) registered (SHA-256 \(product.sha256))\(by.via)", user: by.user))
            }
            for move in try store.archive.lotMoves(lot.id, siteID: site.id) {
                let mover = Actor(RecordActor(text: move.by), tokens: tokens, userNames: userNames)
                let place = move.place.isEmpty ? "" : " at \(move.place)"
                let what: AuditText
                switch move.kind {
                case .logger: what = "lot \(lot.id) travels with \(move.loggerID ?? "") from \(move.at)\(place) (move #\(move.seq), \(move.origin))"
                case .none: what = "lot \(lot.id) is with nobody's logger from \(move.at)\(place) (move #\(move.seq), \(move.origin))"
                case .close:
                    what = "lot \(lot.id) closed (\(move.reason?.rawValue ?? "closed")) at \(move.at)\(place) (move #\(move.seq), \(move.origin))"
                }
                entries.append(
                    AuditEntry(
                        time: move.recorded, who: mover.who, kind: move.kind == .close ? "lot_closed" : "lot_move", logger: move.loggerID,
                        what: what + mover.via, user: mover.user))
            }
        }
        return entries
    }

    /// Who a kept actor text names, for a row: the person (a token made for a user is theirs,
    /// also for rows kept before the record named the user), and the token and device it
    /// came through.
    struct Actor {
        var who: String
        var user: String?
        var via: AuditText

        init(_ actor: RecordActor, tokens: [Int64: StationToken], userNames: (Int64?) -> String?) {
            switch actor {
            case .user(let name, let tokenID, let device):
                (who, user) = (name, name)
                via = tokenID.map { " with token #\($0)\(device.map { " from \($0)" } ?? "")" } ?? ""
            case .token(let id, let device):
                let token = tokens[id]
                let owner = userNames(token?.createdByUser)
                (who, user) = (owner ?? "token #\(id)", owner)
                via = " with token #\(id)\((device ?? token?.device).map { " from \($0)" } ?? "")"
            case .operatingSystem(let account): (who, user, via) = ("os:\(account)", nil, "")
            case .named(let name): (who, user, via) = (name, nil, "")
            }
        }
    }

    static func accountEntry(_ event: AccountEvent, user: String?) -> AuditEntry {
        let detail = event.detail
        let subject = user ?? detail["name"] ?? "an unknown name"
        let what: AuditText
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
            let until: AuditText = detail["until_ms"].flatMap(Double.init).map { "\(Date(timeIntervalSince1970: $0 / 1000))" } ?? "?"
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
                [entry.time.isoUTC, entry.who, entry.kind, entry.logger, entry.what.description, entry.why, entry.old, entry.new].map(field).joined(
                    separator: ","))
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
                            ("logger", .optional(entry.logger)), ("what", .string(entry.what.description)), ("why", .optional(entry.why)),
                            ("old", .optional(entry.old)), ("new", .optional(entry.new)),
                        ])
                    })
            ),
        ])
    }
}
