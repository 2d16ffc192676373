import Foundation

/// Where the leaf hashes of a log come from. The archive serves them from its tables; a
/// source need only hand out a contiguous run of them, in log order.
public protocol LeafHashSource {
    /// How many leaves the log holds now.
    func leafCount() throws -> Int
    /// The 32-byte leaf hashes of the leaves at `range` (within `0..<leafCount()`), in order.
    func leafHashes(in range: Range<Int>) throws -> [[UInt8]]
    /// The hash of the whole subtree over `range` when the source keeps it (a range a power
    /// of two long, starting at a multiple of its length), else `nil`: it is then computed
    /// from the leaves. A source that keeps such hashes makes roots and proofs cost
    /// O(log n) of them instead of reading every leaf.
    func subtreeHash(_ range: Range<Int>) throws -> [UInt8]?
}

extension LeafHashSource {
    public func subtreeHash(_ range: Range<Int>) throws -> [UInt8]? { nil }
}

/// Leaf hashes kept in memory: the tests', and anyone's who has them all already.
public struct InMemoryLeafHashes: LeafHashSource, Sendable {
    /// Every leaf hash, in log order.
    public private(set) var hashes: [[UInt8]]

    /// A source over leaf hashes already computed.
    public init(leafHashes: [[UInt8]] = []) { hashes = leafHashes }

    /// A source over leaves' data, each hashed as a leaf (0x00 prefix).
    public init(leaves: [[UInt8]]) { hashes = leaves.map { MerkleHash.leaf($0) } }

    /// Appends a leaf (its data, hashed here) and returns its index.
    @discardableResult
    public mutating func append(leaf data: some DataProtocol) -> Int {
        hashes.append(MerkleHash.leaf(data))
        return hashes.count - 1
    }

    public func leafCount() -> Int { hashes.count }

    public func leafHashes(in range: Range<Int>) -> [[UInt8]] { Array(hashes[range]) }
}

/// Why a proof could not be made from a leaf-hash source.
public enum ProofError: Error, Equatable, Sendable {
    /// The tree size asked for is larger than the log (`available` leaves).
    case treeSizeBeyondLog(requested: Int, available: Int)
    /// The leaf index is not inside a tree of `treeSize` leaves.
    case leafIndexOutOfRange(index: Int, treeSize: Int)
    /// A consistency proof needs old size ≤ new size.
    case oldSizeAfterNewSize(old: Int, new: Int)
    /// The source handed back the wrong number of hashes, or one that is not 32 bytes.
    case malformedSource
}

/// Tree heads and RFC 9162 §2.1.3/§2.1.4 proofs computed from a leaf-hash source. The hash
/// of each subtree a proof needs is the source's kept one when it has it, else computed from
/// the leaves under it (read a block at a time); within one call each is found once. Without
/// kept subtrees a root or a proof costs O(treeSize) hashes; with them O(log treeSize)
/// lookups and a block of leaves.
public enum MerkleProofs {
    /// Leaves read together when a subtree is computed from its leaves: a source that keeps
    /// subtree hashes keeps those of this many leaves and more (docs/archive-record.md).
    public static let leafBlock = 256

    /// The root of the tree made of the log's first `treeSize` leaves.
    public static func root(treeSize: Int, from source: some LeafHashSource) throws -> [UInt8] {
        var hasher = try SubtreeHasher(source, treeSize: treeSize)
        return treeSize == 0 ? MerkleHash.emptyTree : try hasher.hash(0..<treeSize)
    }

    /// The inclusion proof (audit path) of leaf `index` in the tree of the first `treeSize`
    /// leaves: the sibling subtree hashes from the leaf up to the root.
    public static func inclusionProof(leafIndex index: Int, treeSize: Int, from source: some LeafHashSource) throws -> [[UInt8]] {
        try inclusionProofs(leafIndices: [index], treeSize: treeSize, from: source)[0]
    }

    /// The inclusion proofs of several leaves in one tree, the subtrees they share found once.
    public static func inclusionProofs(leafIndices: [Int], treeSize: Int, from source: some LeafHashSource) throws -> [[[UInt8]]] {
        for index in leafIndices where index < 0 || index >= treeSize {
            throw ProofError.leafIndexOutOfRange(index: index, treeSize: treeSize)
        }
        var hasher = try SubtreeHasher(source, treeSize: treeSize)
        return try leafIndices.map { index in
            var path = [[UInt8]]()
            try auditPath(index, 0..<treeSize, &hasher, into: &path)
            return path
        }
    }

    /// The consistency proof between the tree of the first `oldSize` leaves and that of
    /// the first `newSize`: empty when the sizes are equal or the old tree is empty.
    public static func consistencyProof(oldSize: Int, newSize: Int, from source: some LeafHashSource) throws -> [[UInt8]] {
        guard oldSize >= 0, oldSize <= newSize else { throw ProofError.oldSizeAfterNewSize(old: oldSize, new: newSize) }
        var hasher = try SubtreeHasher(source, treeSize: newSize)
        guard oldSize > 0, oldSize < newSize else { return [] }
        var proof = [[UInt8]]()
        try subproof(oldSize, 0..<newSize, oldTreeIsWhole: true, &hasher, into: &proof)
        return proof
    }

    // MARK: generation (RFC 9162 §2.1.3.1 and §2.1.4.1, bottom-most hashes first)

    /// The path of leaf `index` (relative to `range`) within the subtree over `range`: the
    /// path inside the half holding the leaf, then the other half's hash.
    private static func auditPath<Source>(
        _ index: Int, _ range: Range<Int>, _ hasher: inout SubtreeHasher<Source>, into path: inout [[UInt8]]
    ) throws {
        guard range.count > 1 else { return }
        let k = MerkleHash.split(range.count)
        let middle = range.lowerBound + k
        if index < k {
            try auditPath(index, range.lowerBound..<middle, &hasher, into: &path)
            path.append(try hasher.hash(middle..<range.upperBound))
        } else {
            try auditPath(index - k, middle..<range.upperBound, &hasher, into: &path)
            path.append(try hasher.hash(range.lowerBound..<middle))
        }
    }

    /// The hashes proving that the first `oldSize` leaves of the subtree over `range` are a
    /// prefix of it. `oldTreeIsWhole` says whether the subtree of the old size is the old tree
    /// itself (whose root the verifier already has, so it is not repeated).
    private static func subproof<Source>(
        _ oldSize: Int, _ range: Range<Int>, oldTreeIsWhole: Bool, _ hasher: inout SubtreeHasher<Source>,
        into proof: inout [[UInt8]]
    ) throws {
        if oldSize == range.count {
            if !oldTreeIsWhole { proof.append(try hasher.hash(range)) }
            return
        }
        let k = MerkleHash.split(range.count)
        let middle = range.lowerBound + k
        if oldSize <= k {
            try subproof(oldSize, range.lowerBound..<middle, oldTreeIsWhole: oldTreeIsWhole, &hasher, into: &proof)
            proof.append(try hasher.hash(middle..<range.upperBound))
        } else {
            try subproof(oldSize - k, middle..<range.upperBound, oldTreeIsWhole: false, &hasher, into: &proof)
            proof.append(try hasher.hash(range.lowerBound..<middle))
        }
    }

    // MARK: verification (RFC 9162 §2.1.3.2 and §2.1.4.2)

    /// True when `proof` shows the leaf with hash `leafHash` at `leafIndex` in the tree of
    /// `treeSize` leaves whose root is `root`.
    public static func verifyInclusion(leafHash: [UInt8], leafIndex: Int, treeSize: Int, proof: [[UInt8]], root: [UInt8]) -> Bool {
        guard leafIndex >= 0, leafIndex < treeSize, leafHash.count == 32, root.count == 32,
            proof.allSatisfy({ $0.count == 32 })
        else { return false }
        // fn walks the leaf's position up the tree, sn the last leaf's; they meet at the root.
        var fn = leafIndex
        var sn = treeSize - 1
        var computed = leafHash
        for sibling in proof {
            guard sn != 0 else { return false }
            if fn & 1 == 1 || fn == sn {
                computed = MerkleHash.node(sibling, computed)
                // A right-most node with no sibling at this level moves up unchanged.
                if fn & 1 == 0 {
                    while fn & 1 == 0 && fn != 0 {
                        fn >>= 1
                        sn >>= 1
                    }
                }
            } else {
                computed = MerkleHash.node(computed, sibling)
            }
            fn >>= 1
            sn >>= 1
        }
        return sn == 0 && computed == root
    }

    /// True when `proof` shows the tree of `oldSize` leaves with root `oldRoot` is a prefix
    /// of the tree of `newSize` leaves with root `newRoot`.
    public static func verifyConsistency(oldSize: Int, newSize: Int, oldRoot: [UInt8], newRoot: [UInt8], proof: [[UInt8]]) -> Bool {
        guard oldSize >= 0, oldSize <= newSize, oldRoot.count == 32, newRoot.count == 32,
            proof.allSatisfy({ $0.count == 32 })
        else { return false }
        if oldSize == newSize { return proof.isEmpty && oldRoot == newRoot }
        // Every tree extends the empty one; the empty tree's root is fixed.
        if oldSize == 0 { return proof.isEmpty && oldRoot == MerkleHash.emptyTree }
        guard !proof.isEmpty else { return false }
        var path = proof
        // A complete old tree is a node of the new one: the verifier starts from its root.
        if oldSize & (oldSize - 1) == 0 { path.insert(oldRoot, at: 0) }
        var fn = oldSize - 1
        var sn = newSize - 1
        while fn & 1 == 1 {
            fn >>= 1
            sn >>= 1
        }
        var oldComputed = path[0]
        var newComputed = path[0]
        for hash in path.dropFirst() {
            guard sn != 0 else { return false }
            if fn & 1 == 1 || fn == sn {
                oldComputed = MerkleHash.node(hash, oldComputed)
                newComputed = MerkleHash.node(hash, newComputed)
                if fn & 1 == 0 {
                    while fn & 1 == 0 && fn != 0 {
                        fn >>= 1
                        sn >>= 1
                    }
                }
            } else {
                newComputed = MerkleHash.node(newComputed, hash)
            }
            fn >>= 1
            sn >>= 1
        }
        return sn == 0 && oldComputed == oldRoot && newComputed == newRoot
    }
}

/// The subtree hashes of one computation over a tree of `treeSize` leaves: a whole aligned
/// subtree from the source when it keeps it; below `leafBlock` leaves, from the leaf hashes
/// of the block holding it (read once); above, from its two halves. Each hash found is
/// remembered for the rest of the computation.
struct SubtreeHasher<Source: LeafHashSource> {
    static var leafBlock: Int { MerkleProofs.leafBlock }

    let source: Source
    /// How many leaves the source held when asked (once: asking may cost a query).
    let available: Int
    private var found: [Range<Int>: [UInt8]] = [:]
    private var blocks: [Int: [[UInt8]]] = [:]

    init(_ source: Source, treeSize: Int) throws {
        available = try source.leafCount()
        guard treeSize >= 0, treeSize <= available else {
            throw ProofError.treeSizeBeyondLog(requested: treeSize, available: available)
        }
        self.source = source
    }

    mutating func hash(_ range: Range<Int>) throws -> [UInt8] {
        if let known = found[range] { return known }
        let hash: [UInt8]
        let whole = range.count.nonzeroBitCount == 1 && range.lowerBound % range.count == 0
        if whole, let kept = try source.subtreeHash(range) {
            guard kept.count == 32 else { throw ProofError.malformedSource }
            hash = kept
        } else if range.count <= Self.leafBlock, range.lowerBound / Self.leafBlock == (range.upperBound - 1) / Self.leafBlock {
            let block = range.lowerBound / Self.leafBlock
            let leaves = try blockLeaves(block)
            let offset = block * Self.leafBlock
            guard range.upperBound - offset <= leaves.count else { throw ProofError.malformedSource }
            hash = MerkleHash.subtree(leaves, (range.lowerBound - offset)..<(range.upperBound - offset))
        } else {
            let middle = range.lowerBound + MerkleHash.split(range.count)
            hash = MerkleHash.node(try self.hash(range.lowerBound..<middle), try self.hash(middle..<range.upperBound))
        }
        found[range] = hash
        return hash
    }

    /// The leaf hashes of block `index` that the log holds (the last block may be partial).
    private mutating func blockLeaves(_ index: Int) throws -> [[UInt8]] {
        if let known = blocks[index] { return known }
        let start = index * Self.leafBlock
        let end = min(start + Self.leafBlock, available)
        let hashes = start < end ? try source.leafHashes(in: start..<end) : []
        guard hashes.count == end - start, hashes.allSatisfy({ $0.count == 32 }) else { throw ProofError.malformedSource }
        blocks[index] = hashes
        return hashes
    }
}
