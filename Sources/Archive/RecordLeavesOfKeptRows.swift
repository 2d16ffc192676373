import ColdTapBase
import Foundation

// The leaves of rows kept before the record existed: the migrations that made the record
// (the archive's schema 5, the station's schema 4) append, in the order the rows were kept,
// a leaf for every fact already in the archive.

extension Archive {
    /// Schema 5 makes the record's tables and appends, in the order they were kept, a leaf
    /// for every fact already in the archive: per entry of the read/acknowledgement chain a
    /// read (after its logger's identity, when it is that logger's first) and its
    /// assessments, or an acknowledgement; then later generations and what each read added
    /// to them.
    static func appendLeavesOfKeptRows(_ transaction: WriteTransaction) throws {
        let engine = transaction.engine
        try engine.execute("INSERT INTO record_origin (id, origin) VALUES (1, $1)", [.text(newRecordOrigin())])
        var reads: [ReadRow] = []
        try engine.query("SELECT \(ReadRow.columns) FROM reads ORDER BY chain_seq", []) { reads.append(ReadRow(row: $0)) }
        var acknowledgements: [(AcknowledgementRow, String)] = []
        try engine.query("SELECT \(AcknowledgementRow.Column.selectList) FROM acknowledgements ORDER BY chain_seq", []) { row in
            acknowledgements.append((AcknowledgementRow(row: row), row.text(AcknowledgementRow.Column.hash)))
        }
        var assessments: [String: [AssessmentRow]] = [:]
        try engine.query("SELECT \(AssessmentRow.Column.selectList) FROM assessments ORDER BY logger_id, assessment_id", []) { row in
            let assessment = AssessmentRow(row: row)
            assessments["\(assessment.loggerID)/\(assessment.readID)", default: []].append(assessment)
        }
        var loggers: [String: (LoggerRecord, Int64)] = [:]
        for (record, firstRead) in try loggersWithFirstRead(engine) { loggers[record.id] = (record, firstRead) }
        var entries: [(Int64, RecordLeaf?, ReadRow?)] = reads.map { ($0.chainSeq, nil, $0) }
        entries += acknowledgements.map { ($0.0.chainSeq, RecordLeaf.acknowledgement($0.0, hash: $0.1), nil) }
        for (_, leaf, read) in entries.sorted(by: { $0.0 < $1.0 }) {
            guard let read else {
                if let leaf { try appendLeaf(leaf, in: transaction) }
                continue
            }
            if let (logger, first) = loggers[read.loggerID], first == read.readID {
                try appendLeaf(.logger(logger, firstReadID: first), in: transaction)
            }
            try appendLeaf(.read(read), in: transaction)
            for assessment in assessments["\(read.loggerID)/\(read.readID)"] ?? [] { try appendLeaf(.assessment(assessment), in: transaction) }
        }
        for leaf in try laterGenerationLeaves(engine) { try appendLeaf(leaf, in: transaction) }
    }

    /// Every logger's identity and the read it was first kept with.
    static func loggersWithFirstRead(_ engine: any ArchiveEngine) throws -> [(LoggerRecord, Int64)] {
        var records: [LoggerRecord] = []
        try engine.query("SELECT \(LoggerRecord.Column.selectList) FROM loggers ORDER BY logger_id", []) { records.append(LoggerRecord(row: $0)) }
        enum FirstRead: Int, ArchiveColumns {
            case loggerID, readID
            var sqlName: String { self == .loggerID ? "logger_id" : "first_read_id" }
        }
        var firstReads: [String: Int64] = [:]
        try engine.query("SELECT \(FirstRead.selectList) FROM loggers", []) { row in
            firstReads[row.text(FirstRead.loggerID)] = row.int(FirstRead.readID)
        }
        return records.map { ($0, firstReads[$0.id] ?? 0) }
    }

    /// The leaves of the generations after the first, each followed by what each read added
    /// to it, in the order they were made.
    static func laterGenerationLeaves(_ engine: any ArchiveEngine) throws -> [RecordLeaf] {
        enum Generation: Int, ArchiveColumns {
            case generation, created, version, note
            var sqlName: String { ["generation", "created_ms", "coldtap_version", "note"][rawValue] }
        }
        var generations: [(Int64, RecordLeaf)] = []
        try engine.query("SELECT \(Generation.selectList) FROM generations WHERE generation > 1 ORDER BY generation", []) { row in
            let generation = row.int(Generation.generation)
            generations.append(
                (
                    generation,
                    .generation(
                        generation, created: row.int(Generation.created), coldTapVersion: row.text(Generation.version),
                        note: row.text(Generation.note))
                ))
        }
        var leaves: [RecordLeaf] = []
        for (generation, leaf) in generations {
            leaves.append(leaf)
            leaves += try readGenerationLeaves(engine, generation: generation)
        }
        return leaves
    }

    /// What each read added to `generation`, in the order the reads were kept.
    static func readGenerationLeaves(_ engine: any ArchiveEngine, generation: Int64) throws -> [RecordLeaf] {
        enum Added: Int, ArchiveColumns {
            case loggerID, readID, offset, digest
            var sqlName: String { ["g.logger_id", "g.read_id", "g.time_offset_ms", "g.samples_sha256"][rawValue] }
        }
        var leaves: [RecordLeaf] = []
        try engine.query(
            """
            SELECT \(Added.selectList) FROM read_generations g JOIN reads r ON r.logger_id = g.logger_id AND r.read_id = g.read_id
            WHERE g.generation = $1 ORDER BY r.chain_seq
            """, [.int(generation)]
        ) { row in
            leaves.append(
                .readGeneration(
                    loggerID: row.text(Added.loggerID), readID: row.int(Added.readID), generation: generation, offset: row.int(Added.offset),
                    samplesSHA256: row.text(Added.digest)))
        }
        return leaves
    }

    /// `coldtap/archive/` and 128 random bits in hex: names this archive's log apart from
    /// every other's (a checkpoint of one never passes for another's).
    static func newRecordOrigin() -> String {
        "coldtap/archive/" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}

extension StationStore {
    /// Station schema 4: a leaf for every station row kept before, kind by kind in the order
    /// each was made (sites, tokens and their revocations, ownership, profiles, webhooks,
    /// secrets).
    static func appendLeavesOfKeptRows(_ transaction: WriteTransaction) throws {
        for leaf in try Archive.expectedStationLeaves(transaction.engine) { try Archive.appendLeaf(leaf, in: transaction) }
    }
}
