import AppViewModels
import Foundation
import StationClient

#if canImport(Combine)
    import Combine
#else
    import CombineStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// Sends each read to the station set in Settings, through StationClient's offline queue:
/// a read is queued on disk first (Application Support/UploadQueue), then the queue is
/// flushed — after each read, when the app becomes active, when the history is pulled down,
/// when someone signs in and before they sign out. A read made offline waits in the queue until a flush
/// reaches the station; sending it twice is still one read there (the station keeps one
/// read per logger and SHA-256). The station's address, the token its sign-in gave this
/// iPhone and who it was given to are kept in the Keychain (a token pasted into an earlier
/// version stays usable: `StationCredential.pastedToken`); the password is never kept.
@MainActor
final class StationUploader: ObservableObject {
    /// SHA-256 of the reads still queued.
    @Published private(set) var waiting: Set<String> = []
    /// SHA-256 → the station's reason, for reads it refused for good.
    @Published private(set) var refused: [String: String] = [:]
    /// The last flush's problem (offline, token refused…), or nil after a clean pass.
    @Published private(set) var lastProblem: String?
    @Published private(set) var isSending = false
    /// SHA-256 → the full name of who sent it, for "Uploaded as …".
    @Published private(set) var senders: [String: String] = [:]
    /// The station's address, when one is set.
    @Published private(set) var stationURL: URL?
    /// Who uploads are sent as (the token kept, and whose it is).
    @Published private(set) var credential: StationCredential = .signedOut

    private let keychain = KeychainStore(service: "org.coldtap.station")
    private let queue: UploadQueue?
    private let flushes = FlushLoop()
    private static let urlAccount = "station-url"
    private static let tokenAccount = "station-token"
    private static let identityAccount = "station-identity"

    init(directory: URL? = nil) {
        let base =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        let folder = directory ?? base.appendingPathComponent("UploadQueue", isDirectory: true)
        do {
            queue = try UploadQueue(directory: folder)
        } catch {
            queue = nil
            lastProblem = UploadTexts.queueUnavailable(error)
        }
        stationURL = (try? keychain.secret(for: Self.urlAccount)).flatMap { $0 }.flatMap { URL(string: String(decoding: $0, as: UTF8.self)) }
        credential = keptCredential()
        refresh()
    }

    /// A station is set and someone is signed in (or a pasted token is kept).
    var isConfigured: Bool { stationURL != nil && credential.canUpload }

    /// The credential the Keychain holds now.
    private func keptCredential() -> StationCredential {
        StationCredential.from(
            token: (try? keychain.secret(for: Self.tokenAccount)).flatMap { $0 },
            identity: (try? keychain.secret(for: Self.identityAccount)).flatMap { $0 })
    }

    /// The client for the station set in Settings, or nil.
    private func client() -> StationClient? {
        guard let stationURL, let token = (try? keychain.secret(for: Self.tokenAccount)).flatMap({ $0 }),
            let text = String(data: token, encoding: .utf8), !text.isEmpty
        else { return nil }
        return StationClient(baseURL: stationURL, token: text)
    }

    /// The station set in Settings, for the hand-over screen's lots and moves (nil: none).
    func lotStation() -> StationClient? { client() }

    /// Signs in at the station (`StationSettingsForm.signIn`); on success keeps the address,
    /// the token (replacing a pasted one) and whose it is, then sends what is waiting. The
    /// password goes no further than the request.
    func signIn(_ request: StationSettingsForm.Request) async -> Result<DeviceSignIn, StationSignInProblem> {
        let outcome = await StationSettingsForm.signIn(request, with: StationClient(baseURL: request.url))
        guard case .success(let signIn) = outcome else { return outcome }
        let identity = StationIdentity(signIn)
        do {
            try keychain.store(Data(request.address.utf8), for: Self.urlAccount)
            try keychain.store(Data(signIn.token.utf8), for: Self.tokenAccount)
            try keychain.store(identity.keychainData, for: Self.identityAccount)
        } catch {
            credential = keptCredential()
            return .failure(.keychain(error.localizedDescription))
        }
        stationURL = request.url
        credential = .signedIn(identity)
        // Reads the station refused (a token revoked, say) get another chance with this sign-in.
        queue?.requeueRefused()
        refresh()
        await flush()
        return outcome
    }

    /// Sends what waits while the token is still here, then forgets the token and whose it
    /// is (the address stays for the next sign-in). What could not be sent stays queued and
    /// is uploaded by whoever signs in next.
    func signOut() async throws {
        await flush()
        try keychain.remove(Self.tokenAccount)
        try keychain.remove(Self.identityAccount)
        credential = .signedOut
        lastProblem = nil
    }

    /// Forgets the station and the sign-in (queued reads stay queued for the next station set).
    func removeStation() throws {
        try keychain.remove(Self.urlAccount)
        try keychain.remove(Self.tokenAccount)
        try keychain.remove(Self.identityAccount)
        stationURL = nil
        credential = .signedOut
        lastProblem = nil
    }

    /// Queues a read for the station when one is set.
    /// - Returns: the SHA-256 it is queued under, or nil when no station is set or the
    ///   queue cannot keep it (`lastProblem` says why).
    func enqueue(_ upload: PendingUpload) -> String? {
        guard isConfigured, let queue else { return nil }
        do {
            try queue.enqueue(upload)
            waiting.insert(upload.sha256)
            return upload.sha256
        } catch {
            lastProblem = UploadTexts.notQueued(error)
            return nil
        }
    }

    /// Sends what is queued, oldest first; stops at the first failure worth retrying
    /// (offline, station busy) and keeps the rest for the next flush. Asked for while a flush
    /// runs, it returns at once and the running flush goes round again (`FlushLoop`), so a read
    /// queued meanwhile is sent by it.
    func flush() async {
        guard let queue else { return }
        await flushes.run { [self] in
            guard let client = client() else { return }
            isSending = true
            let result = await queue.flush(using: client, sender: credential.uploaderName)
            isSending = false
            lastProblem = UploadTexts.problem(after: result)
            refresh()
        }
    }

    /// Reads the queue's folder again: what is waiting and what was refused.
    func refresh() {
        guard let queue else { return }
        waiting = Set(queue.pending().map(\.sha256))
        refused = queue.refusals()
        senders = queue.senders()
    }

    /// Where `read` stands with the station.
    func status(of read: StoredRead) -> UploadStatus {
        UploadStatus.of(read: read, waiting: waiting, refused: refused, senders: senders)
    }
}
