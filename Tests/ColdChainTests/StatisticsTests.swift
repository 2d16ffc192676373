import Foundation
import LoggerFormats
import Testing

@testable import ColdChain

@Suite struct StatisticsTests {
    @Test func handComputedFigures() {
        // 4, 6, 9, missing, 1 every 30 min against 2–8 °C.
        let stats = assess([4, 6, 9, nil, 1], .vaccineFridge).statistics
        #expect(stats.sampleCount == 5)
        #expect(stats.validCount == 4)
        #expect(stats.missingCount == 1)
        #expect(stats.outOfRangeCount == 0)
        #expect(stats.missingSeconds == 1800)
        #expect(stats.unknownSeconds == 1800)
        #expect(stats.validSeconds == 7200)
        #expect(stats.min == 1)
        #expect(stats.minTime == at(4))
        #expect(stats.max == 9)
        #expect(stats.maxTime == at(2))
        #expect(stats.mean == 5)
        // Population deviation: (1 + 1 + 16 + 16) / 4 = 8.5.
        #expect(abs((stats.standardDeviation ?? 0) - 8.5.squareRoot()) < 1e-12)
        #expect(stats.secondsInBand == 3600)
        #expect(stats.secondsAbove == 1800)
        #expect(stats.secondsBelow == 1800)
        #expect(stats.start == t0)
        #expect(stats.end == at(5))
    }

    @Test func outOfRangeSamplesAreUnknownTime() {
        let log = makeLog([5, 99, 5], outOfRange: [1])
        let stats = Assessor.assess(log, profile: .vaccineFridge, timeZone: utc).statistics
        #expect(stats.validCount == 2)
        #expect(stats.outOfRangeCount == 1)
        #expect(stats.outOfRangeSeconds == 1800)
        #expect(stats.max == 5)
    }

    @Test func firstOccurrenceOfExtremesIsKept() {
        let stats = assess([3, 7, 3, 7], .vaccineFridge).statistics
        #expect(stats.minTime == at(0))
        #expect(stats.maxTime == at(1))
    }

    // Reference values from an independent Python computation (math.exp/math.log, direct
    // formula without log-space rescaling):
    //   mkt(v) = 10000 / -ln(Σ exp(-10000/(v+273.15)) / n) - 273.15
    //   [2, 8, 25, -5, 30.5]                  -> 20.674093794609576
    //   [4, 6, 9, 1]                           -> 5.510598345634094
    //   [20, 22, 24, 26, 28, 30, 35, 40, 18, 21] -> 28.92291485152026
    @Test(arguments: [
        ([2.0, 8, 25, -5, 30.5], 20.674093794609576),
        ([4.0, 6, 9, 1], 5.510598345634094),
        ([20.0, 22, 24, 26, 28, 30, 35, 40, 18, 21], 28.92291485152026),
    ])
    func meanKineticTemperatureMatchesIndependentValues(values: [Double], expected: Double) {
        let mkt = assess(values, .uspControlledRoomTemperature).statistics.meanKineticTemperature
        #expect(abs((mkt ?? .nan) - expected) < 1e-9)
    }

    @Test func meanKineticTemperatureIgnoresUnknownSamples() {
        let withGaps = assess([4, nil, 6, 9, 1], .vaccineFridge).statistics.meanKineticTemperature
        #expect(abs((withGaps ?? .nan) - 5.510598345634094) < 1e-9)
    }

    @Test func oneSampleLog() {
        let assessment = assess([5], .vaccineFridge)
        let stats = assessment.statistics
        #expect(stats.validCount == 1)
        #expect(stats.min == 5 && stats.max == 5 && stats.mean == 5)
        #expect(stats.standardDeviation == 0)
        #expect(abs((stats.meanKineticTemperature ?? .nan) - 5) < 1e-9)
        #expect(stats.start == t0 && stats.end == at(1))
        #expect(assessment.verdict == .ok)
    }

    @Test func emptyLog() {
        let assessment = assess([], .vaccineFridge)
        #expect(assessment.statistics == .empty)
        #expect(assessment.days.isEmpty)
        #expect(assessment.excursions.isEmpty)
        #expect(assessment.verdict == .inconclusive)
        #expect(assessment.reasons == ["The log has no samples."])
    }

    @Test func perDayFiguresSplitAtLocalMidnight() {
        // Hourly from 2026-04-09 21:30Z = 23:30 in Berlin (UTC+2): the first sample's hour
        // is half on 9 April and half on 10 April there.
        let start = Date(timeIntervalSince1970: 1_775_692_800 + 21.5 * 3600)
        let log = makeLog([9, 5, nil, 1], interval: 3600, start: start)
        let days = Assessor.assess(log, profile: .vaccineFridge, timeZone: berlin).days
        #expect(days.map(\.day) == ["2026-04-09", "2026-04-10"])
        #expect(days[0].start == Date(timeIntervalSince1970: 1_775_692_800 - 2 * 3600 + 0))
        #expect(days[0].validSeconds == 1800)
        #expect(days[0].secondsAbove == 1800)
        #expect(days[0].max == 9)
        #expect(days[1].validSeconds == 1800 + 3600 + 3600)
        #expect(days[1].secondsAbove == 1800)
        #expect(days[1].secondsInBand == 3600)
        #expect(days[1].secondsBelow == 3600)
        #expect(days[1].unknownSeconds == 3600)
        #expect(days[1].min == 1 && days[1].max == 9)
        // (9 × 1800 + 5 × 3600 + 1 × 3600) / 9000
        #expect(abs((days[1].mean ?? .nan) - 37800.0 / 9000) < 1e-12)

        // The same log in UTC lies within one day.
        let utcDays = Assessor.assess(log, profile: .vaccineFridge, timeZone: utc).days
        #expect(utcDays.map(\.day) == ["2026-04-09", "2026-04-10"])
        #expect(utcDays[0].validSeconds == 3600 + 3600)
    }

    @Test func clockJumpBetweenSamplesIsUnknownTime() {
        var log = makeLog([5, 5, 5])
        log.samples[2].time = at(4)  // one interval skipped between samples 1 and 2
        let assessment = Assessor.assess(log, profile: .vaccineFridge, timeZone: utc)
        #expect(assessment.statistics.timeJumpSeconds == 3600)
        #expect(assessment.gaps.count == 1)
        #expect(assessment.gaps.first?.start == at(2))
        #expect(assessment.gaps.first?.end == at(4))
        #expect(assessment.gaps.first?.firstSampleIndex == nil)
    }
}

@Suite struct FormatTests {
    @Test func ruleTextsOfTheBuiltInProfiles() {
        #expect(
            Profile.builtIn.map { $0.rules.map(\.description) } == [
                ["> 8 °C for 10 h continuous", "≤ −0.5 °C for 60 min continuous"],
                ["any point > 8 °C", "any point < 2 °C"],
                ["≥ 45 °C for 1 h continuous", "≥ 30 °C for 10 h cumulative", "≤ −0.5 °C for 1 h continuous"],
                ["≥ 45 °C for 1 h continuous", "≥ 30 °C for 10 h cumulative", "≥ 10 °C for 20 h cumulative"],
                ["MKT > 25 °C", "any point < 15 °C", "any point > 40 °C", "> 30 °C for more than 24 h cumulative"],
                ["any point > −15 °C"],
                ["any point > −15 °C", "any point < −50 °C"],
            ])
        #expect(
            Rule.cumulative(Threshold(.greaterThanOrEqual, 10), for: .hours(2), per: .day).description
                == "≥ 10 °C for 2 h cumulative per day")
    }

    @Test func bandsAndExcursionBands() {
        #expect(
            Profile.builtIn.map(\.excursionBand.description) == [
                "2–8 °C", "2–8 °C", "> −0.5 °C and < 30 °C", "< 10 °C", "20–25 °C", "≤ −18 °C", "−50 to −15 °C",
            ])
        #expect(Profile.whoShipping1.excursionBand.high == Threshold(.greaterThanOrEqual, 30))
        #expect(Profile.whoShipping1.excursionBand.low == Threshold(.lessThanOrEqual, -0.5))
    }

    @Test func limitsToDraw() {
        #expect(
            Profile.vaccineFridge.limits == [
                Threshold(.greaterThan, 8), Threshold(.lessThan, 2), Threshold(.lessThanOrEqual, -0.5),
            ])
        #expect(Profile.uspControlledRoomTemperature.limits.map(\.limit) == [40, 30, 25, 20, 15])
        #expect(Profile.whoShipping1.limits.map(\.description) == ["≥ 45 °C", "≥ 30 °C", "≤ −0.5 °C"])
    }

    @Test func comparatorsAtTheLimit() {
        #expect(Comparator.greaterThan.holds(8, 8) == false)
        #expect(Comparator.greaterThanOrEqual.holds(8, 8) == true)
        #expect(Comparator.lessThan.holds(8, 8) == false)
        #expect(Comparator.lessThanOrEqual.holds(8, 8) == true)
        #expect(Comparator.greaterThan.holds(8.000001, 8) == true)
        #expect(Comparator.lessThan.holds(7.999999, 8) == true)
        #expect(Comparator(symbol: ">=") == .greaterThanOrEqual)
        #expect(Comparator(symbol: "≤") == .lessThanOrEqual)
        #expect(Comparator(symbol: "=>") == nil)
    }

    @Test func durationsAndTemperatures() {
        #expect(ColdChainFormat.duration(0) == "0 s")
        #expect(ColdChainFormat.duration(45) == "45 s")
        #expect(ColdChainFormat.duration(3600) == "1 h")
        #expect(ColdChainFormat.duration(45_000) == "12 h 30 min")
        #expect(ColdChainFormat.duration(129_600) == "36 h")
        #expect(ColdChainFormat.temperature(-0.5) == "−0.5")
        #expect(ColdChainFormat.temperature(8) == "8")
        #expect(ColdChainFormat.temperature(11.256, decimals: 2) == "11.26")
        #expect(ColdChainFormat.temperature(-0.001, decimals: 2) == "0")
        #expect(ColdChainFormat.time(at(1), in: berlin) == "2026-04-09 02:30 +02:00")
        #expect(ColdChainFormat.time(at(1).addingTimeInterval(5), in: utc) == "2026-04-09 00:30:05 +00:00")
    }
}
