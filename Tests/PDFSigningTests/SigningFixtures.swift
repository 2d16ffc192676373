import ColdChain
import ColdTapKit
import Foundation
import LoggerFormats
import PDFSigning
import Testing

/// What the signing tests share: a real ColdTap report PDF (drawn by Cairo through
/// ColdTapKit's ReportRendering, as the command line and the station draw them), small PDFs
/// made by hand, a temporary folder, the openssl command line.
enum SigningFixtures {
    /// A 2-page English report of a generic16 log with an excursion, drawn as `coldtap report
    /// --pdf` draws it.
    static func reportPDF() throws -> Data {
        let temperatures = Array(repeating: 5.0, count: 10) + Array(repeating: 9.0, count: 24) + Array(repeating: 5.0, count: 10)
        let newest = Date(timeIntervalSince1970: 1_775_736_000)
        let message = try LoggerImageFactory.message(kind: "generic16", temperatures: temperatures, interval: 1800, newestSampleTime: newest)
        let log = try LoggerDecoder.decode(message, options: DecodeOptions(readTime: newest.addingTimeInterval(600)))
        let assessment = Assessor.assess(log, profile: .vaccineFridge, timeZone: TimeZone(identifier: "UTC") ?? .current)
        return try ReportRendering().render(.pdf, of: ReportRendering.Subject(log: log, assessment: assessment, generated: newest))
    }

    /// When the tests sign: within the validity of identities made now.
    static var signingTime: Date { Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)) }

    /// A PDF of `objects` (bodies of objects 1, 2, …) with a classic cross-reference table
    /// and a trailer naming object `root` (plus `trailerExtra`).
    static func minimalPDF(_ objects: [String], root: Int = 1, trailerExtra: String = "") -> Data {
        var text = "%PDF-1.4\n%\u{00E2}\u{00E3}\n"
        var bytes = Array(text.utf8)
        var offsets: [Int] = []
        for (index, body) in objects.enumerated() {
            offsets.append(bytes.count)
            bytes += Array("\(index + 1) 0 obj\n\(body)\nendobj\n".utf8)
        }
        let table = bytes.count
        text = "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { text += String(format: "%010d 00000 n \n", offset) }
        text += "trailer\n<< /Size \(objects.count + 1) /Root \(root) 0 R\(trailerExtra) >>\nstartxref\n\(table)\n%%EOF\n"
        return Data(bytes + Array(text.utf8))
    }

    /// A one-page PDF: catalog 1, pages 2, page 3 with `pageExtra` in its dictionary, content 4.
    static func onePagePDF(pageExtra: String = "", more: [String] = []) -> Data {
        minimalPDF(
            [
                "<< /Type /Catalog /Pages 2 0 R >>",
                "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R\(pageExtra) >>",
                "<< /Length 8 >>\nstream\n0 0 m S\n\nendstream",
            ] + more)
    }

    /// The signatures `PDFSignatureCheck` finds, required to be there.
    static func check(_ pdf: Data) throws -> [PDFSignatureCheck.Signature] {
        try PDFSignatureCheck.signatures(in: pdf)
    }
}

/// A folder of its own under the system's temporary folder, removed by `remove()`.
final class TemporaryFolder: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-pdfsigning-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The openssl command line (Debian's openssl package, installed by `make test-deps`): an
/// operator's keys and certificates made by another tool than ours.
enum OpenSSL {
    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            throw Failed(description: "openssl (Debian package openssl, installed by make test-deps) cannot run: \(error)")
        }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(description: "openssl \(arguments.joined(separator: " ")) failed: \(String(decoding: output, as: UTF8.self))")
        }
    }

    /// A key made by `genpkey` with `keyArguments` and a self-signed certificate for it whose
    /// key usage is `keyUsage`, written to `key` and `certificate`.
    static func selfSigned(key: String, certificate: String, keyArguments: [String], keyUsage: String = "critical,digitalSignature,nonRepudiation")
        throws
    {
        try run(["genpkey"] + keyArguments + ["-out", key])
        try run([
            "req", "-new", "-x509", "-key", key, "-out", certificate, "-days", "30", "-subj", "/CN=Operator Test/O=ColdTap Tests",
            "-addext", "keyUsage=\(keyUsage)", "-addext", "basicConstraints=critical,CA:FALSE",
        ])
    }
}
