import Foundation
import LoggerFormats
import Testing

@testable import ColdChain

/// Threshold-mode loggers (docs/coldchain.md, "Loggers that record only beyond their
/// thresholds"): the time without records is known to be within the logger's thresholds,
/// inside the profile's band when they are no wider, unknown where they are.
@Suite struct ThresholdLoggingTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let start: UInt32 = 1_709_294_400  // 2024-03-01T12:00:00Z
    static let startDate = Date(timeIntervalSince1970: TimeInterval(start))
    /// A day of 5-minute readings: 5.0 °C, but 8.6 °C from 18:00 to 18:55.
    static let day: [(seconds: UInt32, celsius: Double)] = (1...288).map { index in
        let seconds = UInt32(index) * 300
        return (seconds, (21_600..<25_200).contains(seconds) ? 8.6 : 5.0)
    }

    static func smarTag2(
        _ low: Double, _ high: Double, readings: [(seconds: UInt32, celsius: Double)] = day,
        readAfter: TimeInterval = 86_400, known: Bool = true
    ) throws -> TemperatureLog {
        let encoder = SmarTagEncoder.SmarTag2(sampleTime: 300, start: start, sensors: [.temperature(mode: 0, low, high)])
        let memory = encoder.memory(after: readings.map { SmarTagEncoder.SmarTag2.Reading(seconds: $0.seconds, value: $0.celsius) })
        let options = DecodeOptions(readTime: startDate.addingTimeInterval(readAfter), readTimeSource: known ? .given : .fileModificationTime)
        return try LoggerDecoder.decode(smarTag: try #require(SmarTagImage(tagMemory: Data(memory))), options: options)
    }

    static func smarTag1(minimum: Int, maximum: Int, readings: [(seconds: UInt32, celsius: Double)] = day) throws -> TemperatureLog {
        var encoder = SmarTagEncoder.SmarTag1(interval: 300, start: startDate)
        encoder.mode = 3
        encoder.temperatureMinimum = minimum
        encoder.temperatureMaximum = maximum
        let memory = encoder.memory(after: readings.map { .reading(time: startDate.addingTimeInterval(TimeInterval($0.seconds)), temperature: $0.celsius) })
        let options = DecodeOptions(readTime: startDate.addingTimeInterval(86_400))
        return try LoggerDecoder.decode(smarTag: try #require(SmarTagImage(tagMemory: Data(memory))), options: options)
    }

    /// The worked example of docs/coldchain.md: thresholds 2.0/8.0 °C keep the 23 unrecorded
    /// hours inside 2–8 °C; the one hour at 8.6 °C is the log's only excursion.
    @Test func smarTag2WithinTheBandIsJudgedOnItsRecords() throws {
        let log = try Self.smarTag2(2.0, 8.0)
        #expect(log.samples.count == 12)
        #expect(log.thresholdLogging?.lowest == 2.2)
        #expect(log.thresholdLogging?.highest == 8.0)
        let assessment = Assessor.assess(log, profile: .vaccineFridge, timeZone: Self.utc)
        #expect(assessment.verdict == .ok)
        #expect(assessment.statistics.unknownSeconds == 0)
        #expect(assessment.statistics.unrecordedInsideSeconds == 23 * 3600)
        #expect(assessment.excursions.count == 1)
        #expect(assessment.excursions.first?.duration == 3600)
        #expect(assessment.gaps.isEmpty)
    }

    /// Ten hours above 8 °C are an alarm whatever the thresholds.
    @Test func smarTag2RecordsStillRaiseAlarms() throws {
        let hot = Self.day.map { ($0.seconds, $0.seconds > 36_000 && $0.seconds <= 75_600 ? 9.0 : 5.0) }
        let assessment = Assessor.assess(try Self.smarTag2(2.0, 8.0, readings: hot), profile: .vaccineFridge, timeZone: Self.utc)
        #expect(assessment.verdict == .alarm)
    }

    /// Thresholds wider than the band (1.0/8.4 °C): the unrecorded time might have been at
    /// 8.4 °C, long enough to fire "> 8 °C for 10 h": INCONCLUSIVE, naming that time.
    @Test func smarTag2WiderThanTheBandIsInconclusive() throws {
        let log = try Self.smarTag2(1.0, 8.4)
        let assessment = Assessor.assess(log, profile: .vaccineFridge, timeZone: Self.utc)
        #expect(assessment.verdict == .inconclusive)
        #expect(assessment.statistics.unrecordedSeconds == 23 * 3600)
        #expect(assessment.statistics.unrecordedInsideSeconds == 0)
        #expect(assessment.gaps.map(\.unrecordedSeconds).reduce(0, +) == 23 * 3600)
        #expect(assessment.reasons.joined().contains("unrecorded by a logger whose thresholds are wider than the limits"))
    }

    /// No record at all: with the read time known, the whole day is known inside.
    @Test func smarTag2WithoutAnyRecordIsOKWhenTheReadTimeIsKnown() throws {
        let calm = Self.day.map { ($0.seconds, 5.0) }
        let known = try Self.smarTag2(2.0, 8.0, readings: calm)
        #expect(known.samples.isEmpty)
        let assessment = Assessor.assess(known, profile: .vaccineFridge, timeZone: Self.utc)
        #expect(assessment.verdict == .ok)
        #expect(assessment.statistics.unrecordedInsideSeconds == 86_400)
        // Without a known read time nothing says how long it logged.
        let unknown = try Self.smarTag2(2.0, 8.0, readings: calm, known: false)
        #expect(Assessor.assess(unknown, profile: .vaccineFridge, timeZone: Self.utc).verdict == .inconclusive)
    }

    /// "Greater" mode guarantees nothing below: the low rule stays undecided.
    @Test func smarTag2GreaterModeLeavesTheLowSideUnknown() throws {
        let encoder = SmarTagEncoder.SmarTag2(sampleTime: 300, start: Self.start, sensors: [.temperature(mode: 3, 8.0)])
        let memory = encoder.memory(after: Self.day.map { SmarTagEncoder.SmarTag2.Reading(seconds: $0.seconds, value: $0.celsius) })
        let log = try LoggerDecoder.decode(
            smarTag: try #require(SmarTagImage(tagMemory: Data(memory))),
            options: DecodeOptions(readTime: Self.startDate.addingTimeInterval(86_400)))
        #expect(log.thresholdLogging?.lowest == nil && log.thresholdLogging?.highest == 8.0)
        let assessment = Assessor.assess(log, profile: .vaccineFridge, timeZone: Self.utc)
        #expect(assessment.verdict == .inconclusive)
        // Against a band open below, the same log is decided.
        let open = Profile(
            name: "warm", summary: "at most 8 °C", band: Band(min: nil, max: 8),
            rules: [.instantaneous(Threshold(.greaterThan, 8))])
        #expect(Assessor.assess(log, profile: open, timeZone: Self.utc).verdict == .alarm)
    }

    /// SmarTag1 stores whole degrees and its comparison is inferred: thresholds 3/7 °C keep
    /// the rest within 2.5…7.5 °C (inside 2–8 °C); 2/8 °C only within 1.5…8.5 °C (not).
    @Test func smarTag1WholeDegreesWidenTheGuarantee() throws {
        let inside = try Self.smarTag1(minimum: 3, maximum: 7)
        #expect(inside.samples.count == 12)
        #expect(inside.thresholdLogging?.lowest == 2.5 && inside.thresholdLogging?.highest == 7.5)
        let ok = Assessor.assess(inside, profile: .vaccineFridge, timeZone: Self.utc)
        #expect(ok.verdict == .ok)
        #expect(ok.statistics.unrecordedInsideSeconds == 23 * 3600)
        let edge = try Self.smarTag1(minimum: 2, maximum: 8)
        #expect(Assessor.assess(edge, profile: .vaccineFridge, timeZone: Self.utc).verdict == .inconclusive)
    }

    /// The logger's own band as the profile (`--profile logger`): any record is beyond it.
    @Test func loggerProfileOfAThresholdLog() throws {
        let assessment = Assessor.assess(try Self.smarTag2(2.0, 8.0), profile: .loggerLimits, timeZone: Self.utc)
        #expect(assessment.verdict == .alarm)
    }

    /// Once the ring has overwritten records, the time before the oldest one held is not covered.
    @Test func wrappedRingCoversOnlyFromItsOldestRecord() throws {
        let always = (1...1100).map { (UInt32($0) * 300, 9.0) }
        let log = try Self.smarTag2(2.0, 8.0, readings: always, readAfter: 1101 * 300)
        #expect(log.thresholdLogging?.coverageStart == log.samples.first?.time)
        #expect(log.samples.count == 1014)
    }
}
