import ColdChain
import ColdTapBase
import Digest
import Foundation
import LoggerFormats

/// The record of every read: raw bytes kept with their SHA-256 in a hash chain, samples
/// stitched per logger across reads (duplicates dropped, conflicts kept, gaps left as
/// unknown time), assessments with the profile as it was, acknowledgements. The same code
/// runs on either engine behind `ArchiveEngine`.
///
/// Not thread-safe: one `Archive` (one connection) per task; processes and connections may
/// write at the same time (writers take turns).
public final class Archive {
    public let engine: any ArchiveEngine

    /// Opens an archive over `engine`, creating or migrating its schema.
    /// - Throws: `ArchiveError` — `.newerVersion` for an archive of a newer ColdTap (left
    ///   unchanged), `.corrupt`, `.readOnly`, `.unavailable`, ….
    /// - Parameter existing: the archive must be there already: a file or database without
    ///   an archive's tables (an empty file, another program's database) is refused, never
    ///   turned into an empty archive.
    public init(engine: any ArchiveEngine, existing: Bool = false) throws {
        self.engine = engine
        // A PostgreSQL database of another program (SQLite's engine refuses its own at open).
        if let database = engine as? PostgreSQLEngine, try Migrations.currentVersion(engine) == nil {
            let names = try database.tableNames()
            if !names.isEmpty {
                throw ArchiveError(
                    .corrupt,
                    "'\(engine.location)' holds another program's tables (\(names.prefix(5).joined(separator: ", "))\(names.count > 5 ? ", …" : "")), not a ColdTap archive; nothing was changed.",
                    hint: .useAnotherArchive)
            }
        }
        if existing, try Migrations.currentVersion(engine) == nil {
            throw ArchiveError(
                .corrupt, "'\(engine.location)' is not a ColdTap archive (it holds no archive's tables); nothing was changed.",
                hint: .useAnotherArchive)
        }
        try Migrations.apply(to: engine)
        (engine as? PostgreSQLEngine)?.chainHeadExists = true
    }

    /// Opens the archive at `location`: a file path (SQLite) or a `postgresql://` URI.
    /// - Parameter create: false for commands that only read, so that a mistyped path is
    ///   reported instead of creating an empty archive.
    public static func open(_ location: String, create: Bool = true) throws -> Archive {
        if PostgreSQLEngine.isURI(location) {
            return try Archive(engine: PostgreSQLEngine(uri: location), existing: !create)
        }
        return try Archive(engine: SQLiteEngine(path: location, create: create), existing: !create)
    }

    /// `COLDTAP_ARCHIVE`, else `$XDG_DATA_HOME/coldtap/archive.sqlite`, else
    /// `~/.local/share/coldtap/archive.sqlite`.
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let given = environment["COLDTAP_ARCHIVE"], !given.isEmpty { return given }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return (data as NSString).appendingPathComponent("coldtap/archive.sqlite")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return (home as NSString).appendingPathComponent(".local/share/coldtap/archive.sqlite")
    }

    public func close() { engine.close() }

    /// The identity a log carries: `FORMAT:SERIAL`, else `FORMAT:tag-UID`; `nil` for neither.
    public static func loggerID(for log: TemperatureLog) -> String? {
        loggerID(format: log.format.name, serial: log.logger.serial, tagUID: log.logger.tagUID)
    }

    static func loggerID(format: String, serial: String?, tagUID: String?) -> String? {
        if let serial = serial?.trimmingCharacters(in: .whitespaces), !serial.isEmpty { return "\(format):\(serial)" }
        if let tagUID, !tagUID.isEmpty { return "\(format):tag-\(tagUID.uppercased())" }
        return nil
    }

    /// Whose record a read belongs to when the reader gave no `--logger-id`: the logger kept
    /// under the identity the log carries, else the one logger first kept under a name of its
    /// own (`--logger-id fridge-1`) that carries the same identity, so that a logger named once
    /// keeps one record when it is read again without its name; else the identity itself.
    /// `nil` when the log carries no identity.
    /// - Throws: `ArchiveError(.invalidRead)` when several loggers kept under names of their
    ///   own carry that identity (the read cannot say which it is).
    public func loggerID(carriedBy log: TemperatureLog) throws -> String? {
        guard let carried = Archive.loggerID(for: log) else { return nil }
        if try engine.scalarInt("SELECT COUNT(*) FROM loggers WHERE logger_id = $1", [.text(carried)]) ?? 0 > 0 { return carried }
        // Asked by serial or tag UID (both indexed); a row counts only when the same rule
        // gives it the same identity (a logger with a serial is not named by its tag UID).
        var named: [String] = []
        try engine.query(
            "SELECT \(LoggerRecord.Column.selectList) FROM loggers WHERE (format = $1 AND serial = $2) OR (format = $1 AND tag_uid = $3) ORDER BY logger_id",
            [.text(log.format.name), .optional(log.logger.serial), .optional(log.logger.tagUID)]
        ) { row in
            if let name = Archive.name(LoggerRecord(row: row), ifItCarries: carried) { named.append(name) }
        }
        guard named.count <= 1 else {
            throw ArchiveError(
                .invalidRead,
                "this \(log.format) log is \(carried), and the archive keeps that logger under \(named.count) names (\(named.joined(separator: ", "))), so it cannot tell whose record this read belongs to; name it as one of them.",
                hint: .nameTheLogger)
        }
        return named.first ?? carried
    }

    /// The name `record` is kept under, when the same rule that gives a log its identity
    /// gives the record `carried` (a logger with a serial is not named by its tag UID).
    static func name(_ record: LoggerRecord, ifItCarries carried: String) -> String? {
        Archive.loggerID(format: record.format, serial: record.serial, tagUID: record.tagUID) == carried ? record.id : nil
    }

    /// The chain's length and newest hash.
    public func chainHead() throws -> (length: Int64, hash: String) {
        enum Column: Int, ArchiveColumns {
            case length, hash
            var sqlName: String { self == .length ? "seq" : "hash" }
        }
        var head: (Int64, String) = (0, HashChain.genesis)
        try engine.query("SELECT \(Column.selectList) FROM chain_head WHERE id = 1", []) { head = ($0.int(Column.length), $0.text(Column.hash)) }
        return head
    }

    func currentGeneration() throws -> Int {
        Int(try engine.scalarInt("SELECT MAX(generation) FROM generations") ?? 1)
    }

    // MARK: Adding a read

    /// Keeps one read in one transaction: wholly in or wholly out.
    /// - Throws: `ArchiveError(.invalidRead)` when the log names no logger and `loggerID` is
    ///   not given; engine errors (nothing of this read is kept then).
    public func add(_ read: NewRead, now: Date = Date()) throws -> AddResult {
        var read = read
        if read.loggerID == nil { read.loggerID = try loggerID(carriedBy: read.log) }
        let prepared = try Archive.prepare(read)
        return try engine.writeTransaction { transaction in try keep(prepared, now: now, in: transaction) }
    }

    /// A read made ready to keep: whose it is, its hash and its assessment, worked out
    /// before any write lock is taken (writers then wait only for each other's SQL).
    public struct PreparedRead: Sendable {
        public let read: NewRead
        public let loggerID: String
        let sha: String
        let assessment: Assessment?
    }

    /// - Throws: `ArchiveError(.invalidRead)` when the log names no logger and `loggerID` is not given.
    public static func prepare(_ read: NewRead) throws -> PreparedRead {
        guard let loggerID = read.loggerID ?? Archive.loggerID(for: read.log) else {
            throw ArchiveError(
                .invalidRead, "this \(read.log.format) log names no logger (no serial, no tag UID), so the archive cannot tell whose record it belongs to.",
                hint: .nameTheLogger)
        }
        return PreparedRead(
            read: read, loggerID: loggerID, sha: SHA256Digest.hex(read.raw),
            assessment: read.profile.map { Assessor.assess(read.log, profile: $0, timeZone: read.timeZone) })
    }

    /// A station's upload of a logger another site has: nothing is kept.
    public struct LoggerOfAnotherSite: Error {}

    /// Keeps a prepared read inside `transaction` (`add` makes one; the station keeps
    /// several in one, each under its own savepoint: `ArchiveEngine.writeEach`).
    /// - Parameter siteID: the station's site that uploads it: the logger becomes the site's
    ///   when no site has it (`StationStore.claim`), asked in the same round trip as the rest.
    /// - Throws: `LoggerOfAnotherSite` when another site has the logger.
    public func keep(_ prepared: PreparedRead, claimingFor siteID: Int64? = nil, now: Date = Date(), in transaction: WriteTransaction) throws -> AddResult {
        let read = prepared.read, loggerID = prepared.loggerID, sha = prepared.sha, assessment = prepared.assessment
        // One question for what the add needs to know first (a round trip each on
        // PostgreSQL): the same bytes kept before, the chain head (locked by this
        // transaction; it also holds the next read id), the logger, the generation.
        var existing: Int64?
        var head: (length: Int64, hash: String) = (0, HashChain.genesis)
        var readID: Int64 = 1
        var knownLogger = false
        var generation = 1
        var lastAssessment: Int64 = 0
        var owner: Int64?
        /// What keeping a read needs to know first, in one round trip.
        enum Column: Int, ArchiveColumns {
            case existing, chainLength, chainHash, nextReadID, loggerRows, generation, lastAssessment, owner

            var sqlName: String {
                switch self {
                case .existing: return "(SELECT read_id FROM reads WHERE logger_id = $1 AND raw_sha256 = $2)"
                case .chainLength: return "seq"
                case .chainHash: return "hash"
                case .nextReadID: return "next_read_id"
                case .loggerRows: return "(SELECT COUNT(*) FROM loggers WHERE logger_id = $1)"
                case .generation: return "(SELECT MAX(generation) FROM generations)"
                case .lastAssessment: return "(SELECT MAX(assessment_id) FROM assessments WHERE logger_id = $1)"
                case .owner: return "(SELECT site_id FROM site_loggers WHERE logger_id = $1)"
                }
            }
        }
        // The station's tables are there when a site claims (the command line's archive may have none).
        let columns = siteID == nil ? Column.allCases.filter { $0 != .owner } : Column.allCases
        try engine.query("SELECT \(columns.map(\.sqlName).joined(separator: ", ")) FROM chain_head WHERE id = 1", [.text(loggerID), .text(sha)]) { row in
            existing = row.optionalInt(Column.existing)
            head = (row.int(Column.chainLength), row.text(Column.chainHash))
            readID = row.int(Column.nextReadID)
            knownLogger = row.int(Column.loggerRows) > 0
            generation = Int(row.optionalInt(Column.generation) ?? 1)
            lastAssessment = row.optionalInt(Column.lastAssessment) ?? 0
            if siteID != nil { owner = row.optionalInt(Column.owner) }
        }
        if let siteID {
            if let owner {
                guard owner == siteID else { throw LoggerOfAnotherSite() }
            } else {
                try StationStore.claimUnowned(loggerID: loggerID, siteID: siteID, now: now, in: transaction)
            }
        }
        if let existing {
            return AddResult(
                readID: existing, loggerID: loggerID, alreadyKept: true, newSamples: 0, duplicates: 0,
                conflicts: 0, gapBefore: nil, timeOffset: 0, verdict: nil, chainHead: head.hash)
        }
        if !knownLogger {
            let identity = read.log.logger
            try engine.executeDeferred(
                "INSERT INTO loggers (logger_id, format, serial, tag_uid, vendor, model, first_read_id) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                [
                    .text(loggerID), .text(read.log.format.name), .optional(identity.serial), .optional(identity.tagUID),
                    .optional(identity.vendor), .optional(identity.model?.name), .int(readID),
                ])
            let record = LoggerRecord(
                id: loggerID, format: read.log.format.name, serial: identity.serial, tagUID: identity.tagUID, vendor: identity.vendor,
                model: identity.model?.name)
            try Archive.appendLeaf(.logger(record, firstReadID: readID), in: transaction)
        }
        let stitched = try stitch(read.log, loggerID: loggerID, readID: readID, generation: generation, loggerIsNew: !knownLogger, in: transaction)
        try keepDailySummaries(of: read.log, loggerID: loggerID, readID: readID, generation: generation, in: transaction)
        var row = ReadRow(
            loggerID: loggerID, readID: readID, chainSeq: head.length + 1, rawSHA256: sha, inputKind: read.inputKind,
            readTimeMilliseconds: read.log.readTime.milliseconds,
            readTimeSource: read.log.readTimeSource?.code ?? "not given", origin: read.origin,
            coldTapVersion: ColdTapVersion.current, decoder: read.log.format.name, decodeOptions: read.decodeOptions,
            integrityStatus: read.log.integrity.status.rawValue, integrityDetail: read.log.integrity.detail.text,
            timeBase: read.log.timeBase.rawValue, interval: read.log.interval, sampleCount: Int64(read.log.samples.count),
            firstSample: stitched.first, lastSample: stitched.last, timeOffset: stitched.offset, generation: Int64(generation),
            newSamples: Int64(stitched.newSamples), duplicates: Int64(stitched.duplicates), conflicts: Int64(stitched.conflicts),
            gapFrom: stitched.gap?.0, gapTo: stitched.gap?.1, addedMilliseconds: now.milliseconds,
            samplesSHA256: stitched.digest, previousHash: head.hash, hash: "")
        row.hash = row.computedHash
        try row.insert(raw: read.raw, in: transaction)
        try Archive.appendLeaf(.read(row), in: transaction)
        try engine.executeDeferred(
            "UPDATE chain_head SET seq = $1, hash = $2, next_read_id = $3 WHERE id = 1",
            [.int(row.chainSeq), .text(row.hash), .int(readID + 1)])
        if let assessment { try record(assessment, id: lastAssessment + 1, loggerID: loggerID, readID: readID, now: now, in: transaction) }
        let gap = stitched.gap.map { DateInterval(start: Date(milliseconds: $0.0), end: Date(milliseconds: $0.1)) }
        return AddResult(
            readID: readID, loggerID: loggerID, alreadyKept: false, newSamples: stitched.newSamples,
            duplicates: stitched.duplicates, conflicts: stitched.conflicts, gapBefore: gap,
            timeOffset: Double(stitched.offset) / 1000, verdict: assessment?.verdict, chainHead: row.hash)
    }

    private func record(_ assessment: Assessment, id: Int64, loggerID: String, readID: Int64, now: Date, in transaction: WriteTransaction) throws {
        let reasons = (try? JSONSerialization.data(withJSONObject: assessment.reasons)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        let row = AssessmentRow(
            loggerID: loggerID, id: id, readID: readID, assessed: now.milliseconds, profileName: assessment.profile.name,
            profileJSON: ProfileExport.json(assessment.profile), timeZone: assessment.timeZone.identifier, verdict: assessment.verdict.rawValue,
            reasons: reasons, excursions: Int64(assessment.excursions.count))
        try row.insert(in: transaction)
        try Archive.appendLeaf(.assessment(row), in: transaction)
    }
}

/// One row of `reads` with the fields its chain hash covers.
struct ReadRow {
    var loggerID: String
    var readID: Int64
    var chainSeq: Int64
    var rawSHA256: String
    var inputKind: String
    var readTimeMilliseconds: Int64
    var readTimeSource: String
    var origin: String
    var coldTapVersion: String
    var decoder: String
    var decodeOptions: String
    var integrityStatus: String
    var integrityDetail: String
    var timeBase: String
    var interval: Double
    var sampleCount: Int64
    var firstSample: Int64?
    var lastSample: Int64?
    var timeOffset: Int64
    var generation: Int64
    var newSamples: Int64
    var duplicates: Int64
    var conflicts: Int64
    var gapFrom: Int64?
    var gapTo: Int64?
    var addedMilliseconds: Int64
    var samplesSHA256: String
    var previousHash: String
    var hash: String

    /// The columns of `reads` a row holds, in `SELECT` order.
    enum Column: Int, ArchiveColumns {
        case loggerID, readID, chainSeq, rawSHA256, inputKind, readTimeMilliseconds, readTimeSource, origin, coldTapVersion, decoder, decodeOptions,
            integrityStatus, integrityDetail, timeBase, interval, sampleCount, firstSample, lastSample, timeOffset, generation, newSamples, duplicates,
            conflicts, gapFrom, gapTo, addedMilliseconds, samplesSHA256, previousHash, hash

        var sqlName: String {
            switch self {
            case .loggerID: return "logger_id"
            case .readID: return "read_id"
            case .chainSeq: return "chain_seq"
            case .rawSHA256: return "raw_sha256"
            case .inputKind: return "input_kind"
            case .readTimeMilliseconds: return "read_time_ms"
            case .readTimeSource: return "read_time_source"
            case .origin: return "origin"
            case .coldTapVersion: return "coldtap_version"
            case .decoder: return "decoder"
            case .decodeOptions: return "decode_options"
            case .integrityStatus: return "integrity_status"
            case .integrityDetail: return "integrity_detail"
            case .timeBase: return "time_base"
            case .interval: return "interval_s"
            case .sampleCount: return "sample_count"
            case .firstSample: return "first_sample_ms"
            case .lastSample: return "last_sample_ms"
            case .timeOffset: return "time_offset_ms"
            case .generation: return "generation"
            case .newSamples: return "new_samples"
            case .duplicates: return "duplicates"
            case .conflicts: return "conflicts"
            case .gapFrom: return "gap_from_ms"
            case .gapTo: return "gap_to_ms"
            case .addedMilliseconds: return "added_ms"
            case .samplesSHA256: return "samples_sha256"
            case .previousHash: return "prev_hash"
            case .hash: return "hash"
            }
        }
    }

    static var columns: String { Column.selectList }

    var computedHash: String {
        HashChain.hash(
            kind: "read",
            fields: [
                String(readID), String(chainSeq), loggerID, rawSHA256, inputKind, String(readTimeMilliseconds), readTimeSource,
                origin, coldTapVersion, decoder, decodeOptions, integrityStatus, integrityDetail, timeBase, HashChain.text(interval),
                String(sampleCount), HashChain.text(firstSample), HashChain.text(lastSample), String(timeOffset), String(generation),
                String(newSamples), String(duplicates), String(conflicts), HashChain.text(gapFrom), HashChain.text(gapTo),
                String(addedMilliseconds), samplesSHA256,
            ], previous: previousHash)
    }

    /// The value of one column, as bound on insert.
    func value(_ column: Column) -> SQLValue {
        switch column {
        case .loggerID: return .text(loggerID)
        case .readID: return .int(readID)
        case .chainSeq: return .int(chainSeq)
        case .rawSHA256: return .text(rawSHA256)
        case .inputKind: return .text(inputKind)
        case .readTimeMilliseconds: return .int(readTimeMilliseconds)
        case .readTimeSource: return .text(readTimeSource)
        case .origin: return .text(origin)
        case .coldTapVersion: return .text(coldTapVersion)
        case .decoder: return .text(decoder)
        case .decodeOptions: return .text(decodeOptions)
        case .integrityStatus: return .text(integrityStatus)
        case .integrityDetail: return .text(integrityDetail)
        case .timeBase: return .text(timeBase)
        case .interval: return .double(interval)
        case .sampleCount: return .int(sampleCount)
        case .firstSample: return .optional(firstSample)
        case .lastSample: return .optional(lastSample)
        case .timeOffset: return .int(timeOffset)
        case .generation: return .int(generation)
        case .newSamples: return .int(newSamples)
        case .duplicates: return .int(duplicates)
        case .conflicts: return .int(conflicts)
        case .gapFrom: return .optional(gapFrom)
        case .gapTo: return .optional(gapTo)
        case .addedMilliseconds: return .int(addedMilliseconds)
        case .samplesSHA256: return .text(samplesSHA256)
        case .previousHash: return .text(previousHash)
        case .hash: return .text(hash)
        }
    }

    func insert(raw: Data, in transaction: WriteTransaction) throws {
        let values = Column.allCases.map(value) + [.blob(raw)]
        let placeholders = (1...values.count).map { "$\($0)" }.joined(separator: ", ")
        try transaction.engine.executeDeferred("INSERT INTO reads (\(ReadRow.columns), raw) VALUES (\(placeholders))", values)
    }

    /// Reads the row from a `SELECT \(columns)` result.
    init(row: any ArchiveRow) {
        loggerID = row.text(Column.loggerID)
        readID = row.int(Column.readID)
        chainSeq = row.int(Column.chainSeq)
        rawSHA256 = row.text(Column.rawSHA256)
        inputKind = row.text(Column.inputKind)
        readTimeMilliseconds = row.int(Column.readTimeMilliseconds)
        readTimeSource = row.text(Column.readTimeSource)
        origin = row.text(Column.origin)
        coldTapVersion = row.text(Column.coldTapVersion)
        decoder = row.text(Column.decoder)
        decodeOptions = row.text(Column.decodeOptions)
        integrityStatus = row.text(Column.integrityStatus)
        integrityDetail = row.text(Column.integrityDetail)
        timeBase = row.text(Column.timeBase)
        interval = row.double(Column.interval)
        sampleCount = row.int(Column.sampleCount)
        firstSample = row.optionalInt(Column.firstSample)
        lastSample = row.optionalInt(Column.lastSample)
        timeOffset = row.int(Column.timeOffset)
        generation = row.int(Column.generation)
        newSamples = row.int(Column.newSamples)
        duplicates = row.int(Column.duplicates)
        conflicts = row.int(Column.conflicts)
        gapFrom = row.optionalInt(Column.gapFrom)
        gapTo = row.optionalInt(Column.gapTo)
        addedMilliseconds = row.int(Column.addedMilliseconds)
        samplesSHA256 = row.text(Column.samplesSHA256)
        previousHash = row.text(Column.previousHash)
        hash = row.text(Column.hash)
    }

    init(
        loggerID: String, readID: Int64, chainSeq: Int64, rawSHA256: String, inputKind: String, readTimeMilliseconds: Int64,
        readTimeSource: String, origin: String, coldTapVersion: String, decoder: String, decodeOptions: String,
        integrityStatus: String, integrityDetail: String, timeBase: String, interval: Double, sampleCount: Int64,
        firstSample: Int64?, lastSample: Int64?, timeOffset: Int64, generation: Int64, newSamples: Int64, duplicates: Int64,
        conflicts: Int64, gapFrom: Int64?, gapTo: Int64?, addedMilliseconds: Int64, samplesSHA256: String,
        previousHash: String, hash: String
    ) {
        self.loggerID = loggerID; self.readID = readID; self.chainSeq = chainSeq; self.rawSHA256 = rawSHA256
        self.inputKind = inputKind; self.readTimeMilliseconds = readTimeMilliseconds; self.readTimeSource = readTimeSource
        self.origin = origin; self.coldTapVersion = coldTapVersion; self.decoder = decoder; self.decodeOptions = decodeOptions
        self.integrityStatus = integrityStatus; self.integrityDetail = integrityDetail; self.timeBase = timeBase
        self.interval = interval; self.sampleCount = sampleCount; self.firstSample = firstSample; self.lastSample = lastSample
        self.timeOffset = timeOffset; self.generation = generation; self.newSamples = newSamples; self.duplicates = duplicates
        self.conflicts = conflicts; self.gapFrom = gapFrom; self.gapTo = gapTo; self.addedMilliseconds = addedMilliseconds
        self.samplesSHA256 = samplesSHA256; self.previousHash = previousHash; self.hash = hash
    }
}
