import ColdChain
import Foundation
import LoggerFormats
import TestSupport
import Testing

/// A log of daily summaries only (a Berlinger Fridge-tag 2): ALARM where the days prove a
/// rule fired, OK only where they prove none could, INCONCLUSIVE with the reason otherwise.
@Suite struct SummaryJudgingTests {
    typealias Maker = BerlingerReportMaker

    static func fridgeTag2(_ days: [Maker.Day], activation: String = "2026-03-02 08:30", report: String = "2026-03-04 17:45") throws
        -> TemperatureLog
    {
        var maker = Maker(
            model: .fridgeTag2, serial: "190000000011", alarms: [.init(type: 1, limit: -0.5, minutes: 60), .init(type: 2, limit: 8, minutes: 600)],
            activation: activation, reportTime: report)
        maker.days = days
        var options = DecodeOptions(readTime: Date(), readTimeSource: .now)
        options.loggerTimeZone = TimeZone(identifier: "UTC")
        return try BerlingerDecoder.decode(maker.report(), options: options)
    }

    static let utc = TimeZone(identifier: "UTC")!

    @Test func aFridgeThatStoodAt16To19DegreesIsAnAlarm() throws {
        let log = try Self.fridgeTag2([
            .init(date: "2026-03-02", min: 16.1, max: 18.9, mean: 17.2, alarms: [(0, nil), (915, "18:30")]),
            .init(date: "2026-03-03", min: 16.0, max: 19.0, mean: 17.5, alarms: [(0, nil), (1440, "00:00")]),
            .init(date: "2026-03-04", min: 16.4, max: 18.2, mean: 17.0, alarms: [(0, nil), (1065, "00:00")]),
        ])
        for profile in [Profile.vaccineFridge, Profile.loggerLimits] {
            let assessment = Assessor.assess(log, profile: profile, timeZone: Self.utc)
            #expect(assessment.verdict == .alarm, "\(profile.name): \(assessment.reasons)")
            #expect(assessment.reasons.first?.contains("daily summary") == true)
            #expect(assessment.reasons.contains { $0.contains("fired (proved by the daily summaries)") })
        }
        let fridge = Assessor.assess(log, profile: .vaccineFridge, timeZone: Self.utc)
        // 10 h beyond 8 °C from activation at 08:30 on the first day.
        #expect(fridge.alarms.first?.firedAt == ISO8601DateFormatter().date(from: "2026-03-02T18:30:00Z"))
        #expect(fridge.reasons.contains { $0.contains("cannot have fired") })
        #expect(fridge.statistics.max == 19.0 && fridge.statistics.min == 16.0)
    }

    @Test func daysWithinTheLimitsProveNoRuleFired() throws {
        let log = try Self.fridgeTag2(
            [
                .init(date: "2026-03-02", min: 3.1, max: 6.9, mean: 5.2),
                .init(date: "2026-03-03", min: 2.5, max: 7.9, mean: 5.5),
            ], report: "2026-03-03 17:45")
        let assessment = Assessor.assess(log, profile: .vaccineFridge, timeZone: Self.utc)
        #expect(assessment.verdict == .ok, "\(assessment.reasons)")
        let cdc = Assessor.assess(log, profile: .cdcVaccineFridge, timeZone: Self.utc)
        #expect(cdc.verdict == .ok, "\(cdc.reasons)")
    }

    @Test func aPeakThatTheSummariesCannotTimeIsInconclusiveAndSaysWhy() throws {
        // 12.0 °C at the warmest, but the logger counted only 30 minutes above 8 °C: its own
        // count bounds the run, so 10 h cannot have been reached.
        let short = try Self.fridgeTag2(
            [
                .init(date: "2026-03-02", min: 3.1, max: 12.0, mean: 5.2, alarms: [(0, nil), (30, nil)])
            ], report: "2026-03-02 20:00")
        #expect(Assessor.assess(short, profile: .vaccineFridge, timeZone: Self.utc).verdict == .ok)
        // Against 6 °C, a limit the logger does not count, the same day cannot be decided.
        let tight = Profile(
            name: "tight", summary: "test", band: Band(min: 2, max: 6), rules: [.continuous(Threshold(.greaterThan, 6), for: .hours(1))])
        let assessment = Assessor.assess(short, profile: tight, timeZone: Self.utc)
        #expect(assessment.verdict == .inconclusive, "\(assessment.reasons)")
        #expect(assessment.reasons.contains { $0.contains("not decided by the daily summaries") })
        // Any reading beyond an instantaneous limit is proved by the day's maximum.
        #expect(Assessor.assess(short, profile: .cdcVaccineFridge, timeZone: Self.utc).verdict == .alarm)
    }
}
