import ColdTapBase
import Foundation
import Testing

@testable import Digest

/// Known answers from FIPS 180-4 (SHA-256) and RFC 4231 (HMAC-SHA256).
@Suite struct DigestTests {
    @Test func sha256KnownAnswers() {
        #expect(SHA256Digest.hex(text: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Digest.hex(text: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256Digest.hex(text: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let million = Data(repeating: 0x61, count: 1_000_000)
        #expect(SHA256Digest.hex(million) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func hmacKnownAnswers() {
        // RFC 4231 test case 2.
        let code = HMACSHA256.authenticationCode(Data("what do ya want for nothing?".utf8), key: Data("Jefe".utf8))
        #expect(code.hexString(uppercase: false) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a key longer than the block size.
        let long = HMACSHA256.authenticationCode(
            Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            key: Data(repeating: 0xAA, count: 131))
        #expect(long.hexString(uppercase: false) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        #expect(HMACSHA256.isValid(code, for: Data("what do ya want for nothing?".utf8), key: Data("Jefe".utf8)))
        #expect(!HMACSHA256.isValid(code, for: Data("what do ya want for nothing!".utf8), key: Data("Jefe".utf8)))
    }

    @Test func hexRoundTrip() {
        #expect(Hex.decode("00ff10Ab") == [0, 255, 16, 171])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect([UInt8]([0, 255, 16]).hexString(uppercase: false) == "00ff10")
    }
}
