import ColdTapBase
import Digest
import Foundation
import Testing

@testable import TransparencyLog

/// Signed notes and checkpoints: Go's published example note, the worked example of
/// docs/transparency-log.md reproduced byte for byte, and every malformed form refused.
@Suite struct NoteTests {
    // The example key of the golang.org/x/mod/sumdb/note package ("PeterNeumann"): its private
    // key text is PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz
    // (0x01 then the 32-byte seed). Checked with Python `cryptography` 48.0.0: the seed gives
    // this verifier key, key ID c74f20a3 and this exact signature line.
    static let goSeed = Array(Data(base64Encoded: "AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz")!.dropFirst())
    static let goVerifier = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
    static let goText = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
    static let goNote = goText + "\n\u{2014} PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"

    // The worked example (docs/transparency-log.md): RFC 8032 test 1's seed as the log key,
    // leaves "leaf 0" … "leaf 4". Recomputed independently in Python (hashlib and
    // `cryptography` 48.0.0, a throwaway script): the same root, key ID and signature.
    static let exampleSeed = Hex.decode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")!
    static let exampleOrigin = "example.com/coldtap-test"
    static let exampleVerifier = "example.com/coldtap-test+153287a7+AddamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea"
    static let exampleNote =
        "example.com/coldtap-test\n5\nNBUVmC1lDiNSDb1U1/zwr6G3DMOhakEdRk3JwayWwwE=\n\n"
        + "\u{2014} example.com/coldtap-test FTKHp0Y1HJ47VMUctd5a++5TCJKHycctWVkv4pk3C0irg/rXuDU9WnvoqybpUDUdcCrk8UjWrBctnFs8BvQc6jE2JQs=\n"

    static func hex(_ hashes: [[UInt8]]) -> [String] { hashes.map { $0.hexString(uppercase: false) } }

    @Test func goExampleNoteIsReproducedAndVerifies() throws {
        let signer = try NoteSigner(name: "PeterNeumann", privateKey: Ed25519PrivateKey(seed: Self.goSeed))
        #expect(signer.verifier.text == Self.goVerifier)
        #expect(try SignedNote.sign(text: Self.goText, signers: [signer]).formatted == Self.goNote)
        let parsed = try SignedNote(parsing: Data(Self.goNote.utf8))
        #expect(parsed.text == Self.goText)
        #expect(try parsed.verify(with: [NoteVerifierKey(text: Self.goVerifier)]) == [signer.verifier])
    }

    @Test func workedExampleIsReproduced() throws {
        let source = InMemoryLeafHashes(leaves: (0..<5).map { Array("leaf \($0)".utf8) })
        #expect(
            Self.hex(source.hashes) == [
                "1bb97dcc21635d47e2663efdfd0a174686d98dd701352dd2cd06e8b43fd3d305",
                "cb5a3ce862c3e321f3f7df6d2690549e936a8e377135aae9f3d69f691f547d5b",
                "ab37ba34d1dfe29015de717a6d5764a8fb029c3a7a0f5b64b93b54351885bf7c",
                "58bd1496e1684aac9201c2e687ee7ae4f51c96a8b0d81ef3583628b93d3cd345",
                "83115f8947955fafdc2a27e7f4c0854bbd8da27bb1b3e3405db571c9af8dbe1a",
            ])
        let root3 = try MerkleProofs.root(treeSize: 3, from: source)
        let root5 = try MerkleProofs.root(treeSize: 5, from: source)
        #expect(root3.hexString(uppercase: false) == "d4f92c8fbb89720eb3b55677c7d7efaddfeb10d11a1a84a0ba8f1a23337faa95")
        #expect(root5.hexString(uppercase: false) == "341515982d650e23520dbd54d7fcf0afa1b70cc3a16a411d464dc9c1ac96c301")
        #expect(
            Self.hex(try MerkleProofs.inclusionProof(leafIndex: 2, treeSize: 5, from: source)) == [
                "58bd1496e1684aac9201c2e687ee7ae4f51c96a8b0d81ef3583628b93d3cd345",
                "fc5f6b88ff8554f75bb2f9e6f39c31b1936d44b69276edf7b1205a955b9761e3",
                "83115f8947955fafdc2a27e7f4c0854bbd8da27bb1b3e3405db571c9af8dbe1a",
            ])
        #expect(
            Self.hex(try MerkleProofs.consistencyProof(oldSize: 3, newSize: 5, from: source)) == [
                "ab37ba34d1dfe29015de717a6d5764a8fb029c3a7a0f5b64b93b54351885bf7c",
                "58bd1496e1684aac9201c2e687ee7ae4f51c96a8b0d81ef3583628b93d3cd345",
                "fc5f6b88ff8554f75bb2f9e6f39c31b1936d44b69276edf7b1205a955b9761e3",
                "83115f8947955fafdc2a27e7f4c0854bbd8da27bb1b3e3405db571c9af8dbe1a",
            ])
        let signer = try NoteSigner(name: Self.exampleOrigin, privateKey: Ed25519PrivateKey(seed: Self.exampleSeed))
        #expect(signer.verifier.keyID.hexString(uppercase: false) == "153287a7")
        #expect(signer.verifier.text == Self.exampleVerifier)
        let checkpoint = try Checkpoint(origin: Self.exampleOrigin, treeSize: 5, rootHash: root5)
        #expect(try checkpoint.signed(by: [signer]).formatted == Self.exampleNote)
        let read = try Checkpoint.verified(Data(Self.exampleNote.utf8), keys: [NoteVerifierKey(text: Self.exampleVerifier)])
        #expect(read == checkpoint)
    }

    @Test func signaturesByOtherKeysAreIgnoredAndForgeriesRefused() throws {
        let log = try NoteSigner(name: Self.exampleOrigin, privateKey: Ed25519PrivateKey(seed: Self.exampleSeed))
        let witness = try NoteSigner(name: "witness.example", privateKey: .generate())
        let note = try SignedNote.sign(text: "a\nb\n", signers: [log, witness])
        let parsed = try SignedNote(parsing: Data(note.formatted.utf8))
        #expect(parsed == note)
        #expect(try parsed.verify(with: [log.verifier]) == [log.verifier])
        #expect(try parsed.verify(with: [log.verifier, witness.verifier]).count == 2)
        let stranger = try NoteSigner(name: "stranger", privateKey: .generate())
        #expect(throws: NoteError.noTrustedSignature) { try parsed.verify(with: [stranger.verifier]) }
        // The same signature over other text: the log's key is known, so this is a forgery.
        let forged = SignedNote(text: "a\nc\n", signatures: note.signatures)
        let reparsed = try SignedNote(parsing: Data(forged.formatted.utf8))
        #expect(throws: NoteError.invalidSignature(line: 4, name: Self.exampleOrigin)) { try reparsed.verify(with: [log.verifier]) }
    }

    @Test func malformedNotesAreRefusedNamingTheLine() {
        let line = "\u{2014} example.com/coldtap-test FTKHp0Y1HJ47VMUctd5a++5TCJKHycctWVkv4pk3C0irg/rXuDU9WnvoqybpUDUdcCrk8UjWrBctnFs8BvQc6jE2JQs="
        let cases: [(String, NoteError)] = [
            ("a\n\n" + line, .unterminatedLastLine(line: 3)),
            ("a\n" + line + "\n", .missingSignatureSeparator),
            ("\n" + line + "\n", .emptyText),
            ("a\n\n", .noSignatures),
            ("a\tb\n\n" + line + "\n", .controlCharacter(line: 1)),
            ("a\r\n\n" + line + "\n", .controlCharacter(line: 1)),
            ("a\n\n" + line + "\n\n", .malformedSignatureLine(line: 4, reason: "blank line among the signatures")),
            ("a\n\n- name AAAAAAA=\n", .malformedSignatureLine(line: 3, reason: "does not start with \"— \"")),
            ("a\n\n\u{2014} name\n", .malformedSignatureLine(line: 3, reason: "expected a name and a signature")),
            ("a\n\n\u{2014} na+me AAAAAAA=\n", .malformedSignatureLine(line: 3, reason: "invalid key name")),
            ("a\n\n\u{2014} name AAAA\n", .malformedSignatureLine(line: 3, reason: "the signature is not base64 of a key ID and a signature")),
            ("a\n\n\u{2014} name AAAAAAA\n", .malformedSignatureLine(line: 3, reason: "the signature is not base64 of a key ID and a signature")),
            ("a\n\n\u{2014} name  AAAAAAA=\n", .malformedSignatureLine(line: 3, reason: "expected a name and a signature")),
        ]
        for (text, error) in cases {
            #expect(throws: error, "\(text.debugDescription)") { try SignedNote(parsing: Data(text.utf8)) }
        }
        #expect(throws: NoteError.notUTF8) { try SignedNote(parsing: [0x61, 0x0A, 0x0A, 0xFF, 0x0A]) }
        let many = "a\n\n" + String(repeating: line + "\n", count: SignedNote.maximumSignatures + 1)
        #expect(throws: NoteError.self) { try SignedNote(parsing: Data(many.utf8)) }
    }

    @Test func malformedVerifierKeysAreRefused() {
        let good = Self.exampleVerifier
        for text in [
            "example.com/coldtap-test+153287a7",
            "example.com/coldtap-test+153287a8+AddamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea",
            "example.com/coldtap-test+153287+AddamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea",
            "other+153287a7+AddamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea",
            "example.com/coldtap-test+153287a7+AtdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea",
            "example.com/coldtap-test+153287a7+1125gBgrEKt9VL/tPJZAc6DuFy89qmIyWvAhpo9wdRGg==",
            "+153287a7+AddamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea",
        ] {
            #expect(throws: NoteError.self, "\(text)") { try NoteVerifierKey(text: text) }
        }
        #expect((try? NoteVerifierKey(text: good))?.text == good)
    }

    @Test func malformedCheckpointsAreRefusedNamingTheLine() {
        let root = "NBUVmC1lDiNSDb1U1/zwr6G3DMOhakEdRk3JwayWwwE="
        let cases: [(String, CheckpointError)] = [
            ("origin\n5\n" + root, .unterminatedLastLine(line: 3)),
            ("origin\n5\n", .missingLines(found: 2)),
            ("origin\n\n" + root + "\n", .emptyLine(line: 2)),
            ("origin\n5\n" + root + "\n\n", .emptyLine(line: 4)),
            ("ori gin\n5\n" + root + "\n", .invalidOrigin(line: 1)),
            ("ori+gin\n5\n" + root + "\n", .invalidOrigin(line: 1)),
            ("origin\n05\n" + root + "\n", .invalidTreeSize(line: 2)),
            ("origin\n-5\n" + root + "\n", .invalidTreeSize(line: 2)),
            ("origin\n+5\n" + root + "\n", .invalidTreeSize(line: 2)),
            ("origin\n5 \n" + root + "\n", .invalidTreeSize(line: 2)),
            ("origin\n99999999999999999999999\n" + root + "\n", .invalidTreeSize(line: 2)),
            ("origin\n5\n" + String(root.dropLast()) + "\n", .invalidRootHash(line: 3)),
            ("origin\n5\nAAAA\n", .invalidRootHash(line: 3)),
            ("origin\n5\n" + root + "\next\u{7}\n", .controlCharacter(line: 4)),
        ]
        for (text, error) in cases {
            #expect(throws: error, "\(text.debugDescription)") { try Checkpoint(text: text) }
        }
        let withExtension = "origin\n0\n" + root + "\nsome extension\n"
        #expect((try? Checkpoint(text: withExtension))?.extensionLines == ["some extension"])
        #expect((try? Checkpoint(text: withExtension))?.text == withExtension)
    }
}
