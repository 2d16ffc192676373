import Foundation
import LoggerFormats
import TestSupport
import Testing

/// Berlinger text reports (docs/berlinger.md) of our own making, one of each kind, decoded:
/// days, rows, `--.-`, gaps, the zone's daylight-saving changes, broken files.
@Suite struct BerlingerDecoderTests {
    typealias Maker = BerlingerReportMaker

    static let utc = TimeZone(identifier: "UTC")!
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    static func options(_ zone: TimeZone?) -> DecodeOptions {
        var options = DecodeOptions(readTime: Date(timeIntervalSince1970: 1_800_000_000), readTimeSource: .now)
        options.loggerTimeZone = zone
        return options
    }

    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    /// A Fridge-tag 2 at 16–19 °C for three days: the high alarm (+8.0 °C, 600 min) on from the first day.
    static func warmFridgeTag2() -> Maker {
        var maker = Maker(
            model: .fridgeTag2, serial: "190000000001", alarms: [.init(type: 1, limit: -0.5, minutes: 60), .init(type: 2, limit: 8, minutes: 600)],
            activation: "2026-03-02 08:30", reportTime: "2026-03-04 17:45")
        maker.days = [
            .init(date: "2026-03-02", min: 16.1, max: 18.9, mean: 17.2, alarms: [(0, nil), (915, "18:30")]),
            .init(date: "2026-03-03", min: 16.0, max: 19.0, mean: 17.5, alarms: [(0, nil), (1440, "00:00")]),
            .init(date: "2026-03-04", min: 16.4, max: 18.2, mean: 17.0, alarms: [(0, nil), (1065, "00:00")]),
        ]
        return maker
    }

    @Test func fridgeTag2DaysDecodeOldestFirstWithUTCTimesAndTheDevicesAlarms() throws {
        let log = try BerlingerDecoder.decode(Self.warmFridgeTag2().report(), options: Self.options(Self.berlin))
        #expect(log.format == .fridgeTag2)
        #expect(log.logger.vendor == "Berlinger")
        #expect(log.logger.model?.name == "Q-tag Fridge-tag 2")
        #expect(log.logger.serial == "190000000001")
        #expect(log.logger.firmware == "9.9t0")
        #expect(log.samples.isEmpty)
        #expect(log.loggerTimeZone == "Europe/Berlin")
        #expect(log.readTimeSource == .loggerReport)
        #expect(log.readTime == Self.date("2026-03-04T16:45:00Z"))
        let days = try #require(log.dailySummaries)
        #expect(days.map(\.date) == ["2026-03-02", "2026-03-03", "2026-03-04"])
        #expect(days[0].coveredFrom == Self.date("2026-03-02T07:30:00Z"))
        #expect(days[0].dayStart == Self.date("2026-03-01T23:00:00Z"))
        #expect(days[2].coveredTo == Self.date("2026-03-04T16:45:00Z"))
        #expect(days[1].min == 16.0 && days[1].max == 19.0 && days[1].mean == 17.5)
        #expect(days[0].minTime == Self.date("2026-03-02T04:10:00Z"))
        let high = days[0].alarms[1]
        #expect(high.alarm == .high && high.limit == 8 && high.allowedSeconds == 36_000 && high.seconds == 915 * 60)
        #expect(high.triggered == Self.date("2026-03-02T17:30:00Z"))
        #expect(high.start == Self.date("2026-03-02T07:30:00Z"))
        // Carried on from the day before: 00:00 is no start.
        #expect(days[1].alarms[1].triggered == days[1].dayStart)
        #expect(days[1].alarms[1].start == nil)
        #expect(log.loggerAlarms?.map(\.kind) == [.singleEvent, .singleEvent])
        #expect(log.metadata["loggerValidMaximum"]?.number == 8)
        #expect(log.metadata["loggerValidMinimum"]?.number == -0.5)
        #expect(log.integrity.status == .unverified)
        #expect(log.integrity.detail.text.hasPrefix("unverified ("))
    }

    @Test func withoutAZoneDecodingIsRefusedWithTheHint() throws {
        #expect {
            try BerlingerDecoder.decode(Self.warmFridgeTag2().report(), options: Self.options(nil))
        } throws: { error in
            let error = error as? LoggerFormatError
            return error?.kind == .timeZoneUnknown && error?.hint == .needsLoggerTimeZone
        }
    }

    /// A Fridge-tag 2 L: `--.-` rows, `x` marks, an hour with no rows.
    @Test func fridgeTag2LRowsKeepMissingValuesFlagsAndAGap() throws {
        var maker = Maker(
            model: .fridgeTag2L, serial: "190000000002", alarms: [.init(type: 1, limit: 2, minutes: 60), .init(type: 2, limit: 8, minutes: 60)],
            activation: "2026-05-04 10:00", reportTime: "2026-05-04 14:00")
        maker.days = [.init(date: "2026-05-04", min: 4.0, max: 9.5, mean: 5.5, alarms: [(0, nil), (10, nil)])]
        var rows = Maker.rows(from: "2026-05-04 10:00", every: 5, count: 12) { index in index == 3 ? nil : 5.0 + Double(index) * 0.1 }
        rows += Maker.rows(from: "2026-05-04 12:00", every: 5, count: 6) { index in index < 2 ? 9.5 : 6.0 }
        rows[12].flagged = true
        rows[13].flagged = true
        maker.rows = rows
        let log = try BerlingerDecoder.decode(maker.report(), options: Self.options(Self.utc))
        #expect(log.format == .fridgeTag2L)
        #expect(log.interval == 300)
        #expect(log.samples.count == 18)
        #expect(log.samples[3].temperature == nil && log.samples[3].flags == [.missing])
        #expect(log.samples[12].time.timeIntervalSince(log.samples[11].time) == 3900)
        #expect(log.samples[12].temperature == 9.5 && log.samples[12].flags.isEmpty)
        let marked = log.events.filter { $0.name == "outOfLimits" }
        #expect(marked.count == 1)
        #expect(marked.first?.time == Self.date("2026-05-04T12:00:00Z"))
        #expect(marked.first?.end == Self.date("2026-05-04T12:05:00Z"))
        #expect(log.metadata["outOfLimitsRows"]?.number == 2)
    }

    @Test func ultraLowRowsWithNoValueAreMissingSamples() throws {
        var maker = Maker(
            model: .fridgeTagUltraLow, serial: "190000000003",
            alarms: [.init(type: 1, limit: -90, minutes: 60), .init(type: 2, limit: -60, minutes: 60)], activation: "2026-06-01 09:00",
            reportTime: "2026-06-01 11:00")
        maker.days = [.init(date: "2026-06-01", min: -80.2, max: 21.5, mean: -70.0, alarms: [(0, nil), (30, nil)])]
        maker.rows = Maker.rows(from: "2026-06-01 09:00", every: 5, count: 24) { index in index < 3 ? nil : -75 }
        for index in 0..<3 { maker.rows[index].flagged = true }
        let log = try BerlingerDecoder.decode(maker.report(), options: Self.options(Self.utc))
        #expect(log.format == .fridgeTagUltraLow)
        #expect(log.samples.filter { $0.flags == [.missing] }.count == 3)
        #expect(log.samples.last?.temperature == -75)
        #expect(log.dailySummaries?.first?.max == 21.5)
    }

    @Test func qTagRunResultsAndAlarmEpisodesAreKept() throws {
        var maker = Maker(
            model: .qTagCLmDoc, serial: "TESTQ0001",
            alarms: [.init(type: 2, limit: 8, minutes: 30), .init(type: 4, limit: 8, minutes: 60), .init(type: 0, limit: 0, minutes: 0)],
            activation: "2026-02-10 07:00", reportTime: "2026-02-10 12:00")
        maker.runNumber = 3
        maker.rows = Maker.rows(from: "2026-02-10 07:30", every: 10, count: 27) { index in index >= 10 && index < 16 ? 9.1 : 5.0 }
        for index in 10..<16 { maker.rows[index].flagged = true }
        maker.episodes[1] = ["TS S: 2026-02-10 09:10, t A: 60, TS A: 2026-02-10 09:40, TS E: 2026-02-10 10:10, T M: 9.3, TS M: 2026-02-10 09:20"]
        maker.episodes[2] = ["TS S: 2026-02-10 09:10, t A: 60, TS A: 2026-02-10 10:10"]
        #expect(maker.fileName == "TESTQ0001_03_202602101200.txt")
        let log = try BerlingerDecoder.decode(maker.report(), options: Self.options(Self.utc))
        #expect(log.format == .qTagCLmDoc)
        #expect(log.dailySummaries == nil)
        #expect(log.interval == 600)
        #expect(log.samples.count == 27)
        #expect(log.metadata["runNumber"]?.number == 3)
        #expect(log.metadata["runStop"]?.text == "2026-02-10T12:00:00Z")
        #expect(log.metadata["runMaximum"]?.number == 9.1)
        #expect(log.metadata["alarm1Episodes"]?.text.contains("ended 2026-02-10T10:10:00Z") == true)
        #expect(log.metadata["alarm2Episodes"]?.text.contains("fired 2026-02-10T10:10:00Z") == true)
        #expect(log.loggerAlarms?.map(\.kind) == [.singleEvent, .cumulative])
        #expect(log.events.contains { $0.name == "loggerAlarm1" && $0.end == Self.date("2026-02-10T10:10:00Z") })
        #expect(log.readTime == Self.date("2026-02-10T12:00:00Z"))
    }

    // MARK: Daylight saving

    @Test func theRepeatedAutumnHourIsResolvedByRowOrder() throws {
        var maker = Maker(
            model: .fridgeTag2L, serial: "190000000004", alarms: [.init(type: 1, limit: 2, minutes: 60), .init(type: 2, limit: 8, minutes: 60)],
            activation: "2026-10-25 01:30", reportTime: "2026-10-25 04:00")
        maker.days = [.init(date: "2026-10-25", min: 4, max: 6, mean: 5)]
        // 01:30 … 02:55 (summer time), 02:00 … 02:55 again (winter time), 03:00 … 03:30.
        maker.rows =
            Maker.rows(from: "2026-10-25 01:30", every: 5, count: 18) { _ in 5 } + Maker.rows(from: "2026-10-25 02:00", every: 5, count: 19) { _ in 5 }
        let log = try BerlingerDecoder.decode(maker.report(), options: Self.options(Self.berlin))
        let steps = zip(log.samples.dropFirst(), log.samples).map { $0.time.timeIntervalSince($1.time) }
        #expect(steps.allSatisfy { $0 == 300 }, "\(steps)")
        #expect(log.samples.first?.time == Self.date("2026-10-24T23:30:00Z"))
        #expect(log.samples.last?.time == Self.date("2026-10-25T02:30:00Z"))
        #expect(!log.warnings.contains { $0.text.contains("set back") })
    }

    @Test func aRowInTheSkippedSpringHourIsRefusedNamingItsLine() throws {
        var maker = Maker(
            model: .fridgeTag2L, serial: "190000000005", alarms: [.init(type: 1, limit: 2, minutes: 60), .init(type: 2, limit: 8, minutes: 60)],
            activation: "2026-03-29 01:30", reportTime: "2026-03-29 04:00")
        maker.days = [.init(date: "2026-03-29", min: 4, max: 6, mean: 5)]
        maker.rows = Maker.rows(from: "2026-03-29 01:30", every: 5, count: 12) { _ in 5 }
        let text = String(decoding: maker.report(), as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        let skipped = try #require(lines.firstIndex { $0.hasPrefix("\t2026-03-29 02:00") }) + 1
        #expect {
            try BerlingerDecoder.decode(maker.report(), options: Self.options(Self.berlin))
        } throws: { error in
            let error = error as? LoggerFormatError
            return error?.field == "line \(skipped)" && error?.detail.contains("does not exist in Europe/Berlin") == true
        }
        // The same rows on a clock kept on UTC are fine.
        #expect(try BerlingerDecoder.decode(maker.report(), options: Self.options(Self.utc)).samples.count == 12)
    }

    // MARK: Broken files

    static func lines(of data: Data) -> [String] { String(decoding: data, as: UTF8.self).components(separatedBy: "\r\n") }

    static func joined(_ lines: [String]) -> Data { Data(lines.joined(separator: "\r\n").utf8) }

    @Test func aReportCutOffIsRefusedNamingTheLine() throws {
        let lines = Self.lines(of: Self.warmFridgeTag2().report())
        let cut = Array(lines.prefix(40))
        #expect {
            try BerlingerDecoder.decode(Self.joined(cut), options: Self.options(Self.utc))
        } throws: { error in
            let error = error as? LoggerFormatError
            return error?.field == "line 40" && error?.detail.contains("cut off") == true
        }
    }

    @Test func aRowThatIsNotATimeIsRefusedNamingTheLine() throws {
        var maker = Maker(
            model: .fridgeTag2L, serial: "190000000006", alarms: [.init(type: 1, limit: 2, minutes: 60), .init(type: 2, limit: 8, minutes: 60)],
            activation: "2026-05-04 10:00", reportTime: "2026-05-04 14:00")
        maker.days = [.init(date: "2026-05-04", min: 4, max: 6, mean: 5)]
        maker.rows = Maker.rows(from: "2026-05-04 10:00", every: 5, count: 5) { _ in 5 }
        maker.rows[2].time = "2026-05-04 1O:10"
        let lines = Self.lines(of: maker.report())
        let bad = try #require(lines.firstIndex { $0.contains("1O:10") }) + 1
        #expect {
            try BerlingerDecoder.decode(maker.report(), options: Self.options(Self.utc))
        } throws: { error in
            let error = error as? LoggerFormatError
            return error?.field == "line \(bad)" && error?.detail.contains("is not a time") == true
        }
    }

    @Test func aDayWithoutItsFiguresIsRefusedNamingItsLine() throws {
        var lines = Self.lines(of: Self.warmFridgeTag2().report())
        let minimum = try #require(lines.firstIndex { $0.hasPrefix("  Min T:") })
        lines.remove(at: minimum)
        let day = try #require(lines.firstIndex { $0 == " 1:" }) + 1
        #expect {
            try BerlingerDecoder.decode(Self.joined(lines), options: Self.options(Self.utc))
        } throws: { error in
            let error = error as? LoggerFormatError
            return error?.field == "line \(day)" && error?.detail.contains("Min T") == true
        }
    }

    @Test func damagedBytesNeverCrashTheDecoder() {
        let report = [UInt8](Self.warmFridgeTag2().report())
        var generator = SeededGenerator(seed: 47)
        for _ in 0..<300 {
            var bytes = report
            for _ in 0..<3 {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) { bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator))) }
            _ = try? BerlingerDecoder.decode(Data(bytes), options: Self.options(Self.berlin))
        }
    }

    // MARK: The public reports (read in place, never copied)

    /// The public reports in the workspace's shared folder (SharedFacts: `../shared` beside
    /// the repository, or `COLDTAP_SHARED`, which `.ci/run` sets).
    static var sharedReports: URL? {
        SharedFacts.file("berlinger/SOURCES.md").url?.deletingLastPathComponent()
    }

    @Test func thePublicReportsDecode() throws {
        guard let folder = Self.sharedReports else {
            print("BerlingerDecoderTests: ../shared/berlinger is absent beside the repository; the public reports were not decoded")
            return
        }
        let expected: [String: (TemperatureLog.Format, days: Int?, rows: Int)] = [
            "130400191542_202302140605.txt": (.fridgeTag2, 60, 0),
            "130400191544_202304201514.txt": (.fridgeTag2, 4, 0),
            "130500109088_202206081014.txt": (.fridgeTag2L, 38, 10_653),
            "100800001215_202304201410.txt": (.fridgeTagUltraLow, 4, 841),
            "RCPJ00010_02_202211090128.txt": (.qTagCLmDoc, nil, 124),
            "RCPJ00010_03_202304201359.txt": (.qTagCLmDoc, nil, 424),
        ]
        for (file, (format, days, rows)) in expected {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            let log = try BerlingerDecoder.decode(data, options: Self.options(Self.utc))
            #expect(log.format == format, "\(file)")
            #expect(log.dailySummaries?.count == days, "\(file)")
            #expect(log.samples.count == rows, "\(file)")
            #expect(file.hasPrefix(log.logger.serial ?? "-"), "\(file)")
        }
    }
}
