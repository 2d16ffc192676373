import ColdTapBase
import Digest
import Foundation
import LoggerFormats

/// What the station keeps beside the archive, in the same database: sites, the SHA-256 of
/// each API token, which site each logger joined, the decode secrets of HMAC loggers,
/// webhooks and every delivery attempt. Its tables have their own versioned migrations
/// (`station_migrations`), applied when the station first opens the archive, so that an
/// archive used only by the command line never carries them.
public struct StationSite: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var created: Date
}

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

public struct StationWebhook: Sendable, Equatable {
    public var id: Int64
    public var siteID: Int64
    public var url: String
    /// The HMAC key of the signature; never shown again after `webhook add`.
    public var secret: String
    public var created: Date? = nil
}

/// One attempt to deliver one event to one webhook.
public struct WebhookDelivery: Sendable, Equatable {
    public var id: Int64
    public var webhookID: Int64
    public var eventID: String
    public var attempt: Int
    public var at: Date
    /// The receiver's HTTP status; `nil` when it could not be reached.
    public var status: Int?
    public var error: String
    public var delivered: Bool
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

/// One event for one webhook in the delivery queue (`webhook_queue`), as a worker leased it.
public struct QueuedWebhookDelivery: Sendable, Equatable {
    public var queueID: Int64
    public var webhook: StationWebhook
    public var eventID: String
    public var event: String
    /// The event's members (all but `id`, `type` and `timestamp`) as a serialized JSON object.
    public var payload: String
    public var created: Date
    /// After this the delivery is given up.
    public var deadline: Date
    /// Attempts made before this lease.
    public var attempts: Int
}

/// How a leased delivery ends its attempt.
public enum WebhookQueueOutcome: Sendable, Equatable {
    case delivered
    /// Failed; tried again at that time.
    case retry(at: Date)
    /// Failed for the last time (deadline, attempts, or a target that is refused).
    case givenUp
}

/// What the queue holds for one webhook (`webhook list`).
public struct WebhookQueueCounts: Sendable, Equatable {
    public var pending = 0
    public var delivered = 0
    public var givenUp = 0
    public var failedAttempts = 0
}

/// The station's tables over an open archive. Like `Archive`, one per connection.
public final class StationStore {
    public let archive: Archive
    var engine: any ArchiveEngine { archive.engine }

    static let migrations: [Migrations.Migration] = [
        .init(
            version: 1, name: "sites, tokens, site loggers, logger secrets, webhooks, deliveries",
            sql: """
                CREATE TABLE station_migrations (
                    version INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_ms BIGINT NOT NULL
                );
                CREATE TABLE sites (
                    site_id BIGINT PRIMARY KEY,
                    name TEXT NOT NULL,
                    created_ms BIGINT NOT NULL
                );
                CREATE UNIQUE INDEX sites_by_name ON sites (name);
                CREATE TABLE tokens (
                    token_id BIGINT PRIMARY KEY,
                    site_id BIGINT NOT NULL,
                    scope TEXT NOT NULL,
                    token_sha256 TEXT NOT NULL,
                    created_ms BIGINT NOT NULL,
                    revoked_ms BIGINT
                );
                CREATE TABLE site_loggers (
                    logger_id TEXT PRIMARY KEY,
                    site_id BIGINT NOT NULL,
                    joined_ms BIGINT NOT NULL
                );
                CREATE INDEX site_loggers_by_site ON site_loggers (site_id, logger_id);
                CREATE TABLE logger_secrets (
                    logger_id TEXT PRIMARY KEY,
                    secret TEXT NOT NULL,
                    set_ms BIGINT NOT NULL
                );
                CREATE TABLE webhooks (
                    webhook_id BIGINT PRIMARY KEY,
                    site_id BIGINT NOT NULL,
                    url TEXT NOT NULL,
                    secret TEXT NOT NULL,
                    created_ms BIGINT NOT NULL
                );
                CREATE TABLE webhook_deliveries (
                    delivery_id BIGINT PRIMARY KEY,
                    webhook_id BIGINT NOT NULL,
                    event_id TEXT NOT NULL,
                    event TEXT NOT NULL,
                    attempt INTEGER NOT NULL,
                    attempted_ms BIGINT NOT NULL,
                    http_status INTEGER,
                    error TEXT NOT NULL,
                    delivered INTEGER NOT NULL
                );
                """),
        // Deliveries were threads that slept between retries and were lost on restart: now
        // each event for each webhook is a row that workers lease, attempt and reschedule.
        .init(
            version: 2, name: "webhook delivery queue with leases",
            sql: """
                CREATE TABLE webhook_queue (
                    queue_id BIGINT PRIMARY KEY,
                    webhook_id BIGINT NOT NULL,
                    event_id TEXT NOT NULL,
                    event TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    created_ms BIGINT NOT NULL,
                    deadline_ms BIGINT NOT NULL,
                    next_attempt_ms BIGINT NOT NULL,
                    attempts INTEGER NOT NULL,
                    state TEXT NOT NULL,
                    claimed_by TEXT,
                    claimed_until_ms BIGINT,
                    finished_ms BIGINT,
                    last_error TEXT NOT NULL
                );
                CREATE INDEX webhook_queue_due ON webhook_queue (state, next_attempt_ms);
                CREATE INDEX webhook_queue_by_hook ON webhook_queue (webhook_id, state, queue_id);
                """),
        .init(
            version: 3, name: "token expiry and station-wide operator tokens (site 0), site profiles",
            sql: """
                ALTER TABLE tokens ADD COLUMN expires_ms BIGINT;
                CREATE TABLE site_profiles (
                    site_id BIGINT NOT NULL,
                    name TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    profile_json TEXT NOT NULL,
                    profile_sha256 TEXT NOT NULL,
                    added_ms BIGINT NOT NULL,
                    added_by TEXT NOT NULL,
                    PRIMARY KEY (site_id, name, version)
                );
                """),
        // The station's rows join the record (docs/archive-record.md): those kept before get
        // their leaves here, after the archive's own.
        .init(version: 4, name: "the station's rows in the record", sql: "", transform: StationStore.appendLeavesOfKeptRows),
        // The overview orders, counts and filters a site's loggers in SQL by these derived
        // rows (Sources/Archive/OverviewFacts.swift), instead of judging every logger per page.
        .init(
            version: 5, name: "the overview's facts per logger (derived)",
            sql: """
                CREATE TABLE logger_overview (
                    logger_id TEXT PRIMARY KEY,
                    generation INTEGER NOT NULL,
                    read_id BIGINT NOT NULL,
                    ack_id BIGINT NOT NULL,
                    last_read_ms BIGINT,
                    last_sample_ms BIGINT,
                    verdict TEXT,
                    excursions BIGINT NOT NULL,
                    open_excursions BIGINT NOT NULL,
                    open_since_ms BIGINT,
                    review TEXT NOT NULL
                );
                """),
        // A view found its site's stale rows by two index seeks per logger: it grew with the
        // site. The record is the archive's list of changes, so a site keeps the record's size
        // up to which all its rows are current, and a view reads only the leaves after it.
        .init(
            version: 6, name: "the record's size up to which a site's overview rows are current",
            sql: """
                CREATE TABLE overview_watermarks (
                    site_id BIGINT PRIMARY KEY,
                    record_size BIGINT NOT NULL
                );
                """),
        // Named people instead of shared tokens (docs/accounts.md): users and their account
        // events, browser sessions, electronic signatures, who uploaded each read.
        .init(
            version: 7, name: "users, account events, sessions, signatures, uploads by token and user",
            sql: """
                CREATE TABLE users (
                    user_id BIGINT PRIMARY KEY,
                    site_id BIGINT NOT NULL,
                    name TEXT NOT NULL,
                    full_name TEXT NOT NULL,
                    created_ms BIGINT NOT NULL,
                    created_by TEXT NOT NULL,
                    role TEXT NOT NULL,
                    disabled_ms BIGINT,
                    password_hash TEXT,
                    setup_sha256 TEXT,
                    setup_expires_ms BIGINT
                );
                CREATE UNIQUE INDEX users_by_name ON users (name);
                CREATE TABLE account_events (
                    event_id BIGINT PRIMARY KEY,
                    site_id BIGINT NOT NULL,
                    user_id BIGINT,
                    at_ms BIGINT NOT NULL,
                    kind TEXT NOT NULL,
                    actor TEXT NOT NULL,
                    detail TEXT NOT NULL
                );
                CREATE INDEX account_events_by_user ON account_events (user_id, event_id);
                CREATE INDEX account_events_by_site ON account_events (site_id, event_id);
                CREATE TABLE sessions (
                    session_sha256 TEXT PRIMARY KEY,
                    user_id BIGINT,
                    token_id BIGINT,
                    created_ms BIGINT NOT NULL,
                    last_seen_ms BIGINT NOT NULL,
                    ended_ms BIGINT,
                    end_reason TEXT,
                    signatures INTEGER NOT NULL
                );
                CREATE INDEX sessions_by_user ON sessions (user_id, ended_ms);
                CREATE TABLE signatures (
                    signature_id BIGINT PRIMARY KEY,
                    site_id BIGINT NOT NULL,
                    logger_id TEXT NOT NULL,
                    user_id BIGINT NOT NULL,
                    user_name TEXT NOT NULL,
                    printed_name TEXT NOT NULL,
                    role TEXT NOT NULL,
                    signed_ms BIGINT NOT NULL,
                    time_zone TEXT NOT NULL,
                    meaning TEXT NOT NULL,
                    comment TEXT,
                    subject TEXT NOT NULL,
                    from_ms BIGINT NOT NULL,
                    to_ms BIGINT NOT NULL,
                    ack_id BIGINT,
                    statement TEXT NOT NULL,
                    statement_sha256 TEXT NOT NULL
                );
                CREATE INDEX signatures_by_logger ON signatures (logger_id, signature_id);
                CREATE INDEX signatures_by_site ON signatures (site_id, signature_id);
                CREATE TABLE read_uploads (
                    upload_id BIGINT PRIMARY KEY,
                    logger_id TEXT NOT NULL,
                    read_id BIGINT NOT NULL,
                    site_id BIGINT NOT NULL,
                    token_id BIGINT NOT NULL,
                    user_id BIGINT,
                    device TEXT,
                    uploaded_ms BIGINT NOT NULL,
                    new_read INTEGER NOT NULL
                );
                CREATE INDEX read_uploads_by_site ON read_uploads (site_id, upload_id);
                ALTER TABLE tokens ADD COLUMN created_by_user BIGINT;
                ALTER TABLE tokens ADD COLUMN device TEXT;
                """),
    ]

    /// `tokens.site_id` of an operator token: no site has id 0 (they are numbered from 1).
    static let stationWideSiteID: Int64 = 0

    /// Opens the station's tables, creating or migrating them.
    /// - Throws: `ArchiveError` as `Archive.open` does; `.newerVersion` for tables of a newer station.
    public init(archive: Archive, now: Date = Date()) throws {
        self.archive = archive
        try migrate(now: now)
    }

    private func migrate(now: Date) throws {
        let latest = StationStore.migrations.map(\.version).max() ?? 0
        func current() throws -> Int {
            guard try engine.tableExists("station_migrations") else { return 0 }
            return Int(try engine.scalarInt("SELECT MAX(version) FROM station_migrations") ?? 0)
        }
        if try current() == latest { return }
        try engine.writeTransaction {
            try engine.lockForMigration()
            let version = try current()
            guard version <= latest else {
                throw ArchiveError(
                    .newerVersion,
                    "the station tables in \(engine.location) were written by a newer ColdTap (station schema \(version); this one knows up to \(latest)); they were left unchanged."
                )
            }
            for migration in StationStore.migrations where migration.version > version {
                if !migration.sql.isEmpty { try engine.executeScript(Migrations.adapted(migration.sql, for: engine)) }
                try migration.transform?(engine)
                try engine.execute(
                    "INSERT INTO station_migrations (version, name, applied_ms) VALUES ($1, $2, $3)",
                    [.int(Int64(migration.version)), .text(migration.name), .int(now.milliseconds)])
            }
        }
    }

    // MARK: Sites

    /// - Throws: `ArchiveError(.invalidRead)` when a site of that name exists.
    @discardableResult
    public func addSite(_ name: String, now: Date = Date()) throws -> StationSite {
        try engine.writeTransaction {
            if try site(named: name) != nil {
                throw ArchiveError(.invalidRead, "there is already a site '\(name)'.", hint: .listSites)
            }
            let id = (try engine.scalarInt("SELECT MAX(site_id) FROM sites") ?? 0) + 1
            try engine.execute(
                "INSERT INTO sites (site_id, name, created_ms) VALUES ($1, $2, $3)",
                [.int(id), .text(name), .int(now.milliseconds)])
            let site = StationSite(id: id, name: name, created: Date(milliseconds: now.milliseconds))
            try archive.appendLeaf(.site(site))
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
        return try engine.writeTransaction {
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
            if let row { try archive.appendLeaf(.token(row)) }
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
        try engine.writeTransaction {
            guard try engine.scalarInt("SELECT COUNT(*) FROM tokens WHERE token_id = $1 AND revoked_ms IS NULL", [.int(id)]) == 1 else {
                return false
            }
            try revokeWithinWrite(tokenID: id, now: now)
            return true
        }
    }

    /// Marks a live token revoked and appends its revocation's leaf.
    func revokeWithinWrite(tokenID id: Int64, now: Date) throws {
        try engine.execute("UPDATE tokens SET revoked_ms = $1 WHERE token_id = $2", [.int(now.milliseconds), .int(id)])
        try archive.appendLeaf(.tokenRevoked(id: id, at: now.milliseconds))
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
        return try engine.writeTransaction { try claimWithinWrite(loggerID: loggerID, siteID: siteID, now: now) }
    }

    /// `claim` inside the caller's write transaction (the station keeps a read and claims its
    /// logger in one).
    public func claimWithinWrite(loggerID: String, siteID: Int64, now: Date = Date()) throws -> Int64 {
        if let owner = try self.siteID(ofLogger: loggerID) { return owner }
        try StationStore.claimWithinWrite(loggerID: loggerID, siteID: siteID, engine: engine, now: now)
        return siteID
    }

    /// Makes `loggerID`, which no site has, `siteID`'s (its row and its leaf).
    static func claimWithinWrite(loggerID: String, siteID: Int64, engine: any ArchiveEngine, now: Date) throws {
        try engine.executeDeferred(
            "INSERT INTO site_loggers (logger_id, site_id, joined_ms) VALUES ($1, $2, $3)",
            [.text(loggerID), .int(siteID), .int(now.milliseconds)])
        try Archive.appendLeaf(.siteLogger(loggerID: loggerID, siteID: siteID, joined: now.milliseconds), to: engine)
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

    // MARK: Logger secrets

    public func setSecret(_ secret: String, loggerID: String, now: Date = Date()) throws {
        try engine.writeTransaction {
            try engine.execute("DELETE FROM logger_secrets WHERE logger_id = $1", [.text(loggerID)])
            try engine.execute(
                "INSERT INTO logger_secrets (logger_id, secret, set_ms) VALUES ($1, $2, $3)",
                [.text(loggerID), .text(secret), .int(now.milliseconds)])
            try archive.appendLeaf(.loggerSecret(loggerID: loggerID, set: now.milliseconds))
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
        return try engine.writeTransaction {
            let version =
                Int(try engine.scalarInt("SELECT MAX(version) FROM site_profiles WHERE site_id = $1 AND name = $2", [.int(siteID), .text(name)]) ?? 0) + 1
            let profile = SiteProfile(
                siteID: siteID, name: name, version: version, json: json, sha256: SHA256Digest.hex(text: json),
                added: Date(milliseconds: now.milliseconds), addedBy: addedBy)
            try engine.execute(
                "INSERT INTO site_profiles (site_id, name, version, profile_json, profile_sha256, added_ms, added_by) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                [.int(siteID), .text(name), .int(Int64(version)), .text(json), .text(profile.sha256), .int(now.milliseconds), .text(addedBy)])
            try archive.appendLeaf(.siteProfile(profile))
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

    // MARK: Webhooks

    @discardableResult
    public func addWebhook(siteID: Int64, url: String, secret: String, now: Date = Date()) throws -> StationWebhook {
        try engine.writeTransaction {
            let id = (try engine.scalarInt("SELECT MAX(webhook_id) FROM webhooks") ?? 0) + 1
            try engine.execute(
                "INSERT INTO webhooks (webhook_id, site_id, url, secret, created_ms) VALUES ($1, $2, $3, $4, $5)",
                [.int(id), .int(siteID), .text(url), .text(secret), .int(now.milliseconds)])
            try archive.appendLeaf(.webhook(id: id, siteID: siteID, url: url, created: now.milliseconds))
            return StationWebhook(id: id, siteID: siteID, url: url, secret: secret)
        }
    }

    public func webhooks(siteID: Int64? = nil) throws -> [StationWebhook] {
        var result: [StationWebhook] = []
        let clause = siteID == nil ? "" : "WHERE site_id = $1"
        try engine.query("SELECT \(StationWebhook.Column.selectList) FROM webhooks \(clause) ORDER BY webhook_id", siteID.map { [.int($0)] } ?? []) { row in
            result.append(StationWebhook(row: row))
        }
        return result
    }

    public func recordDelivery(
        webhookID: Int64, eventID: String, event: String, attempt: Int, status: Int?, error: String,
        delivered: Bool, now: Date = Date()
    ) throws {
        try engine.writeTransaction {
            let id = (try engine.scalarInt("SELECT MAX(delivery_id) FROM webhook_deliveries") ?? 0) + 1
            try engine.execute(
                "INSERT INTO webhook_deliveries (delivery_id, webhook_id, event_id, event, attempt, attempted_ms, http_status, error, delivered) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                [
                    .int(id), .int(webhookID), .text(eventID), .text(event), .int(Int64(attempt)), .int(now.milliseconds),
                    status.map { .int(Int64($0)) } ?? .null, .text(error), .int(delivered ? 1 : 0),
                ])
        }
    }

    public func deliveries(webhookID: Int64? = nil) throws -> [WebhookDelivery] {
        var result: [WebhookDelivery] = []
        let clause = webhookID == nil ? "" : "WHERE webhook_id = $1"
        try engine.query(
            "SELECT \(WebhookDelivery.Column.selectList) FROM webhook_deliveries \(clause) ORDER BY delivery_id", webhookID.map { [.int($0)] } ?? []
        ) { row in
            result.append(WebhookDelivery(row: row))
        }
        return result
    }

    // MARK: Webhook delivery queue
    //
    // Rows are leased, never locked in a process: a worker takes a row with one conditional
    // UPDATE that sets `claimed_by` and `claimed_until_ms`, so stations sharing one PostgreSQL
    // never attempt one delivery at once, and a crashed station's lease simply runs out. Only
    // the oldest pending row of a webhook can be leased: one delivery in flight per target,
    // in order, whichever station holds it.

    /// Queues the event for every webhook of the site, inside the caller's write transaction.
    /// - Returns: how many deliveries were queued.
    @discardableResult
    public func enqueueWebhookEventWithinWrite(
        siteID: Int64, eventID: String, event: String, payload: String,
        deadline: Date, now: Date = Date()
    ) throws -> Int {
        let hooks = try webhooks(siteID: siteID)
        guard !hooks.isEmpty else { return 0 }
        var next = (try engine.scalarInt("SELECT MAX(queue_id) FROM webhook_queue") ?? 0) + 1
        for hook in hooks {
            try engine.execute(
                """
                INSERT INTO webhook_queue (queue_id, webhook_id, event_id, event, payload, created_ms, deadline_ms, next_attempt_ms,
                                           attempts, state, claimed_by, claimed_until_ms, finished_ms, last_error)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $6, 0, 'pending', NULL, NULL, NULL, '')
                """, [.int(next), .int(hook.id), .text(eventID), .text(event), .text(payload), .int(now.milliseconds), .int(deadline.milliseconds)])
            next += 1
        }
        return hooks.count
    }

    /// Leases the due delivery that waited longest among the oldest pending one of each
    /// webhook whose lease is free, until `leaseUntil`, for `claimer`; `nil` when none is due.
    public func leaseWebhookDelivery(claimer: String, leaseUntil: Date, now: Date = Date()) throws -> QueuedWebhookDelivery? {
        var leased: QueuedWebhookRow?
        try engine.query(
            """
            UPDATE webhook_queue SET claimed_by = $1, claimed_until_ms = $2
            WHERE queue_id = (
                SELECT q.queue_id FROM webhook_queue q
                WHERE q.state = 'pending' AND q.next_attempt_ms <= $3 AND (q.claimed_until_ms IS NULL OR q.claimed_until_ms <= $3)
                  AND NOT EXISTS (SELECT 1 FROM webhook_queue older
                                  WHERE older.webhook_id = q.webhook_id AND older.state = 'pending' AND older.queue_id < q.queue_id)
                ORDER BY q.next_attempt_ms, q.queue_id LIMIT 1)
              AND state = 'pending' AND (claimed_until_ms IS NULL OR claimed_until_ms <= $3)
            RETURNING \(QueuedWebhookRow.Column.selectList)
            """, [.text(claimer), .int(leaseUntil.milliseconds), .int(now.milliseconds)]
        ) { row in
            leased = QueuedWebhookRow(row: row)
        }
        guard let leased else { return nil }
        // A webhook row deleted under its queue: the delivery has nowhere to go.
        let hook = try webhook(id: leased.webhookID) ?? StationWebhook(id: leased.webhookID, siteID: 0, url: "", secret: "")
        return leased.delivery(to: hook)
    }

    public func webhook(id: Int64) throws -> StationWebhook? {
        var found: StationWebhook?
        try engine.query("SELECT \(StationWebhook.Column.selectList) FROM webhooks WHERE webhook_id = $1", [.int(id)]) { row in
            found = StationWebhook(row: row)
        }
        return found
    }

    /// Records one attempt of a leased delivery and moves its row on (delivered, due again,
    /// or given up), releasing the lease; inside the caller's write transaction.
    /// - Parameter attempted: false when no attempt was made (a delivery past its deadline).
    /// - Returns: false when the lease was no longer `claimer`'s (it ran out and another took
    ///   the row): nothing is changed then.
    @discardableResult
    public func finishWebhookAttemptWithinWrite(
        _ delivery: QueuedWebhookDelivery, claimer: String, attempted: Bool, status: Int?, error: String,
        outcome: WebhookQueueOutcome, now: Date = Date()
    ) throws -> Bool {
        let held =
            try engine.scalarInt(
                "SELECT COUNT(*) FROM webhook_queue WHERE queue_id = $1 AND claimed_by = $2 AND state = 'pending'",
                [.int(delivery.queueID), .text(claimer)]) ?? 0
        guard held == 1 else { return false }
        let attempts = delivery.attempts + (attempted ? 1 : 0)
        let (state, next, finished): (String, Int64, SQLValue) =
            switch outcome {
            case .delivered: ("delivered", now.milliseconds, .int(now.milliseconds))
            case .retry(let at): ("pending", at.milliseconds, .null)
            case .givenUp: ("given_up", now.milliseconds, .int(now.milliseconds))
            }
        try engine.execute(
            """
            UPDATE webhook_queue SET state = $1, next_attempt_ms = $2, attempts = $3, finished_ms = $4, last_error = $5,
                                     claimed_by = NULL, claimed_until_ms = NULL
            WHERE queue_id = $6 AND claimed_by = $7
            """, [.text(state), .int(next), .int(Int64(attempts)), finished, .text(error), .int(delivery.queueID), .text(claimer)])
        if attempted {
            let id = (try engine.scalarInt("SELECT MAX(delivery_id) FROM webhook_deliveries") ?? 0) + 1
            try engine.execute(
                "INSERT INTO webhook_deliveries (delivery_id, webhook_id, event_id, event, attempt, attempted_ms, http_status, error, delivered) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                [
                    .int(id), .int(delivery.webhook.id), .text(delivery.eventID), .text(delivery.event), .int(Int64(attempts)),
                    .int(now.milliseconds), status.map { .int(Int64($0)) } ?? .null, .text(error), .int(outcome == .delivered ? 1 : 0),
                ])
        }
        return true
    }

    /// Gives a lease back without an attempt (a station stopping), due again at `nextAttempt`.
    public func releaseWebhookLease(queueID: Int64, claimer: String, nextAttempt: Date) throws {
        try engine.execute(
            "UPDATE webhook_queue SET claimed_by = NULL, claimed_until_ms = NULL, next_attempt_ms = $1 WHERE queue_id = $2 AND claimed_by = $3",
            [.int(nextAttempt.milliseconds), .int(queueID), .text(claimer)])
    }

    /// When the oldest pending delivery of a webhook next becomes due, or its lease runs out
    /// (the rows behind it wait for it), or `nil` when none is pending.
    public func nextWebhookWake() throws -> Date? {
        try engine.scalarInt(
            """
            SELECT MIN(CASE WHEN q.claimed_until_ms IS NOT NULL AND q.claimed_until_ms > q.next_attempt_ms
                            THEN q.claimed_until_ms ELSE q.next_attempt_ms END)
            FROM webhook_queue q
            WHERE q.state = 'pending'
              AND NOT EXISTS (SELECT 1 FROM webhook_queue older
                              WHERE older.webhook_id = q.webhook_id AND older.state = 'pending' AND older.queue_id < q.queue_id)
            """
        ).map { Date(milliseconds: $0) }
    }

    /// Deliveries not yet delivered nor given up, of all webhooks.
    public func pendingWebhookDeliveries() throws -> Int {
        Int(try engine.scalarInt("SELECT COUNT(*) FROM webhook_queue WHERE state = 'pending'") ?? 0)
    }

    /// The queue's rows of one webhook by state, and its failed attempts.
    public func webhookQueueCounts(webhookID: Int64) throws -> WebhookQueueCounts {
        var counts = WebhookQueueCounts()
        enum ByState: Int, ArchiveColumns {
            case state, count
            var sqlName: String { self == .state ? "state" : "COUNT(*)" }
        }
        try engine.query("SELECT \(ByState.selectList) FROM webhook_queue WHERE webhook_id = $1 GROUP BY state", [.int(webhookID)]) { row in
            switch row.text(ByState.state) {
            case "pending": counts.pending = Int(row.int(ByState.count))
            case "given_up": counts.givenUp = Int(row.int(ByState.count))
            default: break
            }
        }
        // Attempts count from the record, which also holds deliveries made before the queue.
        enum ByOutcome: Int, ArchiveColumns {
            case delivered, count
            var sqlName: String { self == .delivered ? "delivered" : "COUNT(*)" }
        }
        try engine.query("SELECT \(ByOutcome.selectList) FROM webhook_deliveries WHERE webhook_id = $1 GROUP BY delivered", [.int(webhookID)]) { row in
            let count = Int(row.int(ByOutcome.count))
            if row.int(ByOutcome.delivered) != 0 { counts.delivered = count } else { counts.failedAttempts = count }
        }
        return counts
    }
}
