import Foundation

#if canImport(CCrypto)
    import CCrypto
#endif

/// Our own reading of a PDF's signatures: each signature dictionary the form lists, its byte
/// range hashed again and its CMS signature checked with libcrypto against the certificate it
/// carries. Whether that certificate is to be trusted is the caller's question (compare
/// `signerCertificate` with the one expected); an independent check is pyHanko's
/// (docs/pdf-signatures.md, "Checking a signature").
public enum PDFSignatureCheck {
    /// One signature as checked.
    public struct Signature: Sendable, Equatable {
        /// The field's name (/T).
        public var fieldName: String?
        /// /ByteRange: offset and length of the signed bytes before /Contents, then after it.
        public var byteRange: [Int]
        /// The byte range runs from the first byte to the last, leaving out /Contents alone:
        /// nothing was appended after the signature.
        public var coversWholeFile: Bool
        /// The signed bytes hash to the signature's message digest.
        public var digestMatches: Bool
        /// The signature over the signed attributes holds under the carried certificate's key.
        public var signatureIsValid: Bool
        /// /SubFilter (`ETSI.CAdES.detached` for PAdES).
        public var subFilter: String?
        public var reason: String?
        public var name: String?
        public var location: String?
        public var contactInfo: String?
        /// /M, the claimed signing time.
        public var signingTime: Date?
        /// The signer's certificate as carried in the signature, DER, and its common name.
        public var signerCertificate: [UInt8]
        public var signerCommonName: String?
        /// The signing-certificate-v2 attribute names the signer's certificate.
        public var signingCertificateMatches: Bool
        /// A CMS signing-time attribute is there (PAdES baseline signatures carry none).
        public var hasSigningTimeAttribute: Bool
        /// The digest algorithm, as libcrypto names it (`SHA256`).
        public var digestAlgorithm: String

        /// The signed bytes are as signed and the signature holds.
        public var isIntact: Bool { digestMatches && signatureIsValid }
    }

    /// The signatures of `pdf`'s form, in the order of its /Fields.
    /// - Throws: `PDFSigningError.malformedPDF` / `.unsupportedPDF` for a PDF that cannot be
    ///   followed or a signature dictionary whose /ByteRange or /Contents is not sound;
    ///   `.noSignature` when the form lists none; `.crypto` for a /Contents that is not a CMS
    ///   signature; `.unavailableOnThisPlatform` where libcrypto is missing.
    public static func signatures(in pdf: Data) throws(PDFSigningError) -> [Signature] {
        #if canImport(CCrypto)
            let file = try PDFFile(pdf)
            let catalog = try file.catalog()
            guard let formValue = catalog.dictionary["AcroForm"], let form = try file.resolve(formValue).dictionary else { throw .noSignature }
            var found: [Signature] = []
            for field in try PDFSignatureUpdate.references(form["Fields"], in: file, what: "the form's /Fields") {
                let dictionary = try file.dictionary(field, what: "a form field")
                guard dictionary["FT"]?.name == "Sig", let value = dictionary["V"] else { continue }
                guard let signature = try file.resolve(value).dictionary else {
                    throw .malformedPDF(offset: file.locations[field.number]?.offset ?? 0, problem: "the signature field \(field)'s /V is not a dictionary")
                }
                found.append(
                    try check(signature, fieldName: dictionary["T"]?.stringBytes.map(PDFText.decode), in: file, at: file.locations[field.number]?.offset ?? 0))
            }
            guard !found.isEmpty else { throw .noSignature }
            return found
        #else
            throw .unavailableOnThisPlatform
        #endif
    }

    #if canImport(CCrypto)
        static func check(_ signature: PDFDictionary, fieldName: String?, in file: PDFFile, at offset: Int) throws(PDFSigningError) -> Signature {
            let bytes = file.bytes
            guard let range = signature["ByteRange"]?.array?.compactMap(\.integer), range.count == 4 else {
                throw .malformedPDF(offset: offset, problem: "the signature has no /ByteRange of four integers")
            }
            let (start, beforeLength, afterStart, afterLength) = (range[0], range[1], range[2], range[3])
            guard start == 0, beforeLength > 0, afterStart > beforeLength, afterLength >= 0, afterStart <= bytes.count,
                afterLength <= bytes.count - afterStart
            else { throw .malformedPDF(offset: offset, problem: "the signature's /ByteRange \(range) does not fit a file of \(bytes.count) bytes") }
            guard bytes[beforeLength] == UInt8(ascii: "<"), bytes[afterStart - 1] == UInt8(ascii: ">") else {
                throw .malformedPDF(offset: beforeLength, problem: "the gap in the signature's /ByteRange is not its /Contents hex string")
            }
            guard let contents = signature["Contents"]?.stringBytes else {
                throw .malformedPDF(offset: offset, problem: "the signature has no /Contents string")
            }
            let signed = Array(bytes[0..<beforeLength]) + Array(bytes[afterStart..<afterStart + afterLength])
            let verification = try CMSSignature.verify(contents, content: signed)
            func text(_ key: String) -> String? { signature[key]?.stringBytes.map(PDFText.decode) }
            return Signature(
                fieldName: fieldName, byteRange: range, coversWholeFile: afterStart + afterLength == bytes.count,
                digestMatches: verification.digestMatches, signatureIsValid: verification.signatureIsValid, subFilter: signature["SubFilter"]?.name,
                reason: text("Reason"), name: text("Name"), location: text("Location"), contactInfo: text("ContactInfo"),
                signingTime: text("M").flatMap(PDFText.parseDate), signerCertificate: verification.signerCertificate,
                signerCommonName: verification.signerCommonName, signingCertificateMatches: verification.signingCertificateMatches,
                hasSigningTimeAttribute: verification.hasSigningTime, digestAlgorithm: verification.digestAlgorithm)
        }
    #endif
}
