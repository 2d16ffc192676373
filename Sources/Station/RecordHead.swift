import Archive
import ColdTapBase
import Digest
import Foundation
import TransparencyLog

/// The station's newest signed checkpoint of the record (docs/archive-record.md), kept up
/// after every write batch: the leaves appended since are read and folded into a
/// `MerkleFrontier`, so signing costs the new leaves, not the whole record. Served at
/// `GET /api/v1/checkpoint` and sent with every webhook event.
final class RecordHead: Sendable {
    private struct State {
        var frontier = MerkleFrontier()
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
            for hash in try store.archive.leafHashes(from: before) { state.frontier.append(hash) }
            if let newest = state.newest, state.frontier.count == before { return newest }
            let note = try Checkpoint(origin: origin, treeSize: state.frontier.count, rootHash: state.frontier.root).signed(by: [signer])
            state.newest = note
            return note
        }
    }
}
