import ColdTapBase
import Foundation

#if canImport(CryptoKit)
    import CryptoKit
#elseif canImport(CCrypto)
    import CCrypto
#endif

/// SHA-256 (FIPS 180-4) of bytes, through CryptoKit on Apple platforms and OpenSSL's
/// libcrypto elsewhere; the algorithm itself is never written here.
public enum SHA256Digest {
    /// The 32-byte digest of `data`.
    public static func hash(_ data: some DataProtocol) -> [UInt8] {
        #if canImport(CryptoKit)
            return Array(CryptoKit.SHA256.hash(data: Data(data)))
        #else
            let bytes = Array(data)
            var digest = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            let done = bytes.withUnsafeBufferPointer { input in
                EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
            }
            // EVP_Digest fails only when libcrypto cannot allocate a context: nothing a caller can fix.
            precondition(done == 1 && length == 32, "libcrypto SHA-256 failed")
            return digest
        #endif
    }

    /// The digest as 64 lower-case hex digits.
    public static func hex(_ data: some DataProtocol) -> String { hash(data).hexString(uppercase: false) }

    /// The digest of the UTF-8 bytes of `text`, as hex.
    public static func hex(text: String) -> String { hex(Data(text.utf8)) }
}

/// HMAC-SHA256 (RFC 2104 over SHA-256), for signing messages with a shared key.
public enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    public static func authenticationCode(_ message: some DataProtocol, key: some DataProtocol) -> [UInt8] {
        #if canImport(CryptoKit)
            let code = CryptoKit.HMAC<CryptoKit.SHA256>.authenticationCode(for: Data(message), using: SymmetricKey(data: Data(key)))
            return Array(code)
        #else
            let keyBytes = Array(key)
            let messageBytes = Array(message)
            var code = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            let result = keyBytes.withUnsafeBufferPointer { keyBuffer in
                messageBytes.withUnsafeBufferPointer { messageBuffer in
                    HMAC(
                        EVP_sha256(), keyBuffer.baseAddress, Int32(keyBuffer.count), messageBuffer.baseAddress,
                        messageBuffer.count, &code, &length)
                }
            }
            precondition(result != nil && length == 32, "libcrypto HMAC-SHA256 failed")
            return code
        #endif
    }

    /// True when `code` is the authentication code of `message` under `key`, compared in
    /// constant time.
    public static func isValid(_ code: some DataProtocol, for message: some DataProtocol, key: some DataProtocol) -> Bool {
        let expected = authenticationCode(message, key: key)
        let given = Array(code)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<given.count { difference |= given[index] ^ expected[index] }
        return difference == 0
    }
}

/// Hex text back to bytes (bytes to hex text: ColdTapBase's `hexString`, the one formatter).
public enum Hex {
    /// The bytes of hex text (either case), or `nil` when it is not an even run of hex digits.
    public static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x61...0x66: return c - 0x61 + 10
            case 0x41...0x46: return c - 0x41 + 10
            default: return nil
            }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
