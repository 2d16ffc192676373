import ColdTapBase
import Foundation
import LoggerFormats

// The daily summaries of loggers that summarise their days themselves (a Berlinger
// Fridge-tag, docs/berlinger.md §4): kept per read and generation as the read gave them
// (`read_daily_summaries`), stitched per day when a history is read. They are derived from
// the read's raw bytes, which its leaf covers; `archive verify` decodes the read again and
// compares (docs/archive.md, "Daily summaries").

/// What one read gave besides samples: its days, the alarms its logger was configured with
/// and the zone its wall-clock times were read in.
struct KeptDailySummaries: Codable, Equatable {
    var days: [TemperatureLog.DailySummary]
    var alarms: [TemperatureLog.ConfiguredAlarm]?
    var zone: String?

    init?(_ log: TemperatureLog) {
        guard let days = log.dailySummaries, !days.isEmpty else { return nil }
        self.days = days
        alarms = log.loggerAlarms
        zone = log.loggerTimeZone
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }

    static func decoded(_ text: String) -> KeptDailySummaries? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try? decoder.decode(KeptDailySummaries.self, from: Data(text.utf8))
    }
}

/// A logger's days as the archive stitches them: per calendar day, the read that saw most of
/// it (a day a report cut short is completed by the next report), the first such read on a tie.
struct StitchedDailySummaries {
    var days: [TemperatureLog.DailySummary]
    var alarms: [TemperatureLog.ConfiguredAlarm]?
    var zone: String?
}

extension Archive {
    /// Keeps the days `log` gives, for `readID` in `generation` (nothing for a log without days).
    func keepDailySummaries(of log: TemperatureLog, loggerID: String, readID: Int64, generation: Int, in transaction: WriteTransaction) throws {
        try Archive.keepDailySummaries(of: log, loggerID: loggerID, readID: readID, generation: generation, in: transaction)
    }

    static func keepDailySummaries(of log: TemperatureLog, loggerID: String, readID: Int64, generation: Int, in transaction: WriteTransaction) throws {
        guard let kept = KeptDailySummaries(log) else { return }
        let text = String(decoding: try KeptDailySummaries.encoder().encode(kept), as: UTF8.self)
        try transaction.engine.executeDeferred(
            "INSERT INTO read_daily_summaries (logger_id, generation, read_id, summaries) VALUES ($1, $2, $3, $4)",
            [.text(loggerID), .int(Int64(generation)), .int(readID), .text(text)])
    }

    /// The days kept for `readID` in `generation`, `nil` when it gave none.
    /// - Throws: `ArchiveError(.corrupt)` when the kept text no longer reads as days.
    func keptDailySummaries(loggerID: String, readID: Int64, generation: Int64) throws -> KeptDailySummaries? {
        var text: String?
        try engine.query(
            "SELECT summaries FROM read_daily_summaries WHERE logger_id = $1 AND generation = $2 AND read_id = $3",
            [.text(loggerID), .int(generation), .int(readID)]
        ) { text = $0.text(0) }
        guard let text else { return nil }
        guard let kept = KeptDailySummaries.decoded(text) else {
            throw ArchiveError(.corrupt, "the daily summaries kept for read #\(readID) of \(loggerID) no longer read as days")
        }
        return kept
    }

    /// The logger's days in `generation` meeting `[low, high]` (ms), stitched per day; `nil`
    /// when none of its reads gave days.
    func stitchedDailySummaries(loggerID: String, generation: Int64, from low: Int64, to high: Int64) throws -> StitchedDailySummaries? {
        var rows: [(Int64, String)] = []
        enum Column: Int, ArchiveColumns {
            case readID, summaries
            var sqlName: String { self == .readID ? "read_id" : "summaries" }
        }
        try engine.query(
            "SELECT \(Column.selectList) FROM read_daily_summaries WHERE logger_id = $1 AND generation = $2 ORDER BY read_id",
            [.text(loggerID), .int(generation)]
        ) { rows.append(($0.int(Column.readID), $0.text(Column.summaries))) }
        guard !rows.isEmpty else { return nil }
        var byDate: [String: TemperatureLog.DailySummary] = [:]
        var newest: KeptDailySummaries?
        for (readID, text) in rows {
            guard let kept = KeptDailySummaries.decoded(text) else {
                throw ArchiveError(.corrupt, "the daily summaries kept for read #\(readID) of \(loggerID) no longer read as days")
            }
            newest = kept
            for day in kept.days {
                let covered = day.coveredTo.timeIntervalSince(day.coveredFrom)
                if let known = byDate[day.date], known.coveredTo.timeIntervalSince(known.coveredFrom) >= covered { continue }
                byDate[day.date] = day
            }
        }
        let days = byDate.values
            .filter { $0.coveredTo.milliseconds >= low && $0.coveredFrom.milliseconds <= high }
            .sorted { $0.dayStart < $1.dayStart }
        return StitchedDailySummaries(days: days, alarms: newest?.alarms, zone: newest?.zone)
    }

    /// `nil` when the days `log` gives are the ones kept for the read; else what differs.
    /// - Parameter ownGeneration: `generation` is the one the read was kept in; in a later one
    ///   a read has days only where that generation has its row (it was kept after it was made
    ///   or re-decoded into it).
    func dailySummaryMismatch(_ log: TemperatureLog, loggerID: String, readID: Int64, generation: Int64, ownGeneration: Bool = true) throws -> String? {
        let kept = try keptDailySummaries(loggerID: loggerID, readID: readID, generation: generation)
        let again = KeptDailySummaries(log)
        if !ownGeneration, kept == nil,
            try engine.scalarInt(
                "SELECT COUNT(*) FROM read_generations WHERE logger_id = $1 AND read_id = $2 AND generation = $3",
                [.text(loggerID), .int(readID), .int(generation)]) == 0
        {
            return nil
        }
        switch (kept, again) {
        case (nil, nil): return nil
        case (nil, let again?): return "gives \(again.days.count) daily summaries, which are not in the archive — they were removed"
        case (let kept?, nil): return "gives no daily summaries, but the archive keeps \(kept.days.count) for it — they were added outside ColdTap"
        case (let kept?, let again?):
            guard kept != again else { return nil }
            let differing = zip(kept.days, again.days).first { $0.0 != $0.1 }.map { $0.1.date }
            return "gives daily summaries that differ from the ones kept"
                + (differing.map { " (first on \($0))" } ?? " (their number or the configured alarms)")
                + " — a summary was edited, or the decoder changed (then re-decode the archive)"
        }
    }
}

extension Archive {
    /// Kept days of a read the archive does not hold: added outside ColdTap.
    func orphanDailySummaryProblems() throws -> [String] {
        enum Column: Int, ArchiveColumns {
            case loggerID, readID, generation
            var sqlName: String { ["d.logger_id", "d.read_id", "d.generation"][rawValue] }
        }
        var problems: [String] = []
        try engine.query(
            """
            SELECT \(Column.selectList) FROM read_daily_summaries d
            LEFT JOIN reads r ON r.logger_id = d.logger_id AND r.read_id = d.read_id
            WHERE r.read_id IS NULL ORDER BY d.logger_id, d.read_id, d.generation
            """, []
        ) { row in
            problems.append(
                "daily summaries of read #\(row.int(Column.readID)) of \(row.text(Column.loggerID)) (generation \(row.int(Column.generation))) are kept, but the archive holds no such read: they were added outside ColdTap"
            )
        }
        return problems
    }

    /// Schema 8: the days of the Berlinger reports kept before it, decoded again from their raw
    /// bytes in the zone kept with each, for every generation the read is in; without them
    /// `verify` would take the days missing for days removed. A report that no longer decodes
    /// is left for `verify` to name.
    static func keepDailySummariesOfKeptReports(_ transaction: WriteTransaction) throws {
        let engine = transaction.engine
        enum Column: Int, ArchiveColumns {
            case loggerID, readID, readTime, decodeOptions, raw
            var sqlName: String { ["logger_id", "read_id", "read_time_ms", "decode_options", "raw"][rawValue] }
        }
        let formats = BerlingerDecoder.formatNames.map { "'\($0)'" }.joined(separator: ", ")
        var reports: [(loggerID: String, readID: Int64, readTime: Int64, options: String, raw: Data)] = []
        try engine.query("SELECT \(Column.selectList) FROM reads WHERE decoder IN (\(formats)) ORDER BY chain_seq", []) { row in
            reports.append(
                (row.text(Column.loggerID), row.int(Column.readID), row.int(Column.readTime), row.text(Column.decodeOptions), row.blob(Column.raw)))
        }
        for report in reports {
            let object = (try? JSONSerialization.jsonObject(with: Data(report.options.utf8))) as? [String: Any] ?? [:]
            guard let zone = (object["loggerTimeZone"] as? String).flatMap(keptZone) else { continue }
            var options = DecodeOptions(readTime: Date(milliseconds: report.readTime), readTimeSource: .given)
            options.loggerTimeZone = zone
            guard let log = try? BerlingerDecoder.decode(report.raw, options: options) else { continue }
            var generations: [Int64] = []
            try engine.query(
                "SELECT generation FROM read_generations WHERE logger_id = $1 AND read_id = $2 ORDER BY generation",
                [.text(report.loggerID), .int(report.readID)]
            ) { generations.append($0.int(0)) }
            let own =
                try engine.scalarInt("SELECT generation FROM reads WHERE logger_id = $1 AND read_id = $2", [.text(report.loggerID), .int(report.readID)]) ?? 1
            for generation in Set(generations + [own]).sorted() {
                try Archive.keepDailySummaries(
                    of: log, loggerID: report.loggerID, readID: report.readID, generation: Int(generation), in: transaction)
            }
        }
    }

    /// A zone as ArchiveKit keeps it with a read: an identifier, or `±HH:MM`.
    static func keptZone(_ text: String) -> TimeZone? {
        if let sign = text.first, sign == "+" || sign == "-" {
            let parts = text.dropFirst().split(separator: ":")
            guard parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]) else { return nil }
            return TimeZone(secondsFromGMT: (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
        }
        return TimeZone(identifier: text)
    }
}
