import Archive
import ColdTapBase
import Foundation

/// Open archive connections shared by the server's threads: one connection serves one
/// request at a time (an `Archive` is not thread-safe); a connection that failed is closed
/// instead of being given back, so that a PostgreSQL restart heals on the next request.
final class StorePool: Sendable {
    let location: String
    /// The connections not in use. A connection is not thread-safe, but only one thread has
    /// it at a time: the pool hands it out and takes it back, under the lock.
    private struct Idle: @unchecked Sendable {
        var stores: [StationStore] = []
    }
    private let idle = LockedValue(Idle())

    init(location: String) {
        self.location = location
    }

    /// Opens the first connection, so that a station that cannot reach its archive says so at start.
    func warmUp() throws {
        let store = try StationStore(archive: Archive.open(location, create: true))
        idle.withLock { $0.stores.append(store) }
    }

    func with<T>(_ body: (StationStore) throws -> T) throws -> T {
        let store: StationStore = try idle.withLock { $0.stores.popLast() } ?? StationStore(archive: Archive.open(location, create: true))
        do {
            let value = try body(store)
            idle.withLock { $0.stores.append(store) }
            return value
        } catch let error as ArchiveError where [.unavailable, .connectionLost, .engine].contains(error.kind) {
            store.archive.close()
            throw error
        } catch {
            idle.withLock { $0.stores.append(store) }
            throw error
        }
    }

    func closeAll() {
        let stores = idle.exchange(Idle()).stores
        for store in stores { store.archive.close() }
    }
}
