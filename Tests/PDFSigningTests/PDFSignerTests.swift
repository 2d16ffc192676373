import Foundation
import TestSupport
import Testing

@testable import PDFSigning

/// Signing real report PDFs and small hand-made ones, checked with our own reader and libcrypto
/// (pyHanko's independent check: PyHankoValidationTests).
@Suite struct PDFSignerTests {
    #if os(Linux)
        @Test func aSignedReportChecksOutWithItsFields() throws {
            let pdf = try SigningFixtures.reportPDF()
            let identity = try PDFSigningIdentity.selfSigned(commonName: "ColdTap station")
            let time = SigningFixtures.signingTime
            let signed = try PDFSigner(identity: identity).sign(
                pdf, reason: "Freigabe – geprüft (report)", name: "Dr. Anna Weiß", location: "Hamburg", contactInfo: "qa@example.org", at: time)
            // An incremental update: the report's bytes come first, unchanged.
            #expect(signed.prefix(pdf.count) == pdf)
            let signatures = try SigningFixtures.check(signed)
            try #require(signatures.count == 1)
            let signature = signatures[0]
            #expect(signature.isIntact)
            #expect(signature.coversWholeFile)
            #expect(signature.byteRange[0] == 0 && signature.byteRange[2] + signature.byteRange[3] == signed.count)
            #expect(signature.subFilter == "ETSI.CAdES.detached")
            #expect(signature.reason == "Freigabe – geprüft (report)")
            #expect(signature.name == "Dr. Anna Weiß")
            #expect(signature.location == "Hamburg")
            #expect(signature.contactInfo == "qa@example.org")
            #expect(signature.signingTime == time)
            #expect(signature.fieldName == "Signature1")
            #expect(signature.signerCertificate == identity.certificate)
            #expect(signature.signerCommonName == "ColdTap station")
            // PAdES B-B: the signing-certificate-v2 attribute names the signer, and the time is /M's alone.
            #expect(signature.signingCertificateMatches)
            #expect(!signature.hasSigningTimeAttribute)
            #expect(signature.digestAlgorithm == "SHA256")
        }

        @Test func oneChangedByteBreaksTheSignature() throws {
            let pdf = try SigningFixtures.reportPDF()
            let signed = try PDFSigner(identity: try PDFSigningIdentity.selfSigned(commonName: "station")).sign(
                pdf, reason: "report", name: nil, location: nil, contactInfo: nil, at: SigningFixtures.signingTime)
            // A byte of the first page's content stream: the file still reads, its content does not match.
            let position = try Self.contentStreamByte(in: pdf)
            var changed = signed
            changed[position] ^= 0x01
            let signature = try #require(try SigningFixtures.check(changed).first)
            #expect(!signature.digestMatches)
            #expect(!signature.isIntact)
            // The signature's own dictionary is signed too: its reason changed by one letter.
            let reasonAt = try #require(signed.range(of: Data("/Reason (report)".utf8)))
            var reasonChanged = signed
            reasonChanged[reasonAt.lowerBound + 9] = UInt8(ascii: "R")
            let changedReason = try #require(try SigningFixtures.check(reasonChanged).first)
            #expect(changedReason.reason == "Report")
            #expect(!changedReason.isIntact)
        }

        @Test func aSignatureChangedInPlaceNoLongerHolds() throws {
            let signed = try PDFSigner(identity: try PDFSigningIdentity.selfSigned(commonName: "station")).sign(
                try SigningFixtures.reportPDF(), reason: "report", name: nil, location: nil, contactInfo: nil, at: SigningFixtures.signingTime)
            let signature = try #require(try SigningFixtures.check(signed).first)
            // The last byte of the DER signature value (ECDSA's s), within /Contents' hex.
            let derLength = try Self.derLength(signed, contentsAt: signature.byteRange[1])
            var changed = signed
            let lastHexDigit = signature.byteRange[1] + 2 * derLength
            changed[lastHexDigit] = changed[lastHexDigit] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
            let checked = try #require(try SigningFixtures.check(changed).first)
            #expect(checked.digestMatches)
            #expect(!checked.signatureIsValid)
        }

        @Test func aSecondSignatureKeepsTheFirst() throws {
            let first = try PDFSigningIdentity.selfSigned(commonName: "station")
            let second = try PDFSigningIdentity.selfSigned(commonName: "reviewer")
            let once = try PDFSigner(identity: first).sign(
                try SigningFixtures.reportPDF(), reason: "report", name: nil, location: nil, contactInfo: nil, at: SigningFixtures.signingTime)
            let twice = try PDFSigner(identity: second).sign(
                once, reason: "reviewed", name: "B. Reviewer", location: nil, contactInfo: nil, at: SigningFixtures.signingTime)
            let signatures = try SigningFixtures.check(twice)
            #expect(signatures.map(\.fieldName) == ["Signature1", "Signature2"])
            #expect(signatures.allSatisfy { $0.isIntact })
            #expect(signatures.map(\.coversWholeFile) == [false, true])
            #expect(signatures.map(\.signerCommonName) == ["station", "reviewer"])
            #expect(signatures[0].byteRange[2] + signatures[0].byteRange[3] == once.count)
        }

        @Test func existingAnnotationsAndAnIndirectFormAreKept() throws {
            // Page 1 with two annotations by reference, a form object of its own with one field.
            let pdf = SigningFixtures.minimalPDF([
                "<< /Type /Catalog /Pages 2 0 R /AcroForm 6 0 R /Lang (en) >>",
                "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Annots 8 0 R >>",
                "<< /Length 8 >>\nstream\n0 0 m S\n\nendstream",
                "<< /Type /Annot /Subtype /Text /Rect [10 10 20 20] /Contents (note) >>",
                "<< /Fields [7 0 R] /DA (/Helv 0 Tf 0 g) >>",
                "<< /FT /Tx /T (Signature1) /Type /Annot /Subtype /Widget /Rect [30 30 60 40] /P 3 0 R >>",
                "[5 0 R 7 0 R]",
            ])
            let signed = try PDFSigner(identity: try PDFSigningIdentity.selfSigned(commonName: "station")).sign(
                pdf, reason: "report", name: nil, location: nil, contactInfo: nil, at: SigningFixtures.signingTime)
            let signature = try #require(try SigningFixtures.check(signed).first)
            #expect(signature.isIntact && signature.coversWholeFile)
            // The field name already taken is not reused.
            #expect(signature.fieldName == "Signature2")
            let file = try PDFFile(signed)
            let catalog = try file.catalog()
            #expect(catalog.dictionary["Lang"] == .string(Array("en".utf8)))
            let form = try #require(catalog.dictionary["AcroForm"]?.dictionary)
            #expect(form["DA"] == .string(Array("/Helv 0 Tf 0 g".utf8)))
            #expect(form["SigFlags"] == .integer(3))
            #expect(form["Fields"] == .array([.reference(PDFReference(number: 7, generation: 0)), .reference(PDFReference(number: 10, generation: 0))]))
            let page = try file.firstPage(of: catalog.dictionary)
            #expect(page.dictionary["MediaBox"] == .array([.integer(0), .integer(0), .integer(200), .integer(200)]))
            #expect(
                page.dictionary["Annots"]
                    == .array([5, 7, 10].map { .reference(PDFReference(number: $0, generation: 0)) }))
        }

        @Test func aNestedPageTreeIsFollowedToItsFirstPage() throws {
            let pdf = SigningFixtures.minimalPDF([
                "<< /Type /Catalog /Pages 2 0 R >>",
                "<< /Type /Pages /Kids 5 0 R /Count 1 >>",
                "<< /Type /Pages /Parent 2 0 R /Kids [4 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 3 0 R /MediaBox [0 0 200 200] /Annots [] >>",
                "[3 0 R]",
            ])
            let signed = try PDFSigner(identity: try PDFSigningIdentity.selfSigned(commonName: "station")).sign(
                pdf, reason: "report", name: nil, location: nil, contactInfo: nil, at: SigningFixtures.signingTime)
            #expect(try SigningFixtures.check(signed).first?.isIntact == true)
            let file = try PDFFile(signed)
            #expect(try file.firstPage(of: try file.catalog().dictionary).reference == PDFReference(number: 4, generation: 0))
        }

        @Test func tooLittleRoomForTheSignatureIsATypedError() throws {
            let identity = try PDFSigningIdentity.selfSigned(commonName: "station")
            #expect {
                try PDFSigner(identity: identity).sign(
                    SigningFixtures.onePagePDF(), reason: "report", name: nil, location: nil, contactInfo: nil, at: SigningFixtures.signingTime, capacity: 64)
            } throws: { error in
                guard case .signatureTooLarge(let needed, let available) = error as? PDFSigningError else { return false }
                return available == 64 && needed > 64
            }
        }

        @Test func aTimeOutsideTheCertificatesValidityIsRefused() throws {
            let now = Date(timeIntervalSince1970: 1_780_000_000)
            let identity = try PDFSigningIdentity.selfSigned(commonName: "station", validity: 3600, now: now)
            let late = now.addingTimeInterval(7200)
            #expect(throws: PDFSigningError.certificateNotValid(at: late, notBefore: now, notAfter: now.addingTimeInterval(3600))) {
                try PDFSigner(identity: identity).sign(SigningFixtures.onePagePDF(), reason: "report", name: nil, location: nil, contactInfo: nil, at: late)
            }
        }

        @Test func anOperatorsRSAIdentitySignsToo() throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            try OpenSSL.selfSigned(
                key: folder.path("key.pem"), certificate: folder.path("cert.pem"), keyArguments: ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"])
            let identity = try PDFSigningIdentity.load(keyFile: folder.path("key.pem"), certificateFile: folder.path("cert.pem"))
            let signed = try PDFSigner(identity: identity).sign(
                try SigningFixtures.reportPDF(), reason: "report", name: nil, location: nil, contactInfo: nil, at: SigningFixtures.signingTime)
            let signature = try #require(try SigningFixtures.check(signed).first)
            #expect(signature.isIntact && signature.signingCertificateMatches && !signature.hasSigningTimeAttribute)
        }

        /// Our check reads signed PDFs it did not make: each byte of a signed report's update
        /// (the signature dictionary, the field, the rewritten objects, the table, the trailer,
        /// every 8th hex digit of the CMS in /Contents) overwritten with values that break syntax
        /// or offsets gives signatures or a typed error, never a crash; a changed signed byte
        /// never leaves an intact signature.
        @Test(.tags(.slow)) func garbledSignaturesAreRefusedOrBroken() throws {
            let pdf = try SigningFixtures.reportPDF()
            let signed = try PDFSigner(identity: try PDFSigningIdentity.selfSigned(commonName: "station")).sign(
                pdf, reason: "report", name: nil, location: nil, contactInfo: nil, at: SigningFixtures.signingTime)
            let range = try #require(try SigningFixtures.check(signed).first).byteRange
            let derHexEnd = range[1] + 1 + 2 * (try Self.derLength(signed, contentsAt: range[1]))
            let signedPositions = Array(pdf.count..<range[1]) + Array(range[2]..<signed.count)
            var outcomes = (intactAfterASignedByteChanged: 0, broken: 0, refused: 0)
            for position in signedPositions + Array(stride(from: range[1], to: derHexEnd, by: 8)) {
                for replacement: UInt8 in [UInt8(ascii: "9"), UInt8(ascii: "<"), UInt8(ascii: "]"), 0x00] where signed[position] != replacement {
                    var garbled = signed
                    garbled[position] = replacement
                    do throws(PDFSigningError) {
                        let signatures = try PDFSignatureCheck.signatures(in: garbled)
                        if signatures.contains(where: { $0.isIntact }) {
                            if position < range[1] || position >= range[2] { outcomes.intactAfterASignedByteChanged += 1 }
                        } else {
                            outcomes.broken += 1
                        }
                    } catch {
                        outcomes.refused += 1
                    }
                }
            }
            #expect(outcomes.intactAfterASignedByteChanged == 0)
            #expect(outcomes.broken > 0 && outcomes.refused > 0)
        }

        @Test func aPDFWithoutSignaturesSaysSo() throws {
            #expect(throws: PDFSigningError.noSignature) { try PDFSignatureCheck.signatures(in: try SigningFixtures.reportPDF()) }
        }

        /// The offset of a byte in the middle of the report's first content stream.
        static func contentStreamByte(in pdf: Data) throws -> Int {
            let start = try #require(pdf.range(of: Data("stream\n".utf8)))
            return start.upperBound + 100
        }

        /// The length of the DER signature in /Contents, which starts at `contentsAt` (`<`).
        static func derLength(_ pdf: Data, contentsAt: Int) throws -> Int {
            let hex = String(decoding: pdf[contentsAt + 1..<contentsAt + 9], as: UTF8.self)
            // 30 82 LL LL: a SEQUENCE with a two-byte length.
            #expect(hex.hasPrefix("3082"))
            let body = try #require(Int(hex.dropFirst(4), radix: 16))
            return 4 + body
        }
    #else
        @Test func withoutLibcryptoNothingIsSigned() throws {
            #expect(throws: PDFSigningError.unavailableOnThisPlatform) {
                try PDFSignatureCheck.signatures(in: SigningFixtures.onePagePDF())
            }
        }
    #endif
}
