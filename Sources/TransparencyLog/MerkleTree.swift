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

/// The root of a growing tree kept up leaf by leaf: the perfect subtrees of the leaves so far
/// (at most one per bit of the count), folded from the right for the root. Appending costs
/// O(1) hashes on average and the root O(log n): a station signs its record after each write
/// without hashing all of it again, and `verify` finds the roots of many sizes in one pass.
public struct MerkleFrontier: Sendable {
    private var subtrees: [(size: Int, hash: [UInt8])] = []
    /// How many leaves were appended.
    public private(set) var count = 0

    public init() {}

    /// Appends the leaf whose hash (already `H(0x00 || leaf)`) is `leafHash`.
    public mutating func append(_ leafHash: [UInt8]) {
        var node = (size: 1, hash: leafHash)
        while let last = subtrees.last, last.size == node.size {
            subtrees.removeLast()
            node = (last.size * 2, MerkleHash.node(last.hash, node.hash))
        }
        subtrees.append(node)
        count += 1
    }

    /// The RFC 9162 root of the leaves so far.
    public var root: [UInt8] {
        guard var hash = subtrees.last?.hash else { return MerkleHash.emptyTree }
        for subtree in subtrees.dropLast().reversed() { hash = MerkleHash.node(subtree.hash, hash) }
        return hash
    }
}
