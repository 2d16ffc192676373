import ColdTapBase
import Digest
import Foundation

/// Uploads waiting for the station, kept on disk (one JSON file per read, named by its
/// SHA-256, written atomically) so that reads made offline survive a restart of the app or
/// of `coldtap`. The same read queued twice is one file; sending it twice is one read on the
/// station (idempotent by SHA-256).
public final class UploadQueue: Sendable {
    public let directory: URL
    /// Held while the queue's files are written, read or moved (the app's and a command's
    /// tasks share one queue).
    private let files = LockedValue(())

    /// What one pass over the queue did.
    public struct FlushResult: Sendable {
        public var sent: [UploadReceipt] = []
        /// Refused for good (4xx other than 401, 403, 408, 429): moved to `rejected/` with the reason.
        public var rejected: [(sha256: String, reason: String)] = []
        /// Still queued (the station was unreachable or busy).
        public var remaining: Int = 0
        public var lastError: StationClientError?
        /// The station's checkpoint held after this pass (`nil`: the station signs none).
        public var witnessed: HeldCheckpoint?
    }

    /// - Throws: when the folder cannot be created.
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Keeps `upload` until it is sent.
    public func enqueue(_ upload: PendingUpload) throws {
        let data = try JSONEncoder().encode(upload)
        try files.withLock { _ in try data.write(to: file(upload.sha256), options: .atomic) }
    }

    /// The uploads waiting, oldest first.
    public func pending() -> [PendingUpload] {
        files.withLock { _ in pendingFiles().compactMap { try? JSONDecoder().decode(PendingUpload.self, from: Data(contentsOf: $0)) } }
    }

    public var count: Int { files.withLock { _ in pendingFiles().count } }

    /// Sends what is queued, oldest first, once each; stops at the first failure worth retrying.
    ///
    /// The station's record is checked first (docs/archive-record.md): against the checkpoint
    /// it showed before, it must prove that it still holds everything that covered. A station
    /// that cannot is sent nothing, and every read stays queued. After the reads are sent,
    /// the checkpoint that covers them is held.
    /// - Parameter sender: who the client's token stands for (the app's signed-in user's full
    ///   name), kept for each read sent (`senders()`); `nil` keeps no name.
    public func flush(using client: StationClient, sender: String? = nil) async -> FlushResult {
        var result = FlushResult()
        do {
            result.witnessed = try await witness(client)
        } catch let error as StationClientError {
            if case .recordInconsistent = error {
                result.lastError = error
                result.remaining = count
                return result
            }
        } catch {}
        for upload in pending() {
            do {
                let receipt = try await client.upload(upload)
                files.withLock { _ in
                    try? FileManager.default.removeItem(at: file(upload.sha256))
                    noteSender(sender, of: upload.sha256)
                }
                result.sent.append(receipt)
            } catch let error as StationClientError where error.credentialsRefused {
                // Every other read would be refused the same way: all stay queued.
                result.lastError = error
                break
            } catch let error as StationClientError where !error.retryable {
                reject(upload, reason: error.description)
                result.rejected.append((upload.sha256, error.description))
            } catch let error as StationClientError {
                result.lastError = error
                break
            } catch {
                result.lastError = .unreachable("\(error)")
                break
            }
        }
        if !result.sent.isEmpty {
            do {
                result.witnessed = try await witness(client)
            } catch let error as StationClientError {
                result.lastError = error
            } catch {}
        }
        result.remaining = count
        return result
    }

    /// The station's checkpoint this queue holds, one file per station address (a new
    /// address starts anew, trusting the key it is shown first).
    private func heldFile(_ client: StationClient) -> URL {
        let name = SHA256Digest.hex(text: client.baseURL.absoluteString).prefix(16)
        return directory.appendingPathComponent("witness-\(name).checkpoint.json")
    }

    /// The checkpoint held for `client`'s station.
    public func heldCheckpoint(for client: StationClient) -> HeldCheckpoint? {
        files.withLock { _ in (try? Data(contentsOf: heldFile(client))).flatMap { try? JSONDecoder().decode(HeldCheckpoint.self, from: $0) } }
    }

    /// Checks the station's record against the checkpoint held, and holds its new one.
    @discardableResult
    public func witness(_ client: StationClient) async throws -> HeldCheckpoint? {
        let held = heldCheckpoint(for: client)
        guard let shown = try await client.witness(held) else { return held }
        try hold(shown, for: client)
        return shown
    }

    /// Holds `checkpoint` as `client`'s station's from now on.
    public func hold(_ checkpoint: HeldCheckpoint, for client: StationClient) throws {
        let data = try JSONEncoder().encode(checkpoint)
        try files.withLock { _ in try data.write(to: heldFile(client), options: .atomic) }
    }

    /// Flushes until the queue is empty or `attempts` passes failed, waiting `backoff`, then
    /// twice that, … (at most `maximumWait`) between passes.
    public func drain(using client: StationClient, attempts: Int, backoff: TimeInterval, maximumWait: TimeInterval = 300) async -> FlushResult {
        var total = FlushResult()
        var wait = backoff
        for attempt in 1...max(1, attempts) {
            let pass = await flush(using: client)
            total.sent += pass.sent
            total.rejected += pass.rejected
            total.remaining = pass.remaining
            total.lastError = pass.lastError
            total.witnessed = pass.witnessed ?? total.witnessed
            if pass.remaining == 0 || attempt == attempts || pass.lastError?.credentialsRefused == true || pass.lastError?.retryable == false {
                break
            }
            try? await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
            wait = min(wait * 2, maximumWait)
        }
        return total
    }

    private func file(_ sha256: String) -> URL { directory.appendingPathComponent("\(sha256).upload.json") }

    private func pendingFiles() -> [URL] {
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        return files.filter { $0.lastPathComponent.hasSuffix(".upload.json") }.sorted { a, b in
            let first = (try? a.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
            let second = (try? b.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
            return first == second ? a.lastPathComponent < b.lastPathComponent : first < second
        }
    }

    /// Who sent each read, as `flush(using:sender:)` was told: `SHA.sender.txt`.
    private var sentFolder: URL { directory.appendingPathComponent("sent", isDirectory: true) }

    /// Keeps `sender` as who sent `sha256` (`nil`: forgets an earlier one). Called under `files`.
    private func noteSender(_ sender: String?, of sha256: String) {
        let file = sentFolder.appendingPathComponent("\(sha256).sender.txt")
        guard let sender else {
            try? FileManager.default.removeItem(at: file)
            return
        }
        try? FileManager.default.createDirectory(at: sentFolder, withIntermediateDirectories: true)
        try? Data((sender + "\n").utf8).write(to: file, options: .atomic)
    }

    /// Who sent the reads sent with a sender named: SHA-256 → the name (trimmed).
    public func senders() -> [String: String] {
        files.withLock { _ in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: sentFolder.path)) ?? []
            var senders: [String: String] = [:]
            for name in names where name.hasSuffix(".sender.txt") {
                let sender = (try? String(contentsOf: sentFolder.appendingPathComponent(name), encoding: .utf8)) ?? ""
                senders[String(name.dropLast(".sender.txt".count))] = sender.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return senders
        }
    }

    /// Where reads the station refused for good are kept: `SHA.upload.json` and `SHA.reason.txt`.
    private var rejectedFolder: URL { directory.appendingPathComponent("rejected", isDirectory: true) }

    /// Moves `upload` out of the queue into `rejected/` with the station's reason.
    func reject(_ upload: PendingUpload, reason: String) {
        files.withLock { _ in
            let folder = rejectedFolder
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("\(upload.sha256).upload.json"))
            try? FileManager.default.moveItem(at: file(upload.sha256), to: folder.appendingPathComponent("\(upload.sha256).upload.json"))
            try? Data((reason + "\n").utf8).write(to: folder.appendingPathComponent("\(upload.sha256).reason.txt"))
        }
    }

    /// The reads the station refused for good: SHA-256 → the reason it gave (trimmed).
    public func refusals() -> [String: String] {
        files.withLock { _ in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: rejectedFolder.path)) ?? []
            var reasons: [String: String] = [:]
            for name in names where name.hasSuffix(".reason.txt") {
                let reason = (try? String(contentsOf: rejectedFolder.appendingPathComponent(name), encoding: .utf8)) ?? ""
                reasons[String(name.dropLast(".reason.txt".count))] = reason.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return reasons
        }
    }

    /// Queues the refused reads again (after the station or its token changed); a read that
    /// cannot be queued stays refused.
    public func requeueRefused() {
        files.withLock { _ in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: rejectedFolder.path)) ?? []
            for name in names where name.hasSuffix(".upload.json") {
                let kept = rejectedFolder.appendingPathComponent(name)
                guard let data = try? Data(contentsOf: kept), let upload = try? JSONDecoder().decode(PendingUpload.self, from: data),
                    (try? data.write(to: file(upload.sha256), options: .atomic)) != nil
                else { continue }
                try? FileManager.default.removeItem(at: kept)
                try? FileManager.default.removeItem(at: rejectedFolder.appendingPathComponent("\(upload.sha256).reason.txt"))
            }
        }
    }
}
