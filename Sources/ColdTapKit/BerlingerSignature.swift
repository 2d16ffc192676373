import Digest
import Foundation
import LoggerFormats

/// The device signature of a Berlinger report (docs/berlinger.md §7): `Sig:` signs the
/// report up to its `Sig Cert:` line under the lot's key in `Cert:`, and `Sig Cert:` signs
/// `Cert:` under a root key. ECDSA P-256, every number stored byte-reversed.
public enum BerlingerSignature {
    /// The root key that signs the lot certificates of every public report (x ‖ y,
    /// big-endian). Inferred from the certificates of public reports, not published by
    /// Berlinger (docs/berlinger.md §7).
    public static let inferredRootKey: [UInt8] =
        Hex.decode(
            "0aa2be1b04268b874fc00aac193a889352f57eed2a46d8c7fc98111bdcaf1966"
                + "e3be1648b9ae1a7b7e5b9afc7c4b48fd003c505cb6af749fabaac0da180cf668") ?? []

    /// Two little-endian 32-byte numbers as printed (128 hex digits) → the big-endian pair.
    public static func numbers(_ hex: String) -> [UInt8]? {
        guard hex.count == 128, let bytes = Hex.decode(hex), bytes.count == 64 else { return nil }
        return bytes[0..<32].reversed() + bytes[32..<64].reversed()
    }

    /// The SHA-256 of `bytes`, byte-reversed, as the device signs it.
    public static func digest(_ bytes: some DataProtocol) -> [UInt8] { SHA256Digest.hash(bytes).reversed() }

    /// The report's integrity: verified when `Sig:` holds under the lot key and the lot's
    /// certificate under one of `roots`; failed when `Sig:` does not hold; unverified (saying
    /// why) when the signature holds but the certificate is from no known root, or nothing
    /// can be checked here.
    public static func check(_ report: Data, roots: [[UInt8]] = [inferredRootKey]) -> TemperatureLog.Integrity {
        func unverified(_ why: String) -> TemperatureLog.Integrity { .init(status: .unverified, detail: .text("unverified (\(why))")) }
        guard ECDSAP256.isAvailable else { return unverified("the device signature cannot be checked on this platform") }
        guard let parts = BerlingerDecoder.signedParts(of: report) else { return unverified("the report has no complete Cert:/Sig: block") }
        guard let key = numbers(parts.publicKey), let signature = numbers(parts.signature),
            let certificateSignature = numbers(parts.certificateSignature)
        else {
            return .init(status: .failed, detail: .text("the Cert:/Sig: values are not 128 hex digits each"))
        }
        guard ECDSAP256.isValid(signature: signature, digest: digest(parts.signedBytes), publicKey: key) else {
            return .init(
                status: .failed,
                detail: .text("ECDSA P-256 device signature (Sig:) does not match the report's bytes: the report was altered or is not device output"))
        }
        let certificateDigest = digest(parts.certificateBytes)
        guard roots.contains(where: { ECDSAP256.isValid(signature: certificateSignature, digest: certificateDigest, publicKey: $0) }) else {
            return unverified("the report's signature holds under its Cert: key, but that certificate is signed by no known root key")
        }
        let lot = parts.lot.map { " of lot \($0)" } ?? ""
        return .init(
            status: .verified,
            detail: .verified(method: "ECDSA P-256 device signature\(lot), its certificate under the root key inferred from public reports"))
    }
}
