import ColdChain
import Foundation
import LoggerFormats

extension Archive {
    // MARK: Loggers

    public func logger(_ id: String) throws -> LoggerRecord? {
        var found: LoggerRecord?
        try engine.query("SELECT \(LoggerRecord.Column.selectList) FROM loggers WHERE logger_id = $1", [.text(id)]) { row in
            found = LoggerRecord(row: row)
        }
        return found
    }

    /// What a person may call a logger: its id, else its serial, tag UID or carried id
    /// (`FORMAT:SERIAL`) when it is kept under a name of its own.
    public enum LoggerLookup: Equatable, Sendable {
        case found(String)
        /// Several loggers answer to the text (their ids).
        case ambiguous([String])
        case none
    }

    public func findLogger(_ text: String) throws -> LoggerLookup {
        if try logger(text) != nil { return .found(text) }
        let afterFormat = text.firstIndex(of: ":").map { String(text[text.index(after: $0)...]) } ?? text
        let uid = (afterFormat.hasPrefix("tag-") ? String(afterFormat.dropFirst(4)) : afterFormat).uppercased()
        var ids: [String] = []
        try engine.query(
            "SELECT \(LoggerRecord.Column.selectList) FROM loggers WHERE serial = $1 OR serial = $2 OR UPPER(tag_uid) = $3 ORDER BY logger_id",
            [.text(text), .text(afterFormat), .text(uid)]
        ) { row in
            let record = LoggerRecord(row: row)
            let carried = Archive.loggerID(format: record.format, serial: record.serial, tagUID: record.tagUID)
            if record.serial == text || record.tagUID?.uppercased() == text.uppercased() || carried == text { ids.append(record.id) }
        }
        switch ids.count {
        case 0: return .none
        case 1: return .found(ids[0])
        default: return .ambiguous(ids)
        }
    }

    /// Every logger, by id, with its period, number of reads and newest verdict.
    public func loggers() throws -> [LoggerSummary] {
        var summaries: [LoggerSummary] = []
        try engine.query(
            "SELECT \(LoggerRecord.Column.selectList(qualifiedBy: "l")), \(Archive.summaryFacts) FROM loggers l ORDER BY l.logger_id", []
        ) { row in
            summaries.append(Archive.summary(row: row))
        }
        return summaries
    }

    /// `loggerID`'s line of `coldtap loggers`, or `nil` for an unknown logger.
    public func loggerSummary(_ loggerID: String) throws -> LoggerSummary? {
        var found: LoggerSummary?
        try engine.query(
            "SELECT \(LoggerRecord.Column.selectList(qualifiedBy: "l")), \(Archive.summaryFacts) FROM loggers l WHERE l.logger_id = $1",
            [.text(loggerID)]
        ) { row in
            found = Archive.summary(row: row)
        }
        return found
    }

    /// What a logger's summary adds to its row, one subquery each, so that a summary is one
    /// statement (one round trip, one snapshot): its period in the current generation, its
    /// number of reads, the verdict and profile of its newest assessment.
    static let summaryFacts = """
        (SELECT MIN(b.first_ms) FROM sample_blocks b WHERE b.logger_id = l.logger_id AND b.generation = \(currentGenerationSQL)),
        (SELECT MAX(b.last_ms) FROM sample_blocks b WHERE b.logger_id = l.logger_id AND b.generation = \(currentGenerationSQL)),
        (SELECT COUNT(*) FROM reads r WHERE r.logger_id = l.logger_id),
        (SELECT a.verdict FROM assessments a WHERE a.logger_id = l.logger_id ORDER BY a.assessment_id DESC LIMIT 1),
        (SELECT a.profile_json FROM assessments a WHERE a.logger_id = l.logger_id ORDER BY a.assessment_id DESC LIMIT 1)
        """

    /// The current generation as an SQL expression (`currentGeneration()` inside a statement).
    static let currentGenerationSQL = "(SELECT COALESCE(MAX(generation), 1) FROM generations)"

    /// A summary from a row of the logger's columns followed by `summaryFacts`.
    static func summary(row: any ArchiveRow) -> LoggerSummary {
        let facts = LoggerRecord.Column.allCases.count
        var summary = LoggerSummary(
            logger: LoggerRecord(row: row), firstSample: nil, lastSample: nil, readCount: Int(row.int(facts + 2)),
            lastVerdict: row.optionalText(facts + 3), lastProfileJSON: row.optionalText(facts + 4))
        if let first = row.optionalInt(facts), let last = row.optionalInt(facts + 1) {
            (summary.firstSample, summary.lastSample) = (Date(milliseconds: first), Date(milliseconds: last))
        }
        return summary
    }

    // MARK: History

    /// The stitched record of `loggerID` from `from` to `to` (either open), in the current
    /// generation: samples oldest first with the read that first saw each, the reads that
    /// cover the period, the gaps between samples that do not meet, conflicts and
    /// acknowledgements.
    /// - Throws: `ArchiveError(.notFound)` for a logger the archive does not know.
    public func history(loggerID: String, from: Date? = nil, to: Date? = nil) throws -> History {
        try engine.readTransaction { try historyInTransaction(loggerID: loggerID, from: from, to: to) }
    }

    /// `history`, inside the caller's transaction (a lot's journey reads several loggers'
    /// histories from one snapshot).
    func historyInTransaction(loggerID: String, from: Date?, to: Date?) throws -> History {
        guard let logger = try logger(loggerID) else {
            let known = try engine.scalarInt("SELECT COUNT(*) FROM loggers") ?? 0
            throw ArchiveError(
                .notFound, "the archive \(engine.location) holds no logger '\(loggerID)'" + (known > 0 ? "." : "; it holds no reads yet."),
                hint: known > 0 ? .listLoggers(count: Int(known)) : nil)
        }
        let generation = try currentGeneration()
        let low = from?.milliseconds ?? Int64.min
        let high = to?.milliseconds ?? Int64.max
        let id = SQLValue.text(loggerID)
        let stored = try storedSamples(loggerID: loggerID, generation: Int64(generation), from: low, to: high)
        var flagSets: [String: [TemperatureLog.SampleFlag]] = [:]
        let samples = stored.map { item -> StitchedSample in
            let flags: [TemperatureLog.SampleFlag]
            if item.flags.isEmpty {
                flags = []
            } else if let known = flagSets[item.flags] {
                flags = known
            } else {
                flags = Archive.flags(item.flags)
                flagSets[item.flags] = flags
            }
            return StitchedSample(
                sample: TemperatureLog.Sample(
                    time: Date(milliseconds: item.time), temperature: item.temperature,
                    humidity: item.humidity, flags: flags),
                readID: item.readID)
        }
        var reads: [ReadSummary] = []
        try engine.query(
            """
            SELECT \(ReadSummary.Column.selectList) \(ReadSummary.fromGeneration)
            WHERE r.logger_id = $1 AND (r.last_sample_ms IS NULL OR (r.last_sample_ms >= $3 AND r.first_sample_ms <= $4))
            ORDER BY r.read_id
            """, [id, .int(Int64(generation)), .int(low), .int(high)]
        ) { row in
            reads.append(ReadSummary(row: row))
        }
        // The newest read's interval is the logger's interval now.
        var interval = reads.max { $0.readTime < $1.readTime }?.interval ?? 0
        if reads.isEmpty {
            try engine.query("SELECT interval_s FROM reads WHERE logger_id = $1 ORDER BY read_id DESC LIMIT 1", [id]) { interval = $0.double(0) }
        }
        var conflicts: [SampleConflict] = []
        try engine.query(
            """
            SELECT \(ConflictRow.Column.selectList) FROM conflicts
            WHERE logger_id = $1 AND generation = $2 AND time_ms >= $3 AND time_ms <= $4 ORDER BY time_ms, read_id
            """, [id, .int(Int64(generation)), .int(low), .int(high)]
        ) { row in
            let conflict = ConflictRow(row: row)
            let other = conflict.other
            let time = Date(milliseconds: other.time)
            // The kept value is the stitched sample at that time (in range, so among `stored`).
            guard let kept = Archive.sample(at: other.time, in: stored) else { return }
            conflicts.append(
                SampleConflict(
                    time: time,
                    kept: .init(time: time, temperature: kept.temperature, humidity: kept.humidity, flags: Archive.flags(kept.flags)),
                    keptReadID: conflict.keptReadID,
                    other: .init(time: time, temperature: other.temperature, humidity: other.humidity, flags: Archive.flags(other.flags)),
                    otherReadID: other.readID))
        }
        let acknowledgements = try acknowledgements(loggerID: loggerID)
        let gaps = Archive.gaps(in: samples.map(\.sample.time), interval: interval)
        var history = History(
            logger: logger, generation: generation, interval: interval, reads: reads, samples: samples, gaps: gaps,
            conflicts: conflicts, acknowledgements: acknowledgements, chainHead: try chainHead().hash,
            from: from, to: to)
        if let summaries = try stitchedDailySummaries(loggerID: loggerID, generation: Int64(generation), from: low, to: high) {
            history.dailySummaries = summaries.days
            history.loggerAlarms = summaries.alarms
            history.loggerTimeZone = summaries.zone
        }
        return history
    }

    /// Where consecutive samples are more than one and a half intervals apart: from the end
    /// of the earlier sample's interval to the later sample.
    static func gaps(in times: [Date], interval: TimeInterval) -> [DateInterval] {
        guard interval > 0, times.count > 1 else { return [] }
        var gaps: [DateInterval] = []
        for index in 1..<times.count {
            let end = times[index - 1].addingTimeInterval(interval)
            if times[index].timeIntervalSince(times[index - 1]) > interval * 1.5 {
                gaps.append(DateInterval(start: end, end: times[index]))
            }
        }
        return gaps
    }

    public func acknowledgements(loggerID: String) throws -> [Acknowledgement] {
        var result: [Acknowledgement] = []
        try engine.query(
            "SELECT \(Acknowledgement.Column.selectList) FROM acknowledgements WHERE logger_id = $1 ORDER BY ack_id", [.text(loggerID)]
        ) { row in
            result.append(Acknowledgement(row: row))
        }
        return result
    }

    // MARK: Acknowledgements

    /// Keeps an acknowledgement of the excursion starting at `excursionStart`, chained
    /// after the newest row.
    /// - Throws: `ArchiveError(.notFound)` for an unknown logger.
    public func acknowledge(loggerID: String, excursionStart: Date, by: String, comment: String, at: Date = Date()) throws -> Acknowledgement {
        try engine.writeTransaction { transaction in
            try acknowledge(loggerID: loggerID, excursionStart: excursionStart, by: by, comment: comment, at: at, in: transaction)
        }
    }

    /// `acknowledge` inside `transaction` (a signed acknowledgement keeps its signature in
    /// the same one).
    func acknowledge(
        loggerID: String, excursionStart: Date, by: String, comment: String, at: Date, in transaction: WriteTransaction
    ) throws -> Acknowledgement {
        guard try logger(loggerID) != nil else {
            throw ArchiveError(.notFound, "the archive \(engine.location) holds no logger '\(loggerID)'.", hint: .listLoggers(count: nil))
        }
        let id = (try engine.scalarInt("SELECT MAX(ack_id) FROM acknowledgements WHERE logger_id = $1", [.text(loggerID)]) ?? 0) + 1
        let head = try chainHead()
        let row = AcknowledgementRow(
            loggerID: loggerID, ackID: id, chainSeq: head.length + 1,
            excursionStart: excursionStart.milliseconds, by: by, at: at.milliseconds,
            comment: comment, previousHash: head.hash)
        try engine.execute(
            "INSERT INTO acknowledgements (logger_id, ack_id, chain_seq, excursion_start_ms, acknowledged_by, acknowledged_ms, comment, prev_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            [
                .text(loggerID), .int(id), .int(row.chainSeq), .int(row.excursionStart), .text(by), .int(row.at),
                .text(comment), .text(head.hash), .text(row.computedHash),
            ])
        try engine.execute("UPDATE chain_head SET seq = $1, hash = $2 WHERE id = 1", [.int(row.chainSeq), .text(row.computedHash)])
        try Archive.appendLeaf(.acknowledgement(row, hash: row.computedHash), in: transaction)
        return Acknowledgement(id: id, excursionStart: excursionStart, by: by, at: at, comment: comment)
    }
}

struct AcknowledgementRow {
    var loggerID: String
    var ackID: Int64
    var chainSeq: Int64
    var excursionStart: Int64
    var by: String
    var at: Int64
    var comment: String
    var previousHash: String

    var computedHash: String {
        HashChain.hash(
            kind: "acknowledgement",
            fields: [
                String(ackID), String(chainSeq), loggerID, String(excursionStart), by,
                String(at), comment,
            ], previous: previousHash)
    }
}

extension ReadSummary {
    /// What `history` shows of a read, its times as stitched in one generation.
    enum Column: Int, ArchiveColumns {
        case id, readTime, readTimeSource, origin, sha256, decoder, coldTapVersion, integrityStatus, integrityDetail
        case sampleCount, firstSample, lastSample, newSamples, duplicates, conflicts, timeBase, interval, decodeOptions

        var sqlName: String {
            switch self {
            case .id: return "r.read_id"
            case .readTime: return "r.read_time_ms"
            case .readTimeSource: return "r.read_time_source"
            case .origin: return "r.origin"
            case .sha256: return "r.raw_sha256"
            case .decoder: return "r.decoder"
            case .coldTapVersion: return "r.coldtap_version"
            case .integrityStatus: return "r.integrity_status"
            case .integrityDetail: return "r.integrity_detail"
            case .sampleCount: return "r.sample_count"
            // A read's sample times as stitched: its own offset replaced by the generation's.
            case .firstSample: return "r.first_sample_ms + g.time_offset_ms - r.time_offset_ms"
            case .lastSample: return "r.last_sample_ms + g.time_offset_ms - r.time_offset_ms"
            case .newSamples: return "g.new_samples"
            case .duplicates: return "g.duplicates"
            case .conflicts: return "g.conflicts"
            case .timeBase: return "r.time_base"
            case .interval: return "r.interval_s"
            case .decodeOptions: return "r.decode_options"
            }
        }
    }

    /// The reads joined to their rows of generation `$2`.
    static let fromGeneration = from(generation: "$2")

    /// The reads as they are in the generation that the SQL expression `generation` names.
    static func from(generation: String) -> String {
        "FROM reads r JOIN read_generations g ON g.logger_id = r.logger_id AND g.read_id = r.read_id AND g.generation = \(generation)"
    }

    /// Reads the summary from a `SELECT \(Column.selectList)` result.
    init(row: any ArchiveRow) {
        let detail = row.text(Column.integrityDetail)
        self.init(
            id: row.int(Column.id), readTime: Date(milliseconds: row.int(Column.readTime)), readTimeSource: row.text(Column.readTimeSource),
            origin: row.text(Column.origin), sha256: row.text(Column.sha256), decoder: row.text(Column.decoder),
            coldTapVersion: row.text(Column.coldTapVersion),
            integrity: row.text(Column.integrityStatus) + (detail.isEmpty ? "" : " (\(detail))"), sampleCount: Int(row.int(Column.sampleCount)),
            firstSample: row.optionalInt(Column.firstSample).map { Date(milliseconds: $0) },
            lastSample: row.optionalInt(Column.lastSample).map { Date(milliseconds: $0) },
            newSamples: Int(row.int(Column.newSamples)), duplicates: Int(row.int(Column.duplicates)), conflicts: Int(row.int(Column.conflicts)),
            timeBase: row.text(Column.timeBase), interval: row.double(Column.interval), decodeOptions: row.text(Column.decodeOptions))
    }
}
