import ColdTapBase
import Digest
import Foundation

/// A profile an operator registered for a site (`coldtap profile add --site S FILE`), so
/// that the site's reports can name it over HTTP. Versions are kept, never replaced: adding
/// a profile under a name it has already makes the next version, and the newest is used.
public struct SiteProfile: Sendable, Equatable {
    public var siteID: Int64
    public var name: String
    public var version: Int
    /// The profile file's text as it was given; `sha256` is its digest, checked by `archive verify`.
    public var json: String
    public var sha256: String
    public var added: Date
    /// Who added it: the operating-system user that ran the command.
    public var addedBy: String

    /// What a profile may be named to be asked for over HTTP (`?profile=NAME`): up to 64
    /// letters, digits and `. _ -`, starting with a letter or digit.
    public static func isValidName(_ name: String) -> Bool { StationName.isValid(name, maxLength: 64, punctuation: "._-") }
}

extension StationStore {
    // MARK: Site profiles

    /// Registers `json` (a profile file's text) under `name` for a site: the next version when
    /// the name is taken. The profile is parsed by the caller; this keeps its text and digest.
    @discardableResult
    public func addSiteProfile(siteID: Int64, name: String, json: String, addedBy: String, now: Date = Date()) throws -> SiteProfile {
        guard SiteProfile.isValidName(name) else {
            throw ArchiveError(
                .invalidRead, "a site profile's name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit; '\(name.prefix(80))' is not."
            )
        }
        return try engine.writeTransaction { transaction in
            let version =
                Int(try engine.scalarInt("SELECT MAX(version) FROM site_profiles WHERE site_id = $1 AND name = $2", [.int(siteID), .text(name)]) ?? 0) + 1
            let profile = SiteProfile(
                siteID: siteID, name: name, version: version, json: json, sha256: SHA256Digest.hex(text: json),
                added: Date(milliseconds: now.milliseconds), addedBy: addedBy)
            try engine.execute(
                "INSERT INTO site_profiles (site_id, name, version, profile_json, profile_sha256, added_ms, added_by) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                [.int(siteID), .text(name), .int(Int64(version)), .text(json), .text(profile.sha256), .int(now.milliseconds), .text(addedBy)])
            try Archive.appendLeaf(.siteProfile(profile), in: transaction)
            return profile
        }
    }

    /// The newest version of each of the site's profiles, by name.
    public func siteProfiles(siteID: Int64) throws -> [SiteProfile] {
        try siteProfileRows(
            "WHERE p.site_id = $1 AND p.version = (SELECT MAX(version) FROM site_profiles q WHERE q.site_id = p.site_id AND q.name = p.name)",
            [.int(siteID)])
    }

    /// The newest version of the site's profile `name`, or `nil`.
    public func siteProfile(siteID: Int64, name: String) throws -> SiteProfile? {
        try siteProfileRows("WHERE p.site_id = $1 AND p.name = $2 ORDER BY p.version DESC LIMIT 1", [.int(siteID), .text(name)]).first
    }

    /// Every version of every site's profiles (for `profile list --all` and `archive verify`).
    public func allSiteProfiles() throws -> [SiteProfile] { try siteProfileRows("", []) }

    private func siteProfileRows(_ clause: String, _ values: [SQLValue]) throws -> [SiteProfile] {
        var result: [SiteProfile] = []
        let order = clause.contains("ORDER BY") ? "" : " ORDER BY p.site_id, p.name, p.version"
        try engine.query(
            "SELECT \(SiteProfile.Column.selectList(qualifiedBy: "p")) FROM site_profiles p \(clause)\(order)", values
        ) { row in
            result.append(SiteProfile(row: row))
        }
        return result
    }
}
