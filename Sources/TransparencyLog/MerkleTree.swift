import Digest
import Foundation

/// RFC 9162 §2.1 Merkle tree hashing over SHA-256: leaves and inner nodes are hashed with
/// different one-byte prefixes (0x00, 0x01) so a leaf can never be passed off as a node.
/// Every hash here is 32 bytes.
public enum MerkleHash {
    /// The hash of the tree with no leaves: SHA-256 of the empty string.
    public static let emptyTree: [UInt8] = SHA256Digest.hash([UInt8]())

    /// A leaf's hash: SHA-256(0x00 || data).
    public static func leaf(_ data: some DataProtocol) -> [UInt8] {
        var input: [UInt8] = [0x00]
        input.append(contentsOf: data)
        return SHA256Digest.hash(input)
    }

    /// An inner node's hash: SHA-256(0x01 || left || right).
    public static func node(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
        var input = [UInt8]()
        input.reserveCapacity(1 + left.count + right.count)
        input.append(0x01)
        input.append(contentsOf: left)
        input.append(contentsOf: right)
        return SHA256Digest.hash(input)
    }

    /// The split point of a tree of `count` leaves (count ≥ 2): the largest power of two
    /// strictly smaller than `count`; the left subtree is always the complete one.
    static func split(_ count: Int) -> Int {
        precondition(count >= 2)
        var k = 1
        while k << 1 < count { k <<= 1 }
        return k
    }

    /// The root (tree head) over `leafHashes` already hashed; `emptyTree` for none.
    public static func root(leafHashes: [UInt8]...) -> [UInt8] { root(ofLeafHashes: leafHashes) }

    /// The root (tree head) over `leafHashes` already hashed; `emptyTree` for none.
    public static func root(ofLeafHashes leafHashes: [[UInt8]]) -> [UInt8] {
        leafHashes.isEmpty ? emptyTree : subtree(leafHashes, 0..<leafHashes.count)
    }

    /// The hash of the subtree over `range` (non-empty) of `hashes`, computed recursively:
    /// each leaf hash is read once and each inner node hashed once, O(n).
    static func subtree(_ hashes: [[UInt8]], _ range: Range<Int>) -> [UInt8] {
        if range.count == 1 { return hashes[range.lowerBound] }
        let k = split(range.count)
        let middle = range.lowerBound + k
        return node(subtree(hashes, range.lowerBound..<middle), subtree(hashes, middle..<range.upperBound))
    }
}
