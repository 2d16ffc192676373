import Foundation
import PDFSigning
import TestSupport
import Testing

/// The signed reports as pyHanko sees them: an implementation that shares nothing with ours
/// (its own PDF reader, asn1crypto and pyca/cryptography) validating against a trust store of
/// the test's certificate alone. A missing `.venv` fails these tests: run `make test-venv`.
@Suite struct PyHankoValidationTests {
    #if os(Linux)
        /// Signs a real report with a fresh self-signed identity and has pyHanko validate it.
        func signAndValidate(
            _ pdf: Data, identity: PDFSigningIdentity, change: ((inout Data) throws -> Void)? = nil
        ) throws -> (report: PyHanko.Report, signed: Data) {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            var signed = try PDFSigner(identity: identity).sign(
                pdf, reason: "Report of logger generic16 – geprüft", name: "ColdTap station Nord", location: "Hamburg", contactInfo: nil,
                at: SigningFixtures.signingTime)
            try change?(&signed)
            try signed.write(to: folder.url.appendingPathComponent("signed.pdf"))
            try identity.certificatePEM.write(toFile: folder.path("trusted.pem"), atomically: true, encoding: .utf8)
            let report = try PyHanko.validate(pdf: folder.url.appendingPathComponent("signed.pdf"), trusting: folder.url.appendingPathComponent("trusted.pem"))
            return (report, signed)
        }

        @Test func pyHankoFindsASignedReportIntactValidTrustedAndWhole() throws {
            let identity = try PDFSigningIdentity.selfSigned(commonName: "ColdTap station Nord", organization: "Cold Store Ltd")
            let (report, _) = try signAndValidate(try SigningFixtures.reportPDF(), identity: identity)
            #expect(report.error == nil)
            let signatures = try #require(report.signatures)
            try #require(signatures.count == 1)
            let signature = signatures[0]
            #expect(signature.error == nil, "pyHanko: \(signature.error ?? "")")
            #expect(signature.intact == true)
            #expect(signature.valid == true)
            #expect(signature.trusted == true, "pyHanko: \(signature.summary ?? "")")
            #expect(signature.bottomLine == true)
            #expect(signature.coverage == "ENTIRE_FILE")
            #expect(signature.mdAlgorithm == "sha256")
            #expect(signature.subFilter == "/ETSI.CAdES.detached")
            #expect(signature.reason == "Report of logger generic16 – geprüft")
            #expect(signature.name == "ColdTap station Nord")
            #expect(signature.location == "Hamburg")
            #expect(signature.contactInfo == nil)
            #expect(signature.signerCommonName == "ColdTap station Nord")
            #expect(signature.field == "Signature1")
        }

        @Test func pyHankoFindsAReportWithOneByteChangedBroken() throws {
            let identity = try PDFSigningIdentity.selfSigned(commonName: "ColdTap station")
            let pdf = try SigningFixtures.reportPDF()
            // A byte inside the first page's content stream, well within the signed range.
            let position = try #require(pdf.range(of: Data("stream\n".utf8))).upperBound + 100
            let (report, signed) = try signAndValidate(pdf, identity: identity) { $0[position] ^= 0x01 }
            #expect(position < pdf.count && position < signed.count)
            // The file still reads: pyHanko finds the signature and says its digest does not match.
            #expect(report.error == nil, "pyHanko: \(report.error ?? "")")
            let signature = try #require(report.signatures?.first)
            // `valid` is about the signed attributes alone, which did not change; `intact` is the byte range's digest.
            #expect(signature.intact == false, "pyHanko found a changed report intact: \(signature.summary ?? signature.error ?? "")")
            #expect(signature.bottomLine == false)
            #expect(signature.summary == "INVALID")
        }

        @Test func pyHankoAcceptsAnOperatorsRSACertificate() throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            try OpenSSL.selfSigned(
                key: folder.path("key.pem"), certificate: folder.path("cert.pem"), keyArguments: ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:3072"])
            let identity = try PDFSigningIdentity.load(keyFile: folder.path("key.pem"), certificateFile: folder.path("cert.pem"))
            let (report, _) = try signAndValidate(try SigningFixtures.reportPDF(), identity: identity)
            let signature = try #require(report.signatures?.first)
            #expect(signature.bottomLine == true, "pyHanko: \(signature.error ?? signature.summary ?? "")")
            #expect(signature.coverage == "ENTIRE_FILE")
        }

        @Test func pyHankoReadsASecondSignatureOverTheFirst() throws {
            let station = try PDFSigningIdentity.selfSigned(commonName: "station")
            let once = try PDFSigner(identity: station).sign(
                try SigningFixtures.reportPDF(), reason: "report", name: nil, location: nil, contactInfo: nil, at: SigningFixtures.signingTime)
            // The second signer is the one trusted: the first is checked for intactness alone.
            let reviewer = try PDFSigningIdentity.selfSigned(commonName: "reviewer")
            let (report, _) = try signAndValidate(once, identity: reviewer)
            let signatures = try #require(report.signatures)
            try #require(signatures.count == 2)
            #expect(signatures.map(\.intact) == [true, true])
            #expect(signatures.map(\.coverage) == ["ENTIRE_REVISION", "ENTIRE_FILE"])
            #expect(signatures[1].bottomLine == true, "pyHanko: \(signatures[1].error ?? signatures[1].summary ?? "")")
        }
    #endif
}
