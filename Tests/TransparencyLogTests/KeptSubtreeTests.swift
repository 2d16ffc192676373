import ColdTapBase
import Digest
import Foundation
import Testing

@testable import TransparencyLog

/// Roots and proofs from a source that keeps the hashes of whole subtrees (as the archive
/// does) are the ones computed from every leaf, and read only O(log n) of them.
@Suite struct KeptSubtreeTests {
    /// Leaf hashes in memory with the hashes of every whole aligned subtree of 256 leaves or
    /// more, counting what is read.
    final class KeepingSource: LeafHashSource {
        let hashes: [[UInt8]]
        var kept: [Range<Int>: [UInt8]] = [:]
        var leavesRead = 0
        var subtreesAsked = 0

        init(leafCount: Int) {
            hashes = (0..<leafCount).map { MerkleHash.leaf(Array("leaf \($0)".utf8)) }
            // Level by level: the blocks of 256 from their leaves, each larger from two below.
            var below = stride(from: 0, to: leafCount - 255, by: 256).map { MerkleHash.root(ofLeafHashes: Array(hashes[$0..<($0 + 256)])) }
            var size = 256
            while !below.isEmpty {
                for (position, hash) in below.enumerated() { kept[(position * size)..<((position + 1) * size)] = hash }
                below = stride(from: 0, to: below.count - 1, by: 2).map { MerkleHash.node(below[$0], below[$0 + 1]) }
                size *= 2
            }
        }

        func leafCount() -> Int { hashes.count }
        func leafHashes(in range: Range<Int>) -> [[UInt8]] {
            leavesRead += range.count
            return Array(hashes[range])
        }
        func subtreeHash(_ range: Range<Int>) -> [UInt8]? {
            subtreesAsked += 1
            return kept[range]
        }
    }

    @Test("roots, inclusion and consistency proofs equal those from every leaf", arguments: [1, 255, 256, 257, 1000, 4096, 5000])
    func sameAsFromEveryLeaf(size: Int) throws {
        let keeping = KeepingSource(leafCount: size)
        let plain = InMemoryLeafHashes(leafHashes: keeping.hashes)
        #expect(try MerkleProofs.root(treeSize: size, from: keeping) == MerkleProofs.root(treeSize: size, from: plain))
        let indices = Array(Set([0, size / 3, size / 2, size - 1]))
        #expect(
            try MerkleProofs.inclusionProofs(leafIndices: indices, treeSize: size, from: keeping)
                == indices.map { try MerkleProofs.inclusionProof(leafIndex: $0, treeSize: size, from: plain) })
        for old in Set([1, size / 2, max(1, size - 1)]) where old <= size {
            #expect(
                try MerkleProofs.consistencyProof(oldSize: old, newSize: size, from: keeping)
                    == MerkleProofs.consistencyProof(oldSize: old, newSize: size, from: plain), "\(old) → \(size)")
        }
        // And a smaller tree of the same log (its newest block partial).
        if size > 300 {
            #expect(try MerkleProofs.root(treeSize: 300, from: keeping) == MerkleProofs.root(treeSize: 300, from: plain))
        }
    }

    @Test("a proof in a tree of 200,000 leaves reads one block of leaves and O(log n) kept subtrees")
    func proofReadsLittle() throws {
        let source = KeepingSource(leafCount: 200_000)
        let proof = try MerkleProofs.inclusionProof(leafIndex: 123_457, treeSize: 200_000, from: source)
        let root = try MerkleProofs.root(treeSize: 200_000, from: InMemoryLeafHashes(leafHashes: source.hashes))
        #expect(MerkleProofs.verifyInclusion(leafHash: source.hashes[123_457], leafIndex: 123_457, treeSize: 200_000, proof: proof, root: root))
        // The leaf's block, and the newest (partial) block for the right edge.
        #expect(source.leavesRead <= 512, "\(source.leavesRead) leaves read")
        #expect(source.subtreesAsked < 80, "\(source.subtreesAsked) subtrees asked")
    }

    @Test("a kept subtree that is wrong makes proofs that do not verify (the source's hashes are used)")
    func wrongKeptSubtreeShows() throws {
        let source = KeepingSource(leafCount: 2048)
        let root = try MerkleProofs.root(treeSize: 2048, from: source)
        source.kept[1024..<2048] = MerkleHash.leaf(Array("forged".utf8))
        let proof = try MerkleProofs.inclusionProof(leafIndex: 5, treeSize: 2048, from: source)
        #expect(!MerkleProofs.verifyInclusion(leafHash: source.hashes[5], leafIndex: 5, treeSize: 2048, proof: proof, root: root))
    }
}
