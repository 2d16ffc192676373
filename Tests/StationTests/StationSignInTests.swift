import Archive
import ArchiveTestSupport
import ColdTapBase
import Foundation
import StationClient
import StationTestSupport
import Testing

/// The phone's sign-in (`StationClient.signIn`) against a real station: the token it gets
/// uploads reads recorded with the user and the device, and each refusal is its own error.
@Suite("Station sign-in from a device", .serialized)
struct StationSignInTests {
    static let password = "correct horse battery"

    /// Adds `name` to `site` through the archive, as `coldtap user add` does.
    @discardableResult
    static func addUser(
        _ station: TestStation, _ name: String, fullName: String, site: String = "north", role: UserRole = .operator,
        password: String? = StationSignInTests.password
    ) throws -> StationUser {
        let archive = try Archive.open(station.archive.location)
        defer { archive.close() }
        let store = try StationStore(archive: archive)
        let kept = try #require(try store.site(named: site))
        return try store.addUser(name: name, fullName: fullName, site: kept, role: role, by: "os:test", password: password).user
    }

    static func client(_ station: TestStation) -> StationClient { StationClient(baseURL: station.base, timeout: 600) }

    /// The error `signIn` throws, or nil when it signs in.
    static func refusal(_ client: StationClient, user: String, password: String, device: String = "ward 3 phone") async -> StationSignInError? {
        do {
            _ = try await client.signIn(user: user, password: password, device: device)
            return nil
        } catch let error as StationSignInError {
            return error
        } catch {
            Issue.record("not a StationSignInError: \(error)")
            return nil
        }
    }

    @Test("the right password gives a token whose uploads name the user and the device")
    func signInAndUpload() async throws {
        try await withStation(.sqlite) { station in
            let olli = try Self.addUser(station, "olli", fullName: "Olli Berg")
            let signIn = try await Self.client(station).signIn(user: "olli", password: Self.password, device: "  ward 3 phone ")
            #expect(signIn.user == "olli")
            #expect(signIn.fullName == "Olli Berg")
            #expect(signIn.role == "operator")
            #expect(signIn.site == "north")
            #expect(signIn.device == "ward 3 phone")
            #expect(signIn.token.hasPrefix("ct_\(signIn.tokenID)_"))

            // The queue sends with that token, and keeps who sent each read.
            let queue = try UploadQueue(directory: URL(fileURLWithPath: station.archive.path("phone-queue")))
            let upload = PendingUpload(raw: try Reads.cold(), readTime: Date(), source: "ColdTap iPhone", loggerID: "E0040150A1B2C3D4")
            try queue.enqueue(upload)
            let uploader = StationClient(baseURL: station.base, token: signIn.token, timeout: 600)
            let result = await queue.flush(using: uploader, sender: signIn.fullName)
            #expect(result.sent.map(\.status) == [201], "\(String(describing: result.lastError))")
            #expect(queue.count == 0)
            #expect(queue.senders() == [upload.sha256: "Olli Berg"])

            let archive = try Archive.open(station.archive.location)
            defer { archive.close() }
            let store = try StationStore(archive: archive)
            let north = try #require(try store.site(named: "north"))
            let uploads = try store.uploads(siteID: north.id)
            #expect(uploads.count == 1)
            let recorded = try #require(uploads.first)
            #expect(recorded.loggerID == "E0040150A1B2C3D4")
            #expect(recorded.userID == olli.id)
            #expect(recorded.device == "ward 3 phone")
            #expect(recorded.tokenID == Int64(signIn.tokenID))
            #expect(recorded.newRead)
        }
    }

    @Test("a wrong password and an unknown name are the same refusal; a wrong device name is the station's 400")
    func wrongPassword() async throws {
        try await withStation(.sqlite) { station in
            try Self.addUser(station, "olli", fullName: "Olli Berg")
            let client = Self.client(station)
            #expect(await Self.refusal(client, user: "olli", password: "not the password") == .wrongNameOrPassword)
            #expect(await Self.refusal(client, user: "nobody", password: Self.password) == .wrongNameOrPassword)
            guard case .refused(400, _, let detail) = await Self.refusal(client, user: "olli", password: Self.password, device: " \t ") else {
                Issue.record("a blank device name was not refused with 400")
                return
            }
            #expect(detail.contains("\"device\""))
            // None of them made a token: the only tokens are the station's own.
            let archive = try Archive.open(station.archive.location)
            defer { archive.close() }
            #expect(try archive.engine.scalarInt("SELECT COUNT(*) FROM tokens WHERE created_by_user IS NOT NULL") == 0)
        }
    }

    @Test("the fifth wrong password locks the account, and the lock's end comes with the error")
    func locked() async throws {
        try await withStation(.sqlite) { station in
            try Self.addUser(station, "lena", fullName: "Lena Kaur")
            let client = Self.client(station)
            let before = Date()
            for _ in 1..<StationStore.failuresBeforeLock {
                #expect(await Self.refusal(client, user: "lena", password: "guess") == .wrongNameOrPassword)
            }
            guard case .locked(let until?) = await Self.refusal(client, user: "lena", password: "guess") else {
                Issue.record("the fifth wrong password did not lock the account with a time")
                return
            }
            let after = Date()
            #expect(until >= before.addingTimeInterval(StationStore.firstLock - 1))
            #expect(until <= after.addingTimeInterval(StationStore.firstLock + 1))
            // Locked, the right password is refused too, with the same end.
            #expect(await Self.refusal(client, user: "lena", password: Self.password) == .locked(until: until))
        }
    }

    @Test("a viewer, a disabled account and one without a password yet are each told apart")
    func notAllowed() async throws {
        try await withStation(.sqlite) { station in
            try Self.addUser(station, "vera", fullName: "Vera Lind", role: .viewer)
            let dora = try Self.addUser(station, "dora", fullName: "Dora Haas")
            try Self.addUser(station, "nina", fullName: "Nina Ros", password: nil)
            do {
                let archive = try Archive.open(station.archive.location)
                defer { archive.close() }
                try StationStore(archive: archive).disableUser(dora, by: "os:test")
            }
            let client = Self.client(station)
            func reason(_ user: String) async -> StationSignInError.NotAllowed? {
                guard case .notAllowed(let reason, _) = await Self.refusal(client, user: user, password: Self.password) else { return nil }
                return reason
            }
            #expect(await reason("vera") == .viewer)
            #expect(await reason("dora") == .disabled)
            #expect(await reason("nina") == .noPasswordYet)
            // A reviewer and an admin may sign a device in.
            try Self.addUser(station, "rita", fullName: "Rita Holm", role: .reviewer)
            #expect(try await client.signIn(user: "rita", password: Self.password, device: "depot tablet").role == "reviewer")
        }
    }

    @Test("no station at the address: unreachable")
    func unreachable() async throws {
        // Nothing listens on loopback's port 1 (tcpmux is not served anywhere these tests run).
        let client = StationClient(baseURL: URL(string: "http://127.0.0.1:1")!, timeout: 20)
        guard case .unreachable = await Self.refusal(client, user: "olli", password: Self.password) else {
            Issue.record("no station was not unreachable")
            return
        }
    }
}
