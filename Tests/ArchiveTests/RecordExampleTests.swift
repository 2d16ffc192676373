import ColdTapBase
import Digest
import Foundation
import Testing
import TransparencyLog

@testable import Archive

/// The worked example of docs/archive-record.md, computed again: a tiny archive's three
/// leaves (a logger's identity, its first read, the read's assessment), the root, the signed
/// checkpoint, an inclusion and a consistency proof.
@Suite struct RecordExampleTests {
    static let origin = "coldtap/archive/0123456789abcdef0123456789abcdef"
    /// The example's signing key: the seed 0x01, 0x02, … 0x20 (never use a key like this).
    static let signer = try! NoteSigner(name: origin, privateKey: try! Ed25519PrivateKey(seed: (1...32).map { UInt8($0) }))

    static let leaves: [RecordLeaf] = [
        RecordLeaf(
            .logger,
            [
                ("logger", "cupltag:CT0042"), ("format", "cupltag"), ("serial", "CT0042"), ("tag_uid", nil), ("vendor", "cuplTag"),
                ("model", nil), ("first_read", "1"),
            ]),
        RecordLeaf(
            .read,
            [
                ("logger", "cupltag:CT0042"), ("read", "1"), ("raw_sha256", String(repeating: "ab", count: 32)),
                ("samples_sha256", String(repeating: "cd", count: 32)), ("read_time_ms", "1767225600000"), ("read_time_source", "user"),
                ("input_kind", "ndef"), ("decoder", "cupltag"), ("decode_options", #"{"input":"auto"}"#), ("coldtap_version", "0.2.0"),
                ("origin", "coldtap archive add"), ("added_ms", "1767225601000"), ("chain_hash", String(repeating: "ef", count: 32)),
            ]),
        RecordLeaf(
            .assessment,
            [
                ("logger", "cupltag:CT0042"), ("assessment", "1"), ("read", "1"), ("assessed_ms", "1767225601000"),
                ("profile_name", "vaccine-fridge"), ("profile_json", "{\n  \"name\": \"vaccine-fridge\"\n}"), ("time_zone", "UTC"),
                ("verdict", "OK"), ("reasons", "[]"), ("excursions", "0"),
            ]),
    ]

    static let leafHashes = [
        "921d29c071c3a2d8b7dd05b5074c7655533736f1ac28718b0996b7ab629e3905",
        "68432bb88fde8cea4f6ab2592f0868f6d48a4a07a0528863470a37160b3dc84d",
        "3c666ff036bbdefce91175bd32c84fc1d4e47e99fd20d79eeb04f7fe75d83f92",
    ]

    @Test func theLeavesAreTheDocumentedText() {
        let logger = "coldtap-leaf/1\nlogger\nlogger=cupltag:CT0042\nformat=cupltag\nserial=CT0042\nvendor=cuplTag\nfirst_read=1\n"
        #expect(Self.leaves[0].bytes == Array(logger.utf8))
        // A line feed inside a value is written as backslash n.
        #expect(String(decoding: Self.leaves[2].bytes, as: UTF8.self).contains("profile_json={\\n  \"name\": \"vaccine-fridge\"\\n}\n"))
        #expect(Self.leaves.map { $0.hash.hexString(uppercase: false) } == Self.leafHashes)
        #expect(Self.leaves.map { SHA256Digest.hash([0x00] + $0.bytes).hexString(uppercase: false) } == Self.leafHashes)
        // Read back, each leaf is the same leaf.
        #expect(Self.leaves.map { RecordLeaf(bytes: $0.bytes) } == Self.leaves)
    }

    @Test func theRootCheckpointAndProofsAreTheDocumentedOnes() throws {
        let source = InMemoryLeafHashes(leafHashes: Self.leaves.map(\.hash))
        let root = try MerkleProofs.root(treeSize: 3, from: source)
        #expect(
            try MerkleProofs.root(treeSize: 2, from: source).hexString(uppercase: false) == "4366f9614830a6e0078729e450c2d8cd154201bf94a6596a72cefc786df7ae6f")
        #expect(root.hexString(uppercase: false) == "911937931791eb8249e21786f3602a5f36f73b4ee51dea28a526c66af929257f")
        let note = try Checkpoint(origin: Self.origin, treeSize: 3, rootHash: root).signed(by: [Self.signer])
        #expect(
            note.formatted
                == """
                coldtap/archive/0123456789abcdef0123456789abcdef
                3
                kRk3kxeR64JJ4heG82AqXzb3O07lHeoopSbGavkpJX8=

                \u{2014} coldtap/archive/0123456789abcdef0123456789abcdef 6hcANSLqVEs1HlR7uTOQ6BM8rntxvgyL7BzZkhjC4LBxqEDjNBJAuV4qDsff9+z6IJj+1JTC6TgfxXymCjldnechjQc=

                """)
        #expect(Self.signer.verifier.text == "coldtap/archive/0123456789abcdef0123456789abcdef+ea170035+AXm1Vi6P5lT5QHixEuipi6eQH4U65pW+1+DjkQutBJZk")
        #expect(
            RecordSigningKey.text(Self.signer)
                == "PRIVATE+KEY+coldtap/archive/0123456789abcdef0123456789abcdef+ea170035+AQECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g")
        #expect(try RecordSigningKey.signer(fromText: RecordSigningKey.text(Self.signer), source: "the example").verifier == Self.signer.verifier)
        let inclusion = try MerkleProofs.inclusionProof(leafIndex: 1, treeSize: 3, from: source)
        #expect(inclusion.map { $0.hexString(uppercase: false) } == [Self.leafHashes[0], Self.leafHashes[2]])
        #expect(MerkleProofs.verifyInclusion(leafHash: Self.leaves[1].hash, leafIndex: 1, treeSize: 3, proof: inclusion, root: root))
        let consistency = try MerkleProofs.consistencyProof(oldSize: 2, newSize: 3, from: source)
        #expect(consistency.map { $0.hexString(uppercase: false) } == [Self.leafHashes[2]])
        #expect(
            MerkleProofs.verifyConsistency(
                oldSize: 2, newSize: 3, oldRoot: try MerkleProofs.root(treeSize: 2, from: source), newRoot: root, proof: consistency))
    }
}
