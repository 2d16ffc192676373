import ColdTapBase
import Foundation
import LoggerFormats

/// The record's schema (reads, samples, assessments, acknowledgements, the Merkle tree, lots)
/// as a migration registry, applied in order on open (`MigrationRegistry` says the rules).
///
/// Every table that grows with the fleet leads its primary key with `logger_id`, so a
/// distributed PostgreSQL (Citus) can shard them all by logger (DESIGN.md, "Scale, on paper").
enum Migrations {
    typealias Migration = MigrationRegistry.Migration

    static let record = MigrationRegistry(
        table: "schema_migrations",
        [
            Migration(
                version: 1, name: "reads, loggers, stitched samples, assessments, acknowledgements, hash chain",
                sql: """
                    CREATE TABLE schema_migrations (
                        version INTEGER PRIMARY KEY,
                        name TEXT NOT NULL,
                        applied_ms BIGINT NOT NULL
                    );
                    CREATE TABLE chain_head (
                        id INTEGER PRIMARY KEY,
                        seq BIGINT NOT NULL,
                        hash TEXT NOT NULL,
                        next_read_id BIGINT NOT NULL
                    );
                    INSERT INTO chain_head (id, seq, hash, next_read_id) VALUES (1, 0, '\(HashChain.genesis)', 1);
                    CREATE TABLE generations (
                        generation INTEGER PRIMARY KEY,
                        created_ms BIGINT NOT NULL,
                        coldtap_version TEXT NOT NULL,
                        note TEXT NOT NULL
                    );
                    CREATE TABLE loggers (
                        logger_id TEXT PRIMARY KEY,
                        format TEXT NOT NULL,
                        serial TEXT,
                        tag_uid TEXT,
                        vendor TEXT,
                        model TEXT,
                        first_read_id BIGINT NOT NULL
                    );
                    CREATE TABLE reads (
                        logger_id TEXT NOT NULL,
                        read_id BIGINT NOT NULL,
                        chain_seq BIGINT NOT NULL,
                        raw BYTES NOT NULL,
                        raw_sha256 TEXT NOT NULL,
                        input_kind TEXT NOT NULL,
                        read_time_ms BIGINT NOT NULL,
                        read_time_source TEXT NOT NULL,
                        origin TEXT NOT NULL,
                        coldtap_version TEXT NOT NULL,
                        decoder TEXT NOT NULL,
                        decode_options TEXT NOT NULL,
                        integrity_status TEXT NOT NULL,
                        integrity_detail TEXT NOT NULL,
                        time_base TEXT NOT NULL,
                        interval_s DOUBLE PRECISION NOT NULL,
                        sample_count BIGINT NOT NULL,
                        first_sample_ms BIGINT,
                        last_sample_ms BIGINT,
                        time_offset_ms BIGINT NOT NULL,
                        generation INTEGER NOT NULL,
                        new_samples BIGINT NOT NULL,
                        duplicates BIGINT NOT NULL,
                        conflicts BIGINT NOT NULL,
                        gap_from_ms BIGINT,
                        gap_to_ms BIGINT,
                        added_ms BIGINT NOT NULL,
                        samples_sha256 TEXT NOT NULL,
                        prev_hash TEXT NOT NULL,
                        hash TEXT NOT NULL,
                        PRIMARY KEY (logger_id, read_id)
                    );
                    CREATE UNIQUE INDEX reads_by_raw ON reads (logger_id, raw_sha256);
                    CREATE TABLE samples (
                        logger_id TEXT NOT NULL,
                        generation INTEGER NOT NULL,
                        time_ms BIGINT NOT NULL,
                        temperature DOUBLE PRECISION,
                        humidity DOUBLE PRECISION,
                        flags TEXT NOT NULL,
                        read_id BIGINT NOT NULL,
                        PRIMARY KEY (logger_id, generation, time_ms)
                    ) /*clustered*/;
                    CREATE TABLE conflicts (
                        logger_id TEXT NOT NULL,
                        generation INTEGER NOT NULL,
                        time_ms BIGINT NOT NULL,
                        read_id BIGINT NOT NULL,
                        temperature DOUBLE PRECISION,
                        humidity DOUBLE PRECISION,
                        flags TEXT NOT NULL,
                        kept_read_id BIGINT NOT NULL,
                        PRIMARY KEY (logger_id, generation, time_ms, read_id)
                    );
                    CREATE TABLE read_generations (
                        logger_id TEXT NOT NULL,
                        generation INTEGER NOT NULL,
                        read_id BIGINT NOT NULL,
                        time_offset_ms BIGINT NOT NULL,
                        new_samples BIGINT NOT NULL,
                        duplicates BIGINT NOT NULL,
                        conflicts BIGINT NOT NULL,
                        samples_sha256 TEXT NOT NULL,
                        PRIMARY KEY (logger_id, generation, read_id)
                    );
                    CREATE TABLE assessments (
                        logger_id TEXT NOT NULL,
                        assessment_id BIGINT NOT NULL,
                        read_id BIGINT NOT NULL,
                        assessed_ms BIGINT NOT NULL,
                        profile_name TEXT NOT NULL,
                        profile_json TEXT NOT NULL,
                        time_zone TEXT NOT NULL,
                        verdict TEXT NOT NULL,
                        reasons TEXT NOT NULL,
                        excursions BIGINT NOT NULL,
                        PRIMARY KEY (logger_id, assessment_id)
                    );
                    CREATE TABLE acknowledgements (
                        logger_id TEXT NOT NULL,
                        ack_id BIGINT NOT NULL,
                        chain_seq BIGINT NOT NULL,
                        excursion_start_ms BIGINT NOT NULL,
                        acknowledged_by TEXT NOT NULL,
                        acknowledged_ms BIGINT NOT NULL,
                        comment TEXT NOT NULL,
                        prev_hash TEXT NOT NULL,
                        hash TEXT NOT NULL,
                        PRIMARY KEY (logger_id, ack_id)
                    );
                    CREATE INDEX acknowledgements_by_chain ON acknowledgements (chain_seq);
                    """),
            // A row per sample cost a statement per sample on every add; blocks are one per read.
            Migration(
                version: 2, name: "samples kept as one block per read and generation",
                sql: """
                    CREATE TABLE sample_blocks (
                        logger_id TEXT NOT NULL,
                        generation INTEGER NOT NULL,
                        first_ms BIGINT NOT NULL,
                        last_ms BIGINT NOT NULL,
                        read_id BIGINT NOT NULL,
                        sample_count BIGINT NOT NULL,
                        samples BYTES NOT NULL,
                        PRIMARY KEY (logger_id, generation, first_ms)
                    );
                    CREATE UNIQUE INDEX sample_blocks_by_read ON sample_blocks (logger_id, generation, read_id);
                    """, transform: moveSampleRowsIntoBlocks),
            // Which blocks reach past a time (the newest sample before a read, the blocks a read
            // overlaps, a logger's last sample) was a walk over all of the logger's blocks: every
            // add grew slower with the record. By their end these are a seek and the few blocks found.
            Migration(
                version: 3, name: "sample blocks found by their end",
                sql: """
                    CREATE INDEX sample_blocks_by_end ON sample_blocks (logger_id, generation, last_ms);
                    """),
            // A read that gives no logger id is matched with a logger first kept under a name of
            // its own by the serial or tag UID it carries (`Archive.loggerID(carriedBy:)`): asked
            // on every such read, so by index rather than a walk over all loggers.
            Migration(
                version: 4, name: "loggers found by the serial or tag UID they carry",
                sql: """
                    CREATE INDEX loggers_by_serial ON loggers (format, serial);
                    CREATE INDEX loggers_by_tag_uid ON loggers (format, tag_uid);
                    """),
            // The archive as a transparency log (docs/archive-record.md): a leaf per fact kept,
            // the tree's signed checkpoints, and the log's name. Rows kept before get their
            // leaves here, in the order they were kept.
            Migration(
                version: 5, name: "the record as a Merkle tree: leaves, checkpoints, origin",
                sql: """
                    CREATE TABLE record_origin (
                        id INTEGER PRIMARY KEY,
                        origin TEXT NOT NULL
                    );
                    CREATE TABLE record_leaves (
                        leaf_index BIGINT PRIMARY KEY,
                        kind TEXT NOT NULL,
                        leaf_key TEXT NOT NULL,
                        leaf BYTES NOT NULL,
                        leaf_hash TEXT NOT NULL
                    );
                    CREATE INDEX record_leaves_by_key ON record_leaves (kind, leaf_key);
                    CREATE TABLE record_checkpoints (
                        tree_size BIGINT PRIMARY KEY,
                        root_hash TEXT NOT NULL,
                        note TEXT NOT NULL,
                        signed_ms BIGINT NOT NULL
                    );
                    """, transform: Archive.appendLeavesOfKeptRows),
            // A root or a proof read every leaf hash: a report of a fleet's archive (millions of
            // leaves) took seconds. The hashes of whole subtrees of 256 leaves and more are kept
            // (a cache `verify` recomputes); a proof then reads O(log n) of them and one block.
            Migration(
                version: 6, name: "the record's whole subtrees kept for proofs",
                sql: """
                    CREATE TABLE record_subtrees (
                        level INTEGER NOT NULL,
                        position BIGINT NOT NULL,
                        subtree_hash TEXT NOT NULL,
                        PRIMARY KEY (level, position)
                    );
                    """, transform: { transaction in try Archive.keepSubtrees(size: try Archive.recordSize(transaction.engine), in: transaction) }),
            // Lots of product and their journeys (docs/stability.md): products registered by
            // version, each lot with the product file it is judged by, hand-overs never edited.
            Migration(
                version: 7, name: "products, lots and their moves",
                sql: """
                    CREATE TABLE products (
                        name TEXT NOT NULL,
                        version INTEGER NOT NULL,
                        product_json TEXT NOT NULL,
                        product_sha256 TEXT NOT NULL,
                        added_ms BIGINT NOT NULL,
                        added_by TEXT NOT NULL,
                        PRIMARY KEY (name, version)
                    );
                    CREATE TABLE lots (
                        site_id BIGINT NOT NULL,
                        lot_id TEXT NOT NULL,
                        product_name TEXT NOT NULL,
                        product_version INTEGER NOT NULL,
                        product_json TEXT NOT NULL,
                        product_sha256 TEXT NOT NULL,
                        quantity BIGINT,
                        note TEXT NOT NULL,
                        created_ms BIGINT NOT NULL,
                        created_by TEXT NOT NULL,
                        PRIMARY KEY (site_id, lot_id)
                    );
                    CREATE TABLE lot_moves (
                        site_id BIGINT NOT NULL,
                        lot_id TEXT NOT NULL,
                        move_seq INTEGER NOT NULL,
                        kind TEXT NOT NULL,
                        logger_id TEXT,
                        at_ms BIGINT NOT NULL,
                        reason TEXT,
                        place TEXT NOT NULL,
                        moved_by TEXT NOT NULL,
                        recorded_ms BIGINT NOT NULL,
                        origin TEXT NOT NULL,
                        PRIMARY KEY (site_id, lot_id, move_seq)
                    );
                    CREATE INDEX lot_moves_by_logger ON lot_moves (logger_id);
                    """),
            // A logger that summarises its days itself (a Berlinger Fridge-tag, docs/berlinger.md
            // §4): the days and configured alarms each read gave, per generation, derived from its
            // raw bytes (`archive verify` decodes them again and compares).
            Migration(
                version: 8, name: "the daily summaries each read gave",
                sql: """
                    CREATE TABLE read_daily_summaries (
                        logger_id TEXT NOT NULL,
                        generation INTEGER NOT NULL,
                        read_id BIGINT NOT NULL,
                        summaries TEXT NOT NULL,
                        PRIMARY KEY (logger_id, generation, read_id)
                    );
                    """, transform: Archive.keepDailySummariesOfKeptReports),
        ])

    /// Version 1's `samples` rows, grouped by logger, generation and read, become blocks;
    /// then the table goes.
    static func moveSampleRowsIntoBlocks(_ transaction: WriteTransaction) throws {
        let engine = transaction.engine
        /// A row of version 1's `samples` table.
        enum VersionOneSample: Int, ArchiveColumns {
            case loggerID, generation, readID, time, temperature, humidity, flags

            var sqlName: String {
                switch self {
                case .loggerID: return "logger_id"
                case .generation: return "generation"
                case .readID: return "read_id"
                case .time: return "time_ms"
                case .temperature: return "temperature"
                case .humidity: return "humidity"
                case .flags: return "flags"
                }
            }
        }
        var group: (logger: String, generation: Int64, read: Int64)?
        var samples: [StoredSample] = []
        func flush() throws {
            guard let group, let first = samples.first, let last = samples.last else { return }
            try engine.execute(
                "INSERT INTO sample_blocks (logger_id, generation, first_ms, last_ms, read_id, sample_count, samples) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                [
                    .text(group.logger), .int(group.generation), .int(first.time), .int(last.time), .int(group.read),
                    .int(Int64(samples.count)), .blob(SampleBlock.encode(samples)),
                ])
            samples.removeAll(keepingCapacity: true)
        }
        // Collected first: SQLite may not write a table while a query of the same connection is open on it.
        var rows: [(String, Int64, StoredSample)] = []
        try engine.query(
            "SELECT \(VersionOneSample.selectList) FROM samples ORDER BY logger_id, generation, read_id, time_ms", []
        ) { row in
            rows.append(
                (
                    row.text(VersionOneSample.loggerID), row.int(VersionOneSample.generation),
                    StoredSample(
                        time: row.int(VersionOneSample.time), temperature: row.optionalDouble(VersionOneSample.temperature),
                        humidity: row.optionalDouble(VersionOneSample.humidity), flags: row.text(VersionOneSample.flags),
                        readID: row.int(VersionOneSample.readID))
                ))
        }
        for (logger, generation, sample) in rows {
            if let current = group, current.logger == logger, current.generation == generation, current.read == sample.readID {
                samples.append(sample)
                continue
            }
            try flush()
            group = (logger, generation, sample.readID)
            samples.append(sample)
        }
        try flush()
        try engine.executeScript("DROP TABLE samples")
        if engine.engineName == "postgresql" {
            // Packed doubles hardly compress: storing them as they are saves the server the
            // compression attempt on every upload (TOAST would try pglz first).
            try engine.executeScript("ALTER TABLE sample_blocks ALTER COLUMN samples SET STORAGE EXTERNAL")
        }
    }

    /// The newest schema this ColdTap writes.
    static var latestVersion: Int { record.latestVersion }

    /// Brings the archive to `latestVersion`, or refuses one written by a newer ColdTap.
    /// - Throws: `ArchiveError(.newerVersion)` without changing anything; engine errors.
    /// - Parameter target: the version to stop at (tests make older archives with it).
    static func apply(to engine: any ArchiveEngine, upTo target: Int = latestVersion, now: Date = Date()) throws {
        if let version = try currentVersion(engine), version >= target {
            try refuseNewer(version, engine: engine)
            return
        }
        try engine.writeTransaction { transaction in
            try engine.lockForMigration()
            // Another process may have migrated while this one waited for the lock.
            let version = try currentVersion(engine) ?? 0
            try refuseNewer(version, engine: engine)
            try record.apply(after: version, upTo: target, now: now, in: transaction)
            if version == 0 {
                try engine.execute(
                    "INSERT INTO generations (generation, created_ms, coldtap_version, note) VALUES (1, $1, $2, $3)",
                    [.int(now.milliseconds), .text(ColdTapVersion.current), .text("samples as first decoded")])
            }
        }
    }

    private static func refuseNewer(_ version: Int, engine: any ArchiveEngine) throws {
        guard version > latestVersion else { return }
        throw ArchiveError(
            .newerVersion,
            "the archive \(engine.location) was written by a newer ColdTap (schema version \(version); this ColdTap knows up to \(latestVersion)); it was left unchanged; use that newer ColdTap."
        )
    }

    /// The applied schema version, or `nil` for an empty database.
    static func currentVersion(_ engine: any ArchiveEngine) throws -> Int? {
        // `reads` is looked at first: another process's first migration creates both tables
        // in one transaction, so when `reads` is there `schema_migrations` is there too
        // (asked the other way round, its commit can fall between the two questions).
        let holdsReads = try engine.tableExists("reads")
        guard let version = try record.appliedVersion(engine) else {
            guard !holdsReads else {
                throw ArchiveError(.corrupt, "\(engine.location) holds tables but no schema version, so it is not a ColdTap archive.", hint: .useAnotherArchive)
            }
            return nil
        }
        return version
    }
}

/// The version of ColdTap that writes reads, kept with every read.

extension Date {
    /// Milliseconds since 1970, rounded to the nearest; held to years 0001–9999
    /// (`ISO8601Time.representable`), which every parser of times keeps to, so that a time
    /// from elsewhere (a decoder's sum) can never trap or wrap here.
    var milliseconds: Int64 {
        let low = ISO8601Time.representable.lowerBound.timeIntervalSince1970, high = ISO8601Time.representable.upperBound.timeIntervalSince1970
        let seconds = timeIntervalSince1970
        guard seconds >= low else { return Int64(low * 1000) }  // also NaN
        return Int64((min(seconds, high) * 1000).rounded())
    }

    init(milliseconds: Int64) { self.init(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
