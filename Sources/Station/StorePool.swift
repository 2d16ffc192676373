import Archive
import Foundation

/// Open archive connections shared by the server's threads: one connection serves one
/// request at a time (an `Archive` is not thread-safe); a connection that failed is closed
/// instead of being given back, so that a PostgreSQL restart heals on the next request.
final class StorePool: @unchecked Sendable {
    let location: String
    private let lock = NSLock()
    private var idle: [StationStore] = []

    init(location: String) {
        self.location = location
    }

    /// Opens the first connection, so that a station that cannot reach its archive says so at start.
    func warmUp() throws {
        let store = try StationStore(archive: Archive.open(location, create: true))
        lock.withLock { idle.append(store) }
    }

    func with<T>(_ body: (StationStore) throws -> T) throws -> T {
        let store: StationStore = try lock.withLock { idle.popLast() } ?? StationStore(archive: Archive.open(location, create: true))
        do {
            let value = try body(store)
            lock.withLock { idle.append(store) }
            return value
        } catch let error as ArchiveError where [.unavailable, .connectionLost, .engine].contains(error.kind) {
            store.archive.close()
            throw error
        } catch {
            lock.withLock { idle.append(store) }
            throw error
        }
    }

    func closeAll() {
        let stores = lock.withLock { () -> [StationStore] in
            let all = idle
            idle = []
            return all
        }
        for store in stores { store.archive.close() }
    }
}

/// Runs async work to its end from a server thread (not a Swift concurrency thread).
func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    guard let result = box.result else { throw UploadRejection(status: 503, "the decode did not finish") }
    return try result.get()
}

private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
