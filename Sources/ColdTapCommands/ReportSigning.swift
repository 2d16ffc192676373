import Foundation
import PDFSigning

/// `--sign-with KEY.pem --cert CERT.pem [--sign-reason TEXT]`: the PDF report signed as a PDF
/// (PAdES B-B, docs/pdf-signatures.md) by PDFSigning, for `report`, `read` and `lot report`.
struct ReportSigning: Sendable {
    static let signWithOption = OptionSpec.value(
        "--sign-with", placeholder: "KEY.pem",
        help: "sign the PDF report (PAdES B-B) with this PEM private key (EC, or RSA of 2048 bits or more); needs --cert",
        path: true)
    static let certOption = OptionSpec.value(
        "--cert", placeholder: "CERT.pem", help: "the PEM certificate of --sign-with's key (its issuers may follow it in the file)", path: true)
    static let reasonOption = OptionSpec.value(
        "--sign-reason", placeholder: "TEXT", help: "what the PDF's signature means, shown by PDF readers as its reason", default: defaultReason)

    static let defaultReason = "report"

    /// The signing options, for the commands that write a PDF report.
    static let optionSpecs: [OptionSpec] = [signWithOption, certOption, reasonOption]

    var keyFile: String
    var certificateFile: String
    var reason: String
    /// Loaded by `load()`, before anything is read or printed.
    var identity: PDFSigningIdentity?

    /// The signing asked for on the command line, `nil` when none is.
    /// - Throws: `CommandError.usage` for a key without a certificate or the other way round,
    ///   and for `--sign-reason` without them or empty.
    static func parse(_ arguments: inout Arguments) throws -> ReportSigning? {
        let keyFile = arguments.value(signWithOption)
        let certificateFile = arguments.value(certOption)
        let reason = arguments.value(reasonOption)
        switch (keyFile, certificateFile) {
        case (nil, nil):
            if reason != nil { throw CommandError.usage("--sign-reason applies to a signed PDF: give --sign-with KEY.pem --cert CERT.pem too.") }
            return nil
        case (_?, nil):
            throw CommandError.usage("--sign-with needs the key's certificate: give --cert CERT.pem too.")
        case (nil, _?):
            throw CommandError.usage("--cert needs its private key: give --sign-with KEY.pem too.")
        case (let keyFile?, let certificateFile?):
            if let reason, reason.trimmingCharacters(in: .whitespaces).isEmpty {
                throw CommandError.usage("--sign-reason needs a text: what the signature means, e.g. 'report' or 'reviewed'.")
            }
            return ReportSigning(keyFile: keyFile, certificateFile: certificateFile, reason: reason ?? defaultReason)
        }
    }

    /// Refuses signing when no PDF is written.
    /// - Throws: `CommandError.usage`.
    func requirePDF(_ writesPDF: Bool) throws {
        guard writesPDF else {
            throw CommandError.usage("--sign-with signs the PDF report, and none is written: add --pdf (or --out DIR, which writes every file).")
        }
    }

    /// Reads the key and the certificate.
    /// - Throws: `CommandError`: failure for a file that cannot be read, data error for one
    ///   that is not a usable key or certificate or for a key of another certificate,
    ///   unavailable on a build without libcrypto.
    mutating func load() throws {
        guard identity == nil else { return }
        do throws(PDFSigningError) {
            identity = try PDFSigningIdentity.load(keyFile: keyFile, certificateFile: certificateFile)
        } catch {
            throw Self.commandError(error)
        }
    }

    /// `pdf` signed at `time`, named after the certificate's common name.
    /// - Throws: `CommandError` when the identity cannot be loaded or the PDF cannot be signed.
    mutating func sign(_ pdf: Data, at time: Date) throws -> Data {
        try load()
        guard let identity else { return pdf }
        do throws(PDFSigningError) {
            return try PDFSigner(identity: identity).sign(pdf, reason: reason, name: identity.commonName, location: nil, contactInfo: nil, at: time)
        } catch {
            throw Self.commandError(error)
        }
    }

    /// One sentence for each way signing can fail, saying what to do next.
    static func commandError(_ error: PDFSigningError) -> CommandError {
        switch error {
        case .file:
            return CommandError(.failure, "Cannot sign the PDF: \(error); check the paths given to --sign-with and --cert.")
        case .invalidPrivateKey, .invalidCertificate, .keyDoesNotMatchCertificate:
            return CommandError.data(
                "Cannot sign the PDF: \(error). Give --sign-with an unencrypted PEM private key (EC, or RSA of 2048 bits or more) and --cert its certificate.")
        case .certificateNotValid:
            return CommandError(.failure, "Cannot sign the PDF: \(error); give --cert a certificate valid now (and --sign-with its key).")
        case .unavailableOnThisPlatform:
            return CommandError(.unavailable, "Cannot sign the PDF: \(error); sign it on Linux, where coldtap links libcrypto.")
        case .incompleteIdentity, .malformedPDF, .unsupportedPDF, .signatureTooLarge, .noSignature, .crypto:
            return CommandError(.failure, "Cannot sign the PDF: \(error).")
        }
    }
}
