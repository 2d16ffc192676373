import Foundation
import PDFSigning
import TestSupport
import Testing

/// A station's report PDF as an auditor's tools see its own signature (docs/pdf-signatures.md):
/// our check and pyHanko (which shares nothing with ours) find it intact, valid, trusted and
/// covering the whole file, with `reason`; pyHanko finds it broken once one byte is changed.
enum SignedReports {
    static func check(_ pdf: Data, folder: URL, reason: String) throws {
        let signature = try #require(try PDFSignatureCheck.signatures(in: pdf).first, "the report's PDF carries no signature")
        #expect(signature.isIntact && signature.coversWholeFile && signature.reason == reason, "\(signature)")
        let work = folder.appendingPathComponent("signed-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("report.pdf")
        try pdf.write(to: file)
        // Trusted: the certificate the signature carries (the station's self-signed one).
        let certificate = work.appendingPathComponent("station.pem")
        let base64 = Data(signature.signerCertificate).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        try Data("-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n".utf8).write(to: certificate)
        let verdict = try #require(try PyHanko.validate(pdf: file, trusting: certificate).signatures?.first)
        #expect(
            verdict.intact == true && verdict.valid == true && verdict.trusted == true && verdict.reason == reason
                && verdict.coverage == "ENTIRE_FILE", "\(verdict)")
        var changed = pdf
        changed[changed.count / 3] ^= 0x01
        try changed.write(to: file)
        let broken = try PyHanko.validate(pdf: file, trusting: certificate).signatures?.first
        #expect(broken?.intact != true, "one changed byte went unnoticed: \(String(describing: broken))")
    }
}
