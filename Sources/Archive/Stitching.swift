import ColdChain
import ColdTapBase
import Digest
import Foundation
import LoggerFormats

// Stitching: how a read's samples join the logger's record (new, duplicate, conflict),
// after its times estimated from the read time are aligned with the samples kept.

extension Archive {
    struct Stitched {
        var newSamples = 0
        var duplicates = 0
        var conflicts = 0
        var offset: Int64 = 0
        var first: Int64?
        var last: Int64?
        var gap: (Int64, Int64)?
        var digest = ""
    }

    static func flagsText(_ flags: [TemperatureLog.SampleFlag]) -> String {
        flags.isEmpty ? "" : flags.map(\.rawValue).joined(separator: ";")
    }

    /// The flags of a kept flag text (unknown names, from a newer ColdTap, are left out).
    static func flags(_ text: String) -> [TemperatureLog.SampleFlag] {
        text.isEmpty ? [] : text.split(separator: ";").compactMap { TemperatureLog.SampleFlag(rawValue: String($0)) }
    }

    /// The sample at `time` among `samples` (oldest first), by binary search.
    static func sample(at time: Int64, in samples: [StoredSample]) -> StoredSample? {
        var low = 0
        var high = samples.count
        while low < high {
            let middle = (low + high) / 2
            if samples[middle].time < time { low = middle + 1 } else { high = middle }
        }
        return low < samples.count && samples[low].time == time ? samples[low] : nil
    }

    static func sameValue(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (x?, y?): return x == y || abs(x - y) < 1e-9
        default: return false
        }
    }

    /// Adds the samples of `log` to the logger's record in `generation`: samples at a time
    /// not kept yet are new; at a kept time with the same value, duplicates; with another
    /// value, conflicts (kept beside the first value, which stays). Times estimated from the
    /// read time are first moved by the offset that makes them meet the kept samples (each
    /// matched within half an interval).
    /// - Parameter loggerIsNew: the logger has no row yet, so nothing of it is kept: its kept
    ///   samples are not asked for (two fewer round trips for a first read on PostgreSQL).
    func stitch(
        _ log: TemperatureLog, loggerID: String, readID: Int64, generation: Int, loggerIsNew: Bool = false, in transaction: WriteTransaction
    ) throws -> Stitched {
        var result = Stitched()
        // The read's times, their span and whether they come in order, in one pass.
        var times: [Int64] = []
        times.reserveCapacity(log.samples.count)
        var low = Int64.max, high = Int64.min
        var ascending = true
        log.samples.withUnsafeBufferPointer { samples in
            for index in samples.indices {
                let time = samples[index].time.milliseconds
                if time < high { ascending = false }
                low = min(low, time)
                high = max(high, time)
                times.append(time)
            }
        }
        let intervalMilliseconds = log.interval.isFinite && log.interval > 0 ? Int64((log.interval * 1000).rounded()) : 0
        guard !times.isEmpty else {
            result.digest = SamplesDigest().hex
            // A read of no samples (a logger that keeps daily summaries only) still has its
            // row in the generation, so that the history and the station list it.
            try insertReadGeneration(loggerID: loggerID, readID: readID, generation: generation, result)
            return result
        }
        // Times from a read time that is itself an estimate (a file's date, the station's
        // arrival) may be hours off: the kept samples of a wider window are looked at, to lay
        // the read on them by their values.
        let estimated = log.timeBase == .readTime && intervalMilliseconds > 0 && Archive.isEstimate(log.readTimeSource)
        let margin = estimated ? max(intervalMilliseconds, Archive.estimateWindow) : intervalMilliseconds
        // The kept samples in time order, matched against the read's in time order (one range
        // query of a block or two, then a merge: no per-sample query and no hash table).
        let kept = loggerIsNew ? KeptSamples() : try keptSamples(loggerID: loggerID, generation: Int64(generation), from: low - margin, to: high + margin)
        if log.timeBase == .readTime, intervalMilliseconds > 0, !kept.isEmpty {
            let byValues =
                estimated ? Archive.valueAlignment(log.samples, times: times, to: kept, interval: intervalMilliseconds, window: margin) : nil
            result.offset = byValues ?? Archive.alignment(times, to: kept.times, tolerance: intervalMilliseconds / 2)
            if result.offset != 0 { times = times.map { $0 + result.offset } }
        }
        result.first = low + result.offset
        result.last = high + result.offset
        if let first = result.first, intervalMilliseconds > 0,
            let previous = try Archive.newestKeptTime(before: first, among: kept.times, keptFrom: low - margin)
                ?? (loggerIsNew ? nil : newestSampleTime(loggerID: loggerID, generation: Int64(generation), before: first)),
            first - previous > intervalMilliseconds + intervalMilliseconds / 2
        {
            result.gap = (previous + intervalMilliseconds, first)
        }
        // The read's samples in time order; samples at the same time in the order read.
        // (Most reads come in order: no index array is made for them.)
        let order: [Int]? = ascending ? nil : log.samples.indices.sorted { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
        var conflictRows: [(StoredSample, keptRead: Int64)] = []
        var duplicates = 0
        var flagTexts: [[TemperatureLog.SampleFlag]: String] = [:]
        func flagsText(_ flags: [TemperatureLog.SampleFlag]) -> String {
            if let known = flagTexts[flags] { return known }
            let text = Archive.flagsText(flags)
            flagTexts[flags] = text
            return text
        }
        // One merge of the read's samples with the kept ones, the new ones written straight
        // into the block's columns (a sample value is made only for conflicts).
        var newRows = SampleColumns(capacity: log.samples.count)
        log.samples.withUnsafeBufferPointer { samples in
            kept.times.withUnsafeBufferPointer { keptTimes in
                var next = 0
                for position in 0..<samples.count {
                    let index = order?[position] ?? position
                    let time = times[index]
                    let temperature = samples[index].temperature, humidity = samples[index].humidity
                    let flags = samples[index].flags.isEmpty ? "" : flagsText(samples[index].flags)
                    while next < keptTimes.count, keptTimes[next] < time { next += 1 }
                    // What is kept at this time: from an earlier read, else from this read's own earlier sample.
                    let same: Bool, keptRead: Int64
                    if next < keptTimes.count, keptTimes[next] == time {
                        same =
                            Archive.sameValue(kept.temperature(at: next), temperature) && Archive.sameValue(kept.humidity(at: next), humidity)
                            && kept.flags(at: next) == flags
                        keptRead = kept.readIDs[next]
                    } else if let last = newRows.times.last, last == time {
                        let previous = newRows.count - 1
                        same =
                            Archive.sameValue(newRows.temperature(at: previous), temperature)
                            && Archive.sameValue(newRows.humidity(at: previous), humidity) && newRows.flags(at: previous) == flags
                        keptRead = readID
                    } else {
                        newRows.append(time: time, temperature: temperature, humidity: humidity, flags: flags)
                        continue
                    }
                    if same {
                        duplicates += 1
                    } else {
                        conflictRows.append(
                            (
                                StoredSample(time: time, temperature: temperature, humidity: humidity, flags: flags, readID: readID),
                                keptRead
                            ))
                    }
                }
            }
        }
        result.duplicates = duplicates
        // One row per (time, read) in conflicts: a read naming the same time twice keeps its first.
        var seenConflicts = Set<Int64>()
        conflictRows = conflictRows.filter { seenConflicts.insert($0.0.time).inserted }
        result.newSamples = newRows.count
        result.conflicts = conflictRows.count
        var digest = SamplesDigest(capacity: newRows.count + conflictRows.count)
        digest.addSamples(newRows)
        try insertBlock(newRows, loggerID: loggerID, generation: Int64(generation), readID: readID)
        for (sample, keptRead) in conflictRows {
            try engine.executeDeferred(
                "INSERT INTO conflicts (logger_id, generation, time_ms, read_id, temperature, humidity, flags, kept_read_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                [
                    .text(loggerID), .int(Int64(generation)), .int(sample.time), .int(readID), .optional(sample.temperature),
                    .optional(sample.humidity), .text(sample.flags), .int(keptRead),
                ])
            digest.addConflict(timeMilliseconds: sample.time, temperature: sample.temperature, humidity: sample.humidity, flags: sample.flags)
        }
        result.digest = digest.hex
        try insertReadGeneration(loggerID: loggerID, readID: readID, generation: generation, result)
        return result
    }

    /// What a read added to a generation: its row of `read_generations`.
    private func insertReadGeneration(loggerID: String, readID: Int64, generation: Int, _ result: Stitched) throws {
        try engine.executeDeferred(
            "INSERT INTO read_generations (logger_id, generation, read_id, time_offset_ms, new_samples, duplicates, conflicts, samples_sha256) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            [
                .text(loggerID), .int(Int64(generation)), .int(readID), .int(result.offset), .int(Int64(result.newSamples)),
                .int(Int64(result.duplicates)), .int(Int64(result.conflicts)), .text(result.digest),
            ])
    }

    /// The newest of `kept` (oldest first, every kept sample from `start` on) before `time`;
    /// `nil` when none is, as older samples are not among them then.
    static func newestKeptTime(before time: Int64, among kept: [Int64], keptFrom start: Int64) -> Int64? {
        guard time >= start, let oldest = kept.first, oldest < time else { return nil }
        var low = 0
        var high = kept.count
        while low < high {
            let middle = (low + high) / 2
            if kept[middle] < time { low = middle + 1 } else { high = middle }
        }
        return kept[low - 1]
    }

    /// How far a read whose read time is an estimate is searched for among the kept samples:
    /// a phone that was offline for days uploads late.
    static let estimateWindow: Int64 = 7 * 24 * 3600 * 1000

    /// Whether a read time from `source` is an estimate rather than a clock's reading at the read.
    static func isEstimate(_ source: DecodeOptions.ReadTimeSource?) -> Bool {
        switch source {
        case .fileModificationTime, .now, .stationArrival, .other, nil: return true
        case .given, .tagRead, .readerClockAtConfigurationRead, .newestArchivedRead, .givenByUploader, .loggerReport: return false
        }
    }

    /// The shift (ms) that lays a read with estimated times on the kept samples by their
    /// values: among the shifts within `window` that keep the read on the kept samples' grid
    /// (their phase, then whole intervals), the one under which at least 3 samples meet kept
    /// samples of the same value and none meets another value. `nil` when no shift, or more
    /// than one, does (a series that repeats itself, a constant temperature): the evidence
    /// does not pick one, and the read keeps its estimate.
    static func valueAlignment(
        _ samples: [TemperatureLog.Sample], times: [Int64], to kept: KeptSamples, interval: Int64, window: Int64
    ) -> Int64? {
        guard let newest = times.max(), !kept.isEmpty, interval > 0 else { return nil }
        var keptIndex: [Int64: Int] = [:]
        keptIndex.reserveCapacity(kept.count)
        for index in 0..<kept.count { keptIndex[kept.times[index]] = index }
        // The kept grid's phase against the read's, from the kept sample nearest the read's newest.
        let nearest = kept.times.min { abs($0 - newest) < abs($1 - newest) } ?? newest
        var phase = (nearest - newest) % interval
        if phase > interval / 2 { phase -= interval } else if phase <= -interval / 2 { phase += interval }
        let steps = window / interval
        var found: [Int64] = []
        for step in -steps...steps {
            let offset = phase + step * interval
            var agree = 0
            var disagrees = false
            for index in samples.indices {
                guard let match = keptIndex[times[index] + offset] else { continue }
                if sameValue(kept.temperature(at: match), samples[index].temperature), sameValue(kept.humidity(at: match), samples[index].humidity) {
                    agree += 1
                } else {
                    disagrees = true
                    break
                }
            }
            if !disagrees, agree >= 3 {
                found.append(offset)
                if found.count > 1 { return nil }
            }
        }
        return found.first
    }

    /// The shift (ms) that puts estimated times on the kept ones: the median of the
    /// differences between each time and the nearest kept time within `tolerance`; 0 when
    /// none is that close.
    static func alignment(_ times: [Int64], to kept: [Int64], tolerance: Int64) -> Int64 {
        var deltas: [Int64] = []
        for time in times {
            var low = 0
            var high = kept.count
            while low < high {
                let middle = (low + high) / 2
                if kept[middle] < time { low = middle + 1 } else { high = middle }
            }
            var best: Int64?
            for candidate in [low - 1, low] where candidate >= 0 && candidate < kept.count {
                let delta = kept[candidate] - time
                if abs(delta) <= tolerance, best.map({ abs(delta) < abs($0) }) ?? true { best = delta }
            }
            if let best { deltas.append(best) }
        }
        guard !deltas.isEmpty else { return 0 }
        deltas.sort()
        return deltas[deltas.count / 2]
    }
}
