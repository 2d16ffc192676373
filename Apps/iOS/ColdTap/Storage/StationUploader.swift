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
    /// Where a read stands with the station.
    enum Status: Equatable {
        /// No station was set when it was read (or it was read by an older version).
        case notForUpload
        /// Queued, not yet on the station.
        case waiting
        /// The station refused it for good (the reason it gave).
        case refused(String)
        /// The station has it.
        case uploaded
    }

    /// Why the station settings cannot be saved.
    enum SettingsError: Error, LocalizedError {
        case notAnAddress
        case plainHTTP
        case credentialsInAddress
        case noToken

        var errorDescription: String? {
            switch self {
            case .notAnAddress: return String(localized: "The station address must start with https:// and name a host.")
            case .plainHTTP:
                return String(
                    localized:
                        "The station address must start with https://: iOS does not let apps upload to plain http:// addresses. Serve the station with a certificate (coldtap serve --tls-cert)."
                )
            case .credentialsInAddress:
                return String(localized: "Leave the user name and password out of the address; the station's token goes in its own field.")
            case .noToken: return String(localized: "Enter the station's API token.")
            }
        }
    }

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
            lastProblem = String(localized: "The upload queue cannot be opened: \(error.localizedDescription)")
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

    /// Checks and keeps the station's address and token, then sends what is waiting.
    /// - Throws: `SettingsError`, `KeychainStore.Failure`.
    func save(address: String, token: String) async throws {
        let trimmed = address.trimmingCharacters(in: .whitespacesAndNewlines)
        let url: URL
        switch StationAddress.parse(trimmed) {
        case .success(let parsed): url = parsed
        case .failure(.plainHTTP): throw SettingsError.plainHTTP
        case .failure(.credentialsInAddress): throw SettingsError.credentialsInAddress
        case .failure(.notAnAddress): throw SettingsError.notAnAddress
        }
        let key = token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else { throw SettingsError.noToken }
        try keychain.store(Data(trimmed.utf8), for: Self.urlAccount)
        try keychain.store(Data(key.utf8), for: Self.tokenAccount)
        stationURL = url
        requeueRefused()
        await flush()
    }

    /// Gives the reads a station refused for good (a wrong token, say) another chance with
    /// the station just saved.
    private func requeueRefused() {
        guard let queue else { return }
        let folder = queue.directory.appendingPathComponent("rejected", isDirectory: true)
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        for file in files where file.lastPathComponent.hasSuffix(".upload.json") {
            guard let data = try? Data(contentsOf: file), let upload = try? JSONDecoder().decode(PendingUpload.self, from: data),
                (try? queue.enqueue(upload)) != nil
            else { continue }
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("\(upload.sha256).reason.txt"))
        }
        refresh()
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
            lastProblem = String(localized: "The read could not be queued for the station: \(error.localizedDescription)")
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
        if let error = result.lastError {
            lastProblem = String(localized: "Not uploaded yet: \(error.description)")
        } else if let refusal = result.rejected.first {
            lastProblem = String(localized: "The station refused a read: \(refusal.reason)")
        } else {
            lastProblem = nil
        }
        refresh()
    }

    /// Reads the queue's folder again: what is waiting and what was refused.
    func refresh() {
        guard let queue else { return }
        waiting = Set(queue.pending().map(\.sha256))
        let rejectedFolder = queue.directory.appendingPathComponent("rejected", isDirectory: true)
        let files = (try? FileManager.default.contentsOfDirectory(at: rejectedFolder, includingPropertiesForKeys: nil)) ?? []
        var reasons: [String: String] = [:]
        for file in files where file.lastPathComponent.hasSuffix(".reason.txt") {
            let sha = String(file.lastPathComponent.dropLast(".reason.txt".count))
            let reason = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            reasons[sha] = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        refused = reasons
    }

    func status(of read: StoredRead) -> Status {
        guard let sha = read.uploadSHA256 else { return .notForUpload }
        if waiting.contains(sha) { return .waiting }
        if let reason = refused[sha] { return .refused(reason) }
        return .uploaded
    }
}
