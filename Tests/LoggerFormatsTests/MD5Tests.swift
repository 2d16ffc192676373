import ColdTapBase
import Foundation
import Testing

@testable import LoggerFormats

func hexString(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

@Suite struct MD5Tests {
    /// RFC 1321 appendix A.5 test suite.
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func rfc1321Suite(input: String, digest: String) {
        #expect(hexString(MD5.digest(Array(input.utf8))) == digest)
    }

    @Test func incrementalUpdatesMatchOneShot() {
        let message = Array((0..<200).map { UInt8($0 & 0xFF) })
        var md5 = MD5()
        md5.update(message[0..<63])
        md5.update(message[63..<130])
        md5.update(message[130...])
        #expect(md5.finalize() == MD5.digest(message))
    }

    /// RFC 2104 section 5 sample code vectors, plus the RFC 2202 long-key case.
    @Test func hmacRFC2104Vectors() {
        #expect(
            hexString(HMACMD5.authenticationCode(key: [UInt8](repeating: 0x0B, count: 16), message: Array("Hi There".utf8)))
                == "9294727a3638bb1c13f48ef8158bfc9d")
        #expect(
            hexString(HMACMD5.authenticationCode(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
                == "750c783e6ab0b503eaa86e310a5db738")
        #expect(
            hexString(HMACMD5.authenticationCode(key: [UInt8](repeating: 0xAA, count: 16), message: [UInt8](repeating: 0xDD, count: 50)))
                == "56be34521d144c88dbb8c733f0e8b3f6")
        #expect(
            hexString(
                HMACMD5.authenticationCode(
                    key: [UInt8](repeating: 0xAA, count: 80),
                    message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd")
    }

    /// docs/formats/cupltag.md §7 worked example: the hash input and its HMAC-MD5 under the tag's key.
    @Test func cupltagWorkedExampleHash() {
        let input: [UInt8] = [
            0x59, 0x79, 0x5B, 0x59, 0x79, 0x2C, 0x59, 0x7A, 0x87, 0x59, 0x7A, 0x81, 0x59, 0x79, 0x96,
            0x00, 0x00, 0x00, 0x01, 0x66, 0x08, 0x00, 0x27,
        ]
        #expect(
            hexString(HMACMD5.authenticationCode(key: Array("ZS0Smt8LByrYNFts".utf8), message: input))
                == "d61749a561bc0adab258ee72cd9b143d")
    }
}
