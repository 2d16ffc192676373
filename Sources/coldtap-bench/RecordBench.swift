import Archive
import Digest
import Foundation
import TransparencyLog

/// coldtap-bench tlog, second part: the archive's record at 100,000 reads (two leaves each:
/// the read and its assessment) in a SQLite archive — the tree head read from the leaf
/// table, a checkpoint signed (then asked again at the same size), a read's inclusion proof
/// and a consistency proof from an older checkpoint — against Python's hashlib computing the
/// same RFC 9162 root from the same table, in the same run.
func runRecordBench(_ json: Bool) async throws {
    let reads = BenchScale.pick(100_000, smoke: 1_000)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-bench-record-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let location = folder.appendingPathComponent("archive.sqlite").path
    let archive = try Archive.open(location)
    defer { archive.close() }

    // The leaves as the archive writes them for a read and its assessment (their fields'
    // values made up, their shape and size the real ones).
    let fillStart = DispatchTime.now()
    try archive.engine.writeTransaction { _ in
        let insert = try archive.engine.prepare("INSERT INTO record_leaves (leaf_index, kind, leaf_key, leaf, leaf_hash) VALUES ($1, $2, $3, $4, $5)")
        for read in 0..<reads {
            let logger = "cupltag:CT\(read % 500)"
            let readLeaf = recordLeafText(
                "read",
                [
                    ("logger", logger), ("read", "\(read + 1)"), ("raw_sha256", SHA256Digest.hex(text: "raw \(read)")),
                    ("samples_sha256", SHA256Digest.hex(text: "samples \(read)")), ("read_time_ms", "\(1_767_225_600_000 + read * 600_000)"),
                    ("read_time_source", "tag"), ("input_kind", "ndef"), ("decoder", "cupltag"), ("decode_options", #"{"input":"auto"}"#),
                    ("coldtap_version", "0.2.0"), ("origin", "station upload by site north"), ("added_ms", "\(1_767_225_600_000 + read)"),
                    ("chain_hash", SHA256Digest.hex(text: "chain \(read)")),
                ])
            let assessmentLeaf = recordLeafText(
                "assessment",
                [
                    ("logger", logger), ("assessment", "\(read / 500 + 1)"), ("read", "\(read + 1)"), ("assessed_ms", "\(1_767_225_600_000 + read)"),
                    ("profile_name", "vaccine-fridge"), ("profile_json", #"{"name":"vaccine-fridge","band":{"min":2,"max":8}}"#), ("time_zone", "UTC"),
                    ("verdict", "OK"), ("reasons", "[]"), ("excursions", "0"),
                ])
            for (offset, (kind, bytes)) in [("read", readLeaf), ("assessment", assessmentLeaf)].enumerated() {
                try insert.run([
                    .int(Int64(read * 2 + offset)), .text(kind), .text("\(logger)/\(read + 1)"), .blob(Data(bytes)),
                    .text(MerkleHash.leaf(bytes).hexString(uppercase: false)),
                ])
            }
        }
    }
    let fillMs = milliseconds(since: fillStart)
    let size = try archive.recordSize()

    let headStart = DispatchTime.now()
    let head = try archive.recordHead()
    let headMs = milliseconds(since: headStart)
    let keptHeadStart = DispatchTime.now()
    guard try archive.recordHead() == head else { throw BenchError.reference("the tree head from the kept subtrees differs") }
    let keptHeadMs = milliseconds(since: keptHeadStart)

    let signer = try RecordSigningKey.loadOrCreate(file: location + ".signing-key", origin: try archive.recordOrigin()).signer
    let signStart = DispatchTime.now()
    let note = try archive.signCheckpoint(with: signer)
    let signMs = milliseconds(since: signStart)
    let againStart = DispatchTime.now()
    _ = try archive.signCheckpoint(with: signer)
    let againMs = milliseconds(since: againStart)

    let index = BenchScale.pick(123_457, smoke: 1_235)
    let inclusionStart = DispatchTime.now()
    let inclusion = try archive.inclusionProof(leafIndex: index, treeSize: size)
    let inclusionMs = milliseconds(since: inclusionStart)
    let oldSize = BenchScale.pick(150_000, smoke: 1_500)
    let consistencyStart = DispatchTime.now()
    let consistency = try archive.consistencyProof(from: oldSize, to: size)
    let consistencyMs = milliseconds(since: consistencyStart)
    let leafHash = try requireBench(
        Hex.decode(try archive.engine.scalarText("SELECT leaf_hash FROM record_leaves WHERE leaf_index = $1", [.int(Int64(index))]) ?? ""))
    let oldRoot = MerkleHash.root(ofLeafHashes: Array(try archive.keptLeafHashesForBench(upTo: oldSize)))
    guard
        MerkleProofs.verifyInclusion(leafHash: leafHash, leafIndex: index, treeSize: size, proof: inclusion, root: head.root),
        MerkleProofs.verifyConsistency(oldSize: oldSize, newSize: size, oldRoot: oldRoot, newRoot: head.root, proof: consistency),
        try Checkpoint(text: note.text).rootHash == head.root
    else { throw BenchError.reference("a record proof at \(size) leaves did not verify") }

    let script = folder.appendingPathComponent("record_root.py")
    try Data(recordRootScript.utf8).write(to: script)
    let reference = try runPythonReference(tool: "hashlib", script: script, arguments: [location])
    guard let referenceMs = reference["rootMilliseconds"], let referenceRoot = reference["rootPrefix"] else {
        throw BenchError.reference("the reference printed no rootMilliseconds / rootPrefix: \(reference)")
    }
    // The first 6 bytes of the reference's root, as a number, must be ColdTap's.
    let prefix = head.root.prefix(6).reduce(0.0) { $0 * 256 + Double($1) }
    guard prefix == referenceRoot else { throw BenchError.reference("hashlib's root differs from ColdTap's at \(size) leaves") }

    let figures: [(String, Double)] = [
        ("record: \(reads) reads written as \(size) leaves", fillMs),
        ("record: tree head from the leaf table", headMs),
        ("record: hashlib reference, same table, same root", referenceMs),
        ("record: tree head again, from the kept subtrees", keptHeadMs),
        ("record: checkpoint signed", signMs), ("record: checkpoint asked again at the same size", againMs),
        ("record: inclusion proof of leaf \(index) (\(inclusion.count) hashes)", inclusionMs),
        ("record: consistency proof \(oldSize)→\(size) (\(consistency.count) hashes)", consistencyMs),
    ]
    if json {
        print("{" + figures.map { "\"\($0.0)\": \(String(format: "%.3f", $0.1))" }.joined(separator: ", ") + "}")
    } else {
        for (name, ms) in figures { print("\(name): \(String(format: "%.3f", ms)) ms") }
        print("record: ColdTap / hashlib for the tree head: \(String(format: "%.2f", headMs / referenceMs))")
    }
}

/// A leaf's text as docs/archive-record.md lays it out (no value here holds a line feed).
private func recordLeafText(_ kind: String, _ fields: [(String, String)]) -> [UInt8] {
    Array(("coldtap-leaf/1\n\(kind)\n" + fields.map { "\($0.0)=\($0.1)\n" }.joined()).utf8)
}

private func requireBench<T>(_ value: T?) throws -> T {
    guard let value else { throw BenchError.reference("a leaf hash is missing") }
    return value
}

extension Archive {
    fileprivate func keptLeafHashesForBench(upTo size: Int) throws -> [[UInt8]] {
        var hashes: [[UInt8]] = []
        try engine.query("SELECT leaf_hash FROM record_leaves WHERE leaf_index < $1 ORDER BY leaf_index", [.int(Int64(size))]) {
            hashes.append(Hex.decode($0.text(0)) ?? [])
        }
        return hashes
    }
}

/// The reference: the RFC 9162 root (largest power of two below n as the split) of the
/// leaf hashes in the archive's table, with hashlib, timed from reading the table.
private let recordRootScript = #"""
    import hashlib, json, sqlite3, sys, time

    def root(hashes):
        if not hashes:
            return hashlib.sha256(b"").digest()
        level = hashes
        # Fold like a stack of perfect subtrees, which gives the RFC 9162 root.
        stack = []
        for h in level:
            size, node = 1, h
            while stack and stack[-1][0] == size:
                s, left = stack.pop()
                node = hashlib.sha256(b"\x01" + left + node).digest()
                size *= 2
            stack.append((size, node))
        node = stack[-1][1]
        for size, left in reversed(stack[:-1]):
            node = hashlib.sha256(b"\x01" + left + node).digest()
        return node

    start = time.perf_counter()
    db = sqlite3.connect(sys.argv[1])
    hashes = [bytes.fromhex(h) for (h,) in db.execute("SELECT leaf_hash FROM record_leaves ORDER BY leaf_index")]
    r = root(hashes)
    ms = (time.perf_counter() - start) * 1000
    print(json.dumps({"rootMilliseconds": ms, "rootPrefix": float(int.from_bytes(r[:6], "big"))}))
    """#
