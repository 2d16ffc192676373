import Foundation
import LoggerFormats
import NDEF
import NFCTags
import Testing

@testable import ColdTapCommands

/// Issue 17.1: a read time that is not known is never shown as a fact. A copied dump takes
/// the file's modification time and stdin or a URL take "now"; every output then says the
/// times are estimated and from what, and `--require-read-time` refuses instead.
@Suite struct ReadTimeHonestyTests {
    static let read = Date(timeIntervalSince1970: 1_787_032_800)  // 2026-08-18T06:00:00Z

    /// A Type 2 dump of a cuplTag (no clock of its own) with the given modification time.
    static func cuplDump(in files: TemporaryFiles, modified: Date) async throws -> String {
        let dump = try await DecodeDumpTests.image(kind: "cupltag", chip: .nt3h2111)
        let path = try files.write("copied.bin", dump.memory)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
        return path
    }

    @Test func aCopiedDumpSaysItsTimesAreEstimatedFromTheFileTime() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try await Self.cuplDump(in: files, modified: Self.read)

        let text = await runColdTap(["decode", path, "--secret", DecodeFixtures.key])
        #expect(text.status == 0, "\(text.err)")
        #expect(
            text.out.contains("Read time:   2026-08-18T06:00:00Z (not known: the file's modification time stands in; every sample time is estimated from it)"))
        #expect(!text.out.contains("Warnings:    none"))
        #expect(
            text.out.contains(
                "Warning:     the sample times are estimated: the log has no clock and the read time is not known, so the newest sample is placed at the file's modification time 2026-08-18T06:00:00Z, which moves when the file is copied"
            ))

        let json = await runColdTap(["decode", path, "--json", "--secret", DecodeFixtures.key])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(object["readTimeSource"] as? String == "file modification time")
        #expect(object["timesEstimated"] as? Bool == true)
        let warnings = try #require(object["warnings"] as? [String])
        #expect(warnings.contains { $0.hasPrefix("the sample times are estimated") })

        let csv = await runColdTap(["decode", path, "--csv"])
        // Said in the time column's header: nothing above it that a spreadsheet would take for data.
        #expect(
            csv.out.hasPrefix("time (UTC; estimated from the file's modification time 2026-08-18T06:00:00Z),temperature_c,humidity_pct,flags\r\n"),
            "\(csv.out.prefix(200))")

        // The chart files say it in their title (the PDF and HTML: ReportAuditTests).
        let out = files.directory.appendingPathComponent("charts")
        let charts = await runColdTap(["report", path, "--secret", DecodeFixtures.key, "--svg", "--out", out.path])
        #expect(charts.status == 0, "\(charts.err)")
        let svgName = try #require(try FileManager.default.contentsOfDirectory(atPath: out.path).first)
        let svg = try String(contentsOf: out.appendingPathComponent(svgName), encoding: .utf8)
        #expect(svg.contains("— times estimated from the file&apos;s modification time"))

        let report = await runColdTap(["report", path, "--secret", DecodeFixtures.key])
        #expect(
            report.out.contains("read time  2026-08-18T06:00:00Z (not known: the file's modification time stands in; every sample time is estimated from it)"))
        #expect(report.out.contains("warning: the sample times are estimated"))
    }

    @Test func aGivenReadTimeIsAFactAndNeedsNoWarning() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try await Self.cuplDump(in: files, modified: Self.read)
        let json = await runColdTap(["decode", path, "--read-time", "2026-08-18T06:00:00Z", "--json", "--require-read-time", "--secret", DecodeFixtures.key])
        #expect(json.status == 0, "\(json.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(object["timesEstimated"] as? Bool == false)
        #expect((object["warnings"] as? [String])?.isEmpty == true)
        let csv = await runColdTap(["decode", path, "--read-time", "2026-08-18T06:00:00Z", "--csv"])
        #expect(csv.out.hasPrefix("time (UTC),"))
    }

    @Test func standardInputTakesNowAndSaysSo() async throws {
        // generic16 without a Text record: the log has no clock at all.
        let result = await runColdTap(["decode", "-", "--json"], stdin: try DecodeFixtures.generic16Message.serialized())
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(object["readTimeSource"] as? String == "now (no read time known)")
        #expect(object["timesEstimated"] as? Bool == true)
        let warnings = try #require(object["warnings"] as? [String])
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("the newest sample is placed at the time of decoding") == true)
    }

    @Test func requireReadTimeRefusesAnEstimate() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try await Self.cuplDump(in: files, modified: Self.read)
        for command in ["decode", "report"] {
            let result = await runColdTap([command, path, "--require-read-time"])
            #expect(result.status == 65)
            #expect(result.out.isEmpty)
            #expect(
                result.err
                    == "coldtap \(command): '\(path)': the log has no clock and the read time is not known (only the file's modification time 2026-08-18T06:00:00Z), so its sample times would be estimates; give the read time with --read-time ISO8601, or leave out --require-read-time.\n"
            )
        }
    }

    @Test func aReadTimeBeforeTheNewestSampleIsAWarning() async throws {
        // A log with its own clock (generic16-unix: start time in the header) read "before" it ended.
        let message = try LoggerImageFactory.message(
            kind: "generic16-unix", temperatures: [5, 6, 7], interval: 3600,
            newestSampleTime: Self.read)
        let early = await runColdTap(["decode", "-", "--read-time", "2026-08-18T04:00:00Z", "--json"], stdin: message.serialized())
        #expect(early.status == 0, "\(early.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(early.out.utf8)) as? [String: Any])
        #expect(object["timesEstimated"] as? Bool == false)
        #expect(
            (object["warnings"] as? [String]) == [
                "the read time 2026-08-18T04:00:00Z is earlier than the newest sample (2026-08-18T06:00:00Z): the read time or the logger's clock is wrong"
            ])
        let late = await runColdTap(["decode", "-", "--read-time", "2026-08-18T01:00:00Z"], stdin: message.serialized())
        #expect(
            late.out.contains(
                "Warning:     the log starts at 2026-08-18T04:00:00Z, after the read time 2026-08-18T01:00:00Z: the read time or the logger's clock is wrong"))
    }

    @Test func aLogStartingBefore2000IsAWarning() async throws {
        let message = try LoggerImageFactory.message(
            kind: "generic16-unix", temperatures: [5, 6], interval: 60,
            newestSampleTime: Date(timeIntervalSince1970: 900_000_000))
        let result = await runColdTap(
            ["decode", "-", "--read-time", "2026-08-18T04:00:00Z", "--logger", "generic16-unix"],
            stdin: message.serialized())
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("Warning:     the log starts at 1998-07-09T15:59:00Z, before 2000"))
        #expect(result.out.contains(", before 2000: the logger's clock or its start time is wrong"))
    }
}
