import Archive
import ArchiveTestSupport
import CommandTestSupport
import Foundation
import Testing

/// `coldtap user`, `token create --device --user`, `review` and `signatures` run in-process
/// over an archive (docs/accounts.md, "The command line").
@Suite struct UserCommandsTests {
    static let password = "correct horse battery"

    /// Sites north and south, and logger fridge-1 of north with two reads (samples 0..<40 and
    /// 30..<70 of the reference series, from 2026-01-01T00:00:00Z every 10 minutes).
    static func prepare(_ archive: TestArchive) async throws {
        for site in ["north", "south"] { #expect(await coldtap(["site", "add", site, "--archive", archive.location]).status == 0) }
        for (index, range) in [0..<40, 30..<70].enumerated() {
            let file = try LoggerFiles.writeGeneric(archive, "read\(index).ndef", range)
            let added = await coldtap(["archive", "add", file, "--logger-id", "fridge-1", "--archive", archive.location])
            #expect(added.status == 0, "\(added.err)")
        }
        _ = try archive.withStore { store in try store.claim(loggerID: "fridge-1", siteID: #require(try store.site(named: "north")).id) }
    }

    static func users(_ archive: TestArchive) async throws -> [String: [String: Any]] {
        let listed = await coldtap(["user", "list", "--json", "--archive", archive.location])
        #expect(listed.status == 0, "\(listed.err)")
        let users = try #require(try jsonObject(listed.out)["users"] as? [[String: Any]])
        return Dictionary(users.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    @Test func usersAreAddedListedGivenRolesResetAndDisabled() async throws {
        let archive = try TestArchive(.sqlite)
        defer { archive.remove() }
        try await Self.prepare(archive)
        let location = archive.location

        // Without --password-stdin: the set-up link's path on standard output, only its hash kept.
        let dana = await coldtap(["user", "add", "dana", "--site", "north", "--role", "reviewer", "--full-name", "Dana Reviewer", "--archive", location])
        #expect(dana.status == 0, "\(dana.err)")
        let path = dana.out.trimmingCharacters(in: .newlines)
        #expect(path.hasPrefix("/setup/su_") && path.count == "/setup/".count + 67, "\(dana.out)")
        #expect(dana.err.contains("valid 72 h") && dana.err.contains("https://<station>/setup/"), "\(dana.err)")
        let token = String(path.dropFirst("/setup/".count))
        #expect(try archive.withStore { try $0.user(setupToken: token)?.name } == "dana")
        // With it: the password set, no link.
        let vic = await coldtap(
            ["user", "add", "vic", "--site", "north", "--role", "viewer", "--full-name", "Vic Viewer", "--password-stdin", "--archive", location],
            stdin: Data((Self.password + "\n").utf8))
        #expect(vic.status == 0 && vic.out.isEmpty, "\(vic.out) \(vic.err)")
        // Refusals: a name taken (on any site), a short password, an unknown role or site, a missing full name.
        let refusals: [([String], Data, Int32, String)] = [
            (["user", "add", "dana", "--site", "south", "--role", "viewer", "--full-name", "D"], Data(), 64, "there is already a user 'dana'"),
            (
                ["user", "add", "sam", "--site", "north", "--role", "viewer", "--full-name", "Sam", "--password-stdin"], Data("too short\n".utf8), 64,
                "at least 12 characters"
            ),
            (
                ["user", "add", "sam", "--site", "north", "--role", "boss", "--full-name", "Sam"], Data(), 64,
                "--role must be one of viewer, operator, reviewer, admin"
            ),
            (["user", "add", "sam", "--site", "west", "--role", "viewer", "--full-name", "Sam"], Data(), 1, "there is no site 'west'"),
            (["user", "add", "sam", "--site", "north", "--role", "viewer"], Data(), 64, "--full-name"),
            (["user", "add", "sam", "--site", "north", "--role", "viewer", "--full-name", "Sam", "--password-stdin"], Data(), 64, "was empty"),
        ]
        for (words, stdin, status, says) in refusals {
            let run = await coldtap(words + ["--archive", location], stdin: stdin)
            #expect(run.status == status && run.err.contains(says), "\(words): \(run.status) \(run.err)")
        }

        var listed = try await Self.users(archive)
        #expect(listed.keys.sorted() == ["dana", "vic"])
        #expect(listed["dana"]?["hasPassword"] as? Bool == false && listed["vic"]?["hasPassword"] as? Bool == true)
        #expect(listed["dana"]?["fullName"] as? String == "Dana Reviewer" && listed["dana"]?["site"] as? String == "north")
        #expect((listed["dana"]?["createdBy"] as? String)?.hasPrefix("os:") == true)
        #expect(listed["vic"]?["lockedUntil"] is NSNull && listed["vic"]?["disabled"] is NSNull)
        let table = await coldtap(["user", "list", "--site", "north", "--archive", location])
        #expect(table.out.hasPrefix("  name  full name"), "\(table.out)")
        #expect(table.out.contains("no (set-up link)") && table.out.contains("Vic Viewer"))
        #expect(await coldtap(["user", "list", "--site", "south", "--archive", location]).out.contains("vic") == false)

        // Roles, as events of the record by the operating-system user.
        let role = await coldtap(["user", "role", "vic", "--role", "operator", "--archive", location])
        #expect(role.status == 0 && role.out.contains("is now an operator (was viewer)"), "\(role.out) \(role.err)")
        listed = try await Self.users(archive)
        #expect(listed["vic"]?["role"] as? String == "operator")
        let changed = try archive.withStore { store in try store.accountEvents(siteID: 1).last }
        #expect(changed?.kind == .roleChanged && changed?.actor.hasPrefix("os:") == true && changed?.detail["old_role"] == "viewer")

        // A lock shows in the list.
        try archive.withStore { store in
            for _ in 0..<5 { _ = try store.checkPassword(name: "vic", password: "not the password", purpose: "web") }
        }
        listed = try await Self.users(archive)
        #expect(listed["vic"]?["lockedUntil"] is String, "\(String(describing: listed["vic"]))")

        // A reset: a new link (the password cleared), or a new password from standard input, which unlocks.
        let reset = await coldtap(["user", "reset", "vic", "--archive", location])
        #expect(reset.status == 0 && reset.out.hasPrefix("/setup/su_"), "\(reset.out) \(reset.err)")
        #expect(try await Self.users(archive)["vic"]?["hasPassword"] as? Bool == false)
        let newPassword = await coldtap(["user", "reset", "vic", "--password-stdin", "--archive", location], stdin: Data("another good password\n".utf8))
        #expect(newPassword.status == 0 && newPassword.out.isEmpty, "\(newPassword.err)")
        listed = try await Self.users(archive)
        #expect(listed["vic"]?["hasPassword"] as? Bool == true && listed["vic"]?["lockedUntil"] is NSNull)
        #expect(try archive.withStore { try $0.checkPassword(name: "vic", password: "another good password", purpose: "web") }.map(\.name) == .success("vic"))

        // Disabled for good.
        let disabled = await coldtap(["user", "disable", "vic", "--archive", location])
        #expect(disabled.status == 0 && disabled.out.contains("Disabled user 'vic'"), "\(disabled.err)")
        #expect(try await Self.users(archive)["vic"]?["disabled"] is String)
        #expect(await coldtap(["user", "disable", "vic", "--archive", location]).status == 1)
        #expect(await coldtap(["user", "reset", "vic", "--archive", location]).status == 1)
        #expect(await coldtap(["user", "role", "nobody", "--role", "admin", "--archive", location]).err.contains("there is no user 'nobody'"))
        #expect(try await archive.verify().problems.isEmpty)
    }

    @Test func deviceTokensNameTheirDeviceAndUser() async throws {
        let archive = try TestArchive(.sqlite)
        defer { archive.remove() }
        try await Self.prepare(archive)
        let location = archive.location
        let added = await coldtap(
            ["user", "add", "dana", "--site", "north", "--role", "reviewer", "--full-name", "Dana Reviewer", "--password-stdin", "--archive", location],
            stdin: Data(Self.password.utf8))
        #expect(added.status == 0, "\(added.err)")
        let made = await coldtap([
            "token", "create", "--site", "north", "--scope", "upload", "--device", "ward 3 reader", "--user", "dana", "--archive", location,
        ])
        #expect(made.status == 0 && made.out.hasPrefix("ct_"), "\(made.err)")
        #expect(made.err.contains("device 'ward 3 reader'") && made.err.contains("user 'dana'"))
        let token = made.out.trimmingCharacters(in: .newlines)
        let kept = try archive.withStore { try $0.authenticate(token) }
        #expect(kept?.device == "ward 3 reader" && kept?.createdByUser == 1)
        let refusals: [([String], String)] = [
            (["--site", "north", "--scope", "admin", "--user", "dana"], "their tokens have the upload scope at most, not admin"),
            (["--site", "south", "--scope", "read", "--user", "dana"], "user 'dana' is a user of site 'north', not of 'south'"),
            (["--site", "north", "--scope", "read", "--device", " padded"], "--device takes 1 to 100 printable characters"),
            (["--site", "north", "--scope", "read", "--device", String(repeating: "d", count: 101)], "--device takes 1 to 100 printable characters"),
            (["--site", "north", "--scope", "read", "--user", "nobody"], "there is no user 'nobody'"),
        ]
        for (words, says) in refusals {
            let run = await coldtap(["token", "create"] + words + ["--archive", location])
            #expect(run.status != 0 && run.err.contains(says), "\(words): \(run.err)")
        }
        let plain = await coldtap(["token", "create", "--site", "north", "--scope", "read", "--archive", location])
        #expect(plain.status == 0)
        let listed = try #require(try jsonObject(await coldtap(["token", "list", "--json", "--archive", location]).out)["tokens"] as? [[String: Any]])
        #expect(listed.count == 2)
        #expect(listed[0]["device"] as? String == "ward 3 reader" && listed[0]["user"] as? String == "dana")
        #expect(listed[1]["device"] is NSNull && listed[1]["user"] is NSNull)
        let table = await coldtap(["token", "list", "--archive", location])
        #expect(table.out.split(separator: "\n").first?.split(separator: " ").suffix(2) == ["device", "user"], "\(table.out)")
        #expect(table.out.contains("ward 3 reader  dana"))
        #expect(await coldtap(["token", "list", "--device", "x", "--archive", location]).status == 64)
        // Disabling the user revokes the token.
        #expect(await coldtap(["user", "disable", "dana", "--archive", location]).status == 0)
        #expect(try archive.withStore { try $0.authenticate(token) } == nil)
    }

    @Test func aReviewIsSignedWithThePasswordAskedAgain() async throws {
        let archive = try TestArchive(.sqlite)
        defer { archive.remove() }
        try await Self.prepare(archive)
        let location = archive.location
        for (name, role, site) in [("dana", "reviewer", "north"), ("vic", "viewer", "north"), ("sam", "admin", "south"), ("rita", "reviewer", "north")] {
            let added = await coldtap(
                ["user", "add", name, "--site", site, "--role", role, "--full-name", name.capitalized + " Example", "--password-stdin", "--archive", location],
                stdin: Data((Self.password + "\n").utf8))
            #expect(added.status == 0, "\(added.err)")
        }
        func review(_ user: String, password: String, _ extra: [String] = ["--meaning", "approved"], to: String = "2026-01-02") async -> Run {
            await coldtap(
                ["review", "fridge-1", "--from", "2026-01-01", "--to", to, "--user", user, "--password-stdin", "--tz", "Europe/Berlin"] + extra + [
                    "--archive", location,
                ], stdin: Data((password + "\n").utf8))
        }
        func signatures() async throws -> [[String: Any]] {
            let listed = await coldtap(["signatures", "fridge-1", "--json", "--archive", location])
            #expect(listed.status == 0, "\(listed.err)")
            return try #require(try jsonObject(listed.out)["signatures"] as? [[String: Any]])
        }

        let signed = await review("dana", password: Self.password, ["--meaning", "approved", "--comment", "checked against the ward log"])
        #expect(signed.status == 0, "\(signed.err)")
        #expect(signed.out.contains("signed by    Dana Example (dana, reviewer)"), "\(signed.out)")
        #expect(signed.out.contains("(Europe/Berlin)") && signed.out.contains("meaning      approved"))
        #expect(signed.out.contains("comment      checked against the ward log") && signed.out.contains("reads signed #1, #2"))
        var listed = try await signatures()
        #expect(listed.count == 1)
        let first = try #require(listed.first)
        #expect(first["printedName"] as? String == "Dana Example" && first["meaning"] as? String == "approved")
        #expect(first["reads"] as? [Int] == [1, 2] && first["timeZone"] as? String == "Europe/Berlin")
        // The day 2026-01-01 in Berlin began at 23:00 UTC the day before.
        #expect(first["from"] as? String == "2025-12-31T23:00:00Z" && first["to"] as? String == "2026-01-01T23:00:00Z")
        let statement = try #require(first["statement"] as? String)
        #expect(signed.out.contains("SHA-256 \(first["statementSHA256"] as? String ?? "?")"))
        #expect(statement.hasPrefix("coldtap-signature/1\nsubject=review\n") && statement.contains("\nprinted_name=Dana Example\n"))

        // A wrong password signs nothing and counts toward the lock.
        let wrong = await review("dana", password: "not the password")
        #expect(wrong.status == 77 && wrong.err.contains("wrong user name or password: nothing was signed"), "\(wrong.err)")
        let unknown = await review("nobody", password: Self.password)
        #expect(unknown.status == 77 && unknown.err.contains("wrong user name or password"), "\(unknown.err)")
        let failed = try archive.withStore { store in try store.accountEvents(siteID: 1).filter { $0.kind == .signInFailed } }
        #expect(failed.map { $0.detail["purpose"] } == ["signature"])
        for _ in 0..<3 { #expect(await review("dana", password: "not the password").status == 77) }
        let locked = await review("dana", password: "not the password")
        #expect(locked.status == 77 && locked.err.contains("dana is locked until") && locked.err.contains("after 5 wrong passwords"), "\(locked.err)")
        let stillLocked = await review("dana", password: Self.password)
        #expect(stillLocked.err.contains("is locked until"), "\(stillLocked.err)")
        // A viewer, and a user of another site, sign nothing.
        let viewer = await review("vic", password: Self.password)
        #expect(viewer.status == 77 && viewer.err.contains("vic is a viewer; signing a review needs the reviewer or admin role"), "\(viewer.err)")
        let stranger = await review("sam", password: Self.password)
        #expect(stranger.status == 77 && stranger.err.contains("belongs to site 'north'"), "\(stranger.err)")
        // Meanings: acknowledged is an excursion's; a rejection says why. Refused before any password.
        let acknowledged = await review("vic", password: Self.password, ["--meaning", "acknowledged", "--comment", "x"])
        #expect(acknowledged.status == 64 && acknowledged.err.contains("--meaning must be one of approved, reviewed, rejected, not 'acknowledged'"))
        let rejected = await review("vic", password: Self.password, ["--meaning", "rejected"])
        #expect(rejected.status == 64 && rejected.err.contains("give --comment TEXT"), "\(rejected.err)")
        let badTime = await review("vic", password: Self.password, ["--meaning", "reviewed"], to: "tomorrow")
        #expect(badTime.status == 64 && badTime.err.contains("--to 'tomorrow' is not a time"), "\(badTime.err)")
        let backwards = await review("vic", password: Self.password, ["--meaning", "reviewed"], to: "2025-12-31")
        #expect(backwards.status == 64 && backwards.err.contains("--from must not be after --to"), "\(backwards.err)")
        let events = try archive.withStore { store in try store.accountEvents(siteID: 1).filter { $0.userID == 2 } }
        #expect(events.map(\.kind) == [.userAdded, .passwordSet, .signIn], "the usage errors asked for no password; the role refusal did, once")
        // A period without samples signs nothing.
        let empty = await coldtap(
            [
                "review", "fridge-1", "--from", "2027-01-01", "--to", "2027-01-02", "--user", "rita", "--meaning", "reviewed", "--password-stdin",
                "--archive", location,
            ], stdin: Data((Self.password + "\n").utf8))
        #expect(empty.status == 1 && empty.err.contains("there is nothing to sign"), "\(empty.err)")
        listed = try await signatures()
        #expect(listed.count == 1)
        let table = await coldtap(["signatures", "fridge-1", "--archive", location])
        #expect(table.out.contains("Dana Example") && table.out.contains("approved") && table.out.contains("checked against the ward log"), "\(table.out)")
        #expect(try await archive.verify().problems.isEmpty)
    }
}
