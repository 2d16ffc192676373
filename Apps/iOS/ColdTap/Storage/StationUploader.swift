import AppViewModels
import Combine
import Foundation
import StationClient

/// Sends each read to the station set in Settings, through StationClient's offline queue:
/// a read is queued on disk first (Application Support/UploadQueue), then the queue is
/// flushed — after each read, when the app becomes active, when the history is pulled down
/// and when the station is saved. A read made offline waits in the queue until a flush
/// reaches the station; sending it twice is still one read there (the station keeps one
/// read per logger and SHA-256). The station's address and token are kept in the Keychain.
@MainActor
final class StationUploader: ObservableObject {
    /// SHA-256 of the reads still queued.
    @Published private(set) var waiting: Set<String> = []
    /// SHA-256 → the station's reason, for reads it refused for good.
    @Published private(set) var refused: [String: String] = [:]
    /// The last flush's problem (offline, token refused…), or nil after a clean pass.
    @Published private(set) var lastProblem: String?
    @Published private(set) var isSending = false
    /// The station's address, when one is set.
    @Published private(set) var stationURL: URL?

    private let keychain = KeychainStore(service: "org.coldtap.station")
    private let queue: UploadQueue?
    private static let urlAccount = "station-url"
    private static let tokenAccount = "station-token"

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
        refresh()
    }

    var isConfigured: Bool { stationURL != nil }

    /// The client for the station set in Settings, or nil.
    private func client() -> StationClient? {
        guard let stationURL, let token = (try? keychain.secret(for: Self.tokenAccount)).flatMap({ $0 }),
            let text = String(data: token, encoding: .utf8), !text.isEmpty
        else { return nil }
        return StationClient(baseURL: stationURL, token: text)
    }

    /// The station set in Settings, for the hand-over screen's lots and moves (nil: none).
    func lotStation() -> StationClient? { client() }

    /// Checks and keeps the station's address and token (`StationSettingsForm`), then sends
    /// what is waiting.
    /// - Throws: `StationSettingsProblem`, `KeychainStore.Failure`.
    func save(address: String, token: String) async throws {
        let checked = try StationSettingsForm(address: address, token: token).checked().get()
        try keychain.store(Data(checked.address.utf8), for: Self.urlAccount)
        try keychain.store(Data(checked.token.utf8), for: Self.tokenAccount)
        stationURL = checked.url
        // Reads the station refused (a wrong token, say) get another chance with the station just saved.
        queue?.requeueRefused()
        refresh()
        await flush()
    }

    /// Forgets the station (queued reads stay queued for the next station set).
    func removeStation() throws {
        try keychain.remove(Self.urlAccount)
        try keychain.remove(Self.tokenAccount)
        stationURL = nil
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
    /// (offline, station busy) and keeps the rest for the next flush.
    func flush() async {
        guard !isSending, let queue, let client = client() else { return }
        isSending = true
        let result = await queue.flush(using: client)
        isSending = false
        lastProblem = UploadTexts.problem(after: result)
        refresh()
    }

    /// Reads the queue's folder again: what is waiting and what was refused.
    func refresh() {
        guard let queue else { return }
        waiting = Set(queue.pending().map(\.sha256))
        refused = queue.refusals()
    }

    /// Where `read` stands with the station.
    func status(of read: StoredRead) -> UploadStatus {
        UploadStatus.of(sha256: read.uploadSHA256, waiting: waiting, refused: refused)
    }
}
