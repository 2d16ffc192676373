import Digest
import Foundation
import TransparencyLog

/// coldtap-bench tlog: the cost of a tree head and of producing and checking an inclusion
/// and a consistency proof at 100,000 leaves (from an in-memory leaf-hash source).
func runTransparencyLogBench(_ json: Bool) async throws {
    let count = BenchScale.pick(100_000, smoke: 1_000)
    var source = InMemoryLeafHashes()
    let hashStart = DispatchTime.now()
    for index in 0..<count { source.append(leaf: Array("read \(index)".utf8)) }
    let hashMs = milliseconds(since: hashStart)

    let rootStart = DispatchTime.now()
    let root = try MerkleProofs.root(treeSize: count, from: source)
    let rootMs = milliseconds(since: rootStart)

    let index = BenchScale.pick(61_803, smoke: 618)
    let inclusionStart = DispatchTime.now()
    let inclusion = try MerkleProofs.inclusionProof(leafIndex: index, treeSize: count, from: source)
    let inclusionMs = milliseconds(since: inclusionStart)
    let verifyInclusionStart = DispatchTime.now()
    let included = MerkleProofs.verifyInclusion(
        leafHash: source.hashes[index], leafIndex: index, treeSize: count,
        proof: inclusion, root: root)
    let verifyInclusionMs = milliseconds(since: verifyInclusionStart)

    let oldSize = BenchScale.pick(77_777, smoke: 777)
    let oldRoot = try MerkleProofs.root(treeSize: oldSize, from: source)
    let consistencyStart = DispatchTime.now()
    let consistency = try MerkleProofs.consistencyProof(oldSize: oldSize, newSize: count, from: source)
    let consistencyMs = milliseconds(since: consistencyStart)
    let verifyConsistencyStart = DispatchTime.now()
    let consistent = MerkleProofs.verifyConsistency(
        oldSize: oldSize, newSize: count, oldRoot: oldRoot, newRoot: root,
        proof: consistency)
    let verifyConsistencyMs = milliseconds(since: verifyConsistencyStart)
    guard included, consistent else { throw BenchError.reference("a proof at \(count) leaves did not verify") }

    let figures: [(String, Double)] = [
        ("leaf hashes (\(count))", hashMs), ("root", rootMs),
        ("inclusion proof (\(inclusion.count) hashes)", inclusionMs), ("inclusion verify", verifyInclusionMs),
        ("consistency proof \(oldSize)→\(count) (\(consistency.count) hashes)", consistencyMs),
        ("consistency verify", verifyConsistencyMs),
    ]
    if json {
        print("{" + figures.map { "\"\($0.0)\": \(String(format: "%.3f", $0.1))" }.joined(separator: ", ") + "}")
    } else {
        for (name, ms) in figures { print("\(name): \(String(format: "%.3f", ms)) ms") }
    }
    try await runRecordBench(json)
}

func milliseconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000
}
