import Foundation

/// What the station's web pages ask of the archive for a whole site at once (one query
/// each instead of one per logger).
extension StationStore {
    /// Per logger of the site: its newest read's time and the starts of its acknowledged
    /// excursions.
    public func pageFacts(siteID: Int64) throws -> [String: (lastRead: Date?, acknowledged: [Date])] {
        var facts: [String: (lastRead: Date?, acknowledged: [Date])] = [:]
        enum NewestRead: Int, ArchiveColumns {
            case loggerID, readTime
            var sqlName: String { self == .loggerID ? "s.logger_id" : "MAX(r.read_time_ms)" }
        }
        try engine.query(
            """
            SELECT \(NewestRead.selectList) FROM site_loggers s JOIN reads r ON r.logger_id = s.logger_id
            WHERE s.site_id = $1 GROUP BY s.logger_id
            """, [.int(siteID)]
        ) { row in
            facts[row.text(NewestRead.loggerID)] = (row.optionalInt(NewestRead.readTime).map { Date(milliseconds: $0) }, [])
        }
        enum Acknowledged: Int, ArchiveColumns {
            case loggerID, excursionStart
            var sqlName: String { self == .loggerID ? "a.logger_id" : "a.excursion_start_ms" }
        }
        try engine.query(
            """
            SELECT \(Acknowledged.selectList) FROM acknowledgements a JOIN site_loggers s ON s.logger_id = a.logger_id
            WHERE s.site_id = $1
            """, [.int(siteID)]
        ) { row in
            facts[row.text(Acknowledged.loggerID), default: (nil, [])].acknowledged.append(Date(milliseconds: row.int(Acknowledged.excursionStart)))
        }
        return facts
    }

    /// The site's newest reads (logger id, read id), newest first.
    public func latestReads(siteID: Int64, limit: Int) throws -> [(loggerID: String, readID: Int64)] {
        enum Column: Int, ArchiveColumns {
            case loggerID, readID
            var sqlName: String { self == .loggerID ? "r.logger_id" : "r.read_id" }
        }
        var latest: [(loggerID: String, readID: Int64)] = []
        try engine.query(
            """
            SELECT \(Column.selectList) FROM reads r JOIN site_loggers s ON s.logger_id = r.logger_id
            WHERE s.site_id = $1 ORDER BY r.read_time_ms DESC, r.read_id DESC LIMIT $2
            """, [.int(siteID), .int(Int64(limit))]
        ) { latest.append(($0.text(Column.loggerID), $0.int(Column.readID))) }
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
                SELECT \(LoggerRecord.Column.selectList(qualifiedBy: "l")) FROM site_loggers s JOIN loggers l ON l.logger_id = s.logger_id
                WHERE s.site_id = $1 ORDER BY l.logger_id
                """, [.int(siteID)]
            ) { row in
                let record = LoggerRecord(row: row)
                byID[record.id] = PageLogger(logger: record)
                order.append(record.id)
            }
            for (id, facts) in try pageFacts(siteID: siteID) {
                byID[id]?.lastRead = facts.lastRead
                byID[id]?.acknowledged = facts.acknowledged
            }
            /// Per logger of the site: its newest sample in `generation` and its newest assessment.
            enum Newest: Int, ArchiveColumns {
                case loggerID, lastSample, verdict, profileJSON

                var sqlName: String {
                    switch self {
                    case .loggerID: return "s.logger_id"
                    case .lastSample: return "(SELECT MAX(last_ms) FROM sample_blocks b WHERE b.logger_id = s.logger_id AND b.generation = $2)"
                    case .verdict: return "(SELECT a.verdict FROM assessments a WHERE a.logger_id = s.logger_id ORDER BY a.assessment_id DESC LIMIT 1)"
                    case .profileJSON:
                        return "(SELECT a.profile_json FROM assessments a WHERE a.logger_id = s.logger_id ORDER BY a.assessment_id DESC LIMIT 1)"
                    }
                }
            }
            try engine.query("SELECT \(Newest.selectList) FROM site_loggers s WHERE s.site_id = $1", [.int(siteID), .int(generation)]) { row in
                let id = row.text(Newest.loggerID)
                byID[id]?.lastSample = row.optionalInt(Newest.lastSample).map { Date(milliseconds: $0) }
                byID[id]?.lastVerdict = row.optionalText(Newest.verdict)
                byID[id]?.lastProfileJSON = row.optionalText(Newest.profileJSON)
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
