import ColdChain
import Foundation

/// The overview's filters; `nil` is any.
public struct OverviewFilter: Sendable, Equatable {
    /// `ALARM`, `INCONCLUSIVE`, `OK`, or `none` (not assessed).
    public var verdict: String?
    public var review: ReviewState?
    /// Part of the logger's id, serial, tag UID, vendor, model or format, in any case.
    public var text: String?

    public init(verdict: String? = nil, review: ReviewState? = nil, text: String? = nil) {
        self.verdict = verdict
        self.review = review
        self.text = text
    }

    /// The verdict filter's values, worst first (the overview's order).
    public static let verdictKeys = ["ALARM", "INCONCLUSIVE", "none", "OK"]

    public var isEmpty: Bool { verdict == nil && review == nil && (text ?? "").isEmpty }
}

/// How many of a site's loggers stand where: the overview's counts, for the whole site.
public struct OverviewCounts: Sendable, Equatable {
    public var loggers = 0
    /// By `OverviewFilter.verdictKeys`.
    public var byVerdict: [String: Int] = [:]
    public var byReview: [ReviewState: Int] = [:]
}

/// One page of a site's overview: its loggers worst first and their kept facts.
public struct OverviewPage: Sendable {
    public struct Row: Sendable {
        public var logger: LoggerRecord
        public var facts: OverviewFacts
        /// The newest assessment's profile (its band draws the sparkline's limits).
        public var profileJSON: String?
    }

    public var counts: OverviewCounts
    /// The loggers the filter lets through.
    public var matching: Int
    /// From 1; a page asked for past the last is the last.
    public var page: Int
    public var pages: Int
    public var rows: [Row]
}

/// What the station's web pages ask of the archive for a whole site at once (a few queries
/// instead of some per logger).
extension StationStore {
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

    // MARK: Overview

    /// Computes again the `logger_overview` rows of the site's loggers whose key is not the
    /// archive's now (a new read, a new acknowledgement, a new generation, or no row yet),
    /// judged in a read transaction and written in a short write one. Two stations doing it at
    /// once write the same rows; a row written from an older snapshot has an older key and is
    /// computed again next time.
    /// - Returns: how many rows were computed.
    ///
    /// Which rows to look at comes from the record: the site's watermark is the record's size
    /// up to which all its rows were current, so only the loggers that leaves after it name
    /// (reads, assessments, acknowledgements, ownerships, identities) are looked at; a new
    /// generation, or a site without a watermark, looks at every logger of the site. The
    /// watermark only grows, and a row is never replaced by one of an older key.
    @discardableResult
    public func refreshOverview(siteID: Int64) throws -> Int {
        let (computed, size, watermark) = try engine.readTransaction { () -> ([OverviewFacts], Int64, Int64?) in
            let generation = Int64(try archive.currentGeneration())
            let size = Int64(try Archive.recordSize(engine))
            let watermark = try engine.scalarInt("SELECT record_size FROM overview_watermarks WHERE site_id = $1", [.int(siteID)])
            var stale: [String] = []
            if let watermark, let changed = try loggersNamed(sinceRecordSize: watermark) {
                for loggerID in changed.sorted() where try self.siteID(ofLogger: loggerID) == siteID {
                    stale.append(loggerID)
                }
            } else {
                try engine.query(
                    """
                    SELECT s.logger_id FROM site_loggers s LEFT JOIN logger_overview f ON f.logger_id = s.logger_id
                    WHERE s.site_id = $1 AND (f.logger_id IS NULL OR f.generation <> $2
                        OR f.read_id <> COALESCE((SELECT MAX(r.read_id) FROM reads r WHERE r.logger_id = s.logger_id), 0)
                        OR f.ack_id <> COALESCE((SELECT MAX(a.ack_id) FROM acknowledgements a WHERE a.logger_id = s.logger_id), 0))
                    """, [.int(siteID), .int(generation)]
                ) { stale.append($0.text(0)) }
            }
            var profiles: [String: Profile?] = [:]
            let computed = try stale.map { try archive.overviewFacts(loggerID: $0, generation: generation, profiles: &profiles) }
            return (computed, size, watermark)
        }
        guard !computed.isEmpty || watermark.map({ $0 < size }) ?? true else { return 0 }
        try engine.writeTransaction { _ in
            for facts in computed { try engine.executeDeferred(OverviewFacts.upsert, facts.values) }
            try engine.executeDeferred(
                """
                INSERT INTO overview_watermarks (site_id, record_size) VALUES ($1, $2)
                ON CONFLICT (site_id) DO UPDATE SET record_size = excluded.record_size WHERE overview_watermarks.record_size < excluded.record_size
                """, [.int(siteID), .int(size)])
            try engine.flushWrites()
        }
        return computed.count
    }

    /// The loggers that the record's leaves from index `size` on name in a way that changes
    /// an overview row; `nil` when one of them is a new generation (every row changes).
    func loggersNamed(sinceRecordSize size: Int64) throws -> Set<String>? {
        enum Column: Int, ArchiveColumns {
            case kind, key
            var sqlName: String { self == .kind ? "kind" : "leaf_key" }
        }
        /// How many `/`-joined key fields follow the logger's id in each kind's key.
        let fieldsAfterLogger: [RecordLeaf.Kind: Int] = [
            .read: 1, .assessment: 1, .acknowledgement: 1, .readGeneration: 2, .logger: 0, .siteLogger: 0,
        ]
        var loggers: Set<String> = []
        var newGeneration = false
        try engine.query("SELECT \(Column.selectList) FROM record_leaves WHERE leaf_index >= $1", [.int(size)]) { row in
            guard let kind = RecordLeaf.Kind(rawValue: row.text(Column.kind)) else { return }
            if kind == .generation { newGeneration = true }
            guard let after = fieldsAfterLogger[kind] else { return }
            // A logger's id may hold `/`: the fields after it are cut from the end.
            var key = Substring(row.text(Column.key))
            for _ in 0..<after {
                guard let slash = key.lastIndex(of: "/") else { return }
                key = key[..<slash]
            }
            loggers.insert(String(key))
        }
        return newGeneration ? nil : loggers
    }

    /// `CASE …`: ALARM, then INCONCLUSIVE, then not assessed, then OK.
    private static let verdictRank = "CASE f.verdict WHEN 'ALARM' THEN 0 WHEN 'INCONCLUSIVE' THEN 1 WHEN 'OK' THEN 3 ELSE 2 END"

    /// The filter as SQL after `WHERE s.site_id = $1`, its values appended to `values`.
    private static func filterSQL(_ filter: OverviewFilter, _ values: inout [SQLValue]) -> String {
        var clause = ""
        switch filter.verdict {
        case nil: break
        case "none"?: clause += " AND (f.verdict IS NULL OR f.verdict NOT IN ('ALARM', 'INCONCLUSIVE', 'OK'))"
        case let verdict?:
            values.append(.text(verdict))
            clause += " AND f.verdict = $\(values.count)"
        }
        if let review = filter.review {
            values.append(.text(review.rawValue))
            clause += " AND f.review = $\(values.count)"
        }
        if let text = filter.text, !text.isEmpty {
            // A part of the text anywhere, the user's % _ \ taken as themselves; both sides
            // lowered by the engine, so that a text always finds itself.
            let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_")
            values.append(.text("%" + escaped + "%"))
            let pattern = "LOWER(CAST($\(values.count) AS TEXT))"
            clause +=
                " AND ("
                + ["l.logger_id", "l.serial", "l.tag_uid", "l.vendor", "l.model", "l.format"].map { "LOWER(\($0)) LIKE \(pattern) ESCAPE '\\'" }
                .joined(separator: " OR ") + ")"
        }
        return clause
    }

    /// The site's rows; the loggers' identities joined only for a text filter (each join is a
    /// probe per logger of the site).
    private static func overviewFrom(_ filter: OverviewFilter) -> String {
        let loggers = (filter.text ?? "").isEmpty ? "" : " JOIN loggers l ON l.logger_id = s.logger_id"
        return "FROM site_loggers s JOIN logger_overview f ON f.logger_id = s.logger_id\(loggers) WHERE s.site_id = $1"
    }

    /// One page of the site's overview, worst first (verdict, then open excursions, then the
    /// longest unread, then the id), with the counts of the whole site; ordered, counted and
    /// filtered by the kept rows (`refreshOverview` first), in one read transaction.
    /// - Parameter page: from 1; past the last page, the last.
    public func overviewPage(siteID: Int64, filter: OverviewFilter, page: Int, pageSize: Int) throws -> OverviewPage {
        try engine.readTransaction {
            var counts = OverviewCounts()
            enum Count: Int, ArchiveColumns {
                case verdict, review, count
                var sqlName: String { self == .verdict ? "f.verdict" : self == .review ? "f.review" : "COUNT(*)" }
            }
            try engine.query("SELECT \(Count.selectList) \(StationStore.overviewFrom(OverviewFilter())) GROUP BY f.verdict, f.review", [.int(siteID)]) { row in
                let count = Int(row.int(Count.count))
                let verdict = row.optionalText(Count.verdict)
                let key = verdict.flatMap { OverviewFilter.verdictKeys.contains($0) ? $0 : nil } ?? "none"
                counts.loggers += count
                counts.byVerdict[key, default: 0] += count
                counts.byReview[ReviewState(rawValue: row.text(Count.review)) ?? .attention, default: 0] += count
            }
            var values: [SQLValue] = [.int(siteID)]
            let clause = StationStore.filterSQL(filter, &values)
            let matching =
                filter.isEmpty
                ? counts.loggers : Int(try engine.scalarInt("SELECT COUNT(*) \(StationStore.overviewFrom(filter))\(clause)", values) ?? 0)
            let size = max(1, pageSize)
            let pages = max(1, (matching + size - 1) / size)
            let shown = min(max(1, page), pages)
            var facts: [OverviewFacts] = []
            try engine.query(
                """
                SELECT \(OverviewFacts.Column.selectList(qualifiedBy: "f")) \(StationStore.overviewFrom(filter))\(clause)
                ORDER BY \(StationStore.verdictRank), f.open_excursions DESC, CASE WHEN f.last_read_ms IS NULL THEN 0 ELSE 1 END,
                    f.last_read_ms, f.logger_id
                LIMIT $\(values.count + 1) OFFSET $\(values.count + 2)
                """, values + [.int(Int64(size)), .int(Int64((shown - 1) * size))]
            ) { facts.append(OverviewFacts(row: $0)) }
            var loggers: [String: LoggerRecord] = [:]
            var profiles: [String: String] = [:]
            if !facts.isEmpty {
                let ids = facts.map { SQLValue.text($0.loggerID) }
                let list = (1...ids.count).map { "$\($0)" }.joined(separator: ", ")
                // Each logger's newest assessment by a seek of its own (a correlated MAX over
                // all of the page's assessments made PostgreSQL read every one: 42 ms for 100
                // loggers of 120 days).
                let newestProfile = "(SELECT a.profile_json FROM assessments a WHERE a.logger_id = l.logger_id ORDER BY a.assessment_id DESC LIMIT 1)"
                try engine.query(
                    "SELECT \(LoggerRecord.Column.selectList(qualifiedBy: "l")), \(newestProfile) FROM loggers l WHERE l.logger_id IN (\(list))", ids
                ) { row in
                    let record = LoggerRecord(row: row)
                    loggers[record.id] = record
                    profiles[record.id] = ShiftedRow(row: row, offset: LoggerRecord.Column.allCases.count).optionalText(0)
                }
            }
            let rows = facts.compactMap { facts in
                loggers[facts.loggerID].map { OverviewPage.Row(logger: $0, facts: facts, profileJSON: profiles[facts.loggerID]) }
            }
            return OverviewPage(counts: counts, matching: matching, page: shown, pages: pages, rows: rows)
        }
    }

    /// The temperatures of `loggerID` from `from` to `to` (ms), oldest first, as two arrays:
    /// seconds since 1970 and °C, NaN where a sample is missing or flagged.
    public func pageSeries(loggerID: String, generation: Int64? = nil, from: Int64, to: Int64) throws -> (times: [Double], values: [Double]) {
        let generation = try generation ?? Int64(archive.currentGeneration())
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
