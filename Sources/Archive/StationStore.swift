import ColdTapBase
import Foundation

/// What the station keeps beside the record, in the same database: sites, the SHA-256 of
/// each API token, which site each logger joined, the decode secrets of HMAC loggers,
/// site profiles, webhooks and their deliveries, users and their signatures. Its tables
/// have their own migrations (`StationMigrations`). One table group per file: sites here,
/// StationTokens.swift, StationLoggers.swift, SiteProfiles.swift, StationWebhooks.swift,
/// Accounts.swift, Signatures.swift, ReadUploads.swift, SiteIdentifiers.swift, StationStorePages.swift.
///
/// Like `Archive`, one per connection.
public final class StationStore {
    public let archive: Archive
    var engine: any ArchiveEngine { archive.engine }

    /// `tokens.site_id` of an operator token: no site has id 0 (they are numbered from 1).
    static let stationWideSiteID: Int64 = 0

    /// Opens the station's tables, creating or migrating them.
    /// - Throws: `ArchiveError` as `Archive.open` does; `.newerVersion` for tables of a newer station.
    public init(archive: Archive, now: Date = Date()) throws {
        self.archive = archive
        try StationMigrations.apply(to: engine, now: now)
    }
}

/// A site: a clinic or warehouse whose loggers, users and tokens are its own.
public struct StationSite: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var created: Date
}

/// Names that travel in URLs and headers: an ASCII letter or digit first, then letters,
/// digits and the given punctuation; nothing that a path, a query or a shell reads apart.
public enum StationName {
    public static func isValid(_ text: String, maxLength: Int, punctuation: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard (1...maxLength).contains(scalars.count) else { return false }
        func alphanumeric(_ scalar: Unicode.Scalar) -> Bool {
            (0x30...0x39).contains(scalar.value) || (0x41...0x5A).contains(scalar.value) || (0x61...0x7A).contains(scalar.value)
        }
        return alphanumeric(scalars[0]) && scalars.allSatisfy { alphanumeric($0) || punctuation.unicodeScalars.contains($0) }
    }
}

extension StationStore {
    // MARK: Sites

    /// - Throws: `ArchiveError(.invalidRead)` when a site of that name exists.
    @discardableResult
    public func addSite(_ name: String, now: Date = Date()) throws -> StationSite {
        try engine.writeTransaction { transaction in
            if try site(named: name) != nil {
                throw ArchiveError(.invalidRead, "there is already a site '\(name)'.", hint: .listSites)
            }
            let id = (try engine.scalarInt("SELECT MAX(site_id) FROM sites") ?? 0) + 1
            try engine.execute(
                "INSERT INTO sites (site_id, name, created_ms) VALUES ($1, $2, $3)",
                [.int(id), .text(name), .int(now.milliseconds)])
            let site = StationSite(id: id, name: name, created: Date(milliseconds: now.milliseconds))
            try Archive.appendLeaf(.site(site), in: transaction)
            return site
        }
    }

    public func site(named name: String) throws -> StationSite? {
        try sites(where: "WHERE name = $1", [.text(name)]).first
    }

    public func site(id: Int64) throws -> StationSite? {
        try sites(where: "WHERE site_id = $1", [.int(id)]).first
    }

    public func sites() throws -> [StationSite] { try sites(where: "", []) }

    private func sites(where clause: String, _ values: [SQLValue]) throws -> [StationSite] {
        var result: [StationSite] = []
        try engine.query("SELECT \(StationSite.Column.selectList) FROM sites \(clause) ORDER BY site_id", values) { row in
            result.append(StationSite(row: row))
        }
        return result
    }
}
