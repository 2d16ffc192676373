import Foundation

/// Signs PDFs as PAdES B-B (the baseline level B-B): an incremental update
/// that adds a signature dictionary (/SubFilter /ETSI.CAdES.detached) and an invisible
/// signature field on page 1, whose /Contents is a CMS detached signature over every byte of
/// the file but itself (docs/pdf-signatures.md).
public struct PDFSigner: Sendable {
    /// Who signs.
    public let identity: PDFSigningIdentity

    public init(identity: PDFSigningIdentity) {
        self.identity = identity
    }

    /// `pdf` with a signature appended; the original bytes are kept as they were, so a
    /// reader shows the same pages.
    /// - Parameters:
    ///   - reason: what the signature means (/Reason), e.g. "report".
    ///   - name: the signer's name as the signature shows it (/Name); `nil` leaves it to the certificate.
    ///   - location: where it was signed (/Location), `nil` for none.
    ///   - contactInfo: how to reach the signer (/ContactInfo), `nil` for none.
    ///   - time: the claimed signing time (/M, to the second, UTC); it must fall within the
    ///     certificate's validity.
    /// - Throws: `PDFSigningError.malformedPDF` / `.unsupportedPDF` (naming the byte offset) for
    ///   a PDF this signer cannot follow (only classic cross-reference tables, no encryption);
    ///   `.certificateNotValid` when `time` is outside the certificate's validity;
    ///   `.signatureTooLarge`; `.crypto`; `.unavailableOnThisPlatform` where libcrypto is missing.
    public func sign(
        _ pdf: Data, reason: String, name: String?, location: String?, contactInfo: String?, at time: Date
    ) throws(PDFSigningError) -> Data {
        try sign(pdf, reason: reason, name: name, location: location, contactInfo: contactInfo, at: time, capacity: nil)
    }

    /// As the public `sign`, with room for `capacity` bytes of signature instead of what the
    /// identity's certificates and key size call for (tests give too little).
    func sign(
        _ pdf: Data, reason: String, name: String?, location: String?, contactInfo: String?, at time: Date, capacity: Int?
    ) throws(PDFSigningError) -> Data {
        #if canImport(CCrypto)
            guard time >= identity.notBefore, time <= identity.notAfter else {
                throw .certificateNotValid(at: time, notBefore: identity.notBefore, notAfter: identity.notAfter)
            }
            let fields = PDFSignatureFields(reason: reason, name: name, location: location, contactInfo: contactInfo, time: time)
            let update = try PDFSignatureUpdate(pdf, fields: fields, capacity: capacity ?? signatureCapacity)
            let signature = try CMSSignature.sign(update.signedBytes, identity: identity)
            return try update.filled(with: signature)
        #else
            throw .unavailableOnThisPlatform
        #endif
    }

    /// Room kept in /Contents: the certificates, the signature and the attributes around
    /// them with 2 KiB to spare, rounded up to 1 KiB.
    var signatureCapacity: Int {
        let needed = identity.certificate.count + identity.chain.reduce(0) { $0 + $1.count } + identity.maximumSignatureSize + 2048
        return (needed + 1023) / 1024 * 1024
    }
}
