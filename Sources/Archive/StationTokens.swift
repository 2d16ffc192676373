import ColdTapBase
import Digest
import Foundation

/// What a token may do. The site scopes include the ones before them; `operator` belongs
/// to no site: it reads the station's own metrics and no site's data (docs/security.md).
public enum TokenScope: String, Sendable, CaseIterable, Comparable {
    /// Read loggers, samples and reports.
    case read
    /// Also upload reads and acknowledge excursions.
    case upload
    /// A site's administrator: everything a site's token can do.
    case admin
    /// The station's operator (monitoring): `/metrics`, station-wide; no site's data.
    case `operator`

    /// The scopes a token of a site can have.
    public static let siteScopes: [TokenScope] = [.read, .upload, .admin]

    private var rank: Int { TokenScope.allCases.firstIndex(of: self) ?? 0 }
    public static func < (lhs: TokenScope, rhs: TokenScope) -> Bool { lhs.rank < rhs.rank }
}

public struct StationToken: Sendable, Equatable {
    public var id: Int64
    /// `nil` for an operator token, which belongs to the station, not to a site.
    public var site: StationSite?
    public var scope: TokenScope
    public var created: Date
    public var revoked: Date?
    /// After this the token answers 401 (`token create --expires`); `nil`: it does not expire.
    public var expires: Date?
    /// The user a device token was made for: uploads with it are that user's.
    public var createdByUser: Int64? = nil
    /// The device it was made for (`token create --device "ward 3 reader"`).
    public var device: String? = nil

    public func isLive(at now: Date) -> Bool { revoked == nil && (expires.map { now < $0 } ?? true) }

    /// A device's name as a token keeps it: 1 to 100 printable characters on one line, no
    /// space at either end ("ward 3 reader").
    public static func isValidDevice(_ name: String) -> Bool {
        (1...100).contains(name.count) && name == name.trimmingCharacters(in: .whitespaces)
            && !name.unicodeScalars.contains { [.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory) }
    }
}

extension StationStore {
    // MARK: Tokens

    /// Makes a token: `ct_ID_SECRET` with 32 random bytes; only its SHA-256 is kept.
    /// - Parameters:
    ///   - site: whose token it is; `nil` only for the `operator` scope, which no site has.
    ///   - expires: when it stops working (`nil`: never).
    ///   - user: the user a device token is made for (uploads with it are theirs): a live
    ///     user of `site` whose role's scope is at least `scope`.
    ///   - device: the device it is made for (`StationToken.isValidDevice`).
    /// - Returns: the token (shown once) and its record.
    /// - Throws: `ArchiveError(.invalidRead)` for a site scope without a site, an operator token
    ///   with one, a device name the rule refuses, or a user of another site, disabled, or
    ///   whose role does not reach the scope.
    public func createToken(
        site: StationSite?, scope: TokenScope, expires: Date? = nil, user: StationUser? = nil, device: String? = nil, now: Date = Date()
    ) throws -> (token: String, record: StationToken) {
        guard (site == nil) == (scope == .operator) else {
            throw ArchiveError(
                .invalidRead,
                scope == .operator ? "an operator token belongs to the station, not to a site." : "a \(scope.rawValue) token belongs to a site; name it.")
        }
        if let device, !StationToken.isValidDevice(device) {
            throw ArchiveError(.invalidRead, "a device's name is 1 to 100 printable characters on one line, with no space at either end.")
        }
        let secret = StationStore.randomHex()
        let expiresMS = expires.map(\.milliseconds)
        return try engine.writeTransaction { transaction in
            // The user as kept now, not as the caller read them.
            if let given = user {
                guard let user = try self.user(id: given.id) else { throw ArchiveError(.notFound, "there is no user '\(given.name)'.") }
                guard let site, user.siteID == site.id else {
                    throw ArchiveError(
                        .invalidRead, "user '\(user.name)' is not a user of \(site.map { "site '\($0.name)'" } ?? "a site"), so no token of it is theirs.")
                }
                guard user.disabled == nil else { throw ArchiveError(.invalidRead, "user '\(user.name)' is disabled.") }
                guard scope <= user.role.scope else {
                    throw ArchiveError(
                        .invalidRead,
                        "a \(user.role.rawValue) may hold a token of the \(user.role.scope.rawValue) scope at most, not \(scope.rawValue).")
                }
            }
            let id = (try engine.scalarInt("SELECT MAX(token_id) FROM tokens") ?? 0) + 1
            let token = "ct_\(id)_\(secret)"
            try engine.execute(
                "INSERT INTO tokens (token_id, site_id, scope, token_sha256, created_ms, revoked_ms, expires_ms, created_by_user, device) VALUES ($1, $2, $3, $4, $5, NULL, $6, $7, $8)",
                [
                    .int(id), .int(site?.id ?? StationStore.stationWideSiteID), .text(scope.rawValue), .text(SHA256Digest.hex(text: token)),
                    .int(now.milliseconds), expiresMS.map { .int($0) } ?? .null, .optional(user?.id), .optional(device),
                ])
            var row: TokenRow?
            try engine.query("SELECT \(TokenRow.Column.selectList) FROM tokens WHERE token_id = $1", [.int(id)]) { row = TokenRow(row: $0) }
            if let row { try Archive.appendLeaf(.token(row), in: transaction) }
            return (
                token,
                StationToken(
                    id: id, site: site, scope: scope, created: Date(milliseconds: now.milliseconds), revoked: nil,
                    expires: expiresMS.map { Date(milliseconds: $0) }, createdByUser: user?.id, device: device)
            )
        }
    }

    public func tokens() throws -> [StationToken] {
        var rows: [TokenRow] = []
        try engine.query("SELECT \(TokenRow.Column.selectList) FROM tokens ORDER BY token_id", []) { row in
            rows.append(TokenRow(row: row))
        }
        let byID = Dictionary(try sites().map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return rows.compactMap { $0.token(sites: byID) }
    }

    /// - Returns: false when there is no such token or it was revoked before.
    @discardableResult
    public func revokeToken(id: Int64, now: Date = Date()) throws -> Bool {
        try engine.writeTransaction { transaction in
            guard try engine.scalarInt("SELECT COUNT(*) FROM tokens WHERE token_id = $1 AND revoked_ms IS NULL", [.int(id)]) == 1 else {
                return false
            }
            try revoke(tokenID: id, now: now, in: transaction)
            return true
        }
    }

    /// Marks a live token revoked and appends its revocation's leaf.
    func revoke(tokenID id: Int64, now: Date, in transaction: WriteTransaction) throws {
        try transaction.engine.execute("UPDATE tokens SET revoked_ms = $1 WHERE token_id = $2", [.int(now.milliseconds), .int(id)])
        try Archive.appendLeaf(.tokenRevoked(id: id, at: now.milliseconds), in: transaction)
    }

    /// The token of `id`, revoked or not; `nil` for none.
    public func token(id: Int64) throws -> StationToken? {
        var found: TokenRow?
        try engine.query("SELECT \(TokenRow.Column.selectList) FROM tokens WHERE token_id = $1", [.int(id)]) { found = TokenRow(row: $0) }
        guard let found else { return nil }
        let site = try self.site(id: found.siteID)
        return found.token(sites: site.map { [$0.id: $0] } ?? [:])
    }

    /// The live token `presented` stands for, or `nil` (unknown, revoked or expired). The row
    /// is found by the id the token carries; its SHA-256 is then compared in constant time,
    /// so that timing tells nothing about the kept hash.
    public func authenticate(_ presented: String, now: Date = Date()) throws -> StationToken? {
        let parts = presented.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "ct", let id = Int64(parts[1]), id > 0, parts[2].count == 64 else { return nil }
        var found: TokenRow?
        var site: StationSite?
        // The token and its site in one round trip (every request asks).
        try engine.query(
            """
            SELECT \(TokenRow.Column.selectList(qualifiedBy: "t")), \(StationSite.Column.selectList(qualifiedBy: "s"))
            FROM tokens t LEFT JOIN sites s ON s.site_id = t.site_id WHERE t.token_id = $1 AND t.revoked_ms IS NULL
            """, [.int(id)]
        ) { row in
            found = TokenRow(row: row)
            let siteColumns = ShiftedRow(row: row, offset: TokenRow.Column.allCases.count)
            if !siteColumns.isNull(StationSite.Column.id.rawValue) { site = StationSite(row: siteColumns) }
        }
        guard let found else { return nil }
        let presentedHash = SHA256Digest.hash(Data(presented.utf8))
        guard let keptHash = Hex.decode(found.sha256), StationStore.constantTimeEqual(presentedHash, keptHash) else { return nil }
        guard let token = found.token(sites: site.map { [$0.id: $0] } ?? [:]) else { return nil }
        return token.isLive(at: now) ? token : nil
    }

    /// Compares every byte whatever the first difference.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
