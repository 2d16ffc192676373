import Foundation
import LoggerFormats
import Testing

@testable import ColdTapCommands

/// `coldtap report` writing chart and report files, and its terminal chart.
@Suite struct ReportArtifactsTests {
    /// Files are named after the logger: format and the first sample's time (UTC).
    static let stem = "generic16-20260408T1430Z"

    /// A generic16 NDEF message every 30 min, newest at 2026-04-09 12:00Z: 5 °C, then 12 h at 9 °C, then 5 °C.
    func excursionLog() throws -> Data {
        let temperatures = Array(repeating: 5.0, count: 10) + Array(repeating: 9.0, count: 24) + Array(repeating: 5.0, count: 10)
        return try LoggerImageFactory.message(
            kind: "generic16", temperatures: temperatures, interval: 1800,
            newestSampleTime: Date(timeIntervalSince1970: 1_775_736_000)
        ).serialized()
    }

    func withDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("artifacts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    @Test func writesAllFilesWhenNoneIsNamed() async throws {
        try await withDirectory { directory in
            let input = directory.appendingPathComponent("fridge.ndef")
            try excursionLog().write(to: input)
            let out = directory.appendingPathComponent("out")
            let console = Console.capturing()
            let status = await ColdTap.main(
                [
                    "report", input.path, "--tz", "Asia/Tokyo", "--out", out.path, "--lang", "ja",
                    "--theme", "dark",
                ], console: console)
            #expect(status == 0, "\(console.errorOutput)")
            let names = ["-chart.png", "-report.pdf", "-chart.svg", "-report.html", ".csv"].map { Self.stem + $0 }
            for name in names {
                #expect(console.output.contains(out.appendingPathComponent(name).path + "\n"), "\(name) not printed")
            }
            let png = try Data(contentsOf: out.appendingPathComponent(Self.stem + "-chart.png"))
            #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            let pdf = try Data(contentsOf: out.appendingPathComponent(Self.stem + "-report.pdf"))
            #expect(pdf.starts(with: Data("%PDF-".utf8)))
            let svg = try String(contentsOf: out.appendingPathComponent(Self.stem + "-chart.svg"), encoding: .utf8)
            #expect(svg.contains("<svg") && svg.contains("上限 8.0 °C"))
            let html = try String(contentsOf: out.appendingPathComponent(Self.stem + "-report.html"), encoding: .utf8)
            #expect(html.contains("<html lang=\"ja\">"))
            #expect(html.contains("警報"))
            #expect(html.contains("<svg"))
            // Self-contained: nothing fetched from anywhere.
            #expect(!html.contains("src=") && !html.contains("href=") && !html.contains("@import") && !html.contains("url(http"))
            let csv = try String(contentsOf: out.appendingPathComponent(Self.stem + ".csv"), encoding: .utf8)
            #expect(csv.hasPrefix("time (Asia/Tokyo),temperature_c,humidity_pct,flags\r\n2026-04-08T23:30:00+09:00,5.0,,\r\n"))
            #expect(csv.components(separatedBy: "\r\n").count == 1 + 44 + 1)
        }
    }

    @Test func writesOnlyTheNamedKinds() async throws {
        try await withDirectory { directory in
            let input = directory.appendingPathComponent("log.ndef")
            try excursionLog().write(to: input)
            let console = Console.capturing()
            let status = await ColdTap.main(
                [
                    "report", input.path, "--out", directory.path, "--svg", "--csv", "--json",
                    "--size", "800x400",
                ], console: console)
            #expect(status == 0)
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            #expect(files == [Self.stem + "-chart.svg", Self.stem + ".csv", "log.ndef"])
            // With --json the paths go to standard error, the JSON stays clean.
            #expect(console.output.hasPrefix("{"))
            #expect(console.errorOutput.contains(Self.stem + "-chart.svg"))
            let svg = try String(contentsOf: directory.appendingPathComponent(Self.stem + "-chart.svg"), encoding: .utf8)
            #expect(svg.contains("width=\"800\" height=\"400\""))
        }
    }

    @Test func badChartOptionsAreUsageErrors() async {
        for extra in [["--theme", "sepia"], ["--size", "10x10"], ["--size", "big"], ["--lang", "fr"]] {
            let console = Console.capturing()
            #expect(await ColdTap.main(["report", "x.ndef"] + extra, console: console) == 64, "\(extra)")
        }
    }

    @Test func terminalChartFitsTheTerminal() async throws {
        try await withDirectory { directory in
            let input = directory.appendingPathComponent("log.ndef")
            try excursionLog().write(to: input)
            let console = Console.capturing(outputIsTerminal: true, terminalColumns: 60)
            #expect(await ColdTap.main(["report", input.path, "--tz", "UTC"], console: console) == 0)
            let plain = console.output.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            let chartLines = plain.split(separator: "\n").filter { $0.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) } }
            #expect(chartLines.count >= 10)
            #expect(chartLines.allSatisfy { $0.count <= 60 })
            #expect(plain.contains("8.0 ┤"))
            // Not a terminal: no chart.
            let piped = Console.capturing()
            #expect(await ColdTap.main(["report", input.path, "--tz", "UTC"], console: piped) == 0)
            #expect(!piped.output.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) })
        }
    }
}
