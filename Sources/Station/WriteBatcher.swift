import Archive
import ColdTapBase
import Foundation

/// Uploads keep their reads in shared write transactions (group commit). The first upload
/// that arrives while no batch is being written takes every upload waiting (at most `limit`)
/// and keeps them on one connection in one transaction, each under its own savepoint
/// (`ArchiveEngine.writeEach`); the others wait for their results. A read is still wholly in
/// or wholly out, and an upload is answered only after its transaction committed; what the
/// uploads take turns for is one commit per batch (one flush to disk, one turn of SQLite's
/// writer or of PostgreSQL's chain-head row lock) instead of one per upload. One batch is
/// written at a time, so the station's uploads take turns here rather than in SQLite's busy
/// handler, whose sleeps (up to 100 ms each) made the slowest uploads wait seconds.
///
/// Other short writes of the station (the webhook queue's) join the same batches through
/// `write(_:)`, so that they never wait for SQLite's writer lock against the uploads.
final class WriteBatcher: Sendable {
    /// A write: the store, and the batch's transaction it writes in.
    typealias Work = (StationStore, WriteTransaction) throws -> Any

    /// One write and its result, set and read under the queue's lock only.
    private final class Pending: @unchecked Sendable {
        let work: Work
        /// An upload's read (the metrics count those).
        let isUpload: Bool
        var result: Result<Any, any Error>?
        init(_ work: @escaping Work, isUpload: Bool) {
            self.work = work
            self.isUpload = isUpload
        }
    }

    private let pool: StorePool
    private let metrics: StationMetrics
    private let limit: Int
    private struct Queue {
        var waiting: [Pending] = []
        /// A batch is being written (by one of the waiting threads).
        var writing = false
    }
    private let queue = WaitableValue(Queue())

    /// Runs after a batch committed and its writes were answered (the station signs its record).
    private let afterCommit: @Sendable (StationStore) -> Void

    init(pool: StorePool, metrics: StationMetrics, limit: Int = 32, afterCommit: @escaping @Sendable (StationStore) -> Void = { _ in }) {
        self.pool = pool
        self.metrics = metrics
        self.limit = limit
        self.afterCommit = afterCommit
    }

    /// Runs `work` in the next batch's transaction and returns what it returned, once that
    /// transaction has committed; throws what `work` threw (its writes rolled back alone), or
    /// the transaction's own failure.
    func keep(_ work: @escaping (StationStore, WriteTransaction) throws -> AddResult) throws -> AddResult {
        try write(work, isUpload: true)
    }

    /// `keep` for any write: runs `work` in the next batch's transaction.
    func write<T>(_ work: @escaping (StationStore, WriteTransaction) throws -> T, isUpload: Bool = false) throws -> T {
        let mine = Pending({ store, transaction in try work(store, transaction) }, isUpload: isUpload)
        queue.update { $0.waiting.append(mine) }
        while true {
            // Done, or no batch is being written: then this thread writes the next one.
            let batch: [Pending]? = queue.wait(until: { queue in mine.result != nil || !queue.writing }, waking: .none) { queue, _ in
                guard mine.result == nil else { return nil }
                queue.writing = true
                let batch = Array(queue.waiting.prefix(limit))
                queue.waiting.removeFirst(batch.count)
                return batch
            }
            guard let batch else { break }
            let results = writeBatch(batch)
            // The batch's writes are answered before the record is signed again: no answer
            // waits for the signature, which no answer carries (a checkpoint asked for is
            // brought up to date by its own request). The next batch waits for it: signing may
            // write (kept subtrees), and a second writer would wait in SQLite's busy handler.
            queue.update { queue in
                for (pending, result) in zip(batch, results) { pending.result = result }
            }
            if results.contains(where: { if case .success = $0 { return true } else { return false } }) {
                try? pool.with { store in afterCommit(store) }
            }
            queue.update { $0.writing = false }
        }
        guard let result = queue.read({ _ in mine.result }), let value = try result.get() as? T else {
            throw ArchiveError(.engine, "an upload's write was lost")
        }
        return value
    }

    private func writeBatch(_ batch: [Pending]) -> [Result<Any, any Error>] {
        let uploads = batch.filter(\.isUpload).count
        if uploads > 0 { metrics.writeBatch(uploads: uploads) }
        do {
            return try pool.with { store in
                let results = store.archive.engine.writeEach(batch.map { pending in { transaction in try pending.work(store, transaction) } })
                // A transaction that failed as a whole on a broken connection: thrown, so that
                // the pool closes that connection instead of giving it back.
                if case .failure(let error as ArchiveError)? = results.first,
                    [.unavailable, .connectionLost].contains(error.kind),
                    results.allSatisfy({ if case .failure = $0 { return true } else { return false } })
                {
                    throw error
                }
                return results
            }
        } catch {
            return batch.map { _ in .failure(error) }
        }
    }
}
