import ColdTapBase
import Digest
import Foundation
import Testing

/// Ed25519 through the platform's crypto library: RFC 8032's first test vector, and the
/// refusals of malformed keys and signatures.
@Suite struct Ed25519Tests {
    // RFC 8032 §7.1, TEST 1: the empty message.
    static let rfcSeed = Hex.decode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")!
    static let rfcPublicKey = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
    static let rfcSignature = "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"

    @Test func rfc8032TestVector1() throws {
        let key = try Ed25519PrivateKey(seed: Self.rfcSeed)
        #expect(key.publicKey.rawRepresentation.hexString(uppercase: false) == Self.rfcPublicKey)
        let signature = try key.signature(for: [UInt8]())
        #expect(signature.hexString(uppercase: false) == Self.rfcSignature)
        #expect(key.publicKey.isValidSignature(signature, for: [UInt8]()))
        #expect(!key.publicKey.isValidSignature(signature, for: [0x00]))
        var flipped = signature
        flipped[10] ^= 0x01
        #expect(!key.publicKey.isValidSignature(flipped, for: [UInt8]()))
        #expect(!key.publicKey.isValidSignature(signature.dropLast(), for: [UInt8]()))
    }

    @Test func generatedKeysRoundTrip() throws {
        let key = Ed25519PrivateKey.generate()
        let again = try Ed25519PrivateKey(seed: key.seed)
        #expect(again.publicKey == key.publicKey)
        let imported = try Ed25519PublicKey(rawRepresentation: key.publicKey.rawRepresentation)
        let message = Array("cold chain".utf8)
        #expect(imported.isValidSignature(try key.signature(for: message), for: message))
        #expect(Ed25519PrivateKey.generate().seed != key.seed)
    }

    @Test func malformedKeysAreRefused() {
        #expect(throws: Ed25519Error.seedLength(31)) { try Ed25519PrivateKey(seed: [UInt8](repeating: 1, count: 31)) }
        #expect(throws: Ed25519Error.publicKeyLength(33)) { try Ed25519PublicKey(rawRepresentation: [UInt8](repeating: 1, count: 33)) }
    }
}
