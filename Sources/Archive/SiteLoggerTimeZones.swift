import ColdTapBase
import Foundation

/// The zone a site sets for the wall-clock times of its loggers that carry none (Berlinger
/// reports, docs/berlinger.md §7): a station upload without a zone of its own is read in it.
/// Each setting is a row of its own, never edited (the newest is the site's zone), and a leaf
/// of the record with who set it and when.
public struct SiteLoggerTimeZone: Sendable, Equatable {
    public var siteID: Int64
    /// 1, 2, … per site, in the order set.
    public var setting: Int64
    /// An IANA name or a fixed offset `±HH:MM`, as given.
    public var zone: String
    public var set: Date
    public var setBy: String

    enum Column: Int, ArchiveColumns {
        case siteID, setting, zone, set, setBy
        var sqlName: String { ["site_id", "setting", "zone", "set_ms", "set_by"][rawValue] }
    }

    init(siteID: Int64, setting: Int64, zone: String, set: Date, setBy: String) {
        self.siteID = siteID
        self.setting = setting
        self.zone = zone
        self.set = set
        self.setBy = setBy
    }

    init(row: any ArchiveRow) {
        self.init(
            siteID: row.int(Column.siteID), setting: row.int(Column.setting), zone: row.text(Column.zone),
            set: Date(milliseconds: row.int(Column.set)), setBy: row.text(Column.setBy))
    }
}

extension StationStore {
    /// Sets the zone of the site's loggers' zoneless times from now on; the earlier settings stay.
    /// - Parameters:
    ///   - zone: an IANA name or `±HH:MM`, checked by the caller.
    ///   - setBy: who set it (the operating-system user of the command line).
    @discardableResult
    public func setLoggerTimeZone(_ zone: String, siteID: Int64, setBy: String, now: Date = Date()) throws -> SiteLoggerTimeZone {
        try engine.writeTransaction { transaction in
            let setting = (try engine.scalarInt("SELECT MAX(setting) FROM site_logger_time_zones WHERE site_id = $1", [.int(siteID)]) ?? 0) + 1
            let kept = SiteLoggerTimeZone(siteID: siteID, setting: setting, zone: zone, set: Date(milliseconds: now.milliseconds), setBy: setBy)
            try engine.execute(
                "INSERT INTO site_logger_time_zones (\(SiteLoggerTimeZone.Column.selectList)) VALUES ($1, $2, $3, $4, $5)",
                [.int(siteID), .int(setting), .text(zone), .int(now.milliseconds), .text(setBy)])
            try Archive.appendLeaf(.siteLoggerTimeZone(kept), in: transaction)
            return kept
        }
    }

    /// The site's zone for its loggers' zoneless times now (its newest setting), `nil` when never set.
    public func loggerTimeZone(siteID: Int64) throws -> SiteLoggerTimeZone? {
        var newest: SiteLoggerTimeZone?
        try engine.query(
            "SELECT \(SiteLoggerTimeZone.Column.selectList) FROM site_logger_time_zones WHERE site_id = $1 ORDER BY setting DESC LIMIT 1",
            [.int(siteID)]
        ) { newest = SiteLoggerTimeZone(row: $0) }
        return newest
    }

    /// Every setting of every site, oldest first (`verify` holds each to its leaf).
    static func loggerTimeZoneSettings(_ engine: any ArchiveEngine) throws -> [SiteLoggerTimeZone] {
        guard try engine.tableExists("site_logger_time_zones") else { return [] }
        var settings: [SiteLoggerTimeZone] = []
        try engine.query("SELECT \(SiteLoggerTimeZone.Column.selectList) FROM site_logger_time_zones ORDER BY set_ms, site_id, setting", []) {
            settings.append(SiteLoggerTimeZone(row: $0))
        }
        return settings
    }
}
