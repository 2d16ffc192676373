import ColdTapBase
import Digest
import Foundation

/// What a signer means by signing (21 CFR 11.50): shown with every signature.
public enum SignatureMeaning: String, Sendable, CaseIterable {
    case acknowledged, reviewed, approved, rejected

    /// A rejection says why, and an acknowledgement of an excursion what was done.
    public var needsComment: Bool { self == .rejected || self == .acknowledged }
}

/// What a signature signs: a logger's period, or one excursion of it.
public enum SignatureSubject: String, Sendable {
    case review
    case acknowledgement
}

/// An electronic signature as the record keeps it: who (their printed name and role then),
/// when (with the zone it was shown in), what it means, why, and the SHA-256 of exactly what
/// was signed — the statement, which lists the read leaves of the period and its assessment.
/// Never edited, never removed: a later signature follows it.
public struct SignatureRecord: Sendable, Equatable {
    public var id: Int64
    public var siteID: Int64
    public var loggerID: String
    public var userID: Int64
    public var userName: String
    public var printedName: String
    public var role: UserRole
    public var signed: Date
    public var timeZone: String
    public var meaning: SignatureMeaning
    public var comment: String?
    public var subject: SignatureSubject
    /// The period signed (for an acknowledgement, the excursion's).
    public var from: Date
    public var to: Date
    /// The acknowledgement it signs.
    public var acknowledgementID: Int64?
    public var statement: String
    public var statementSHA256: String

    /// The reads the statement lists (their ids), in the statement's order.
    public var signedReadIDs: [Int64] { SignatureStatement.readIDs(in: statement) }

    /// Whether it signs any of `[from, to)` (an open end reaches everything).
    public func overlaps(from: Date?, to: Date?) -> Bool {
        (from.map { self.to > $0 } ?? true) && (to.map { self.from < $0 } ?? true)
    }

    /// Whether `history` now holds reads over the signed period that the signature did not
    /// sign (they came after it): it then covers only what it signed.
    public func missesReads(of history: History) -> Bool {
        let signed = Set(signedReadIDs)
        return history.reads(covering: from, to).contains { !signed.contains($0.id) }
    }

    /// What the signer saw of the period's assessment, as the statement lists it: the
    /// verdict, and how many excursions there were and how many were acknowledged.
    public var signedAssessment: (verdict: String?, excursions: Int, acknowledged: Int) {
        let lines = RecordLeaf.lines(statement).compactMap { line -> String? in
            guard line.unicodeScalars.starts(with: "assessment=".unicodeScalars) else { return nil }
            return RecordLeaf.unescaped(line.unicodeScalars.dropFirst("assessment=".count))
        }
        let verdict = lines.first { $0.hasPrefix("verdict=") }.map { String($0.dropFirst("verdict=".count)) }
        let excursions = lines.filter { $0.hasPrefix("excursion=") }
        return (verdict, excursions.count, excursions.filter { $0.contains(" acknowledged_by=") }.count)
    }
}

/// What a signer is about to sign; the archive adds the read leaves and keeps it.
public struct SignatureDraft: Sendable {
    public var loggerID: String
    public var site: StationSite
    public var signer: StationUser
    public var meaning: SignatureMeaning
    public var comment: String?
    public var subject: SignatureSubject
    public var from: Date
    public var to: Date
    public var timeZone: String
    /// The reads whose samples fall in the period, oldest first.
    public var readIDs: [Int64]
    /// The period's assessment in lines (`verdict=OK`, `excursion=…`), as the signer saw it.
    public var assessment: [String]

    public init(
        loggerID: String, site: StationSite, signer: StationUser, meaning: SignatureMeaning, comment: String?, subject: SignatureSubject, from: Date,
        to: Date, timeZone: String, readIDs: [Int64], assessment: [String]
    ) {
        self.loggerID = loggerID
        self.site = site
        self.signer = signer
        self.meaning = meaning
        self.comment = comment
        self.subject = subject
        self.from = from
        self.to = to
        self.timeZone = timeZone
        self.readIDs = readIDs
        self.assessment = assessment
    }
}

/// The text a signature's hash is of (docs/accounts.md, "What is signed"): one `name=value`
/// line per fact, escaped as record leaves are, then a `read=ID INDEX HASH` line per read
/// leaf and an `assessment=` line per line of the assessment.
enum SignatureStatement {
    static let magic = "coldtap-signature/1"

    static func text(_ draft: SignatureDraft, signed: Date, reads: [(id: Int64, index: Int64, hash: String)]) -> String {
        var lines = [magic]
        let facts: [(String, String?)] = [
            ("subject", draft.subject.rawValue), ("site", String(draft.site.id)), ("logger", draft.loggerID),
            ("from", draft.from.isoUTC), ("to", draft.to.isoUTC), ("signer", String(draft.signer.id)), ("name", draft.signer.name),
            ("printed_name", draft.signer.fullName), ("role", draft.signer.role.rawValue), ("meaning", draft.meaning.rawValue),
            ("signed_ms", String(signed.milliseconds)), ("time_zone", draft.timeZone), ("comment", draft.comment),
        ]
        for (name, value) in facts { if let value { lines.append(name + "=" + RecordLeaf.escaped(value)) } }
        for read in reads { lines.append("read=\(read.id) \(read.index) \(read.hash)") }
        for line in draft.assessment { lines.append("assessment=" + RecordLeaf.escaped(line)) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `read=` lines: read id, record leaf index, leaf hash.
    static func reads(in statement: String) -> [(id: Int64, index: Int64, hash: String)] {
        RecordLeaf.lines(statement).compactMap { line in
            guard line.unicodeScalars.starts(with: "read=".unicodeScalars) else { return nil }
            let parts = line.dropFirst(5).split(separator: " ")
            guard parts.count == 3, let id = Int64(parts[0]), let index = Int64(parts[1]) else { return nil }
            return (id, index, String(parts[2]))
        }
    }

    static func readIDs(in statement: String) -> [Int64] { reads(in: statement).map(\.id) }
}

extension StationStore {
    /// Keeps a signature; with `acknowledging`, first keeps the acknowledgement it signs, in
    /// the same transaction (both or neither).
    /// - Throws: `ArchiveError(.invalidRead)` for a missing comment the meaning needs, or a
    ///   read of the period that has no leaf in the record.
    public func keepSignature(
        _ draft: SignatureDraft, acknowledging excursionStart: Date? = nil, now: Date = Date()
    ) throws -> (signature: SignatureRecord, acknowledgement: Acknowledgement?) {
        let comment = draft.comment?.trimmingCharacters(in: .whitespacesAndNewlines)
        if draft.meaning.needsComment, comment?.isEmpty ?? true {
            throw ArchiveError(.invalidRead, "a signature meaning \(draft.meaning.rawValue) says why in a comment.")
        }
        if let comment, comment.count > 4000 { throw ArchiveError(.invalidRead, "a signature's comment has at most 4000 characters.") }
        var draft = draft
        draft.comment = comment?.isEmpty == false ? comment : nil
        let signed = Date(milliseconds: now.milliseconds)
        return try engine.writeTransaction { transaction in
            var ack: Acknowledgement?
            if let excursionStart {
                ack = try archive.acknowledge(
                    loggerID: draft.loggerID, excursionStart: excursionStart, by: draft.signer.fullName, comment: draft.comment ?? "", at: signed,
                    in: transaction)
            }
            var reads: [(id: Int64, index: Int64, hash: String)] = []
            for readID in draft.readIDs {
                guard let leaf = try readLeaf(loggerID: draft.loggerID, readID: readID) else {
                    throw ArchiveError(.invalidRead, "read #\(readID) of \(draft.loggerID) has no leaf in the record, so it cannot be signed.")
                }
                reads.append((readID, leaf.index, leaf.hash))
            }
            let statement = SignatureStatement.text(draft, signed: signed, reads: reads)
            let id = (try engine.scalarInt("SELECT MAX(signature_id) FROM signatures") ?? 0) + 1
            let record = SignatureRecord(
                id: id, siteID: draft.site.id, loggerID: draft.loggerID, userID: draft.signer.id, userName: draft.signer.name,
                printedName: draft.signer.fullName, role: draft.signer.role, signed: signed, timeZone: draft.timeZone, meaning: draft.meaning,
                comment: draft.comment, subject: draft.subject, from: Date(milliseconds: draft.from.milliseconds),
                to: Date(milliseconds: draft.to.milliseconds), acknowledgementID: ack?.id, statement: statement,
                statementSHA256: SHA256Digest.hex(text: statement))
            let row = SignatureRow(record: record)
            try engine.execute(
                "INSERT INTO signatures (\(SignatureRow.Column.selectList)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
                row.values)
            try Archive.appendLeaf(.signature(row), in: transaction)
            return (record, ack)
        }
    }

    /// The read's leaf in the record: its index and hash.
    func readLeaf(loggerID: String, readID: Int64) throws -> (index: Int64, hash: String)? {
        enum Column: Int, ArchiveColumns {
            case index, hash
            var sqlName: String { self == .index ? "leaf_index" : "leaf_hash" }
        }
        var found: (Int64, String)?
        try engine.query(
            "SELECT \(Column.selectList) FROM record_leaves WHERE kind = 'read' AND leaf_key = $1", [.text("\(loggerID)/\(readID)")]
        ) { found = ($0.int(Column.index), $0.text(Column.hash)) }
        return found
    }

    /// A logger's signatures, oldest first.
    public func signatures(loggerID: String) throws -> [SignatureRecord] {
        try signatures(where: "WHERE logger_id = $1", [.text(loggerID)])
    }

    /// The newest review of each of `loggerIDs` that has one (the overview's review column).
    public func newestReviews(loggerIDs: [String]) throws -> [String: SignatureRecord] {
        guard !loggerIDs.isEmpty else { return [:] }
        let placeholders = (1...loggerIDs.count).map { "$\($0)" }.joined(separator: ", ")
        // Only each logger's newest review is read (a statement lists every read it signed).
        let newest = try signatures(
            where:
                "WHERE signature_id IN (SELECT MAX(signature_id) FROM signatures WHERE subject = 'review' AND logger_id IN (\(placeholders)) GROUP BY logger_id)",
            loggerIDs.map { .text($0) })
        return Dictionary(newest.map { ($0.loggerID, $0) }, uniquingKeysWith: { _, later in later })
    }

    /// A site's signatures, oldest first.
    public func signatures(siteID: Int64) throws -> [SignatureRecord] {
        try signatures(where: "WHERE site_id = $1", [.int(siteID)])
    }

    private func signatures(where clause: String, _ values: [SQLValue]) throws -> [SignatureRecord] {
        var result: [SignatureRecord] = []
        try engine.query("SELECT \(SignatureRow.Column.selectList) FROM signatures \(clause) ORDER BY signature_id", values) {
            if let record = SignatureRow(row: $0).record { result.append(record) }
        }
        return result
    }

    /// What `archive verify` finds wrong in the signatures: a statement that no longer gives
    /// its SHA-256, a listed read whose leaf is not the one signed, a row that is not its
    /// statement's.
    func signatureProblems() throws -> [String] {
        guard try engine.tableExists("signatures") else { return [] }
        var rows: [SignatureRow] = []
        try engine.query("SELECT \(SignatureRow.Column.selectList) FROM signatures ORDER BY signature_id", []) { rows.append(SignatureRow(row: $0)) }
        var problems: [String] = []
        for row in rows {
            let name = "signature #\(row.id) of \(row.loggerID)"
            guard SHA256Digest.hex(text: row.statement) == row.statementSHA256 else {
                problems.append("\(name): its statement no longer gives its SHA-256 (it was edited)")
                continue
            }
            let stated = Dictionary(
                RecordLeaf.lines(row.statement).compactMap { line -> (String, String)? in
                    guard !["read=", "assessment="].contains(where: { line.unicodeScalars.starts(with: $0.unicodeScalars) }) else { return nil }
                    return RecordLeaf.field(line)
                }, uniquingKeysWith: { first, _ in first })
            let facts: [(String, String?)] = [
                ("logger", row.loggerID), ("signer", String(row.userID)), ("printed_name", row.printedName), ("role", row.role),
                ("meaning", row.meaning), ("signed_ms", String(row.signed)), ("time_zone", row.timeZone), ("comment", row.comment),
                ("subject", row.subject), ("from", Date(milliseconds: row.from).isoUTC), ("to", Date(milliseconds: row.to).isoUTC),
            ]
            let differing = facts.filter { stated[$0.0] != $0.1 }.map(\.0)
            if !differing.isEmpty {
                let verb = differing.count == 1 ? "differs" : "differ"
                problems.append("\(name): \(differing.joined(separator: ", ")) \(verb) from what its statement signed")
            }
            for read in SignatureStatement.reads(in: row.statement) {
                guard let leaf = try readLeaf(loggerID: row.loggerID, readID: read.id), leaf.index == read.index, leaf.hash == read.hash else {
                    problems.append("\(name): read #\(read.id) is no longer the read it signed (its record leaf differs)")
                    continue
                }
            }
        }
        return problems
    }
}

struct SignatureRow {
    enum Column: Int, ArchiveColumns {
        case id, siteID, loggerID, userID, userName, printedName, role, signed, timeZone, meaning, comment, subject, from, to, ackID, statement, statementSHA256
        var sqlName: String {
            [
                "signature_id", "site_id", "logger_id", "user_id", "user_name", "printed_name", "role", "signed_ms", "time_zone", "meaning", "comment",
                "subject", "from_ms", "to_ms", "ack_id", "statement", "statement_sha256",
            ][rawValue]
        }
    }

    var id: Int64
    var siteID: Int64
    var loggerID: String
    var userID: Int64
    var userName: String
    var printedName: String
    var role: String
    var signed: Int64
    var timeZone: String
    var meaning: String
    var comment: String?
    var subject: String
    var from: Int64
    var to: Int64
    var ackID: Int64?
    var statement: String
    var statementSHA256: String

    init(record: SignatureRecord) {
        id = record.id
        siteID = record.siteID
        loggerID = record.loggerID
        userID = record.userID
        userName = record.userName
        printedName = record.printedName
        role = record.role.rawValue
        signed = record.signed.milliseconds
        timeZone = record.timeZone
        meaning = record.meaning.rawValue
        comment = record.comment
        subject = record.subject.rawValue
        from = record.from.milliseconds
        to = record.to.milliseconds
        ackID = record.acknowledgementID
        statement = record.statement
        statementSHA256 = record.statementSHA256
    }

    init(row: any ArchiveRow) {
        id = row.int(Column.id)
        siteID = row.int(Column.siteID)
        loggerID = row.text(Column.loggerID)
        userID = row.int(Column.userID)
        userName = row.text(Column.userName)
        printedName = row.text(Column.printedName)
        role = row.text(Column.role)
        signed = row.int(Column.signed)
        timeZone = row.text(Column.timeZone)
        meaning = row.text(Column.meaning)
        comment = row.optionalText(Column.comment)
        subject = row.text(Column.subject)
        from = row.int(Column.from)
        to = row.int(Column.to)
        ackID = row.optionalInt(Column.ackID)
        statement = row.text(Column.statement)
        statementSHA256 = row.text(Column.statementSHA256)
    }

    var values: [SQLValue] {
        [
            .int(id), .int(siteID), .text(loggerID), .int(userID), .text(userName), .text(printedName), .text(role), .int(signed), .text(timeZone),
            .text(meaning), .optional(comment), .text(subject), .int(from), .int(to), .optional(ackID), .text(statement), .text(statementSHA256),
        ]
    }

    /// The record, when its words are ColdTap's (`verify` reports a row whose are not).
    var record: SignatureRecord? {
        guard let role = UserRole(rawValue: role), let meaning = SignatureMeaning(rawValue: meaning), let subject = SignatureSubject(rawValue: subject)
        else { return nil }
        return SignatureRecord(
            id: id, siteID: siteID, loggerID: loggerID, userID: userID, userName: userName, printedName: printedName, role: role,
            signed: Date(milliseconds: signed), timeZone: timeZone, meaning: meaning, comment: comment, subject: subject, from: Date(milliseconds: from),
            to: Date(milliseconds: to), acknowledgementID: ackID, statement: statement, statementSHA256: statementSHA256)
    }
}

extension RecordLeaf {
    /// A signature: every fact of it, and the SHA-256 of its statement (which the row keeps).
    static func signature(_ row: SignatureRow) -> RecordLeaf {
        RecordLeaf(
            .signature,
            [
                ("signature", text(row.id)), ("site", text(row.siteID)), ("logger", row.loggerID), ("user", text(row.userID)),
                ("user_name", row.userName), ("printed_name", row.printedName), ("role", row.role), ("signed_ms", text(row.signed)),
                ("time_zone", row.timeZone), ("meaning", row.meaning), ("comment", row.comment), ("subject", row.subject),
                ("from_ms", text(row.from)), ("to_ms", text(row.to)), ("ack", text(row.ackID)), ("statement_sha256", row.statementSHA256),
            ])
    }
}

extension StationStore {
    /// The acknowledgements of a site's loggers, oldest first, with their logger.
    public func siteAcknowledgements(siteID: Int64) throws -> [(loggerID: String, acknowledgement: Acknowledgement)] {
        var result: [(String, Acknowledgement)] = []
        try engine.query(
            """
            SELECT \(Acknowledgement.Column.selectList), logger_id FROM acknowledgements
            WHERE logger_id IN (SELECT logger_id FROM site_loggers WHERE site_id = $1) ORDER BY chain_seq
            """, [.int(siteID)]
        ) { row in
            result.append((row.text(Acknowledgement.Column.allCases.count), Acknowledgement(row: row)))
        }
        return result
    }
}
