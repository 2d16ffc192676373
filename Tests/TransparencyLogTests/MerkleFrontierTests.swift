import Digest
import Testing
import TransparencyLog

/// The frontier's root after each leaf is the tree's root computed from all leaves.
@Suite struct MerkleFrontierTests {
    @Test func everyPrefixHasTheTreesRoot() {
        var frontier = MerkleFrontier()
        #expect(frontier.root == MerkleHash.emptyTree)
        var hashes: [[UInt8]] = []
        for index in 0..<130 {
            let hash = MerkleHash.leaf(Array("leaf \(index)".utf8))
            hashes.append(hash)
            frontier.append(hash)
            #expect(frontier.count == hashes.count)
            #expect(frontier.root == MerkleHash.root(ofLeafHashes: hashes), "after \(hashes.count) leaves")
        }
    }
}
