import ArchiveTestSupport
import CommandTestSupport
import Foundation
import TestSupport
import Testing

@testable import PDFSigning

/// The reports drawn from the archive signed as PDFs (docs/pdf-signatures.md): `report
/// --logger-id ID --pdf` and `lot report --pdf` with `--sign-with KEY.pem --cert CERT.pem`.
@Suite struct SignedArchiveReportsTests {
    #if os(Linux)
        /// The identity's PEM files in the test archive's folder, as `--sign-with … --cert …`.
        static func signingArguments(_ archive: TestArchive, _ identity: PDFSigningIdentity) throws -> [String] {
            try Data(identity.privateKeyPEM.utf8).write(to: URL(fileURLWithPath: archive.path("key.pem")))
            try Data(identity.certificatePEM.utf8).write(to: URL(fileURLWithPath: archive.path("cert.pem")))
            return ["--sign-with", archive.path("key.pem"), "--cert", archive.path("cert.pem")]
        }

        @Test func aReportOfTheWholeRecordIsSigned() async throws {
            try await withArchive(.sqlite) { archive in
                let file = try LoggerFiles.writeGeneric(archive, "a.ndef", 0..<100)
                let add = await coldtap(["archive", "add", file, "--archive", archive.location, "--logger-id", "fridge-1"])
                #expect(add.status == 0, "\(add.err)")
                let identity = try PDFSigningIdentity.selfSigned(commonName: "Station Nord")
                let output = archive.path("record.pdf")
                let run = await coldtap(
                    ["report", "--logger-id", "fridge-1", "--archive", archive.location, "-o", output, "--sign-reason", "record reviewed"]
                        + (try Self.signingArguments(archive, identity)))
                #expect(run.status == 0, "\(run.err)")
                let signature = try #require(try PDFSignatureCheck.signatures(in: try Data(contentsOf: URL(fileURLWithPath: output))).first)
                #expect(signature.isIntact && signature.coversWholeFile)
                #expect(signature.reason == "record reviewed" && signature.name == "Station Nord")
            }
        }

        @Test func aLotReportIsSignedAndItsHTMLAloneIsRefused() async throws {
            let example = try StabilityExample.load()
            try await withArchive(.sqlite) { test in
                let archive = try await LotCommandsTests.recordExample(test, example)
                let identity = try PDFSigningIdentity.selfSigned(commonName: "QA reviewer")
                let signing = try Self.signingArguments(test, identity)
                let folder = test.path("lot-reports")
                let run = await coldtap(
                    ["lot", "report", example.lot, "--at", example.statusTime.isoUTC, "--out", folder, "--sign-reason", "lot released"] + signing + archive)
                #expect(run.status == 0, "\(run.err)")
                let pdfURL = URL(fileURLWithPath: folder + "/lot-\(example.lot)-lot-report.pdf")
                let signature = try #require(try PDFSignatureCheck.signatures(in: try Data(contentsOf: pdfURL)).first)
                #expect(signature.isIntact && signature.coversWholeFile && signature.reason == "lot released")
                let verdict = try PyHanko.validate(pdf: pdfURL, trusting: URL(fileURLWithPath: test.path("cert.pem")))
                #expect(verdict.signatures?.first?.bottomLine == true, "pyHanko: \(verdict.error ?? verdict.signatures?.first?.summary ?? "")")

                let htmlOnly = await coldtap(["lot", "report", example.lot, "--html", "--out", test.path("html-only")] + signing + archive)
                #expect(htmlOnly.status == 64)
                #expect(htmlOnly.err.contains("--sign-with signs the PDF report, and none is written"), "\(htmlOnly.err)")
                #expect(!FileManager.default.fileExists(atPath: test.path("html-only")))
            }
        }
    #endif
}
