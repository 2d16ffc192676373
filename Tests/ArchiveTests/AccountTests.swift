import Archive
import ArchiveKit
import ArchiveTestSupport
import ColdTapKit
import Digest
import Foundation
import Testing

/// Named users, their passwords, lockout, sessions and device tokens in the archive
/// (docs/accounts.md), on both engines.
@Suite struct AccountTests {
    static let t0 = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    static let password = "correct horse battery"

    /// Sites north and south, and users of north: dana (reviewer) and vic (viewer) with
    /// passwords, pat (operator) with a set-up link.
    static func people(_ store: StationStore) throws -> (north: StationSite, south: StationSite, dana: StationUser, vic: StationUser, pat: StationUser) {
        let north = try store.addSite("north", now: t0)
        let south = try store.addSite("south", now: t0)
        let dana = try store.addUser(
            name: "dana", fullName: "Dana Reviewer", site: north, role: .reviewer, by: "os:test", password: password, now: t0)
        let vic = try store.addUser(name: "vic", fullName: "Vic Viewer", site: north, role: .viewer, by: "os:test", password: password, now: t0)
        let pat = try store.addUser(name: "pat", fullName: "Pat Operator", site: north, role: .operator, by: "os:test", password: nil, now: t0)
        return (north, south, dana.user, vic.user, pat.user)
    }

    func expectClean(_ test: TestArchive, _ comment: String? = nil) async throws {
        let problems = try await test.verify().problems
        #expect(problems.isEmpty, "\(comment.map { "\($0): " } ?? "")\(problems)")
    }

    @Test(arguments: Engine.allCases)
    func usersAreAddedWithAPasswordOrASetUpLink(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try test.withStore { store in
                let north = try store.addSite("north", now: Self.t0)
                let south = try store.addSite("south", now: Self.t0)
                let withPassword = try store.addUser(
                    name: "dana", fullName: "Dana Reviewer", site: north, role: .reviewer, by: "os:test", password: Self.password, now: Self.t0)
                #expect(withPassword.setupToken == nil && withPassword.user.hasPassword)
                let withLink = try store.addUser(name: "pat", fullName: "Pat Operator", site: north, role: .operator, by: "os:test", password: nil)
                let setup = try #require(withLink.setupToken)
                #expect(setup.hasPrefix("su_") && setup.count == 67 && !withLink.user.hasPassword)
                #expect(try store.user(setupToken: setup)?.name == "pat")
                // Only the link's SHA-256 is kept.
                let kept = try store.archive.engine.scalarText("SELECT setup_sha256 FROM users WHERE name = 'pat'")
                #expect(kept == SHA256Digest.hex(text: setup))
                #expect(try store.archive.engine.scalarInt("SELECT COUNT(*) FROM users WHERE setup_sha256 = $1", [.text(setup)]) == 0)
                // The link lives 72 hours.
                #expect(try store.user(setupToken: setup, now: Date().addingTimeInterval(71 * 3600)) != nil)
                #expect(try store.user(setupToken: setup, now: Date().addingTimeInterval(72 * 3600 + 1)) == nil)
                // A name is the station's, whatever the site; the refusal is a conflict.
                let taken = #expect(throws: ArchiveError.self) {
                    try store.addUser(name: "dana", fullName: "Another Dana", site: south, role: .viewer, by: "os:test", password: nil)
                }
                #expect(taken?.kind == .conflict)
                // The password policy: 12 characters at least, 1024 bytes at most, no control characters.
                for (password, says) in [
                    ("eleven chars", nil), ("short pass", "at least 12 characters"), (String(repeating: "é", count: 513), "at most 1024 bytes"),
                    ("twelve\tchars!", "no control characters"),
                ] {
                    let name = "u\(password.count)"
                    if let says {
                        let refused = #expect(throws: ArchiveError.self) {
                            try store.addUser(name: name, fullName: "U", site: north, role: .viewer, by: "os:test", password: password)
                        }
                        #expect(refused?.kind == .invalidRead && refused?.message.contains(says) == true, "\(String(describing: refused))")
                        #expect(try store.user(named: name) == nil)
                    } else {
                        #expect(password.count == 12)
                        #expect(try store.addUser(name: name, fullName: "U", site: north, role: .viewer, by: "os:test", password: password).user.hasPassword)
                    }
                }
                for (name, fullName) in [("", "X"), ("-dash", "X"), ("white space", "X"), (String(repeating: "a", count: 65), "X"), ("ok", " padded")] {
                    let refused = #expect(throws: ArchiveError.self) {
                        try store.addUser(name: name, fullName: fullName, site: north, role: .viewer, by: "os:test", password: nil)
                    }
                    #expect(refused?.kind == .invalidRead)
                }
                // The link sets the first password once, one the policy takes.
                #expect(throws: ArchiveError.self) { try store.setPassword(setupToken: setup, password: "short") }
                #expect(try store.user(named: "pat")?.hasPassword == false)
                #expect(try store.user(setupToken: setup)?.name == "pat")
                let set = try store.setPassword(setupToken: setup, password: Self.password)
                #expect(set?.hasPassword == true)
                #expect(try store.user(setupToken: setup) == nil)
                #expect(try store.setPassword(setupToken: setup, password: "another password") == nil)
                #expect(try store.checkPassword(name: "pat", password: Self.password, purpose: "web") == .success(try #require(set)))
                let events = try store.accountEvents(siteID: north.id).filter { $0.userID == set?.id }.map(\.kind)
                #expect(events == [.userAdded, .passwordSet, .signIn])
            }
            try await expectClean(test)
        }
    }

    @Test(arguments: Engine.allCases)
    func aWrongPasswordAndAnUnknownNameAreOneRefusal(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try test.withStore { store in
                let people = try Self.people(store)
                #expect(try store.checkPassword(name: "dana", password: Self.password, purpose: "web") == .success(people.dana))
                #expect(try store.checkPassword(name: "dana", password: "not the password", purpose: "web") == .failure(.wrongNameOrPassword))
                #expect(try store.checkPassword(name: "nobody", password: Self.password, purpose: "web") == .failure(.wrongNameOrPassword))
                #expect(try store.checkPassword(name: "pat", password: Self.password, purpose: "web") == .failure(.noPasswordYet))
                try store.disableUser(people.vic, by: "os:test")
                #expect(try store.checkPassword(name: "vic", password: Self.password, purpose: "web") == .failure(.disabled))
                // Each attempt on an account is an event; a name nobody has is none (a stranger
                // cannot grow the record).
                let dana = try store.accountEvents(siteID: people.north.id).filter { $0.userID == people.dana.id }
                #expect(dana.map(\.kind) == [.userAdded, .passwordSet, .signIn, .signInFailed])
                #expect(dana.last?.detail == ["reason": "wrong password", "purpose": "web"])
                #expect(try store.accountEvents(siteID: 0).isEmpty)
            }
            try await expectClean(test)
        }
    }

    @Test(arguments: Engine.allCases)
    func fiveWrongPasswordsInARowLockTheAccountEachLockTwiceAsLong(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try test.withStore { store in
                let people = try Self.people(store)
                func check(_ password: String, at minutes: Double, purpose: String = "web") throws -> Result<StationUser, SignInRefusal> {
                    try store.checkPassword(name: "dana", password: password, purpose: purpose, now: Self.t0.addingTimeInterval(minutes * 60))
                }
                let minute = { (minutes: Double) in Self.t0.addingTimeInterval(minutes * 60) }
                // A signature's right password ends a run of wrong ones.
                for attempt in 0..<4 { #expect(try check("wrong password!", at: Double(attempt), purpose: "signature") == .failure(.wrongNameOrPassword)) }
                #expect(try check(Self.password, at: 4, purpose: "signature") == .success(people.dana))
                #expect(try check("wrong password!", at: 5) == .failure(.wrongNameOrPassword))
                #expect(try store.lockedUntil(people.dana, now: minute(5)) == nil)
                for attempt in 0..<3 { #expect(try check("wrong password!", at: 6 + Double(attempt)) == .failure(.wrongNameOrPassword)) }
                // The fifth in a row locks for 5 minutes.
                #expect(try check("wrong password!", at: 10) == .failure(.locked(until: minute(15))))
                #expect(try store.lockedUntil(people.dana, now: minute(10)) == minute(15))
                // The right password is refused while locked; wrong ones do not lengthen the lock.
                #expect(try check(Self.password, at: 11) == .failure(.locked(until: minute(15))))
                #expect(try check("wrong password!", at: 12) == .failure(.locked(until: minute(15))))
                #expect(try store.lockedUntil(people.dana, now: minute(15)) == nil)
                // The lock runs out; five wrong again lock twice as long (10 minutes).
                for attempt in 0..<4 { #expect(try check("wrong password!", at: 15 + Double(attempt)) == .failure(.wrongNameOrPassword)) }
                #expect(try check("wrong password!", at: 20) == .failure(.locked(until: minute(30))))
                #expect(try check(Self.password, at: 29.9) == .failure(.locked(until: minute(30))))
                // Then 20 minutes, unless a sign-in comes between.
                for attempt in 0..<4 { #expect(try check("wrong password!", at: 30 + Double(attempt)) == .failure(.wrongNameOrPassword)) }
                #expect(try check("wrong password!", at: 35) == .failure(.locked(until: minute(55))))
                #expect(try check(Self.password, at: 55) == .success(people.dana))
                for attempt in 0..<4 { #expect(try check("wrong password!", at: 56 + Double(attempt)) == .failure(.wrongNameOrPassword)) }
                #expect(try check("wrong password!", at: 60) == .failure(.locked(until: minute(65))))
                // An admin's new password unlocks at once.
                try store.resetPassword(of: people.dana, to: "a brand new password", by: "os:test", now: minute(61))
                #expect(try check("a brand new password", at: 62) == .success(people.dana))
                // Another user is never locked by dana's attempts.
                #expect(
                    try store.checkPassword(name: "vic", password: Self.password, purpose: "web", now: minute(12)) == .success(people.vic))
                let locks = try store.accountEvents(siteID: people.north.id).filter { $0.kind == .locked }
                #expect(locks.map { $0.detail["until_ms"] } == [15, 30, 55, 65].map { String(Int64(minute(Double($0)).timeIntervalSince1970) * 1000) })
            }
            try await expectClean(test)
        }
    }

    @Test(arguments: Engine.allCases)
    func sessionsEndOnIdleTimeOutAbsoluteLimitAndSignOut(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try test.withStore { store in
                let people = try Self.people(store)
                let limits = SessionLimits()
                func at(_ minutes: Double) -> Date { Self.t0.addingTimeInterval(minutes * 60) }
                func endReason(_ cookie: String) throws -> String? {
                    try store.archive.engine.scalarText(
                        "SELECT end_reason FROM sessions WHERE session_sha256 = $1", [.text(SHA256Digest.hex(text: cookie))])
                }
                let cookie = try store.startSession(user: people.dana, now: at(0))
                #expect(cookie.hasPrefix("cs_") && cookie.count == 67)
                guard case .user(let session, let user) = try store.session(cookie: cookie, limits: limits, now: at(10)) else {
                    Issue.record("no session")
                    return
                }
                #expect(user == people.dana && session.userID == people.dana.id && session.signatures == 0)
                #expect(session.sha256 == SHA256Digest.hex(text: cookie))
                // Seen at 10, so alive at 24; not at 40 (15 minutes idle).
                #expect(try store.session(cookie: cookie, limits: limits, now: at(24)) != .none)
                #expect(try store.session(cookie: cookie, limits: limits, now: at(40)) == .none)
                #expect(try endReason(cookie) == "idle time-out")
                #expect(try store.session(cookie: cookie, limits: limits, now: at(41)) == .none)
                // However busy, a session ends 12 hours after it began.
                let busy = try store.startSession(user: people.dana, now: at(0))
                for minutes in stride(from: 10.0, to: 720, by: 10) {
                    #expect(try store.session(cookie: busy, limits: limits, now: at(minutes)) != .none, "at \(minutes) min")
                }
                #expect(try store.session(cookie: busy, limits: limits, now: at(720)) == .none)
                #expect(try endReason(busy) == "absolute limit")
                // Signing out ends it on every station; it is an event of the record.
                let signedOut = try store.startSession(user: people.vic, now: at(0))
                try store.endSession(cookie: signedOut, now: at(1))
                #expect(try store.session(cookie: signedOut, limits: limits, now: at(2)) == .none)
                #expect(try endReason(signedOut) == "signed out")
                #expect(try store.accountEvents(siteID: people.north.id).last?.kind == .signedOut)
                // Cookies that are not ours, or never made, stand for nothing.
                for stranger in ["", "cs_", "cs_" + String(repeating: "0", count: 64), cookie.replacingOccurrences(of: "cs_", with: "ct_")] {
                    #expect(try store.session(cookie: stranger, limits: limits, now: at(2)) == .none)
                }
                // A session opened with a site's token lives while the token does.
                let token = try store.createToken(site: people.north, scope: .read, now: at(0))
                let tokenSession = try store.startSession(token: token.record, now: at(0))
                guard case .token(_, let found) = try store.session(cookie: tokenSession, limits: limits, now: at(1)) else {
                    Issue.record("no token session")
                    return
                }
                #expect(found.id == token.record.id)
                try store.revokeToken(id: token.record.id, now: at(2))
                #expect(try store.session(cookie: tokenSession, limits: limits, now: at(3)) == .none)
            }
            try await expectClean(test)
        }
    }

    @Test(arguments: Engine.allCases)
    func aResetOrADisablementEndsTheSessionsAndRevokesTheDeviceTokens(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try test.withStore { store in
                let people = try Self.people(store)
                let limits = SessionLimits()
                let now = Date()
                let session = try store.startSession(user: people.dana, now: now)
                let device = try store.createToken(site: people.north, scope: .upload, user: people.dana, device: "ward 3 reader", now: now)
                #expect(device.record.createdByUser == people.dana.id && device.record.device == "ward 3 reader")
                let plain = try store.createToken(site: people.north, scope: .upload, now: now)
                #expect(try store.authenticate(device.token) == device.record)
                #expect(try store.tokens().first { $0.id == device.record.id }?.device == "ward 3 reader")

                // A reset (to a set-up link): sessions ended, device tokens revoked, others kept.
                let setup = try #require(try store.resetPassword(of: people.dana, to: nil, by: "os:test", now: now))
                #expect(try store.session(cookie: session, limits: limits, now: now) == .none)
                #expect(try store.authenticate(device.token) == nil)
                #expect(try store.authenticate(plain.token) != nil)
                #expect(try store.user(named: "dana")?.hasPassword == false)
                let events = try store.accountEvents(siteID: people.north.id).filter { $0.userID == people.dana.id }
                #expect(events.suffix(2).map(\.kind) == [.passwordReset, .sessionsEnded])
                #expect(events.last?.detail == ["reason": "password changed", "sessions": "1"])
                #expect(try store.checkPassword(name: "dana", password: Self.password, purpose: "web") == .failure(.noPasswordYet))
                // A token made for her meanwhile outlives her choosing the password.
                let again = try store.createToken(site: people.north, scope: .read, user: people.dana, device: "phone", now: now)
                #expect(try store.setPassword(setupToken: setup, password: Self.password) != nil)
                #expect(try store.authenticate(again.token) != nil)

                // A reset to a new password: the same.
                let second = try store.startSession(user: people.dana)
                #expect(try store.session(cookie: second, limits: limits) != .none)
                try store.resetPassword(of: people.dana, to: "a brand new password", by: "os:test")
                #expect(try store.session(cookie: second, limits: limits) == .none)
                #expect(try store.authenticate(again.token) == nil)

                // Disabled: refused, sessions ended, device tokens revoked, the name kept.
                let third = try store.startSession(user: people.dana)
                let phone = try store.createToken(site: people.north, scope: .read, user: people.dana, device: "phone 2")
                let dana = try #require(try store.user(named: "dana"))
                try store.disableUser(dana, by: "os:test")
                #expect(try store.session(cookie: third, limits: limits) == .none)
                #expect(try store.authenticate(phone.token) == nil)
                #expect(try store.authenticate(plain.token) != nil)
                #expect(try store.user(named: "dana")?.disabled != nil)
                let ended = try store.accountEvents(siteID: people.north.id).filter { $0.userID == people.dana.id }.suffix(2)
                #expect(ended.map(\.kind) == [.disabled, .sessionsEnded] && ended.last?.detail["reason"] == "disabled")
                #expect(try store.checkPassword(name: "dana", password: "a brand new password", purpose: "web") == .failure(.disabled))
                // A disabled user's set-up link no longer works.
                let patLink = try #require(try store.resetPassword(of: people.pat, to: nil, by: "os:test"))
                #expect(try store.user(setupToken: patLink) != nil)
                try store.disableUser(people.pat, by: "os:test")
                #expect(try store.user(setupToken: patLink) == nil)
                #expect(try store.setPassword(setupToken: patLink, password: Self.password) == nil)
                #expect(throws: ArchiveError.self) {
                    try store.addUser(name: "dana", fullName: "New Dana", site: people.north, role: .viewer, by: "os:test", password: nil)
                }
                // Disabling again changes nothing.
                let count = try store.accountEvents(siteID: people.north.id).count
                try store.disableUser(dana, by: "os:test")
                #expect(try store.accountEvents(siteID: people.north.id).count == count)
            }
            try await expectClean(test)
        }
    }

    @Test(arguments: Engine.allCases)
    func aDeviceTokenIsMadeForALiveUserOfItsSiteWithinTheirRole(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try test.withStore { store in
                let people = try Self.people(store)
                func refused(_ message: String, _ body: () throws -> Void) {
                    let error = #expect(throws: ArchiveError.self) { try body() }
                    #expect(error?.kind == .invalidRead && error?.message.contains(message) == true, "\(String(describing: error))")
                }
                refused("not a user of site 'south'") { _ = try store.createToken(site: people.south, scope: .read, user: people.dana, device: "x") }
                refused("not a user of a site") { _ = try store.createToken(site: nil, scope: .operator, user: people.dana, device: "x") }
                refused("upload scope at most, not admin") {
                    _ = try store.createToken(site: people.north, scope: .admin, user: people.dana, device: "x")
                }
                refused("read scope at most, not upload") {
                    _ = try store.createToken(site: people.north, scope: .upload, user: people.vic, device: "x")
                }
                for device in ["", " ward", "ward ", "ward\n3", "ward\u{7}", String(repeating: "w", count: 101)] {
                    refused("a device's name") { _ = try store.createToken(site: people.north, scope: .read, device: device) }
                }
                #expect(try store.createToken(site: people.north, scope: .read, device: String(repeating: "w", count: 100)).record.device?.count == 100)
                #expect(try store.createToken(site: people.north, scope: .read, user: people.vic, device: "Vic's phone").record.createdByUser == people.vic.id)
                try store.disableUser(people.vic, by: "os:test")
                refused("disabled") { _ = try store.createToken(site: people.north, scope: .read, user: people.vic, device: "x") }
                #expect(try store.tokens().count == 2)
                // A demoted user's device tokens above the new role are revoked; those within it stay.
                let upload = try store.createToken(site: people.north, scope: .upload, user: people.dana, device: "Dana's phone").record
                let read = try store.createToken(site: people.north, scope: .read, user: people.dana, device: "Dana's tablet").record
                try store.setRole(.viewer, of: people.dana, by: "os:test")
                let live = try store.tokens().filter { $0.revoked == nil }.map(\.id)
                #expect(!live.contains(upload.id) && live.contains(read.id))
            }
            try await expectClean(test)
        }
    }

    /// A station's tables of schema 6 (before users) with tokens, brought to schema 7 on open.
    @Test(arguments: Engine.allCases)
    func stationSchemaSixWithTokensIsBroughtToSeven(engine: Engine) async throws {
        try await withArchive(engine) { test in
            let tokens = try test.withStore { store -> [String] in
                let north = try store.addSite("north")
                let kept = try store.createToken(site: north, scope: .upload)
                let revoked = try store.createToken(site: north, scope: .read, expires: Date().addingTimeInterval(86_400))
                try store.revokeToken(id: revoked.record.id)
                let operatorToken = try store.createToken(site: nil, scope: .operator)
                return [kept.token, operatorToken.token]
            }
            let archive = try test.open()
            for sql in [
                "DROP TABLE users", "DROP TABLE account_events", "DROP TABLE sessions", "DROP TABLE signatures", "DROP TABLE read_uploads",
                "DROP TABLE site_identifiers", "DROP TABLE site_logger_time_zones",
                "ALTER TABLE tokens DROP COLUMN created_by_user", "ALTER TABLE tokens DROP COLUMN device",
                "DELETE FROM station_migrations WHERE version >= 7",
            ] { try archive.engine.execute(sql) }
            var before: [String] = []
            try archive.engine.query("SELECT leaf_hash FROM record_leaves ORDER BY leaf_index", []) { before.append($0.text(0)) }
            #expect(try archive.engine.tableExists("users") == false)
            archive.close()
            // The command line and `verify` read the old tables without changing them.
            try await expectClean(test, "schema 6")

            try test.withStore { store in
                #expect(try store.archive.engine.scalarInt("SELECT MAX(version) FROM station_migrations") == 9)
                var after: [String] = []
                try store.archive.engine.query("SELECT leaf_hash FROM record_leaves ORDER BY leaf_index", []) { after.append($0.text(0)) }
                #expect(after == before, "migrating adds no leaf and changes none")
                for token in tokens { #expect(try store.authenticate(token) != nil) }
                #expect(try store.tokens().allSatisfy { $0.createdByUser == nil && $0.device == nil })
                #expect(try store.hasUsers() == false)
                let north = try #require(try store.site(named: "north"))
                let dana = try store.addUser(name: "dana", fullName: "Dana", site: north, role: .operator, by: "os:test", password: Self.password).user
                let device = try store.createToken(site: north, scope: .upload, user: dana, device: "ward 3 reader")
                #expect(try store.authenticate(device.token)?.createdByUser == dana.id)
            }
            try await expectClean(test, "schema 7")
        }
    }
}
