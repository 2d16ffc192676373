import Foundation
import LoggerFormats
import Testing

@testable import ColdTapCommands

/// One rule for a report's period (ColdChain's `ReportPeriod`, docs/coldchain.md): the
/// terminal, the JSON, the HTML (the PDF's layout) and the CSV's rows all run from the first
/// sample to the last, never past the read (issue 44 item 9).
@Suite struct ReportPeriodTests {
    /// 44 samples every 30 min, the newest at 2026-04-09T12:00Z, read 7 minutes later: the
    /// last sample's interval would end at 12:30Z, after the read.
    func log() throws -> Data {
        try LoggerImageFactory.message(
            kind: "generic16", temperatures: Array(repeating: 5.0, count: 44), interval: 1800,
            newestSampleTime: Date(timeIntervalSince1970: 1_775_736_000)
        ).serialized()
    }

    /// `coldtap ARGS` in-process: its exit status, standard output and standard error.
    func coldtap(_ arguments: [String]) async -> (status: Int32, out: String, err: String) {
        let console = Console.capturing()
        let status = await ColdTap.main(arguments, console: console)
        return (status, console.output, console.errorOutput)
    }

    @Test func everyOutputStatesThePeriodFromTheFirstToTheLastSample() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-period-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("fridge.ndef")
        try log().write(to: input)
        let readTime = "2026-04-09T12:07:00Z"

        // The terminal: 23:30 to 21:00 in Tokyo (14:30Z to 12:00Z), 21 h 30 min.
        let terminal = await coldtap(["report", input.path, "--read-time", readTime, "--tz", "Asia/Tokyo", "--out", directory.path, "--html"])
        #expect(terminal.status == 0, "\(terminal.err)")
        let periodLine = try #require(terminal.out.split(separator: "\n").first { $0.contains("period") }, "\(terminal.out)")
        #expect(periodLine.contains("2026-04-08 23:30") && periodLine.contains("2026-04-09 21:00"), "\(periodLine)")
        #expect(periodLine.contains("21 h 30 min") || periodLine.contains("21h30"), "\(periodLine)")
        #expect(!periodLine.contains("21:30"), "the period ends at the last sample, not its interval's end after the read: \(periodLine)")

        // The JSON.
        let json = await coldtap(["report", input.path, "--read-time", readTime, "--json"])
        #expect(json.status == 0, "\(json.err)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let period = try #require(document["period"] as? [String: String], "\(document.keys)")
        #expect(period == ["start": "2026-04-08T14:30:00Z", "end": "2026-04-09T12:00:00Z"])

        // The HTML report (the PDF lays out the same rows).
        let html = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix("-report.html") }, "no HTML written")
        let page = try String(contentsOf: directory.appendingPathComponent(html), encoding: .utf8)
        #expect(page.contains("2026-04-08 23:30 – 04-09 21:00"), "\(page.prefix(3000))")

        // The CSV's rows run over the same period.
        let csv = await coldtap(["report", input.path, "--read-time", readTime, "--csv"])
        #expect(csv.status == 0, "\(csv.err)")
        let rows = csv.out.components(separatedBy: "\r\n").filter { !$0.isEmpty }.dropFirst()
        #expect(rows.first?.hasPrefix("2026-04-08T14:30:00Z") == true && rows.last?.hasPrefix("2026-04-09T12:00:00Z") == true, "\(rows.suffix(2))")
    }
}
