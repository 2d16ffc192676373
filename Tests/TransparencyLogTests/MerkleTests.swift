import ColdTapBase
import Digest
import Foundation
import Testing

@testable import TransparencyLog

/// The tree hashing and proofs against a reference written here straight from RFC 9162 §2.1
/// (lists sliced, no shared code with the library), for every tree up to 64 leaves.
@Suite struct MerkleTests {
    /// Leaf data: leaf i is the bytes "leaf i".
    static func leaves(_ count: Int) -> [[UInt8]] { (0..<count).map { Array("leaf \($0)".utf8) } }

    /// RFC 9162's MTH, literally: SHA-256 of "" for no leaves, 0x00-prefixed for one, else
    /// split at the largest power of two below n.
    static func referenceRoot(_ data: ArraySlice<[UInt8]>) -> [UInt8] {
        if data.isEmpty { return SHA256Digest.hash([UInt8]()) }
        if data.count == 1 { return SHA256Digest.hash([0x00] + data.first!) }
        var k = 1
        while k * 2 < data.count { k *= 2 }
        let left = referenceRoot(data.prefix(k))
        let right = referenceRoot(data.dropFirst(k))
        return SHA256Digest.hash([0x01] + left + right)
    }

    @Test func emptyTreeAndLeafHashes() {
        #expect(MerkleHash.emptyTree.hexString(uppercase: false) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // SHA-256 of the single byte 0x00: the hash of an empty leaf.
        #expect(MerkleHash.leaf([UInt8]()).hexString(uppercase: false) == "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d")
    }

    @Test func rootsMatchTheReferenceUpTo64Leaves() throws {
        for count in 0...64 {
            let data = Self.leaves(count)
            let source = InMemoryLeafHashes(leaves: data)
            #expect(try MerkleProofs.root(treeSize: count, from: source) == Self.referenceRoot(data[...]), "n = \(count)")
        }
    }

    @Test func everyInclusionProofVerifiesAndAFlippedByteFails() throws {
        let data = Self.leaves(64)
        let source = InMemoryLeafHashes(leaves: data)
        for size in 1...64 {
            let root = Self.referenceRoot(data[..<size])
            for index in 0..<size {
                let proof = try MerkleProofs.inclusionProof(leafIndex: index, treeSize: size, from: source)
                let leaf = MerkleHash.leaf(data[index])
                #expect(MerkleProofs.verifyInclusion(leafHash: leaf, leafIndex: index, treeSize: size, proof: proof, root: root))
                // A wrong leaf, index, size or any flipped byte in the path must fail.
                var wrongLeaf = leaf
                wrongLeaf[0] ^= 0x01
                #expect(!MerkleProofs.verifyInclusion(leafHash: wrongLeaf, leafIndex: index, treeSize: size, proof: proof, root: root))
                if size > 1 {
                    #expect(!MerkleProofs.verifyInclusion(leafHash: leaf, leafIndex: (index + 1) % size, treeSize: size, proof: proof, root: root))
                }
                for position in proof.indices {
                    var tampered = proof
                    tampered[position][31] ^= 0x80
                    #expect(!MerkleProofs.verifyInclusion(leafHash: leaf, leafIndex: index, treeSize: size, proof: tampered, root: root))
                }
                #expect(!MerkleProofs.verifyInclusion(leafHash: leaf, leafIndex: index, treeSize: size, proof: proof + [leaf], root: root))
            }
        }
    }

    @Test func everyConsistencyProofVerifiesAndAWrongOldRootFails() throws {
        let data = Self.leaves(64)
        let source = InMemoryLeafHashes(leaves: data)
        let roots = (0...64).map { Self.referenceRoot(data[..<$0]) }
        for newSize in 0...64 {
            for oldSize in 0...newSize {
                let proof = try MerkleProofs.consistencyProof(oldSize: oldSize, newSize: newSize, from: source)
                #expect(
                    MerkleProofs.verifyConsistency(
                        oldSize: oldSize, newSize: newSize, oldRoot: roots[oldSize],
                        newRoot: roots[newSize], proof: proof), "\(oldSize) → \(newSize)")
                var wrongOld = roots[oldSize]
                wrongOld[5] ^= 0x10
                #expect(
                    !MerkleProofs.verifyConsistency(
                        oldSize: oldSize, newSize: newSize, oldRoot: wrongOld,
                        newRoot: roots[newSize], proof: proof), "\(oldSize) → \(newSize)")
                // Every tree extends the empty one, so from size 0 no new root can be refused.
                if oldSize > 0 {
                    var wrongNew = roots[newSize]
                    wrongNew[0] ^= 0x01
                    #expect(
                        !MerkleProofs.verifyConsistency(
                            oldSize: oldSize, newSize: newSize, oldRoot: roots[oldSize],
                            newRoot: wrongNew, proof: proof))
                }
                for position in proof.indices {
                    var tampered = proof
                    tampered[position][0] ^= 0x01
                    #expect(
                        !MerkleProofs.verifyConsistency(
                            oldSize: oldSize, newSize: newSize, oldRoot: roots[oldSize],
                            newRoot: roots[newSize], proof: tampered))
                }
            }
        }
    }

    @Test func requestsOutsideTheLogAreRefused() {
        let source = InMemoryLeafHashes(leaves: Self.leaves(3))
        #expect(throws: ProofError.treeSizeBeyondLog(requested: 4, available: 3)) { try MerkleProofs.root(treeSize: 4, from: source) }
        #expect(throws: ProofError.leafIndexOutOfRange(index: 3, treeSize: 3)) {
            try MerkleProofs.inclusionProof(leafIndex: 3, treeSize: 3, from: source)
        }
        #expect(throws: ProofError.oldSizeAfterNewSize(old: 3, new: 2)) { try MerkleProofs.consistencyProof(oldSize: 3, newSize: 2, from: source) }
    }
}
