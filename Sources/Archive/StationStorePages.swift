import Foundation

/// What the station's web pages ask of the archive for a whole site at once (one query
/// each instead of one per logger).
extension StationStore {
    /// Per logger of the site: its newest read's time and the starts of its acknowledged
    /// excursions.
    public func pageFacts(siteID: Int64) throws -> [String: (lastRead: Date?, acknowledged: [Date])] {
        var facts: [String: (lastRead: Date?, acknowledged: [Date])] = [:]
        try engine.query(
            """
            SELECT s.logger_id, MAX(r.read_time_ms) FROM site_loggers s JOIN reads r ON r.logger_id = s.logger_id
            WHERE s.site_id = $1 GROUP BY s.logger_id
            """, [.int(siteID)]
        ) { row in
            facts[row.text(0)] = (row.optionalInt(1).map { Date(milliseconds: $0) }, [])
        }
        try engine.query(
            """
            SELECT a.logger_id, a.excursion_start_ms FROM acknowledgements a JOIN site_loggers s ON s.logger_id = a.logger_id
            WHERE s.site_id = $1
            """, [.int(siteID)]
        ) { row in
            facts[row.text(0), default: (nil, [])].acknowledged.append(Date(milliseconds: row.int(1)))
        }
        return facts
    }

    /// The site's newest reads (logger id, read id), newest first.
    public func latestReads(siteID: Int64, limit: Int) throws -> [(loggerID: String, readID: Int64)] {
        var latest: [(loggerID: String, readID: Int64)] = []
        try engine.query(
            """
            SELECT r.logger_id, r.read_id FROM reads r JOIN site_loggers s ON s.logger_id = r.logger_id
            WHERE s.site_id = $1 ORDER BY r.read_time_ms DESC, r.read_id DESC LIMIT $2
            """, [.int(siteID), .int(Int64(limit))]
        ) { latest.append(($0.text(0), $0.int(1))) }
        return latest
    }

    /// One overview row's facts, as `summary(loggerID:)` gives them but for every logger of
    /// the site in four queries.
    public struct PageLogger: Sendable {
        public var logger: LoggerRecord
        public var lastSample: Date?
        public var lastRead: Date?
        public var lastVerdict: String?
        public var lastProfileJSON: String?
        public var acknowledged: [Date] = []
    }

    public func pageLoggers(siteID: Int64) throws -> [PageLogger] {
        try engine.readTransaction {
            let generation = Int64(try archive.currentGeneration())
            var byID: [String: PageLogger] = [:]
            var order: [String] = []
            try engine.query(
                """
                SELECT l.logger_id, l.format, l.serial, l.tag_uid, l.vendor, l.model FROM site_loggers s JOIN loggers l ON l.logger_id = s.logger_id
                WHERE s.site_id = $1 ORDER BY l.logger_id
                """, [.int(siteID)]
            ) { row in
                let record = LoggerRecord(
                    id: row.text(0), format: row.text(1), serial: row.optionalText(2), tagUID: row.optionalText(3),
                    vendor: row.optionalText(4), model: row.optionalText(5))
                byID[record.id] = PageLogger(logger: record)
                order.append(record.id)
            }
            for (id, facts) in try pageFacts(siteID: siteID) {
                byID[id]?.lastRead = facts.lastRead
                byID[id]?.acknowledged = facts.acknowledged
            }
            try engine.query(
                """
                SELECT s.logger_id, (SELECT MAX(last_ms) FROM sample_blocks b WHERE b.logger_id = s.logger_id AND b.generation = $2),
                       (SELECT a.verdict FROM assessments a WHERE a.logger_id = s.logger_id ORDER BY a.assessment_id DESC LIMIT 1),
                       (SELECT a.profile_json FROM assessments a WHERE a.logger_id = s.logger_id ORDER BY a.assessment_id DESC LIMIT 1)
                FROM site_loggers s WHERE s.site_id = $1
                """, [.int(siteID), .int(generation)]
            ) { row in
                let id = row.text(0)
                byID[id]?.lastSample = row.optionalInt(1).map { Date(milliseconds: $0) }
                byID[id]?.lastVerdict = row.optionalText(2)
                byID[id]?.lastProfileJSON = row.optionalText(3)
            }
            return order.compactMap { byID[$0] }
        }
    }

    /// The temperatures of `loggerID` from `from` to `to` (ms), oldest first, as two arrays:
    /// seconds since 1970 and °C, NaN where a sample is missing or flagged.
    public func pageSeries(loggerID: String, from: Int64, to: Int64) throws -> (times: [Double], values: [Double]) {
        let generation = Int64(try archive.currentGeneration())
        var times: [Double] = [], values: [Double] = []
        let stored = try archive.storedSamples(loggerID: loggerID, generation: generation, from: from, to: to)
        times.reserveCapacity(stored.count)
        values.reserveCapacity(stored.count)
        for sample in stored {
            times.append(Double(sample.time) / 1000)
            values.append(sample.flags.isEmpty ? sample.temperature ?? .nan : .nan)
        }
        return (times, values)
    }
}
