import ColdTapBase
import Foundation

/// Why a PDF could not be signed or checked, or a signing identity could not be loaded or
/// made. Each case names what it is about (a file, a byte offset of the PDF) so a front end
/// can word it without guessing.
public enum PDFSigningError: Error, Equatable, Sendable, CustomStringConvertible {
    /// This platform's build has no libcrypto (Apple platforms: the SDK has none), so PDFs
    /// are neither signed nor checked here.
    case unavailableOnThisPlatform
    /// A file could not be read or written; `problem` is the system's reason.
    case file(path: String, problem: String)
    /// The private key file holds no private key libcrypto can read; `problem` says what is wrong.
    case invalidPrivateKey(source: String, problem: String)
    /// The certificate file holds no X.509 certificate libcrypto can read.
    case invalidCertificate(source: String, problem: String)
    /// The private key does not belong to the certificate's public key.
    case keyDoesNotMatchCertificate(keySource: String, certificateSource: String)
    /// Of a key and certificate kept together, one file exists and the other does not: making
    /// a new pair would orphan the one there, so nothing is made.
    case incompleteIdentity(existing: String, missing: String)
    /// The signing time is outside the certificate's validity period (a checker would find
    /// the signature made with a certificate not valid then).
    case certificateNotValid(at: Date, notBefore: Date, notAfter: Date)
    /// The bytes are not a PDF this reader can follow; `offset` is where the problem was found.
    case malformedPDF(offset: Int, problem: String)
    /// The PDF uses something this signer does not handle (a cross-reference stream, encryption);
    /// `offset` is where it was found.
    case unsupportedPDF(offset: Int, feature: String)
    /// The CMS signature (`needed` bytes) does not fit the space kept for it in /Contents
    /// (`available` bytes).
    case signatureTooLarge(needed: Int, available: Int)
    /// The PDF holds no signature dictionary to check.
    case noSignature
    /// libcrypto refused an operation; `operation` says which, `detail` is libcrypto's own message.
    case crypto(operation: String, detail: String)

    public var description: String {
        switch self {
        case .unavailableOnThisPlatform:
            return "PDF signatures need OpenSSL's libcrypto, which this platform's build does not have"
        case .file(let path, let problem):
            return "'\(path)': \(problem)"
        case .invalidPrivateKey(let source, let problem):
            return "the private key '\(source)' cannot be used: \(problem)"
        case .invalidCertificate(let source, let problem):
            return "the certificate '\(source)' cannot be used: \(problem)"
        case .keyDoesNotMatchCertificate(let keySource, let certificateSource):
            return "the private key '\(keySource)' does not belong to the certificate '\(certificateSource)'"
        case .incompleteIdentity(let existing, let missing):
            return "'\(existing)' exists but '\(missing)' does not; restore it, or move both away to make a new pair"
        case .certificateNotValid(let time, let notBefore, let notAfter):
            return "the certificate is not valid at \(time.isoUTCWholeSeconds) (only from \(notBefore.isoUTCWholeSeconds) to \(notAfter.isoUTCWholeSeconds))"
        case .malformedPDF(let offset, let problem):
            return "the PDF is malformed at byte \(offset): \(problem)"
        case .unsupportedPDF(let offset, let feature):
            return "the PDF uses \(feature) (at byte \(offset)), which this signer does not handle"
        case .signatureTooLarge(let needed, let available):
            return "the signature needs \(needed) bytes but \(available) were kept for it"
        case .noSignature:
            return "the PDF holds no signature"
        case .crypto(let operation, let detail):
            return "libcrypto could not \(operation)" + (detail.isEmpty ? "" : ": \(detail)")
        }
    }
}
