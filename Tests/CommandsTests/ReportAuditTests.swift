import Digest
import Foundation
import LoggerFormats
import Testing

@testable import ColdTapCommands

/// Issue 17.3: the PDF and HTML reports an auditor files list every rule with passed/fired
/// and why, the warnings, per-day figures, the input (name, size, SHA-256), the ColdTap
/// version and the read-time source, and cut no value with "…". The PDF is read back with
/// poppler's pdftotext, as an auditor's tools would.
@Suite struct ReportAuditTests {
    /// 5 °C, then 12 h at 9 °C (fires "> 8 °C for 10 h"), then 5 °C: two days in UTC.
    static func alarmLog() throws -> Data {
        let temperatures = Array(repeating: 5.0, count: 10) + Array(repeating: 9.0, count: 24) + Array(repeating: 5.0, count: 10)
        return try LoggerImageFactory.message(
            kind: "generic16", temperatures: temperatures, interval: 1800,
            newestSampleTime: Date(timeIntervalSince1970: 1_775_736_000)
        ).serialized()
    }

    static func pdfText(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        process.arguments = ["-layout", path, "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            throw CommandError(.unavailable, "pdftotext (Debian package poppler-utils, installed by make test) cannot run: \(error)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func thePDFAndHTMLCarryTheAuditTrail() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        // A long directory name: the file row must wrap, not be cut.
        let long = files.directory.appendingPathComponent(String(repeating: "shipment-2026-04-record-", count: 4))
        try FileManager.default.createDirectory(at: long, withIntermediateDirectories: true)
        let input = long.appendingPathComponent("fridge.ndef")
        let bytes = try Self.alarmLog()
        try bytes.write(to: input)
        let out = files.directory.appendingPathComponent("out")
        let result = await runColdTap(["report", input.path, "--tz", "UTC", "--pdf", "--html", "--out", out.path])
        #expect(result.status == 0, "\(result.err)")
        let stem = "generic16-20260408T1430Z"
        let text = try Self.pdfText(out.appendingPathComponent(stem + "-report.pdf").path)
        let pages = text.components(separatedBy: "\u{0C}").filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        #expect(pages.count == 2)
        let flat = text.replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
        // Every rule, with its outcome and why.
        #expect(flat.contains("FIRED > 8 °C for 10 h continuous '> 8 °C for 10 h continuous' fired at 2026-04-09 05:30: 12 h above the limit, peak 9.00 °C."))
        #expect(flat.contains("passed ≤ −0.5 °C for 60 min continuous longest run beyond the limit 0 s, allowed 1 h"))
        // Warnings, per day, input, version, read-time source.
        // The log has a clock of its own (a Text record): its times are not estimates.
        #expect(flat.contains("Warnings No warnings."))
        #expect(flat.contains("Per day (GMT) Day In band Above Below Unknown Min Max Mean"))
        #expect(flat.contains("2026-04-08 "))
        #expect(flat.contains("2026-04-09 "))
        #expect(flat.contains("SHA-256 \(SHA256Digest.hex(bytes))"))
        #expect(flat.contains("Size \(bytes.count) bytes"))
        #expect(flat.contains("ColdTap version \(ColdTap.version)"))
        #expect(flat.contains("Read time from the time of decoding"))
        // The long path is there whole (wrapped), and nothing is cut with an ellipsis.
        #expect(flat.replacingOccurrences(of: " ", with: "").contains(input.path.replacingOccurrences(of: " ", with: "")))
        #expect(!text.contains("…"))

        let html = try String(contentsOf: out.appendingPathComponent(stem + "-report.html"), encoding: .utf8)
        #expect(html.contains("<tr class=\"rule-fired\"><td class=\"state\">FIRED</td><td>&gt; 8 °C for 10 h continuous</td>"))
        #expect(
            html.contains(
                "<tr class=\"rule-passed\"><td class=\"state\">passed</td><td>≤ −0.5 °C for 60 min continuous</td><td>longest run beyond the limit 0 s, allowed 1 h</td></tr>"
            ))
        #expect(html.contains("<section id=\"days\">"))
        #expect(html.contains("<tr><th>SHA-256</th><td class=\"wrap\">\(SHA256Digest.hex(bytes))</td></tr>"))
        #expect(html.contains("<tr><th>File</th><td class=\"wrap\">\(input.path)</td></tr>"))
        #expect(html.contains("<tr><th>ColdTap version</th><td class=\"wrap\">\(ColdTap.version)</td></tr>"))
    }

    @Test func anEstimatedReadTimeIsSaidInEveryLanguage() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let dump = try await DecodeDumpTests.image(kind: "cupltag", chip: .nt3h2111)
        let input = try files.write("copy.bin", dump.memory)
        let expected = [
            "en": "All times are estimated: the log has no clock and the read time is not known (the file's modification time was used).",
            "zh-Hans": "所有时间均为推算：记录仪没有时钟，读取时间未知（使用了文件修改时间）。",
            "ja": "すべての時刻は推定です：ロガーに時計がなく、読み取り時刻も不明です（ファイルの更新日時を使用）。",
        ]
        for (language, note) in expected {
            let out = files.directory.appendingPathComponent(language)
            let result = await runColdTap([
                "report", input, "--secret", DecodeFixtures.key, "--lang", language, "--html", "--pdf",
                "--out", out.path,
            ])
            #expect(result.status == 0, "\(result.err)")
            let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
            let html = try String(contentsOf: out.appendingPathComponent(try #require(names.first { $0.hasSuffix(".html") })), encoding: .utf8)
            #expect(html.contains("<p class=\"estimated\" id=\"times-estimated\">\(SVGCanvasEscape.escape(note))</p>"))
            let pdf = try Self.pdfText(out.appendingPathComponent(try #require(names.first { $0.hasSuffix(".pdf") })).path)
            let flat = pdf.replacingOccurrences(of: "\\s+", with: "", options: .regularExpression)
            #expect(flat.contains(note.replacingOccurrences(of: " ", with: "")), "\(language)")
        }
    }
}

/// The HTML report's escaping, for expected strings.
enum SVGCanvasEscape {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "'", with: "&apos;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
