import Digest
import Foundation
import TransparencyLog

/// One fact of the record as a leaf of the archive's Merkle tree (docs/archive-record.md has
/// the rules and every kind's fields, precisely enough to recompute each leaf elsewhere).
///
/// A leaf is UTF-8 text: the line `coldtap-leaf/1`, the kind's name, then one line
/// `name=value` per field present, in the kind's fixed order, each line ending in a line
/// feed. In a value a backslash is written `\\` and a line feed `\n`, so no value can pose
/// as two lines. A field without a value (a logger without a serial) is left out.
public struct RecordLeaf: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case read, assessment, acknowledgement, logger, generation
        case readGeneration = "read_generation"
        case site
        case siteLogger = "site_logger"
        case token
        case tokenRevoked = "token_revoked"
        case siteProfile = "site_profile"
        case webhook
        case loggerSecret = "logger_secret"
        case product, lot
        case lotMove = "lot_move"
        case user
        case accountEvent = "account_event"
        case signature
        case readUpload = "read_upload"
        case siteIdentifier = "site_identifier"
        case siteLoggerTimeZone = "site_logger_time_zone"

        /// The fields that name the row a leaf stands for (its key within the kind).
        var keyFields: [String] {
            switch self {
            case .read, .readGeneration: return self == .read ? ["logger", "read"] : ["logger", "read", "generation"]
            case .assessment: return ["logger", "assessment"]
            case .acknowledgement: return ["logger", "ack"]
            case .logger, .siteLogger: return ["logger"]
            case .generation: return ["generation"]
            case .site: return ["site"]
            case .token, .tokenRevoked: return ["token"]
            case .siteProfile: return ["site", "name", "version"]
            case .webhook: return ["webhook"]
            case .loggerSecret: return ["logger", "set_ms"]
            case .product: return ["product", "version"]
            case .lot: return ["site", "lot"]
            case .lotMove: return ["site", "lot", "move"]
            case .user: return ["user"]
            case .accountEvent: return ["event"]
            case .signature: return ["signature"]
            case .readUpload: return ["upload"]
            case .siteIdentifier: return ["site", "seq"]
            case .siteLoggerTimeZone: return ["site", "setting"]
            }
        }
    }

    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    static let magic = "coldtap-leaf/1"

    public var kind: Kind
    public var fields: [Field]

    init(_ kind: Kind, _ fields: [(String, String?)]) {
        self.kind = kind
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    /// The leaf's bytes, as hashed into the tree.
    public var bytes: [UInt8] {
        var text = Self.magic + "\n" + kind.rawValue + "\n"
        for field in fields {
            guard let value = field.value else { continue }
            text += field.name + "=" + Self.escaped(value) + "\n"
        }
        return Array(text.utf8)
    }

    /// Two leaves are the same leaf when their bytes are (a field without a value is the
    /// same as no field).
    public static func == (lhs: RecordLeaf, rhs: RecordLeaf) -> Bool { lhs.bytes == rhs.bytes }

    /// `H(0x00 || bytes)`, as RFC 9162 hashes a leaf.
    public var hash: [UInt8] { MerkleHash.leaf(bytes) }

    /// The value of field `name`, if present.
    public func value(_ name: String) -> String? { fields.first { $0.name == name }?.value ?? nil }

    /// What names the row within its kind: the key fields' values joined by `/`.
    public var key: String { kind.keyFields.map { value($0) ?? "" }.joined(separator: "/") }

    /// `value` with each backslash written `\\` and each line feed `\n`, scalar by scalar
    /// (a backslash followed by a combining mark is one Character, and is escaped all the same).
    static func escaped(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == 0x5C || $0 == 0x0A }) else { return value }
        var result = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": result.append(contentsOf: "\\\\".unicodeScalars)
            case "\n": result.append(contentsOf: "\\n".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// A value as written before `escaped`, read scalar by scalar (a backslash followed by a
    /// combining mark is one Character, but still an escape).
    static func unescaped(_ value: Substring.UnicodeScalarView) -> String {
        var result = String.UnicodeScalarView()
        var escaping = false
        for scalar in value {
            if escaping {
                result.append(scalar == "n" ? "\n" : scalar)
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// `text`'s lines, split at every line feed scalar. Not at Characters: a value ending in a
    /// carriage return would make the carriage return and the line's end one Character.
    static func lines(_ text: String) -> [Substring] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { Substring($0) }
    }

    /// `name=value` split at its first `=` scalar (a value may start with a combining mark,
    /// which makes one Character with the `=`), the value unescaped.
    static func field(_ line: Substring) -> (name: String, value: String)? {
        let scalars = line.unicodeScalars
        guard let equals = scalars.firstIndex(of: "=") else { return nil }
        return (String(Substring(scalars[..<equals])), unescaped(scalars[scalars.index(after: equals)...]))
    }

    /// Reads kept leaf bytes back (for `verify`, which compares them with the rows).
    /// - Returns: `nil` for bytes that are not a leaf of this form.
    public init?(bytes: some DataProtocol) {
        let raw = Array(bytes)
        let text = String(decoding: raw, as: UTF8.self)
        guard Array(text.utf8) == raw, raw.last == 0x0A else { return nil }
        var lines = Self.lines(text).dropLast()
        guard lines.count >= 2, lines.removeFirst() == Self.magic, let kind = Kind(rawValue: String(lines.removeFirst())) else { return nil }
        var fields: [Field] = []
        for line in lines {
            guard let (name, value) = Self.field(line) else { return nil }
            fields.append(Field(name: name, value: value))
        }
        self.kind = kind
        self.fields = fields
    }

    /// The names of the fields whose values differ from `other`'s (both of one kind).
    func differingFields(from other: RecordLeaf) -> [String] {
        let names = (fields + other.fields).map(\.name).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        return names.filter { value($0) != other.value($0) }
    }
}

// MARK: The leaves of each kind of row

extension RecordLeaf {
    static func text(_ value: Int64?) -> String? { value.map(String.init) }

    /// A kept read: what it was (bytes, samples, read time and its source, decoder, version,
    /// origin) and its hash in the read/acknowledgement chain, which covers the whole row.
    static func read(_ row: ReadRow) -> RecordLeaf {
        RecordLeaf(
            .read,
            [
                ("logger", row.loggerID), ("read", text(row.readID)), ("raw_sha256", row.rawSHA256), ("samples_sha256", row.samplesSHA256),
                ("read_time_ms", text(row.readTimeMilliseconds)), ("read_time_source", row.readTimeSource), ("input_kind", row.inputKind),
                ("decoder", row.decoder), ("decode_options", row.decodeOptions), ("coldtap_version", row.coldTapVersion),
                ("origin", row.origin), ("added_ms", text(row.addedMilliseconds)), ("chain_hash", row.hash),
            ])
    }

    /// An assessment as kept with its read.
    static func assessment(_ row: AssessmentRow) -> RecordLeaf {
        RecordLeaf(
            .assessment,
            [
                ("logger", row.loggerID), ("assessment", text(row.id)), ("read", text(row.readID)), ("assessed_ms", text(row.assessed)),
                ("profile_name", row.profileName), ("profile_json", row.profileJSON), ("time_zone", row.timeZone), ("verdict", row.verdict),
                ("reasons", row.reasons), ("excursions", text(row.excursions)),
            ])
    }

    static func acknowledgement(_ row: AcknowledgementRow, hash: String) -> RecordLeaf {
        RecordLeaf(
            .acknowledgement,
            [
                ("logger", row.loggerID), ("ack", text(row.ackID)), ("excursion_start_ms", text(row.excursionStart)), ("by", row.by),
                ("at_ms", text(row.at)), ("comment", row.comment), ("chain_hash", hash),
            ])
    }

    /// A logger's identity as first kept.
    static func logger(_ record: LoggerRecord, firstReadID: Int64) -> RecordLeaf {
        RecordLeaf(
            .logger,
            [
                ("logger", record.id), ("format", record.format), ("serial", record.serial), ("tag_uid", record.tagUID),
                ("vendor", record.vendor), ("model", record.model), ("first_read", text(firstReadID)),
            ])
    }

    /// A generation of samples after the first (`archive redecode`).
    static func generation(_ generation: Int64, created: Int64, coldTapVersion: String, note: String) -> RecordLeaf {
        RecordLeaf(
            .generation, [("generation", text(generation)), ("created_ms", text(created)), ("coldtap_version", coldTapVersion), ("note", note)])
    }

    /// What a read added in a generation after the first (the first is in the read's leaf).
    static func readGeneration(loggerID: String, readID: Int64, generation: Int64, offset: Int64, samplesSHA256: String) -> RecordLeaf {
        RecordLeaf(
            .readGeneration,
            [
                ("logger", loggerID), ("read", text(readID)), ("generation", text(generation)), ("time_offset_ms", text(offset)),
                ("samples_sha256", samplesSHA256),
            ])
    }

    static func site(_ site: StationSite) -> RecordLeaf {
        RecordLeaf(.site, [("site", text(site.id)), ("name", site.name), ("created_ms", text(site.created.milliseconds))])
    }

    /// A site's ownership of a logger (its first upload, or a claim).
    static func siteLogger(loggerID: String, siteID: Int64, joined: Int64) -> RecordLeaf {
        RecordLeaf(.siteLogger, [("logger", loggerID), ("site", text(siteID)), ("joined_ms", text(joined))])
    }

    /// A token as made: its SHA-256, never the token.
    static func token(_ row: TokenRow) -> RecordLeaf {
        RecordLeaf(
            .token,
            [
                ("token", text(row.id)), ("site", text(row.siteID)), ("scope", row.scope), ("token_sha256", row.sha256),
                ("created_ms", text(row.created)), ("expires_ms", text(row.expires)), ("created_by_user", text(row.createdByUser)),
                ("device", row.device),
            ])
    }

    static func tokenRevoked(id: Int64, at: Int64) -> RecordLeaf {
        RecordLeaf(.tokenRevoked, [("token", text(id)), ("revoked_ms", text(at))])
    }

    /// A site's profile as registered: its text by its SHA-256.
    static func siteProfile(_ profile: SiteProfile) -> RecordLeaf {
        RecordLeaf(
            .siteProfile,
            [
                ("site", text(profile.siteID)), ("name", profile.name), ("version", String(profile.version)), ("profile_sha256", profile.sha256),
                ("added_ms", text(profile.added.milliseconds)), ("added_by", profile.addedBy),
            ])
    }

    /// A webhook as added: where events go (its signing secret stays out of the record).
    static func webhook(id: Int64, siteID: Int64, url: String, created: Int64) -> RecordLeaf {
        RecordLeaf(.webhook, [("webhook", text(id)), ("site", text(siteID)), ("url", url), ("created_ms", text(created))])
    }

    /// A site's zone for its loggers' zoneless times, who set it and when.
    static func siteLoggerTimeZone(_ setting: SiteLoggerTimeZone) -> RecordLeaf {
        RecordLeaf(
            .siteLoggerTimeZone,
            [
                ("site", text(setting.siteID)), ("setting", text(setting.setting)), ("zone", setting.zone),
                ("set_ms", text(setting.set.milliseconds)), ("set_by", setting.setBy),
            ])
    }

    /// That a logger's decode secret was set, and when (never the secret).
    static func loggerSecret(loggerID: String, set: Int64) -> RecordLeaf {
        RecordLeaf(.loggerSecret, [("logger", loggerID), ("set_ms", text(set))])
    }
}

/// An `assessments` row, as its leaf covers it.
struct AssessmentRow {
    enum Column: Int, ArchiveColumns {
        case loggerID, id, readID, assessed, profileName, profileJSON, timeZone, verdict, reasons, excursions

        var sqlName: String {
            switch self {
            case .loggerID: return "logger_id"
            case .id: return "assessment_id"
            case .readID: return "read_id"
            case .assessed: return "assessed_ms"
            case .profileName: return "profile_name"
            case .profileJSON: return "profile_json"
            case .timeZone: return "time_zone"
            case .verdict: return "verdict"
            case .reasons: return "reasons"
            case .excursions: return "excursions"
            }
        }
    }

    var loggerID: String
    var id: Int64
    var readID: Int64
    var assessed: Int64
    var profileName: String
    var profileJSON: String
    var timeZone: String
    var verdict: String
    var reasons: String
    var excursions: Int64

    init(
        loggerID: String, id: Int64, readID: Int64, assessed: Int64, profileName: String, profileJSON: String, timeZone: String, verdict: String,
        reasons: String, excursions: Int64
    ) {
        self.loggerID = loggerID
        self.id = id
        self.readID = readID
        self.assessed = assessed
        self.profileName = profileName
        self.profileJSON = profileJSON
        self.timeZone = timeZone
        self.verdict = verdict
        self.reasons = reasons
        self.excursions = excursions
    }

    init(row: any ArchiveRow) {
        self.init(
            loggerID: row.text(Column.loggerID), id: row.int(Column.id), readID: row.int(Column.readID), assessed: row.int(Column.assessed),
            profileName: row.text(Column.profileName), profileJSON: row.text(Column.profileJSON), timeZone: row.text(Column.timeZone),
            verdict: row.text(Column.verdict), reasons: row.text(Column.reasons), excursions: row.int(Column.excursions))
    }

    func insert(in transaction: WriteTransaction) throws {
        try transaction.engine.executeDeferred(
            "INSERT INTO assessments (\(Column.selectList)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            [
                .text(loggerID), .int(id), .int(readID), .int(assessed), .text(profileName), .text(profileJSON), .text(timeZone), .text(verdict),
                .text(reasons), .int(excursions),
            ])
    }
}
