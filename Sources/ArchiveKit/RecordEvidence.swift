import Archive
import ColdTapBase
import Digest
import Foundation
import JSONOutput
import TempChart
import TransparencyLog

/// What a report made from the archive carries of the record (docs/archive-record.md): a
/// checkpoint signed now, and for each read and acknowledgement the report rests on, its
/// leaf and the inclusion proof that puts it under the checkpoint's root. `coldtap
/// verify-report` checks them with nothing but the archive's public key.
public enum RecordEvidence {
    /// The evidence for `history`, against a checkpoint signed now with `signer`.
    /// - Throws: `ArchiveError` when a leaf is missing (run `archive verify`) or the archive fails.
    /// - Parameter note: a checkpoint already signed (a station's, kept up after each write);
    ///   `nil`: one is signed now.
    public static func make(
        for history: History, archive: Archive, signer: NoteSigner, note given: SignedNote? = nil
    ) throws -> (evidence: ReportArchiveSection.RecordEvidence, json: JSONValue) {
        let note = try given ?? archive.signCheckpoint(with: signer)
        let checkpoint = try Checkpoint(text: note.text)
        var wanted: [(RecordLeaf.Kind, String)] = history.reads.map { (.read, "\(history.logger.id)/\($0.id)") }
        wanted += history.acknowledgements.map { (.acknowledgement, "\(history.logger.id)/\($0.id)") }
        var found: [(kind: RecordLeaf.Kind, key: String, index: Int, leaf: RecordLeaf)] = []
        for (kind, key) in wanted {
            guard let (index, leaf) = try archive.leaves(kind: kind, key: key).first(where: { $0.index < checkpoint.treeSize }) else {
                throw ArchiveError(.verificationFailed, "\(kind.rawValue) \(key) has no leaf in the record.", hint: .verify)
            }
            found.append((kind, key, index, leaf))
        }
        let proofs = try archive.inclusionProofs(leafIndices: found.map(\.index), treeSize: checkpoint.treeSize)
        var leaves: [JSONValue] = []
        for ((kind, key, index, leaf), proof) in zip(found, proofs) {
            leaves.append(
                .object([
                    ("kind", .string(kind.rawValue)), ("key", .string(key)), ("index", .int(index)),
                    ("leaf", .string(String(decoding: leaf.bytes, as: UTF8.self))),
                    ("proof", .array(proof.map { .string($0.hexString(uppercase: false)) })),
                ]))
        }
        let root = checkpoint.rootHash.hexString(uppercase: false)
        let json = JSONValue.object([
            ("checkpoint", .string(note.formatted)), ("publicKey", .string(signer.verifier.text)), ("treeSize", .int(checkpoint.treeSize)),
            ("rootHash", .string(root)), ("leaves", .array(leaves)),
        ])
        let evidence = ReportArchiveSection.RecordEvidence(
            checkpoint: note.formatted, summary: "\(checkpoint.treeSize) leaves, root \(root)", json: json.serialized(pretty: false))
        return (evidence, json)
    }

    /// What checking a report's evidence found.
    public struct Check: Sendable {
        public var treeSize: Int
        public var rootHash: String
        /// One line per leaf proved.
        public var proved: [String]
        /// What does not hold, first one first.
        public var problems: [String]
    }

    /// Checks evidence (its JSON) with `keys`: the checkpoint's signature, each leaf's hash
    /// and inclusion proof against the checkpoint's root, and that each read's leaf names
    /// the raw bytes' SHA-256 the report lists for it (`readSHA256`, by read id).
    public static func check(json: Data, keys: [NoteVerifierKey], readSHA256: [String: String]) -> Check {
        var result = Check(treeSize: 0, rootHash: "", proved: [], problems: [])
        guard let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any], let note = object["checkpoint"] as? String,
            let leaves = object["leaves"] as? [[String: Any]]
        else {
            result.problems.append("the report's record evidence is not JSON ColdTap writes")
            return result
        }
        let checkpoint: Checkpoint
        do {
            checkpoint = try Checkpoint.verified(Array(note.utf8), keys: keys)
        } catch {
            result.problems.append("the report's checkpoint is not signed by the key given: \(error)")
            return result
        }
        result.treeSize = checkpoint.treeSize
        result.rootHash = checkpoint.rootHash.hexString(uppercase: false)
        for entry in leaves {
            let key = entry["key"] as? String ?? "?"
            guard let index = entry["index"] as? Int, let text = entry["leaf"] as? String, let leaf = RecordLeaf(bytes: Array(text.utf8)) else {
                result.problems.append("the leaf of \(key) cannot be read")
                continue
            }
            let proof = (entry["proof"] as? [String] ?? []).compactMap { Hex.decode($0) }
            guard
                MerkleProofs.verifyInclusion(
                    leafHash: leaf.hash, leafIndex: index, treeSize: checkpoint.treeSize, proof: proof, root: checkpoint.rootHash)
            else {
                result.problems.append(
                    "\(leaf.kind.rawValue) \(leaf.key) (leaf #\(index)) is not under the checkpoint's root: the report or its proof was changed")
                continue
            }
            if leaf.kind == .read, let id = leaf.value("read"), let listed = readSHA256[id], listed != leaf.value("raw_sha256") {
                result.problems.append("read #\(id): the report lists its bytes as \(listed), but the record holds \(leaf.value("raw_sha256") ?? "none")")
                continue
            }
            result.proved.append("\(leaf.kind.rawValue) \(leaf.key): leaf #\(index), \(proof.count) proof hash(es)")
        }
        return result
    }
}
