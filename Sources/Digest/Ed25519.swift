import Foundation

#if canImport(CryptoKit)
    import CryptoKit
#elseif canImport(CCrypto)
    import CCrypto
#endif

/// Why an Ed25519 key could not be made or imported.
public enum Ed25519Error: Error, Equatable, Sendable {
    /// A seed (private key) must be exactly 32 bytes; this many were given.
    case seedLength(Int)
    /// A public key must be exactly 32 bytes; this many were given.
    case publicKeyLength(Int)
    /// The crypto library refused the key bytes (not a point on the curve, for a public key).
    case rejectedKey
    /// The crypto library could not sign (allocation failed).
    case signingFailed
}

/// An Ed25519 (RFC 8032) signing key: its 32-byte seed is the private key. Signing and
/// the curve arithmetic are CryptoKit's `Curve25519.Signing` on Apple platforms and OpenSSL
/// libcrypto's EVP_PKEY Ed25519 elsewhere; nothing here is hand-written.
public struct Ed25519PrivateKey: Sendable {
    /// The 32-byte seed, the form RFC 8032 calls the private key (keep it secret).
    public let seed: [UInt8]
    /// The matching public key.
    public let publicKey: Ed25519PublicKey

    /// A new random key (from the system's secure random source, through the crypto library).
    public static func generate() -> Ed25519PrivateKey {
        #if canImport(CryptoKit)
            let key = Curve25519.Signing.PrivateKey()
            // Both are 32 bytes by construction, so the import cannot fail.
            return try! Ed25519PrivateKey(seed: Array(key.rawRepresentation))
        #else
            var seed = [UInt8](repeating: 0, count: 32)
            precondition(RAND_bytes(&seed, 32) == 1, "libcrypto could not produce random bytes")
            return try! Ed25519PrivateKey(seed: seed)
        #endif
    }

    /// The key whose seed is `seed` (exactly 32 bytes).
    public init(seed: some DataProtocol) throws(Ed25519Error) {
        let bytes = Array(seed)
        guard bytes.count == 32 else { throw .seedLength(bytes.count) }
        self.seed = bytes
        #if canImport(CryptoKit)
            guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: bytes) else { throw .rejectedKey }
            self.publicKey = try Ed25519PublicKey(rawRepresentation: Array(key.publicKey.rawRepresentation))
        #else
            let key = try LibcryptoEd25519.privateKey(bytes)
            defer { EVP_PKEY_free(key) }
            var raw = [UInt8](repeating: 0, count: 32)
            var length = 32
            guard EVP_PKEY_get_raw_public_key(key, &raw, &length) == 1, length == 32 else { throw .rejectedKey }
            self.publicKey = try Ed25519PublicKey(rawRepresentation: raw)
        #endif
    }

    /// The 64-byte signature of `message` (Ed25519 is deterministic: the same key and
    /// message always give the same signature).
    public func signature(for message: some DataProtocol) throws(Ed25519Error) -> [UInt8] {
        let bytes = Array(message)
        #if canImport(CryptoKit)
            guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed),
                let signature = try? key.signature(for: Data(bytes))
            else { throw .signingFailed }
            return Array(signature)
        #else
            let key = try LibcryptoEd25519.privateKey(seed)
            defer { EVP_PKEY_free(key) }
            guard let context = EVP_MD_CTX_new() else { throw .signingFailed }
            defer { EVP_MD_CTX_free(context) }
            // Ed25519 hashes internally, so no digest is named (nil), as libcrypto requires.
            guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1 else { throw .signingFailed }
            var signature = [UInt8](repeating: 0, count: 64)
            var length = 64
            let done = bytes.withUnsafeBufferPointer { input in
                EVP_DigestSign(context, &signature, &length, input.baseAddress, input.count)
            }
            guard done == 1, length == 64 else { throw .signingFailed }
            return signature
        #endif
    }
}

/// An Ed25519 public key, as its 32 raw bytes (RFC 8032's encoded point).
public struct Ed25519PublicKey: Sendable, Equatable, Hashable {
    /// The 32 raw bytes.
    public let rawRepresentation: [UInt8]

    /// The key whose raw bytes are `rawRepresentation` (exactly 32; a value that is not a
    /// point on the curve is refused here or fails every verification).
    public init(rawRepresentation: some DataProtocol) throws(Ed25519Error) {
        let bytes = Array(rawRepresentation)
        guard bytes.count == 32 else { throw .publicKeyLength(bytes.count) }
        #if canImport(CryptoKit)
            guard (try? Curve25519.Signing.PublicKey(rawRepresentation: bytes)) != nil else { throw .rejectedKey }
        #else
            let key = try LibcryptoEd25519.publicKey(bytes)
            EVP_PKEY_free(key)
        #endif
        self.rawRepresentation = bytes
    }

    /// True when `signature` is this key's valid Ed25519 signature of `message`.
    public func isValidSignature(_ signature: some DataProtocol, for message: some DataProtocol) -> Bool {
        let signatureBytes = Array(signature)
        let messageBytes = Array(message)
        guard signatureBytes.count == 64 else { return false }
        #if canImport(CryptoKit)
            guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation) else { return false }
            return key.isValidSignature(Data(signatureBytes), for: Data(messageBytes))
        #else
            guard let key = try? LibcryptoEd25519.publicKey(rawRepresentation) else { return false }
            defer { EVP_PKEY_free(key) }
            guard let context = EVP_MD_CTX_new() else { return false }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else { return false }
            let result = signatureBytes.withUnsafeBufferPointer { signatureBuffer in
                messageBytes.withUnsafeBufferPointer { messageBuffer in
                    EVP_DigestVerify(
                        context, signatureBuffer.baseAddress, signatureBuffer.count,
                        messageBuffer.baseAddress, messageBuffer.count)
                }
            }
            return result == 1
        #endif
    }
}

#if !canImport(CryptoKit) && canImport(CCrypto)
    /// libcrypto's raw Ed25519 key objects; each caller frees what it gets.
    private enum LibcryptoEd25519 {
        static func privateKey(_ seed: [UInt8]) throws(Ed25519Error) -> OpaquePointer {
            let key = seed.withUnsafeBufferPointer { buffer in
                EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, buffer.baseAddress, buffer.count)
            }
            guard let key else { throw .rejectedKey }
            return key
        }

        static func publicKey(_ raw: [UInt8]) throws(Ed25519Error) -> OpaquePointer {
            let key = raw.withUnsafeBufferPointer { buffer in
                EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, buffer.baseAddress, buffer.count)
            }
            guard let key else { throw .rejectedKey }
            return key
        }
    }
#endif
