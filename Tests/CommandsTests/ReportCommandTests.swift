import ColdChain
import Foundation
import LoggerFormats
import NDEF
import Testing

@testable import ColdTapCommands

/// 2026-04-09T00:00:00Z.
private let start = Date(timeIntervalSince1970: 1_775_692_800)
private let utc = TimeZone(identifier: "UTC")!

/// Samples every 30 min from `start`; `nil` is a missing sample.
private func makeLog(_ values: [Double?], integrity: TemperatureLog.Integrity.Status = .verified) -> TemperatureLog {
    let samples = values.enumerated().map { index, value in
        TemperatureLog.Sample(
            time: start.addingTimeInterval(Double(index) * 1800), temperature: value,
            flags: value == nil ? [.missing] : [])
    }
    return TemperatureLog(
        format: "test", logger: .init(serial: "T-1"), samples: samples, interval: 1800,
        timeBase: .loggerHeader, integrity: .init(status: integrity, detail: "HMAC-MD5"),
        readTime: start.addingTimeInterval(Double(values.count) * 1800))
}

@Suite struct ReportRenderingTests {
    @Test func jsonHasTheDocumentedShape() {
        // 10 h 30 min at 9 °C then 5 °C: the high rule fires at 10:00Z.
        let log = makeLog(Array(repeating: 9, count: 21) + [5])
        let assessment = Assessor.assess(log, profile: .vaccineFridge, timeZone: utc)
        let json = ReportCommand.json(log: .object([("format", .string("test"))]), period: ReportPeriod(log: log), assessment: assessment)
        #expect(
            json.serialized(pretty: false) == """
                {"log":{"format":"test"},"profile":"vaccine-fridge","verdict":"ALARM","headline":"ALARM — 1 excursion not yet acknowledged",\
                "period":{"start":"2026-04-09T00:00:00Z","end":"2026-04-09T10:30:00Z"},"statistics":{"min":5,"minTime":"2026-04-09T10:30:00Z","max":9,"maxTime":"2026-04-09T00:00:00Z",\
                "mean":8.818181818181818,"stddev":0.8331955809010618,"mkt":8.854252986887104,"validSamples":22,"unknownSeconds":0},\
                "excursions":[{"direction":"high","start":"2026-04-09T00:00:00Z","end":"2026-04-09T10:30:00Z",\
                "durationSeconds":37800,"peak":9,"peakTime":"2026-04-09T00:00:00Z","degreeMinutes":630}],\
                "alarms":[{"rule":"> 8 °C for 10 h continuous","firedAt":"2026-04-09T10:00:00Z","exposureSeconds":37800}],\
                "reasons":["'> 8 °C for 10 h continuous' fired at 2026-04-09 10:00 +00:00: 10 h 30 min continuous beyond the limit from 2026-04-09 00:00 +00:00, peak 9 °C, 1 °C above the limit.",\
                "1 excursion outside 2–8 °C lasting 10 h 30 min in total."]}
                """)
    }

    @Test func jsonOfAnEmptyLogUsesNulls() {
        let assessment = Assessor.assess(makeLog([]), profile: .frozen, timeZone: utc)
        let json = ReportCommand.json(log: .null, period: ReportPeriod(log: makeLog([])), assessment: assessment).serialized(pretty: false)
        #expect(
            json.contains(
                #""profile":"frozen","verdict":"INCONCLUSIVE","headline":"INCONCLUSIVE","period":null,"statistics":{"min":null,"minTime":null,"max":null,"maxTime":null,"mean":null,"stddev":null,"mkt":null,"validSamples":0,"unknownSeconds":0},"excursions":[],"alarms":[]"#
            ))
    }

    @Test func textStartsWithTheVerdictAndHasTheTables() {
        let log = makeLog([5, 9, 9.5, nil, 5])
        let assessment = Assessor.assess(log, profile: .vaccineFridge, timeZone: utc)
        let text = ReportCommand.text(log, assessment: assessment, colour: false)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // OK, but the excursion to 9.5 °C is not hidden behind it.
        #expect(
            lines[0]
                == "OK — 1 excursion not yet acknowledged  vaccine-fridge — Vaccine refrigerator, 30-day recorder (WHO PQS E006): 2–8 °C, single-event alarms")
        #expect(lines[1] == "  • No rule fired, even with the 30 min of unknown time counted as beyond the limits.")
        #expect(!text.contains("\u{1B}"))
        #expect(lines.contains("  passed  > 8 °C for 10 h continuous"))
        #expect(lines.contains("  min      5 °C at 2026-04-09 00:00 +00:00"))
        #expect(lines.contains("  max      9.5 °C at 2026-04-09 01:00 +00:00"))
        #expect(lines.contains("  mean     7.13 °C ± 2.13 °C (standard deviation)"))
        #expect(lines.contains("  in band  1 h (50.0 %) within 2–8 °C"))
        #expect(lines.contains("  #  side  start                    end                      duration    peak  peak at                  °C·min  unknown time"))
        // (9 − 8) × 30 + (9.5 − 8) × 30 = 75 degree-minutes; a missing sample follows.
        #expect(lines.contains("  1  high  2026-04-09 00:30 +00:00  2026-04-09 01:30 +00:00       1 h  9.5 °C  2026-04-09 01:00 +00:00    75.0  after"))
        // Mean (5 + 9 + 9.5 + 5) / 4 = 7.125.
        #expect(lines.contains("  2026-04-09      1 h    1 h    0 s   30 min  5 °C  9.5 °C  7.13 °C"))
    }

    @Test func colourOnlyWhenAsked() {
        let assessment = Assessor.assess(makeLog(Array(repeating: 9, count: 20)), profile: .vaccineFridge, timeZone: utc)
        let text = ReportCommand.text(makeLog([]), assessment: assessment, colour: true)
        #expect(text.hasPrefix("\u{1B}[1;31mALARM\u{1B}[0m — \u{1B}[1m1 excursion not yet acknowledged\u{1B}[0m  vaccine-fridge"))
    }

    @Test func tableIgnoresColourCodesWhenPadding() {
        let rows = ReportCommand.table([["\u{1B}[31mab\u{1B}[0m", "x"], ["abcd", "y"]], header: nil, rightAligned: [])
        #expect(rows == ["  \u{1B}[31mab\u{1B}[0m    x", "  abcd  y"])
    }
}

@Suite struct ReportOptionTests {
    @Test func profilesByNameAndFile() throws {
        #expect(try ReportCommand.resolveProfile(nil) == .vaccineFridge)
        #expect(try ReportCommand.resolveProfile("usp-crt") == .uspControlledRoomTemperature)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("good.json")
        try Data(#"{"name": "mine", "band": {"min": 0, "max": 4}, "rules": [{"kind": "instantaneous", "comparator": ">", "limit": 6}]}"#.utf8).write(to: good)
        let profile = try ReportCommand.resolveProfile(good.path)
        #expect(profile.name == "mine" && profile.rules == [.instantaneous(Threshold(.greaterThan, 6))])
        let bad = directory.appendingPathComponent("bad.json")
        try Data(#"{"name": "mine", "rules": [{"kind": "instantaneous", "comparator": "=", "limit": 6}]}"#.utf8).write(to: bad)
        let error = try #require(throws: CommandError.self) { try ReportCommand.resolveProfile(bad.path) }
        #expect(error.status == .dataError)
        #expect(error.message.contains("rules[0].comparator: '=' is not a comparator"))
        let unknown = try #require(throws: CommandError.self) { try ReportCommand.resolveProfile("fridge") }
        #expect(unknown.status == .usage)
        let missing = try #require(throws: CommandError.self) {
            try ReportCommand.resolveProfile(directory.appendingPathComponent("none.json").path)
        }
        #expect(missing.status == .failure)
    }

    @Test func timeZones() throws {
        #expect(OptionValueParser<TimeZone>.zone.convert("Europe/Berlin")?.identifier == "Europe/Berlin")
        #expect(OptionValueParser<TimeZone>.zone.convert("UTC")?.secondsFromGMT() == 0)
        #expect(OptionValueParser<TimeZone>.zone.convert("+02:00")?.secondsFromGMT() == 7200)
        #expect(OptionValueParser<TimeZone>.zone.convert("-0530")?.secondsFromGMT() == -19_800)
        #expect(OptionValueParser<TimeZone>.zone.convert("Mars/Olympus") == nil)
    }
}

/// `coldtap report` end to end on files the logger-formats encoders write.
@Suite struct ReportCommandRunTests {
    func withFile<T>(_ data: Data, _ body: (String) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("log.ndef")
        try data.write(to: file)
        return try await body(file.path)
    }

    /// A generic16 NDEF message: `temperatures` every 30 min, the newest at 2026-04-09 12:00Z.
    func generic16(_ temperatures: [Double]) throws -> Data {
        let newest = Date(timeIntervalSince1970: 1_775_736_000)
        return try LoggerImageFactory.message(
            kind: "generic16", temperatures: temperatures, interval: 1800,
            newestSampleTime: newest
        ).serialized()
    }

    @Test func jsonReportOfADecodedFile() async throws {
        let data = try generic16(Array(repeating: 5, count: 4) + Array(repeating: 9, count: 20))
        let console = Console.capturing()
        let status = try await withFile(data) { path in
            await ColdTap.main(["report", path, "--profile", "vaccine-fridge", "--tz", "UTC", "--json"], console: console)
        }
        #expect(status == 0, "\(console.errorOutput)")
        #expect(console.output.contains(#""verdict": "ALARM""#))
        #expect(console.output.contains(#""rule": "> 8 °C for 10 h continuous""#))
        #expect(console.output.hasPrefix("{\n  \"log\": {\n    \"format\": \"generic16\""))
    }

    @Test func textReportTakesTheDecodeOptions() async throws {
        let data = try generic16(Array(repeating: -20, count: 10))
        let console = Console.capturing()
        let status = try await withFile(data) { path in
            await ColdTap.main(
                ["report", path, "--input", "ndef", "--profile", "frozen", "--tz", "Europe/Berlin"],
                console: console)
        }
        #expect(status == 0, "\(console.errorOutput)")
        #expect(console.output.hasPrefix("OK  frozen"))
        #expect(console.output.contains("time zone  Europe/Berlin"))
    }

    @Test func usageErrors() async throws {
        let console = Console.capturing()
        #expect(await ColdTap.main(["report"], console: console) == 64)
        #expect(await ColdTap.main(["report", "x.ndef", "--bogus"], console: console) == 64)
        #expect(await ColdTap.main(["report", "x.ndef", "--profile", "nope"], console: console) == 64)
        #expect(await ColdTap.main(["report", "x.ndef", "--tz", "Nowhere/Town"], console: console) == 64)
        #expect(console.errorOutput.contains("--profile 'nope' is neither a built-in profile"))
    }
}
