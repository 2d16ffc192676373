import ColdTapKit
import Foundation
import LoggerFormats
import NDEF
import Testing

@testable import ColdTapCommands

/// How outputs are written: `--json --csv` alike in `decode` and `report`, CSV times in
/// `--tz` or said to be UTC, numbers rounded to the sensor's resolution in text (full
/// precision in JSON), durations that read "19 h 0 min". (`--input tag5` on a Type 2 file
/// naming the real type: WrongTagTypeTests; README synopses = `--help`: HelpTests.)
@Suite struct OutputFormattingTests {
    static let readTime = "2026-08-18T06:00:00Z"

    @Test func jsonAndCSVTogetherAreRefusedAlikeAndCSVAlonePrintsAlike() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("log.ndef", try DecodeFixtures.generic16Message.serialized())
        for command in ["decode", "report"] {
            let both = await runColdTap([command, path, "--json", "--csv"])
            #expect(both.status == 64)
            #expect(both.out.isEmpty)
            #expect(both.err.hasPrefix("coldtap \(command): Give --json or --csv, not both"))
        }
        let decoded = await runColdTap(["decode", path, "--csv", "--read-time", Self.readTime])
        let reported = await runColdTap(["report", path, "--csv", "--read-time", Self.readTime])
        #expect(reported.status == 0)
        #expect(reported.out == decoded.out)
        #expect(try FileManager.default.contentsOfDirectory(atPath: files.directory.path) == ["log.ndef"], "no file written")
    }

    @Test func csvTimesHonourTZOrSayUTC() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("log.ndef", try DecodeFixtures.generic16Message.serialized())
        let utc = await runColdTap(["decode", path, "--csv", "--read-time", Self.readTime])
        #expect(utc.out.hasPrefix("time (UTC),temperature_c,humidity_pct,flags\r\n2026-08-18T05:57:00Z,25.8,,\r\n"))
        for command in ["decode", "report"] {
            let zoned = await runColdTap([command, path, "--csv", "--tz", "Asia/Shanghai", "--read-time", Self.readTime])
            #expect(zoned.status == 0, "\(zoned.err)")
            #expect(zoned.out.hasPrefix("time (Asia/Shanghai),temperature_c,humidity_pct,flags\r\n2026-08-18T13:57:00+08:00,25.8,,\r\n"))
        }
    }

    @Test func textRoundsToTheSensorsResolutionAndJSONKeepsFullPrecision() async throws {
        let url = try DecodeFixtures.cuplURL()
        let text = await runColdTap(["decode", url, "--read-time", "2024-04-09T08:35:00Z", "--secret", DecodeFixtures.key])
        // The cuplTag's step is 165/4096 ≈ 0.04 °C: two decimals.
        #expect(text.out.contains("Temperature: min 17.44 °C at 2024-04-09T08:19:00Z, max 17.73 °C at 2024-04-09T07:43:00Z"))
        #expect(text.out.contains("Humidity:    min 47.4 %, max 47.8 %"))
        #expect(!text.out.contains("17.564697265625"))
        let json = await runColdTap(["decode", url, "--read-time", "2024-04-09T08:35:00Z", "--secret", DecodeFixtures.key, "--json"])
        #expect(json.out.contains("\"temperature\": 17.564697265625"))
        // generic16's step is 0.1 °C: one decimal.
        let generic = await runColdTap(["decode", "-", "--read-time", Self.readTime], stdin: try DecodeFixtures.generic16Message.serialized())
        #expect(generic.out.contains("Temperature: min -0.2 °C at 2026-08-18T05:58:00Z, max 25.8 °C at 2026-08-18T05:57:00Z"))
    }

    /// The terminal words durations as the reports do (`ColdChainFormat.durationParts`).
    @Test func durationsReadAsHoursAndMinutes() async throws {
        #expect(LogExport.readableDuration(68_400) == "19 h")
        #expect(LogExport.readableDuration(53_698) == "14 h 55 min")
        #expect(LogExport.readableDuration(600) == "10 min")
        #expect(LogExport.readableDuration(270) == "4 min 30 s")
        #expect(LogExport.readableDuration(30) == "30 s")
        #expect(LogExport.readableDuration(3 * 86_400 + 4 * 3600) == "3 d 4 h")
        // 19 hourly samples at 5 °C: an 18 h period, first sample to last (docs/coldchain.md,
        // "A report's period").
        let message = try LoggerImageFactory.message(
            kind: "generic16", temperatures: Array(repeating: 5, count: 19), interval: 3600,
            newestSampleTime: Date(timeIntervalSince1970: 1_787_032_800))
        let report = await runColdTap(["report", "-", "--read-time", Self.readTime, "--tz", "UTC"], stdin: try message.serialized())
        #expect(report.status == 0, "\(report.err)")
        #expect(report.out.contains("  samples    19 every 1 h\n"))
        #expect(report.out.contains("(18 h)\n"), "\(report.out)")
        let decoded = await runColdTap(["decode", "-", "--read-time", Self.readTime], stdin: try message.serialized())
        #expect(decoded.out.contains("Interval:    1 h\n"))
    }
}
