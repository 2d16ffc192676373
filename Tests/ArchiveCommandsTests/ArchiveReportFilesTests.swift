import Archive
import ArchiveTestSupport
import ColdTapCommands
import CommandTestSupport
import Digest
import Foundation
import Testing

/// `coldtap report --logger-id ID --pdf --html --png --svg`: the report files list the reads
/// the period covers, the gaps, the conflicts and the acknowledgements, and print the chain
/// head they were made from, in every report language. The PDF is read back with poppler's
/// pdftotext, as an auditor's tools would.
@Suite(.serialized) struct ArchiveReportFilesTests {
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

    /// Text without any white space, so that wrapped table cells still match.
    static func squeezed(_ text: String) -> String {
        text.replacingOccurrences(of: "\\s+", with: "", options: .regularExpression)
    }

    /// Three reads of one logger: #1 (samples 0–99, 12 °C at 30–35: an excursion), #2
    /// (50–149, sample 80 read as 30 °C: a conflict), #3 (200–239: a gap before it); the
    /// excursion acknowledged. Two reads cannot show both: a conflict needs them to overlap,
    /// a gap needs them not to meet.
    static func fill(_ archive: TestArchive) async throws -> (files: [String], head: String) {
        let warm = Dictionary(uniqueKeysWithValues: (30..<36).map { ($0, 12.0) })
        let files = [
            try LoggerFiles.writeGeneric(archive, "a.ndef", 0..<100, changes: warm),
            try LoggerFiles.writeGeneric(archive, "b.ndef", 50..<150, changes: [80: 30]),
            try LoggerFiles.writeGeneric(archive, "c.ndef", 200..<240),
        ]
        var run = await coldtap(["archive", "add"] + files + ["--archive", archive.location, "--logger-id", "fridge-9"])
        #expect(run.status == 0, "\(run.err)")
        run = await coldtap([
            "ack", "fridge-9", "--excursion", "2026-01-01T05:00:00Z", "--by", "Dr Ada",
            "--comment", "door left open; stock checked", "--archive", archive.location,
        ])
        #expect(run.status == 0, "\(run.err)")
        return (files, try archive.open().chainHead().hash)
    }

    @Test(arguments: Engine.allCases)
    func theReportFilesListReadsGapsConflictsAcknowledgementsAndTheChainHead(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            let (files, head) = try await Self.fill(archive)
            let out = archive.path("out")
            let run = await coldtap([
                "report", "--logger-id", "fridge-9", "--archive", archive.location, "--tz", "UTC",
                "--pdf", "--html", "--png", "--svg", "--out", out,
            ])
            #expect(run.status == 0, "\(run.err)")
            let stem = URL(fileURLWithPath: out).appendingPathComponent("generic16-unix-20260101T0000Z").path
            let shas = try files.map { SHA256Digest.hex(try Data(contentsOf: URL(fileURLWithPath: $0))) }

            let pdf = try Self.pdfText(stem + "-report.pdf")
            let flat = pdf.replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
            let squeezed = Self.squeezed(pdf)
            #expect(flat.contains("Archive record"))
            #expect(squeezed.contains("Chainhead\(head)"), "\(flat)")
            #expect(flat.contains("Logger ID fridge-9"))
            #expect(flat.contains("Reads 3"))
            #expect(flat.contains("Reads in the period"))
            #expect(flat.contains("The reads' raw bytes (SHA-256)"))
            for (index, sha) in shas.enumerated() { #expect(flat.contains("#\(index + 1) \(sha)")) }
            // Read #2: 50 new samples, 49 duplicates, 1 conflict; given on the command line (file time).
            #expect(flat.contains("#2 2026-"))
            #expect(squeezed.contains("50491"))
            #expect(flat.contains("Gaps (unknown time between reads that do not meet)"))
            #expect(flat.contains("2026-01-02 01:00:00 2026-01-02 09:20:00 8 h 20 min"), "\(flat)")
            #expect(flat.contains("Conflicts (a re-read gave another value; the first value read is used)"))
            #expect(flat.contains("2026-01-01 13:20:00 \(String(format: "%.2f", LoggerFiles.value(80))) °C (read #1) 30.00 °C (read #2)"), "\(flat)")
            #expect(flat.contains("Acknowledgements"))
            #expect(flat.contains("2026-01-01 05:00 Dr Ada"))
            #expect(flat.contains("door left open; stock checked"))
            #expect(flat.contains("Every excursion is acknowledged."))
            #expect(flat.contains("Read time from the newest read in the archive"))

            let html = try String(contentsOf: URL(fileURLWithPath: stem + "-report.html"), encoding: .utf8)
            #expect(html.contains("<tr><th>Chain head</th><td class=\"wrap\">\(head)</td></tr>"))
            #expect(html.contains("<section id=\"archive-reads\">"))
            for sha in shas { #expect(html.contains("<td>\(sha)</td>")) }
            #expect(html.contains("<td>#2</td>"))
            #expect(html.contains("<tr><td>2026-01-02 01:00:00</td><td>2026-01-02 09:20:00</td><td>8 h 20 min</td></tr>"))
            #expect(html.contains("<td>30.00 °C (read #2)</td>"))
            #expect(html.contains("<td>Dr Ada (unsigned, typed by os:"))
            #expect(html.contains("<td>door left open; stock checked</td>"))

            // The chart files travel alone: their title names the reads and the chain head.
            let svg = try String(contentsOf: URL(fileURLWithPath: stem + "-chart.svg"), encoding: .utf8)
            #expect(svg.contains("fridge-9: 3 archived read(s), chain head \(head)"))
            #expect(FileManager.default.fileExists(atPath: stem + "-chart.png"))
        }
    }

    @Test func theArchivePartIsInEveryLanguage() async throws {
        try await withArchive(.sqlite) { archive in
            let (_, head) = try await Self.fill(archive)
            let expected: [String: [String]] = [
                "zh-Hans": ["存档记录", "哈希链头", "时段内的读取", "间隙", "冲突", "确认记录", "所有偏离均已确认。", "1个样本重新读取时得到不同数值", "30.00°C（读取#2）"],
                "ja": ["アーカイブの記録", "ハッシュチェーンの先頭", "期間内の読み取り", "欠測", "不一致", "確認記録", "すべての逸脱が確認済みです。", "1件のサンプルが再読み取りで別の値になりました", "30.00°C（読み取り#2）"],
            ]
            for (language, texts) in expected {
                let out = archive.path("out-\(language)")
                let run = await coldtap([
                    "report", "--logger-id", "fridge-9", "--archive", archive.location, "--tz", "UTC",
                    "--lang", language, "--pdf", "--html", "--out", out,
                ])
                #expect(run.status == 0, "\(run.err)")
                let stem = URL(fileURLWithPath: out).appendingPathComponent("generic16-unix-20260101T0000Z").path
                let pdf = Self.squeezed(try Self.pdfText(stem + "-report.pdf"))
                let html = Self.squeezed(try String(contentsOf: URL(fileURLWithPath: stem + "-report.html"), encoding: .utf8))
                for text in texts + [head, "DrAda"] {
                    #expect(pdf.contains(text), "\(language): \(text)")
                    #expect(html.contains(text), "\(language): \(text)")
                }
            }
        }
    }
}
