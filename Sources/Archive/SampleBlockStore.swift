import Foundation

/// Where the stitched samples live: the `sample_blocks` table, one block per read and
/// generation (`SampleBlock`). Every query of samples goes through here, so the tables above
/// never see the packing.
extension Archive {
    /// The stitched samples of `loggerID` in `generation` from `low` to `high` (ms, both
    /// inclusive), oldest first.
    /// - Throws: `ArchiveError(.corrupt)` naming the read whose block is damaged.
    func storedSamples(loggerID: String, generation: Int64, from low: Int64, to high: Int64) throws -> [StoredSample] {
        try Archive.storedSamples(in: engine, loggerID: loggerID, generation: generation, from: low, to: high)
    }

    static func storedSamples(
        in engine: any ArchiveEngine, loggerID: String, generation: Int64,
        from low: Int64, to high: Int64
    ) throws -> [StoredSample] {
        var samples: [StoredSample] = []
        var ascending = true
        try forEachBlock(in: engine, loggerID: loggerID, generation: generation, from: low, to: high) { data, readID in
            let before = samples.count
            try decodeBlock(loggerID: loggerID, readID: readID, generation: generation) {
                try SampleBlock.decode(data, readID: readID, from: low, to: high, appendingTo: &samples)
            }
            if before > 0, before < samples.count, samples[before].time < samples[before - 1].time { ascending = false }
        }
        if !ascending { samples.sort { $0.time < $1.time } }
        return samples
    }

    /// `storedSamples` as columns, for stitching.
    func keptSamples(loggerID: String, generation: Int64, from low: Int64, to high: Int64) throws -> KeptSamples {
        var kept = KeptSamples()
        var ascending = true
        try Archive.forEachBlock(in: engine, loggerID: loggerID, generation: generation, from: low, to: high) { data, readID in
            let before = kept.count
            try Archive.decodeBlock(loggerID: loggerID, readID: readID, generation: generation) {
                try SampleBlock.decode(data, readID: readID, from: low, to: high, appendingTo: &kept)
            }
            if before > 0, before < kept.count, kept.times[before] < kept.times[before - 1] { ascending = false }
        }
        if !ascending { kept.sortByTime() }
        return kept
    }

    /// The blocks that may hold samples from `low` to `high`, in the order of their ends.
    /// Blocks come by their end, which is time order unless their spans interleave (a read
    /// that filled a hole); stitched times never repeat, so a sort then puts them right.
    private static func forEachBlock(
        in engine: any ArchiveEngine, loggerID: String, generation: Int64, from low: Int64, to high: Int64,
        _ body: (Data, Int64) throws -> Void
    ) throws {
        // Found by their end (`sample_blocks_by_end`): a read overlaps the newest few blocks,
        // while `first_ms <= high` holds for nearly all of them. The unary plus keeps either
        // engine's planner from choosing the primary key's `first_ms` instead.
        try engine.query(
            "SELECT \(SampleBlockColumn.selectList) FROM sample_blocks WHERE logger_id = $1 AND generation = $2 AND last_ms >= $3 AND +first_ms <= $4",
            [.text(loggerID), .int(generation), .int(low), .int(high)]
        ) { row in
            try body(row.blob(SampleBlockColumn.samples), row.int(SampleBlockColumn.readID))
        }
    }

    /// The samples `readID` added to `generation`, oldest first.
    func samplesAdded(loggerID: String, readID: Int64, generation: Int64) throws -> [StoredSample] {
        var samples: [StoredSample] = []
        var data: Data?
        try engine.query(
            "SELECT samples FROM sample_blocks WHERE logger_id = $1 AND generation = $2 AND read_id = $3",
            [.text(loggerID), .int(generation), .int(readID)]
        ) { row in data = row.blob(0) }
        if let data { samples = try Archive.decodeBlock(data, loggerID: loggerID, readID: readID, generation: generation) }
        return samples
    }

    /// The time of the newest sample kept before `time`, if any.
    func newestSampleTime(loggerID: String, generation: Int64, before time: Int64) throws -> Int64? {
        // Blocks ending before `time` answer from their span (a seek in `sample_blocks_by_end`);
        // a block reaching past it may still hold earlier samples, so those few are opened.
        var newest = try engine.scalarInt(
            "SELECT MAX(last_ms) FROM sample_blocks WHERE logger_id = $1 AND generation = $2 AND last_ms < $3",
            [.text(loggerID), .int(generation), .int(time)])
        try engine.query(
            "SELECT \(SampleBlockColumn.selectList) FROM sample_blocks WHERE logger_id = $1 AND generation = $2 AND last_ms >= $3 AND +first_ms < $3",
            [.text(loggerID), .int(generation), .int(time)]
        ) { row in
            let block = try Archive.decodeBlock(
                row.blob(SampleBlockColumn.samples), loggerID: loggerID, readID: row.int(SampleBlockColumn.readID), generation: generation)
            if let candidate = block.last(where: { $0.time < time })?.time, candidate > (newest ?? Int64.min) { newest = candidate }
        }
        return newest
    }

    /// Keeps the samples `readID` added (times ascending, none kept before) as one block.
    func insertBlock(_ samples: SampleColumns, loggerID: String, generation: Int64, readID: Int64) throws {
        guard let first = samples.times.first, let last = samples.times.last else { return }
        try engine.executeDeferred(
            "INSERT INTO sample_blocks (logger_id, generation, first_ms, last_ms, read_id, sample_count, samples) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [
                .text(loggerID), .int(generation), .int(first), .int(last), .int(readID),
                .int(Int64(samples.count)), .blob(SampleBlock.encode(samples)),
            ])
    }

    static func decodeBlock(_ data: Data, loggerID: String, readID: Int64, generation: Int64) throws -> [StoredSample] {
        try decodeBlock(loggerID: loggerID, readID: readID, generation: generation) { try SampleBlock.decode(data, readID: readID) }
    }

    /// Runs `decode`, a damaged block becoming the archive's error naming the read.
    static func decodeBlock<T>(loggerID: String, readID: Int64, generation: Int64, _ decode: () throws -> T) throws -> T {
        do {
            return try decode()
        } catch let damage as SampleBlock.DamagedBlock {
            throw ArchiveError(.corrupt, "the samples read #\(readID) of \(loggerID) added (generation \(generation)) are damaged at \(damage).", hint: .verify)
        }
    }
}

/// A `sample_blocks` row as the readers of samples take it: whose block, and the block.
enum SampleBlockColumn: Int, ArchiveColumns {
    case readID, samples
    var sqlName: String { self == .readID ? "read_id" : "samples" }
}
