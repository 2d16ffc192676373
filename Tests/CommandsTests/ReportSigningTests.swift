import Foundation
import LoggerFormats
import TestSupport
import Testing

@testable import ColdTapCommands
@testable import PDFSigning

/// `coldtap report --pdf --sign-with KEY.pem --cert CERT.pem [--sign-reason TEXT]`: the PDF
/// report signed as a PDF (docs/pdf-signatures.md), run in-process as a user types it.
@Suite struct ReportSigningTests {
    static let stem = "generic16-20260408T1430Z"

    func log() throws -> Data {
        let temperatures = Array(repeating: 5.0, count: 10) + Array(repeating: 9.0, count: 6) + Array(repeating: 5.0, count: 10)
        return try LoggerImageFactory.message(
            kind: "generic16", temperatures: temperatures, interval: 1800,
            newestSampleTime: Date(timeIntervalSince1970: 1_775_703_600)
        ).serialized()
    }

    /// A log file and a signing identity's PEM files in a fresh folder.
    func withFiles(_ body: (TemporaryFiles, PDFSigningIdentity) async throws -> Void) async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        _ = try files.write("fridge.ndef", try log())
        #if os(Linux)
            let identity = try PDFSigningIdentity.selfSigned(commonName: "QA Lab Nord", organization: "Cold Store Ltd")
            _ = try files.write("key.pem", Data(identity.privateKeyPEM.utf8))
            _ = try files.write("cert.pem", Data(identity.certificatePEM.utf8))
            try await body(files, identity)
        #endif
    }

    #if os(Linux)
        @Test func theWrittenPDFIsSignedWithTheGivenReason() async throws {
            try await withFiles { files, identity in
                let out = files.directory.appendingPathComponent("out")
                let key = files.directory.appendingPathComponent("key.pem").path
                let certificate = files.directory.appendingPathComponent("cert.pem").path
                let run = await runColdTap([
                    "report", files.directory.appendingPathComponent("fridge.ndef").path, "--tz", "UTC", "--pdf", "--html", "--out", out.path,
                    "--sign-with", key, "--cert", certificate, "--sign-reason", "released for shipment",
                ])
                #expect(run.status == 0, "\(run.err)")
                let pdfURL = out.appendingPathComponent(Self.stem + "-report.pdf")
                let pdf = try Data(contentsOf: pdfURL)
                let signature = try #require(try PDFSignatureCheck.signatures(in: pdf).first)
                #expect(signature.isIntact && signature.coversWholeFile)
                #expect(signature.reason == "released for shipment")
                #expect(signature.name == "QA Lab Nord")
                #expect(signature.signerCertificate == identity.certificate)
                // The HTML is written as before, unsigned.
                #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(Self.stem + "-report.html").path))

                // pyHanko, trusting the certificate given, finds it whole and valid.
                let verdict = try PyHanko.validate(pdf: pdfURL, trusting: URL(fileURLWithPath: certificate))
                let checked = try #require(verdict.signatures?.first, "pyHanko: \(verdict.error ?? "no signature")")
                #expect(checked.bottomLine == true, "pyHanko: \(checked.error ?? checked.summary ?? "")")
                #expect(checked.coverage == "ENTIRE_FILE")
                #expect(checked.reason == "released for shipment")
            }
        }

        @Test func theReasonIsReportUnlessOneIsGiven() async throws {
            try await withFiles { files, _ in
                let output = files.directory.appendingPathComponent("one.pdf").path
                let run = await runColdTap([
                    "report", files.directory.appendingPathComponent("fridge.ndef").path, "-o", output,
                    "--sign-with", files.directory.appendingPathComponent("key.pem").path, "--cert", files.directory.appendingPathComponent("cert.pem").path,
                ])
                #expect(run.status == 0, "\(run.err)")
                let signature = try #require(try PDFSignatureCheck.signatures(in: try Data(contentsOf: URL(fileURLWithPath: output))).first)
                #expect(signature.reason == "report")
                #expect(signature.isIntact)
            }
        }

        @Test func aKeyThatCannotSignStopsTheCommandBeforeAnythingIsWritten() async throws {
            try await withFiles { files, _ in
                let out = files.directory.appendingPathComponent("out")
                let other = try PDFSigningIdentity.selfSigned(commonName: "someone else")
                let otherKey = try files.write("other-key.pem", Data(other.privateKeyPEM.utf8))
                let certificate = files.directory.appendingPathComponent("cert.pem").path
                let input = files.directory.appendingPathComponent("fridge.ndef").path
                let mismatch = await runColdTap(["report", input, "--pdf", "--out", out.path, "--sign-with", otherKey, "--cert", certificate])
                #expect(mismatch.status == 65)
                #expect(mismatch.err.contains("the private key '\(otherKey)' does not belong to the certificate '\(certificate)'"), "\(mismatch.err)")
                #expect(mismatch.out.isEmpty, "the verdict was printed before the refusal")
                #expect(!FileManager.default.fileExists(atPath: out.path))

                let missing = files.directory.appendingPathComponent("missing.pem").path
                let absent = await runColdTap(["report", input, "--pdf", "--out", out.path, "--sign-with", missing, "--cert", certificate])
                #expect(absent.status == 1)
                #expect(absent.err.contains("'\(missing)': does not exist"), "\(absent.err)")
                #expect(!FileManager.default.fileExists(atPath: out.path))
            }
        }
    #endif

    @Test func signingOptionsAreRefusedWhereTheyCannotApply() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let input = try files.write("fridge.ndef", try log())
        let out = files.directory.appendingPathComponent("out").path
        let cases: [([String], String)] = [
            (["--pdf", "--out", out, "--sign-with", "k.pem"], "--sign-with needs the key's certificate: give --cert CERT.pem too."),
            (["--pdf", "--out", out, "--cert", "c.pem"], "--cert needs its private key: give --sign-with KEY.pem too."),
            (["--pdf", "--out", out, "--sign-reason", "ok"], "--sign-reason applies to a signed PDF: give --sign-with KEY.pem --cert CERT.pem too."),
            (
                ["--html", "--out", out, "--sign-with", "k.pem", "--cert", "c.pem"],
                "--sign-with signs the PDF report, and none is written: add --pdf (or --out DIR, which writes every file)."
            ),
            (
                ["--csv", "--sign-with", "k.pem", "--cert", "c.pem"],
                "--sign-with signs the PDF report, and none is written: add --pdf (or --out DIR, which writes every file)."
            ),
            (
                ["--sign-with", "k.pem", "--cert", "c.pem"],
                "--sign-with signs the PDF report, and none is written: add --pdf (or --out DIR, which writes every file)."
            ),
            (
                ["--pdf", "--out", out, "--sign-with", "k.pem", "--cert", "c.pem", "--sign-reason", " "],
                "--sign-reason needs a text: what the signature means, e.g. 'report' or 'reviewed'."
            ),
        ]
        for (arguments, message) in cases {
            let run = await runColdTap(["report", input] + arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.err.hasPrefix("coldtap report: \(message)\n"), "\(arguments): \(run.err)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    @Test func completionsOfferTheSigningOptionsAndFileNames() {
        let bash = CommandHelp.completions(.bash)
        #expect(bash.contains("--sign-with) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;"))
        #expect(bash.contains("--cert) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;"))
        let fish = CommandHelp.completions(.fish)
        #expect(fish.contains("complete -c coldtap -n '__fish_seen_subcommand_from report' -l sign-reason -r"))
    }
}
