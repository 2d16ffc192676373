import Foundation

#if !canImport(CryptoKit) && canImport(CCrypto)
    import CCrypto
#endif

/// ECDSA over NIST P-256 on a digest given as 32 bytes, keys and signatures as raw numbers
/// (x ‖ y, r ‖ s, 32 bytes each, big-endian): what a Berlinger report's device signature
/// needs (docs/berlinger.md §7). libcrypto's EVP_PKEY on Linux; on Apple platforms CryptoKit
/// takes no digest made elsewhere, so `isAvailable` is false there and nothing is checked.
public enum ECDSAP256 {
    /// True where signatures can be checked and made (Linux, through libcrypto).
    public static var isAvailable: Bool {
        #if !canImport(CryptoKit) && canImport(CCrypto)
            return true
        #else
            return false
        #endif
    }

    /// True when `signature` (r ‖ s) is valid for `digest` under `publicKey` (x ‖ y); false
    /// for anything of the wrong length, a point off the curve, or where unavailable.
    public static func isValid(signature: [UInt8], digest: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == 64, digest.count == 32, publicKey.count == 64 else { return false }
        #if !canImport(CryptoKit) && canImport(CCrypto)
            guard let key = publicKeyObject(publicKey) else { return false }
            defer { EVP_PKEY_free(key) }
            guard let context = EVP_PKEY_CTX_new(key, nil) else { return false }
            defer { EVP_PKEY_CTX_free(context) }
            let der = derSignature(r: Array(signature[0..<32]), s: Array(signature[32..<64]))
            guard EVP_PKEY_verify_init(context) == 1 else { return false }
            return EVP_PKEY_verify(context, der, der.count, digest, digest.count) == 1
        #else
            return false
        #endif
    }

    /// A P-256 key pair for tests and fixtures: the private key stays inside.
    public final class KeyPair: @unchecked Sendable {
        #if !canImport(CryptoKit) && canImport(CCrypto)
            private let key: OpaquePointer
        #endif
        /// x ‖ y, 64 bytes.
        public let publicKey: [UInt8]

        /// A new random key; `nil` where unavailable or when libcrypto fails.
        public init?() {
            #if !canImport(CryptoKit) && canImport(CCrypto)
                guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { return nil }
                defer { EVP_PKEY_CTX_free(context) }
                var made: OpaquePointer?
                guard EVP_PKEY_keygen_init(context) == 1,
                    EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
                    EVP_PKEY_keygen(context, &made) == 1, let made
                else { return nil }
                var der: UnsafeMutablePointer<UInt8>?
                let length = i2d_PUBKEY(made, &der)
                guard length >= 65, let der else {
                    EVP_PKEY_free(made)
                    return nil
                }
                defer { CRYPTO_free(der, #file, #line) }
                key = made
                publicKey = Array(UnsafeBufferPointer(start: der + Int(length) - 64, count: 64))
            #else
                return nil
            #endif
        }

        deinit {
            #if !canImport(CryptoKit) && canImport(CCrypto)
                EVP_PKEY_free(key)
            #endif
        }

        /// r ‖ s for `digest` (32 bytes); `nil` when libcrypto fails.
        public func signature(digest: [UInt8]) -> [UInt8]? {
            #if !canImport(CryptoKit) && canImport(CCrypto)
                guard digest.count == 32, let context = EVP_PKEY_CTX_new(key, nil) else { return nil }
                defer { EVP_PKEY_CTX_free(context) }
                var der = [UInt8](repeating: 0, count: 80)
                var length = der.count
                guard EVP_PKEY_sign_init(context) == 1, EVP_PKEY_sign(context, &der, &length, digest, digest.count) == 1 else { return nil }
                return rawSignature(Array(der.prefix(length)))
            #else
                return nil
            #endif
        }
    }

    /// The DER SubjectPublicKeyInfo of a P-256 point is this prefix, 0x04, x and y.
    static let publicKeyInfoPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03,
        0x01, 0x07, 0x03, 0x42, 0x00, 0x04,
    ]

    #if !canImport(CryptoKit) && canImport(CCrypto)
        static func publicKeyObject(_ xy: [UInt8]) -> OpaquePointer? {
            let der = publicKeyInfoPrefix + xy
            return der.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_PUBKEY(nil, &cursor, buffer.count)
            }
        }
    #endif

    /// ECDSA-Sig-Value: SEQUENCE { INTEGER r, INTEGER s }.
    static func derSignature(r: [UInt8], s: [UInt8]) -> [UInt8] {
        func integer(_ bytes: [UInt8]) -> [UInt8] {
            var trimmed = Array(bytes.drop { $0 == 0 })
            if trimmed.isEmpty { trimmed = [0] }
            if trimmed[0] & 0x80 != 0 { trimmed.insert(0, at: 0) }
            return [0x02, UInt8(trimmed.count)] + trimmed
        }
        let body = integer(r) + integer(s)
        return [0x30, UInt8(body.count)] + body
    }

    /// r ‖ s from ECDSA-Sig-Value DER; `nil` when it is not one.
    static func rawSignature(_ der: [UInt8]) -> [UInt8]? {
        guard der.count >= 8, der[0] == 0x30, Int(der[1]) == der.count - 2 else { return nil }
        var index = 2
        var numbers: [[UInt8]] = []
        for _ in 0..<2 {
            guard index + 2 <= der.count, der[index] == 0x02 else { return nil }
            let length = Int(der[index + 1])
            guard length >= 1, index + 2 + length <= der.count else { return nil }
            let value = Array(der[(index + 2)..<(index + 2 + length)].drop { $0 == 0 })
            guard value.count <= 32 else { return nil }
            numbers.append([UInt8](repeating: 0, count: 32 - value.count) + value)
            index += 2 + length
        }
        return numbers[0] + numbers[1]
    }
}
