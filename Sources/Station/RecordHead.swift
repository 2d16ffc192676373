import Archive
import ColdTapBase
import Digest
import Foundation
import TransparencyLog

/// The station's newest signed checkpoint of the record (docs/archive-record.md), kept up
/// after every write batch: the leaves appended since are read and folded into a
/// `MerkleFrontier`, so signing costs the new leaves, not the whole record. Served at
/// `GET /api/v1/checkpoint` and sent with every webhook event.
///
/// Several stations may share one PostgreSQL archive: each folds in every leaf appended,
/// whoever appended it, so all sign the same tree. A record that lost leaves this station
/// had signed (a failover to a standby that had not received them, docs/station-fleet.md)
/// is never signed again by it: signing the shorter record would give two checkpoints that
/// no consistency proof joins.
final class RecordHead: Sendable {
    private struct State {
        var frontier = MerkleFrontier()
        /// The hash of the newest leaf folded in, to find it again at its index.
        var newestLeaf: [UInt8]?
        var origin: String?
        var newest: SignedNote?
    }

    let signer: NoteSigner
    private let state = LockedValue(State())

    init(signer: NoteSigner) {
        self.signer = signer
    }

    /// The newest checkpoint signed, as its note's text.
    var newestNote: String? { state.withLock { $0.newest?.formatted } }

    /// Folds in the leaves appended since the last call and signs the tree when it grew.
    /// - Returns: the checkpoint of the record as `store` sees it now.
    @discardableResult
    func advance(_ store: StationStore) throws -> SignedNote {
        try state.withLock { state in
            let origin = try state.origin ?? store.archive.recordOrigin()
            state.origin = origin
            let before = state.frontier.count
            // From the newest leaf already folded in: it must still be there, the same.
            var hashes = try store.archive.leafHashes(from: max(0, before - 1))
            if let newestLeaf = state.newestLeaf {
                guard hashes.first == newestLeaf else {
                    let size = try store.archive.recordSize()
                    throw ArchiveError(
                        .verificationFailed,
                        "the archive's record no longer holds what this station signed: its checkpoint covered \(before) leaves, and "
                            + (size < before ? "the record now holds \(size)" : "leaf \(before - 1) is no longer the one it signed")
                            + " (a failover to a standby that had not received everything, or a restore from a backup). This station signs no more checkpoints until its operator has looked and restarted it: witnesses that hold the older checkpoint will refuse the new record (docs/station-fleet.md)."
                    )
                }
                hashes.removeFirst()
            }
            for hash in hashes { state.frontier.append(hash) }
            state.newestLeaf = hashes.last ?? state.newestLeaf
            // A block of leaves completed: its subtrees are kept for proofs.
            let block = Archive.smallestKeptSubtree
            if before == 0 || before >> block != state.frontier.count >> block { store.archive.keepSubtrees() }
            if let newest = state.newest, state.frontier.count == before { return newest }
            let note = try Checkpoint(origin: origin, treeSize: state.frontier.count, rootHash: state.frontier.root).signed(by: [signer])
            state.newest = note
            return note
        }
    }
}
