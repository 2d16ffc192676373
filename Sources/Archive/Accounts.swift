import ColdTapBase
import Digest
import Foundation
import Passwords

/// What a named person may do at a site (docs/accounts.md). Each role includes the ones
/// before it: an admin can review, a reviewer can acknowledge.
public enum UserRole: String, Sendable, CaseIterable, Comparable {
    /// Reads loggers, samples and reports.
    case viewer
    /// Also uploads reads from the web and the phone, and acknowledges excursions.
    case `operator`
    /// Also signs reviews of a period.
    case reviewer
    /// Also manages the site's users, profiles and webhooks, and reads the audit trail.
    case admin

    private var rank: Int { UserRole.allCases.firstIndex(of: self) ?? 0 }
    public static func < (lhs: UserRole, rhs: UserRole) -> Bool { lhs.rank < rhs.rank }

    /// The API scope a session or device token of this role has.
    public var scope: TokenScope {
        switch self {
        case .viewer: return .read
        case .operator, .reviewer: return .upload
        case .admin: return .admin
        }
    }
}

/// A named person of a site. The name signs in (it is unique across the station, since the
/// sign-in form names no site); the full name is what their signatures print.
public struct StationUser: Sendable, Equatable {
    public var id: Int64
    public var siteID: Int64
    public var name: String
    public var fullName: String
    public var role: UserRole
    public var created: Date
    /// Who added them: `os:NAME` (the command line) or `user:NAME` (an admin on the web).
    public var createdBy: String
    public var disabled: Date?
    /// Whether a password is set (a new or reset user has a one-time set-up link instead).
    public var hasPassword: Bool

    public static func isValidName(_ name: String) -> Bool { StationName.isValid(name, maxLength: 64, punctuation: "._-@") }

    public static func isValidFullName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 200 && name == name.trimmingCharacters(in: .whitespaces)
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}

/// One fact of a user's account as the record keeps it: added, a role set, a password set
/// or reset, disabled, a sign-in, a failed one, a lock, a sign-out.
public struct AccountEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case userAdded = "user_added"
        case roleChanged = "role_changed"
        case passwordSet = "password_set"
        case passwordReset = "password_reset"
        case disabled
        case signIn = "sign_in"
        case signInFailed = "sign_in_failed"
        case locked
        case signedOut = "signed_out"
        case sessionsEnded = "sessions_ended"
    }

    public var id: Int64
    /// The user's site; 0 for a sign-in under a name no user has (it belongs to no site).
    public var siteID: Int64
    public var userID: Int64?
    public var at: Date
    public var kind: Kind
    /// Who did it: `user:NAME`, `os:NAME` (the command line), or `station` (a time-out).
    public var actor: String
    /// What else the event says, by name (`role`, `old_role`, `reason`, `until_ms`, …).
    public var detail: [String: String]

    /// `detail` as kept: JSON with sorted keys, so the leaf is one text for one event.
    var detailText: String {
        guard let data = try? JSONSerialization.data(withJSONObject: detail, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    static func detail(from text: String) -> [String: String] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]) ?? [:]
    }
}

/// Why a sign-in (or a signature's password) was refused. The wording a person sees is the
/// same for an unknown name and a wrong password, so names cannot be probed.
public enum SignInRefusal: Error, Sendable, Equatable {
    case wrongNameOrPassword
    case locked(until: Date)
    case disabled
    case noPasswordYet
}

/// A browser's session: the cookie holds 256 random bits, the archive only their SHA-256.
public struct StationSession: Sendable, Equatable {
    public var sha256: String
    /// The signed-in user; `nil` for a session opened with a site's token (before users).
    public var userID: Int64?
    public var tokenID: Int64?
    public var created: Date
    public var lastSeen: Date
    /// Signatures made in it: the first needs the name and password, later ones the password.
    public var signatures: Int
}

/// How long a session lives: idle time-out and absolute limit (docs/accounts.md).
public struct SessionLimits: Sendable, Equatable {
    public var idle: TimeInterval
    public var absolute: TimeInterval

    public init(idle: TimeInterval = 15 * 60, absolute: TimeInterval = 12 * 3600) {
        self.idle = idle
        self.absolute = absolute
    }
}

/// What a session cookie stands for now.
public enum SessionLookup: Sendable, Equatable {
    case user(StationSession, StationUser)
    case token(StationSession, StationToken)
    /// Unknown, ended, timed out, or its user or token is no longer live.
    case none
}

extension StationStore {
    /// Failed sign-ins in a row that lock an account.
    public static let failuresBeforeLock = 5
    /// The first lock's length; each further lock without a successful sign-in between
    /// doubles it, up to a day.
    public static let firstLock: TimeInterval = 5 * 60
    public static let longestLock: TimeInterval = 86_400
    /// How long a set-up link works.
    public static let setupLinkLifetime: TimeInterval = 72 * 3600

    /// Whether any user exists: a station with users signs browsers in with names and
    /// passwords only (its sites' tokens no longer open web sessions).
    public func hasUsers() throws -> Bool { try engine.scalarInt("SELECT COUNT(*) FROM users") ?? 0 > 0 }

    // MARK: Users

    /// Adds a user of `site`. With `password`, it is set at once (scripts, tests); without,
    /// a one-time set-up token is returned for the link the new user opens.
    /// - Throws: `ArchiveError(.conflict)` for a name taken; `.invalidRead` for a name, full
    ///   name or password the rules refuse.
    public func addUser(
        name: String, fullName: String, site: StationSite, role: UserRole, by actor: String, password: String?, now: Date = Date()
    ) throws -> (user: StationUser, setupToken: String?) {
        guard StationUser.isValidName(name) else {
            throw ArchiveError(.invalidRead, "a user name is 1 to 64 letters, digits, '.', '_', '-' or '@', starting with a letter or digit.")
        }
        guard StationUser.isValidFullName(fullName) else {
            throw ArchiveError(.invalidRead, "a full name is 1 to 200 characters on one line, as the user's signatures print it.")
        }
        let hash = try password.map(StationStore.hashPassword)
        let setup = hash == nil ? StationStore.newSecret(prefix: "su") : nil
        return try engine.writeTransaction { transaction in
            if try user(named: name) != nil { throw ArchiveError(.conflict, "there is already a user '\(name)'.") }
            let id = (try engine.scalarInt("SELECT MAX(user_id) FROM users") ?? 0) + 1
            let created = now.milliseconds
            try engine.execute(
                """
                INSERT INTO users (user_id, site_id, name, full_name, created_ms, created_by, role, disabled_ms, password_hash, setup_sha256, setup_expires_ms)
                VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8, $9, $10)
                """,
                [
                    .int(id), .int(site.id), .text(name), .text(fullName), .int(created), .text(actor), .text(role.rawValue), .optional(hash),
                    .optional(setup.map { SHA256Digest.hex(text: $0) }),
                    .optional(setup.map { _ in now.addingTimeInterval(StationStore.setupLinkLifetime).milliseconds }),
                ])
            let user = StationUser(
                id: id, siteID: site.id, name: name, fullName: fullName, role: role, created: Date(milliseconds: created), createdBy: actor,
                disabled: nil, hasPassword: hash != nil)
            try Archive.appendLeaf(.user(user), in: transaction)
            try appendAccountEvent(site: site.id, user: id, kind: .userAdded, actor: actor, detail: ["role": role.rawValue], now: now, in: transaction)
            if let hash {
                try appendAccountEvent(
                    site: site.id, user: id, kind: .passwordSet, actor: actor, detail: ["password_hash_sha256": SHA256Digest.hex(text: hash)], now: now,
                    in: transaction)
            }
            return (user, setup)
        }
    }

    public func user(named name: String) throws -> StationUser? { try users(where: "WHERE name = $1", [.text(name)]).first }
    public func user(id: Int64) throws -> StationUser? { try users(where: "WHERE user_id = $1", [.int(id)]).first }

    /// The users of `siteID`, or of every site.
    public func users(siteID: Int64? = nil) throws -> [StationUser] {
        try siteID.map { try users(where: "WHERE site_id = $1", [.int($0)]) } ?? users(where: "", [])
    }

    private func users(where clause: String, _ values: [SQLValue]) throws -> [StationUser] { try userRows(where: clause, values).map(\.user) }

    private func userRows(where clause: String, _ values: [SQLValue]) throws -> [UserRow] {
        var result: [UserRow] = []
        try engine.query("SELECT \(UserRow.Column.selectList) FROM users \(clause) ORDER BY user_id", values) { result.append(UserRow(row: $0)) }
        return result
    }

    /// - Throws: `ArchiveError(.notFound)` for no such user.
    public func setRole(_ role: UserRole, of user: StationUser, by actor: String, now: Date = Date()) throws {
        try engine.writeTransaction { transaction in
            guard let kept = try self.user(id: user.id) else { throw ArchiveError(.notFound, "there is no user '\(user.name)'.") }
            guard kept.role != role else { return }
            try engine.execute("UPDATE users SET role = $1 WHERE user_id = $2", [.text(role.rawValue), .int(user.id)])
            // A device token may do no more than its user's role now allows.
            try revokeTokens(of: kept, above: role.scope, now: now, in: transaction)
            try appendAccountEvent(
                site: kept.siteID, user: kept.id, kind: .roleChanged, actor: actor, detail: ["old_role": kept.role.rawValue, "role": role.rawValue], now: now,
                in: transaction)
        }
    }

    /// Disables a user for good (their name stays theirs) and ends their sessions; their
    /// device tokens are revoked with them.
    public func disableUser(_ user: StationUser, by actor: String, now: Date = Date()) throws {
        try engine.writeTransaction { transaction in
            guard let kept = try self.user(id: user.id), kept.disabled == nil else { return }
            try engine.execute("UPDATE users SET disabled_ms = $1 WHERE user_id = $2", [.int(now.milliseconds), .int(user.id)])
            try appendAccountEvent(site: kept.siteID, user: kept.id, kind: .disabled, actor: actor, detail: [:], now: now, in: transaction)
            try endSessions(of: kept, reason: "disabled", actor: actor, now: now, in: transaction)
            try revokeTokens(of: kept, now: now, in: transaction)
        }
    }

    /// Sets a new password, or with `nil` clears it and returns a new one-time set-up token.
    /// Ends every session of the user and revokes the device tokens made for them either
    /// way: whoever held the old password may have signed a phone in with it.
    /// - Throws: `ArchiveError(.invalidRead)` for a password the rules refuse.
    @discardableResult
    public func resetPassword(of user: StationUser, to password: String?, by actor: String, now: Date = Date()) throws -> String? {
        try setPassword(of: user, to: password, by: actor, revokingTokens: true, now: now)
    }

    private func setPassword(of user: StationUser, to password: String?, by actor: String, revokingTokens: Bool, now: Date) throws -> String? {
        let hash = try password.map(StationStore.hashPassword)
        let setup = hash == nil ? StationStore.newSecret(prefix: "su") : nil
        try engine.writeTransaction { transaction in
            guard let kept = try self.user(id: user.id) else { throw ArchiveError(.notFound, "there is no user '\(user.name)'.") }
            try engine.execute(
                "UPDATE users SET password_hash = $1, setup_sha256 = $2, setup_expires_ms = $3 WHERE user_id = $4",
                [
                    .optional(hash), .optional(setup.map { SHA256Digest.hex(text: $0) }),
                    .optional(setup.map { _ in now.addingTimeInterval(StationStore.setupLinkLifetime).milliseconds }), .int(kept.id),
                ])
            if let hash {
                try appendAccountEvent(
                    site: kept.siteID, user: kept.id, kind: .passwordSet, actor: actor,
                    detail: ["password_hash_sha256": SHA256Digest.hex(text: hash)], now: now, in: transaction)
            } else {
                try appendAccountEvent(site: kept.siteID, user: kept.id, kind: .passwordReset, actor: actor, detail: [:], now: now, in: transaction)
            }
            try endSessions(of: kept, reason: "password changed", actor: actor, now: now, in: transaction)
            if revokingTokens { try revokeTokens(of: kept, now: now, in: transaction) }
        }
        return setup
    }

    /// The user a live set-up token (from `addUser` or `resetPassword`) is for.
    public func user(setupToken: String, now: Date = Date()) throws -> StationUser? {
        guard setupToken.hasPrefix("su_"), setupToken.count == 67 else { return nil }
        return try users(
            where: "WHERE setup_sha256 = $1 AND setup_expires_ms > $2 AND disabled_ms IS NULL",
            [.text(SHA256Digest.hex(text: setupToken)), .int(now.milliseconds)]
        ).first
    }

    /// Sets the first password through a set-up link; the link then stops working. The
    /// device tokens an admin made for the user meanwhile stay (a reset revoked the older ones).
    /// - Returns: the user, or `nil` when the link is unknown, used or expired.
    public func setPassword(setupToken: String, password: String, now: Date = Date()) throws -> StationUser? {
        guard let user = try user(setupToken: setupToken, now: now) else { return nil }
        try setPassword(of: user, to: password, by: "user:\(user.name)", revokingTokens: false, now: now)
        return try self.user(id: user.id)
    }

    // MARK: Signing in

    /// Checks a name and password: the sign-in of a browser or a phone, or the password a
    /// signature asks again. Each attempt on an account is an event of the record; the fifth
    /// wrong password in a row locks it (`firstLock`, doubling with each lock). An attempt
    /// under a name no user has is no event (the request log has it): nobody without an
    /// account can grow the record. A refusal while locked, disabled or without a password
    /// is recorded once per run of them, and costs no hashing.
    /// - Parameter purpose: `web`, `device` or `signature`, kept with the event.
    public func checkPassword(name: String, password: String, purpose: String, now: Date = Date()) throws -> Result<StationUser, SignInRefusal> {
        guard let row = try userRows(where: "WHERE name = $1", [.text(name)]).first else {
            // An unknown name costs the same hashing as a known one.
            _ = PasswordHash.matches(password, hash: StationStore.decoyHash)
            return .failure(.wrongNameOrPassword)
        }
        let user = row.user
        let actor = "user:\(user.name)"
        let state = try lockState(of: user)
        func refuse(_ reason: String, _ refusal: SignInRefusal) throws -> Result<StationUser, SignInRefusal> {
            try engine.writeTransaction { transaction in
                let newest = try newestAccountEvent(of: user)
                if newest?.kind != .signInFailed || newest?.detail["reason"] != reason {
                    try appendAccountEvent(
                        site: user.siteID, user: user.id, kind: .signInFailed, actor: actor, detail: ["reason": reason, "purpose": purpose], now: now,
                        in: transaction)
                }
            }
            return .failure(refusal)
        }
        if user.disabled != nil { return try refuse("disabled", .disabled) }
        if let until = state.lockedUntil, until > now { return try refuse("locked", .locked(until: until)) }
        guard let hash = row.passwordHash else { return try refuse("no password set", .noPasswordYet) }
        // Hashed outside the write, so that no writer waits on Argon2id.
        let matches = PasswordHash.matches(password, hash: hash)
        return try engine.writeTransaction { transaction in
            guard matches else {
                try appendAccountEvent(
                    site: user.siteID, user: user.id, kind: .signInFailed, actor: actor, detail: ["reason": "wrong password", "purpose": purpose], now: now,
                    in: transaction)
                // Counted again inside the write: two wrong passwords at once both count.
                let current = try lockState(of: user)
                guard current.failures >= StationStore.failuresBeforeLock else { return .failure(.wrongNameOrPassword) }
                let length = min(StationStore.longestLock, StationStore.firstLock * pow(2, Double(min(current.locks, 20))))
                let until = now.addingTimeInterval(length)
                try appendAccountEvent(
                    site: user.siteID, user: user.id, kind: .locked, actor: "station",
                    detail: ["until_ms": String(until.milliseconds), "failures": String(current.failures)], now: now, in: transaction)
                return .failure(.locked(until: Date(milliseconds: until.milliseconds)))
            }
            // Also a signature's password: the wrong ones before it are then no longer "in a row".
            try appendAccountEvent(site: user.siteID, user: user.id, kind: .signIn, actor: actor, detail: ["purpose": purpose], now: now, in: transaction)
            return .success(user)
        }
    }

    func newestAccountEvent(of user: StationUser) throws -> AccountEvent? {
        var newest: AccountEvent?
        try engine.query(
            "SELECT \(AccountEventRow.Column.selectList) FROM account_events WHERE user_id = $1 ORDER BY event_id DESC LIMIT 1", [.int(user.id)]
        ) { newest = AccountEventRow(row: $0).event }
        return newest
    }

    /// Until when `user` is locked out (five wrong passwords in a row), or `nil`.
    public func lockedUntil(_ user: StationUser, now: Date = Date()) throws -> Date? {
        try lockState(of: user).lockedUntil.flatMap { $0 > now ? $0 : nil }
    }

    /// Wrong passwords since the last sign-in, password change or lock, locks since the last
    /// sign-in or password change, and the newest lock's end.
    func lockState(of user: StationUser) throws -> (failures: Int, locks: Int, lockedUntil: Date?) {
        var failures = 0
        var locks = 0
        var lockedUntil: Date?
        var countingFailures = true
        var reachedSignIn = false
        try engine.query(
            "SELECT \(AccountEventRow.Column.selectList) FROM account_events WHERE user_id = $1 AND kind IN ('sign_in', 'password_set', 'locked', 'sign_in_failed') ORDER BY event_id DESC LIMIT 200",
            [.int(user.id)]
        ) { row in
            let event = AccountEventRow(row: row).event
            guard !reachedSignIn else { return }
            switch event.kind {
            case .signIn, .passwordSet:
                reachedSignIn = true
            case .locked:
                if lockedUntil == nil { lockedUntil = event.detail["until_ms"].flatMap(Int64.init).map { Date(milliseconds: $0) } }
                countingFailures = false
                locks += 1
            case .signInFailed:
                if countingFailures, event.detail["reason"] == "wrong password" { failures += 1 }
            default: break
            }
        }
        return (failures, locks, lockedUntil)
    }

    static func hashPassword(_ password: String) throws -> String {
        do {
            return try PasswordHash.make(password)
        } catch let failure as PasswordHash.Failure {
            throw ArchiveError(.invalidRead, failure.description)
        }
    }

    /// A hash no password is known for, checked when the name is unknown.
    static let decoyHash: String = (try? PasswordHash.make(newSecret(prefix: "decoy"))) ?? ""

    /// `PREFIX_` and 64 hex digits of 256 random bits.
    static func newSecret(prefix: String) -> String { prefix + "_" + randomHex() }

    /// 64 hex digits of 256 random bits (tokens, sessions, set-up links).
    static func randomHex() -> String {
        var random = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }.hexString(uppercase: false)
    }

    // MARK: Sessions

    /// Opens a session for a user who signed in, or for a site's token (a station without
    /// users). - Returns: the cookie's value, shown to the browser once.
    public func startSession(user: StationUser? = nil, token: StationToken? = nil, now: Date = Date()) throws -> String {
        let cookie = StationStore.newSecret(prefix: "cs")
        try engine.execute(
            "INSERT INTO sessions (session_sha256, user_id, token_id, created_ms, last_seen_ms, ended_ms, end_reason, signatures) VALUES ($1, $2, $3, $4, $4, NULL, NULL, 0)",
            [.text(SHA256Digest.hex(text: cookie)), .optional(user?.id), .optional(token?.id), .int(now.milliseconds)])
        return cookie
    }

    /// The live session a cookie stands for; marks it seen (at most every few seconds, so
    /// a page's requests do not each write). A session past its idle or absolute limit is
    /// ended here, with its reason.
    public func session(cookie: String, limits: SessionLimits, now: Date = Date()) throws -> SessionLookup {
        guard cookie.hasPrefix("cs_"), cookie.count == 67 else { return .none }
        let hash = SHA256Digest.hex(text: cookie)
        var found: SessionRow?
        try engine.query("SELECT \(SessionRow.Column.selectList) FROM sessions WHERE session_sha256 = $1 AND ended_ms IS NULL", [.text(hash)]) {
            found = SessionRow(row: $0)
        }
        guard let row = found else { return .none }
        let session = row.session
        let idleEnd = session.lastSeen.addingTimeInterval(limits.idle)
        let absoluteEnd = session.created.addingTimeInterval(limits.absolute)
        if now >= idleEnd || now >= absoluteEnd {
            try engine.writeTransaction { _ in
                try engine.execute(
                    "UPDATE sessions SET ended_ms = $1, end_reason = $2 WHERE session_sha256 = $3 AND ended_ms IS NULL",
                    [.int(min(idleEnd, absoluteEnd).milliseconds), .text(now >= absoluteEnd ? "absolute limit" : "idle time-out"), .text(hash)])
            }
            return .none
        }
        // Marked at most every 5 s, and at least every quarter of a shorter idle limit: else a
        // session used every second would still end one idle limit after it began.
        if now.timeIntervalSince(session.lastSeen) >= min(5, limits.idle / 4) {
            try engine.execute("UPDATE sessions SET last_seen_ms = $1 WHERE session_sha256 = $2", [.int(now.milliseconds), .text(hash)])
        }
        if let userID = session.userID {
            guard let user = try user(id: userID), user.disabled == nil, user.hasPassword else { return .none }
            return .user(session, user)
        }
        if let tokenID = session.tokenID, let token = try token(id: tokenID), token.isLive(at: now), token.site != nil {
            return .token(session, token)
        }
        return .none
    }

    /// Ends a session (signing out): its cookie is refused from now on, on every station.
    public func endSession(cookie: String, now: Date = Date()) throws {
        guard cookie.hasPrefix("cs_"), cookie.count == 67 else { return }
        let hash = SHA256Digest.hex(text: cookie)
        try engine.writeTransaction { transaction in
            var found: SessionRow?
            try engine.query("SELECT \(SessionRow.Column.selectList) FROM sessions WHERE session_sha256 = $1 AND ended_ms IS NULL", [.text(hash)]) {
                found = SessionRow(row: $0)
            }
            guard let session = found?.session else { return }
            try engine.execute(
                "UPDATE sessions SET ended_ms = $1, end_reason = 'signed out' WHERE session_sha256 = $2", [.int(now.milliseconds), .text(hash)])
            if let userID = session.userID, let user = try user(id: userID) {
                try appendAccountEvent(site: user.siteID, user: user.id, kind: .signedOut, actor: "user:\(user.name)", detail: [:], now: now, in: transaction)
            }
        }
    }

    /// Counts a signature made in a session (the next one then asks the password only).
    public func noteSignature(inSession session: StationSession) throws {
        try engine.execute("UPDATE sessions SET signatures = signatures + 1 WHERE session_sha256 = $1", [.text(session.sha256)])
    }

    private func endSessions(of user: StationUser, reason: String, actor: String, now: Date, in transaction: WriteTransaction) throws {
        let open = try engine.scalarInt("SELECT COUNT(*) FROM sessions WHERE user_id = $1 AND ended_ms IS NULL", [.int(user.id)]) ?? 0
        guard open > 0 else { return }
        try engine.execute(
            "UPDATE sessions SET ended_ms = $1, end_reason = $2 WHERE user_id = $3 AND ended_ms IS NULL",
            [.int(now.milliseconds), .text(reason), .int(user.id)])
        try appendAccountEvent(
            site: user.siteID, user: user.id, kind: .sessionsEnded, actor: actor, detail: ["reason": reason, "sessions": String(open)], now: now,
            in: transaction)
    }

    /// Revokes the live device tokens made for `user`; with `above`, only those whose scope
    /// exceeds it.
    private func revokeTokens(of user: StationUser, above limit: TokenScope? = nil, now: Date, in transaction: WriteTransaction) throws {
        var ids: [Int64] = []
        try engine.query(
            "SELECT \(DeviceTokenColumn.selectList) FROM tokens WHERE created_by_user = $1 AND revoked_ms IS NULL ORDER BY token_id", [.int(user.id)]
        ) { row in
            let scope = TokenScope(rawValue: row.text(DeviceTokenColumn.scope))
            if let limit, let scope, scope <= limit { return }
            ids.append(row.int(DeviceTokenColumn.id))
        }
        for id in ids { try revoke(tokenID: id, now: now, in: transaction) }
    }

    // MARK: Events

    func appendAccountEvent(
        site: Int64, user: Int64?, kind: AccountEvent.Kind, actor: String, detail: [String: String], now: Date, in transaction: WriteTransaction
    ) throws {
        let id = (try engine.scalarInt("SELECT MAX(event_id) FROM account_events") ?? 0) + 1
        let event = AccountEvent(
            id: id, siteID: site, userID: user, at: Date(milliseconds: now.milliseconds), kind: kind, actor: actor, detail: detail)
        try engine.execute(
            "INSERT INTO account_events (\(AccountEventRow.Column.selectList)) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [.int(id), .int(site), .optional(user), .int(event.at.milliseconds), .text(kind.rawValue), .text(actor), .text(event.detailText)])
        try Archive.appendLeaf(.accountEvent(AccountEventRow(event: event)), in: transaction)
    }

    /// The account events of a site, oldest first.
    public func accountEvents(siteID: Int64) throws -> [AccountEvent] {
        var result: [AccountEvent] = []
        try engine.query("SELECT \(AccountEventRow.Column.selectList) FROM account_events WHERE site_id = $1 ORDER BY event_id", [.int(siteID)]) {
            result.append(AccountEventRow(row: $0).event)
        }
        return result
    }

    // MARK: Checks

    /// What `archive verify` finds wrong in the accounts: a user's role, disablement or
    /// password that is not what their events in the record say.
    func accountProblems() throws -> [String] {
        guard try engine.tableExists("users") else { return [] }
        var expected: [Int64: (role: String?, disabled: Int64?, passwordSHA: String?)] = [:]
        try engine.query("SELECT \(AccountEventRow.Column.selectList) FROM account_events WHERE user_id IS NOT NULL ORDER BY event_id", []) { row in
            let event = AccountEventRow(row: row).event
            guard let id = event.userID else { return }
            var state = expected[id] ?? (nil, nil, nil)
            switch event.kind {
            case .userAdded, .roleChanged: state.role = event.detail["role"]
            case .disabled: state.disabled = event.at.milliseconds
            case .passwordSet: state.passwordSHA = event.detail["password_hash_sha256"]
            case .passwordReset: state.passwordSHA = nil
            default: break
            }
            expected[id] = state
        }
        var problems: [String] = []
        try engine.query("SELECT \(UserRow.Column.selectList) FROM users ORDER BY user_id", []) { row in
            let kept = UserRow(row: row)
            let name = "user \(kept.user.name) (#\(kept.user.id))"
            let state = expected[kept.user.id] ?? (nil, nil, nil)
            if state.role != kept.role { problems.append("\(name) has the role \(kept.role), but the record's events give \(state.role ?? "none")") }
            if state.disabled != kept.disabled {
                problems.append("\(name) is \(kept.disabled == nil ? "enabled" : "disabled"), but the record's events say otherwise")
            }
            if kept.passwordHash.map({ SHA256Digest.hex(text: $0) }) != state.passwordSHA {
                problems.append("\(name)'s password is not the one the record's events set: it was changed outside ColdTap")
            }
        }
        return problems
    }
}

// MARK: Rows

/// `token_id, scope` of a user's device tokens.
enum DeviceTokenColumn: Int, ArchiveColumns {
    case id, scope
    var sqlName: String { self == .id ? "token_id" : "scope" }
}

struct UserRow {
    enum Column: Int, ArchiveColumns {
        case id, siteID, name, fullName, created, createdBy, role, disabled, passwordHash

        var sqlName: String {
            ["user_id", "site_id", "name", "full_name", "created_ms", "created_by", "role", "disabled_ms", "password_hash"][rawValue]
        }
    }

    var user: StationUser
    var role: String
    var disabled: Int64?
    var passwordHash: String?

    init(row: any ArchiveRow) {
        role = row.text(Column.role)
        disabled = row.optionalInt(Column.disabled)
        passwordHash = row.optionalText(Column.passwordHash)
        user = StationUser(
            id: row.int(Column.id), siteID: row.int(Column.siteID), name: row.text(Column.name), fullName: row.text(Column.fullName),
            role: UserRole(rawValue: row.text(Column.role)) ?? .viewer, created: Date(milliseconds: row.int(Column.created)),
            createdBy: row.text(Column.createdBy), disabled: disabled.map { Date(milliseconds: $0) }, hasPassword: passwordHash != nil)
    }
}

struct AccountEventRow {
    enum Column: Int, ArchiveColumns {
        case id, siteID, userID, at, kind, actor, detail
        var sqlName: String { ["event_id", "site_id", "user_id", "at_ms", "kind", "actor", "detail"][rawValue] }
    }

    var event: AccountEvent
    /// The kind as kept (an unknown one reads as a failed sign-in, and `verify` says so).
    var kindText: String
    var detailText: String

    init(event: AccountEvent) {
        self.event = event
        kindText = event.kind.rawValue
        detailText = event.detailText
    }

    init(row: any ArchiveRow) {
        kindText = row.text(Column.kind)
        detailText = row.text(Column.detail)
        event = AccountEvent(
            id: row.int(Column.id), siteID: row.int(Column.siteID), userID: row.optionalInt(Column.userID), at: Date(milliseconds: row.int(Column.at)),
            kind: AccountEvent.Kind(rawValue: kindText) ?? .signInFailed, actor: row.text(Column.actor), detail: AccountEvent.detail(from: detailText))
    }
}

struct SessionRow {
    enum Column: Int, ArchiveColumns {
        case sha256, userID, tokenID, created, lastSeen, signatures
        var sqlName: String { ["session_sha256", "user_id", "token_id", "created_ms", "last_seen_ms", "signatures"][rawValue] }
    }

    var session: StationSession

    init(row: any ArchiveRow) {
        session = StationSession(
            sha256: row.text(Column.sha256), userID: row.optionalInt(Column.userID), tokenID: row.optionalInt(Column.tokenID),
            created: Date(milliseconds: row.int(Column.created)), lastSeen: Date(milliseconds: row.int(Column.lastSeen)),
            signatures: Int(row.int(Column.signatures)))
    }
}

extension RecordLeaf {
    /// A user as added: who they are and who added them (their role and password are events).
    static func user(_ user: StationUser) -> RecordLeaf {
        RecordLeaf(
            .user,
            [
                ("user", text(user.id)), ("site", text(user.siteID)), ("name", user.name), ("full_name", user.fullName),
                ("created_ms", text(user.created.milliseconds)), ("created_by", user.createdBy),
            ])
    }

    static func accountEvent(_ row: AccountEventRow) -> RecordLeaf {
        RecordLeaf(
            .accountEvent,
            [
                ("event", text(row.event.id)), ("site", text(row.event.siteID)), ("user", text(row.event.userID)),
                ("at_ms", text(row.event.at.milliseconds)), ("kind", row.kindText), ("actor", row.event.actor), ("detail", row.detailText),
            ])
    }
}
