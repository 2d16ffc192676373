import ColdTapBase
import Foundation
import LoggerFormats

extension StationStore {
    // MARK: Loggers of a site

    /// The site a logger joined on its first upload, or `nil` for a logger no site has.
    public func siteID(ofLogger loggerID: String) throws -> Int64? {
        try engine.scalarInt("SELECT site_id FROM site_loggers WHERE logger_id = $1", [.text(loggerID)])
    }

    /// Whose record a read that gives no logger id belongs to, asked among one site's loggers
    /// only (another site's names never decide, nor show, here).
    public enum CarriedLogger: Equatable, Sendable {
        /// The log carries no serial and no tag UID.
        case none
        /// One of the site's loggers carries the read's identity.
        case site(String)
        /// No logger of the site carries it: the identity (`FORMAT:SERIAL`) would be a new logger.
        case new(String)
        /// The identity is kept as a logger of another site.
        case otherSite
        /// Several of the site's loggers carry it (names of the site's own).
        case ambiguous(identity: String, names: [String])
    }

    /// The site's logger that carries `log`'s identity: kept under the identity itself, or
    /// under one name of the site's own (`X-ColdTap-Logger-Id` at its first upload).
    public func loggerID(carriedBy log: TemperatureLog, siteID: Int64) throws -> CarriedLogger {
        guard let carried = Archive.loggerID(for: log) else { return .none }
        var named: [String] = []
        try engine.query(
            """
            SELECT \(LoggerRecord.Column.selectList(qualifiedBy: "l")) FROM loggers l JOIN site_loggers s ON s.logger_id = l.logger_id
            WHERE s.site_id = $4 AND ((l.format = $1 AND l.serial = $2) OR (l.format = $1 AND l.tag_uid = $3)) ORDER BY l.logger_id
            """, [.text(log.format.name), .optional(log.logger.serial), .optional(log.logger.tagUID), .int(siteID)]
        ) { row in
            if let name = Archive.name(LoggerRecord(row: row), ifItCarries: carried) { named.append(name) }
        }
        // Kept under the identity itself: that is the one, whatever names also carry it.
        if named.contains(carried) { return .site(carried) }
        if named.count > 1 { return .ambiguous(identity: carried, names: named) }
        if let name = named.first { return .site(name) }
        if let owner = try self.siteID(ofLogger: carried), owner != siteID { return .otherSite }
        return .new(carried)
    }

    /// Why a read cannot join the kept `logger` (from `uploadFacts`): both carry an identity (format and
    /// serial, else tag UID) and they differ. `nil` when they agree, when either carries none
    /// (a logger without a serial is known only by its name), or the logger is not kept yet.
    public static func identityMismatch(of logger: LoggerRecord?, log: TemperatureLog) -> String? {
        guard let logger, let kept = Archive.loggerID(format: logger.format, serial: logger.serial, tagUID: logger.tagUID),
            let carried = Archive.loggerID(for: log), kept != carried
        else { return nil }
        return "\(logger.id) is \(kept); this read is from \(carried)"
    }

    /// What an upload naming `loggerID` needs to know of it before decoding, in one round
    /// trip: the site that has it, its decode secret, and its kept identity.
    public func uploadFacts(loggerID: String) throws -> (owner: Int64?, secret: String?, logger: LoggerRecord?) {
        enum Column: Int, ArchiveColumns {
            case owner, secret
            var sqlName: String {
                self == .owner
                    ? "(SELECT site_id FROM site_loggers WHERE logger_id = $1)" : "(SELECT secret FROM logger_secrets WHERE logger_id = $1)"
            }
        }
        var facts: (owner: Int64?, secret: String?, logger: LoggerRecord?) = (nil, nil, nil)
        try engine.query(
            """
            SELECT \(Column.selectList), \(LoggerRecord.Column.selectList(qualifiedBy: "l"))
            FROM chain_head c LEFT JOIN loggers l ON l.logger_id = $1 WHERE c.id = 1
            """, [.text(loggerID)]
        ) { row in
            facts.owner = row.optionalInt(Column.owner)
            facts.secret = row.optionalText(Column.secret)
            let logger = ShiftedRow(row: row, offset: Column.allCases.count)
            if !logger.isNull(LoggerRecord.Column.id.rawValue) { facts.logger = LoggerRecord(row: logger) }
        }
        return facts
    }

    /// Makes `loggerID` one of `siteID`'s unless a site has it already.
    /// - Returns: the site that has the logger now.
    public func claim(loggerID: String, siteID: Int64, now: Date = Date()) throws -> Int64 {
        if let owner = try self.siteID(ofLogger: loggerID) { return owner }
        return try engine.writeTransaction { transaction in try claim(loggerID: loggerID, siteID: siteID, now: now, in: transaction) }
    }

    /// `claim` inside `transaction` (the station keeps a read and claims its logger in one).
    public func claim(loggerID: String, siteID: Int64, now: Date = Date(), in transaction: WriteTransaction) throws -> Int64 {
        if let owner = try self.siteID(ofLogger: loggerID) { return owner }
        try StationStore.claimUnowned(loggerID: loggerID, siteID: siteID, now: now, in: transaction)
        return siteID
    }

    /// Makes `loggerID`, which no site has, `siteID`'s (its row and its leaf).
    static func claimUnowned(loggerID: String, siteID: Int64, now: Date, in transaction: WriteTransaction) throws {
        try transaction.engine.executeDeferred(
            "INSERT INTO site_loggers (logger_id, site_id, joined_ms) VALUES ($1, $2, $3)",
            [.text(loggerID), .int(siteID), .int(now.milliseconds)])
        try Archive.appendLeaf(.siteLogger(loggerID: loggerID, siteID: siteID, joined: now.milliseconds), in: transaction)
    }

    /// Up to `limit` of the site's loggers (those with reads in the archive), by id, after `cursor`.
    public func loggerIDs(siteID: Int64, after cursor: String?, limit: Int) throws -> [String] {
        var ids: [String] = []
        try engine.query(
            """
            SELECT s.logger_id FROM site_loggers s JOIN loggers l ON l.logger_id = s.logger_id
            WHERE s.site_id = $1 AND s.logger_id > $2 ORDER BY s.logger_id LIMIT $3
            """, [.int(siteID), .text(cursor ?? ""), .int(Int64(limit))]
        ) { ids.append($0.text(0)) }
        return ids
    }

    /// One logger's line of `coldtap loggers`, or `nil` for an unknown logger.
    public func summary(loggerID: String) throws -> LoggerSummary? { try archive.loggerSummary(loggerID) }

    /// Up to `limit` stitched samples of `loggerID` in the current generation, oldest first,
    /// from `from` to `to` (either open) and after `after` (a page's cursor), all in ms.
    public func samples(loggerID: String, from: Int64?, to: Int64?, after: Int64?, limit: Int) throws -> [StitchedSample] {
        let generation = Int64(try archive.currentGeneration())
        let low = max(from ?? Int64.min, after.map { $0 &+ 1 } ?? Int64.min)
        let stored = try archive.storedSamples(loggerID: loggerID, generation: generation, from: low, to: to ?? Int64.max)
        let result = stored.prefix(limit).map { item in
            StitchedSample(
                sample: TemperatureLog.Sample(
                    time: Date(milliseconds: item.time), temperature: item.temperature,
                    humidity: item.humidity, flags: Archive.flags(item.flags)),
                readID: item.readID)
        }
        return result
    }

    /// The kept read of `loggerID` with these bytes' SHA-256, if any (an upload sent again).
    public func readID(loggerID: String, rawSHA256: String) throws -> Int64? {
        try engine.scalarInt("SELECT read_id FROM reads WHERE logger_id = $1 AND raw_sha256 = $2", [.text(loggerID), .text(rawSHA256)])
    }

    /// The read's summary as `history` shows it, in the current generation.
    public func read(loggerID: String, readID: Int64) throws -> ReadSummary? {
        var found: ReadSummary?
        // The current generation inside the statement: one round trip.
        try engine.query(
            """
            SELECT \(ReadSummary.Column.selectList) \(ReadSummary.from(generation: Archive.currentGenerationSQL))
            WHERE r.logger_id = $1 AND r.read_id = $2
            """, [.text(loggerID), .int(readID)]
        ) { row in
            found = ReadSummary(row: row)
        }
        return found
    }

    /// The verdict and reasons kept when `readID` was assessed.
    public func assessment(loggerID: String, readID: Int64) throws -> (verdict: String, reasons: [String])? {
        enum Column: Int, ArchiveColumns {
            case verdict, reasons
            var sqlName: String { self == .verdict ? "verdict" : "reasons" }
        }
        var found: (String, [String])?
        try engine.query(
            "SELECT \(Column.selectList) FROM assessments WHERE logger_id = $1 AND read_id = $2 ORDER BY assessment_id DESC LIMIT 1",
            [.text(loggerID), .int(readID)]
        ) { row in
            let reasons = (try? JSONSerialization.jsonObject(with: Data(row.text(Column.reasons).utf8))) as? [String] ?? []
            found = (row.text(Column.verdict), reasons)
        }
        return found
    }

    /// Counts for the metrics: reads, loggers, samples kept.
    public func counts() throws -> (reads: Int64, loggers: Int64, samples: Int64) {
        (
            try engine.scalarInt("SELECT COUNT(*) FROM reads") ?? 0,
            try engine.scalarInt("SELECT COUNT(*) FROM loggers") ?? 0,
            try engine.scalarInt("SELECT SUM(sample_count) FROM sample_blocks") ?? 0
        )
    }

    /// When each of the site's loggers joined it (its first upload), and when its decode
    /// secret was last set, if it has one; by logger id.
    public func loggerJoins(siteID: Int64) throws -> [(loggerID: String, joined: Date, secretSet: Date?)] {
        enum Column: Int, ArchiveColumns {
            case loggerID, joined, secretSet
            var sqlName: String { ["l.logger_id", "l.joined_ms", "s.set_ms"][rawValue] }
        }
        var joins: [(loggerID: String, joined: Date, secretSet: Date?)] = []
        try engine.query(
            """
            SELECT \(Column.selectList) FROM site_loggers l LEFT JOIN logger_secrets s ON s.logger_id = l.logger_id
            WHERE l.site_id = $1 ORDER BY l.logger_id
            """, [.int(siteID)]
        ) { row in
            joins.append(
                (row.text(Column.loggerID), Date(milliseconds: row.int(Column.joined)), row.optionalInt(Column.secretSet).map { Date(milliseconds: $0) }))
        }
        return joins
    }

    // MARK: Logger secrets

    public func setSecret(_ secret: String, loggerID: String, now: Date = Date()) throws {
        try engine.writeTransaction { transaction in
            try engine.execute("DELETE FROM logger_secrets WHERE logger_id = $1", [.text(loggerID)])
            try engine.execute(
                "INSERT INTO logger_secrets (logger_id, secret, set_ms) VALUES ($1, $2, $3)",
                [.text(loggerID), .text(secret), .int(now.milliseconds)])
            try Archive.appendLeaf(.loggerSecret(loggerID: loggerID, set: now.milliseconds), in: transaction)
        }
    }

    public func secret(loggerID: String) throws -> String? {
        try engine.scalarText("SELECT secret FROM logger_secrets WHERE logger_id = $1", [.text(loggerID)])
    }

    /// Every logger id that has a secret (an upload whose log names no logger yet tries them).
    public func secretLoggerIDs() throws -> [String] {
        var ids: [String] = []
        try engine.query("SELECT logger_id FROM logger_secrets ORDER BY logger_id", []) { ids.append($0.text(0)) }
        return ids
    }
}
