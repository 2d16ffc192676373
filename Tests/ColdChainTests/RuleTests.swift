import Foundation
import LoggerFormats
import Testing

@testable import ColdChain

@Suite struct ContinuousRuleTests {
    let rule = Rule.continuous(Threshold(.greaterThan, 8), for: .hours(10))

    @Test func firesWhenTheRunReachesTheDuration() {
        // 20 × 30 min = 10 h: reached exactly at the end of the 20th interval.
        let assessment = assess([5] + run(8.5, 20) + [5], single(rule))
        #expect(assessment.verdict == .alarm)
        #expect(assessment.alarms.count == 1)
        let alarm = assessment.alarms[0]
        #expect(alarm.firedAt == at(21))
        #expect(alarm.runStart == at(1))
        #expect(alarm.exposure == 36_000)
        #expect(alarm.value == 8.5)
        #expect(alarm.excess == 0.5)
    }

    @Test func oneSampleShortDoesNotFire() {
        #expect(assess(run(8.5, 19), single(rule)).verdict == .ok)
    }

    @Test func valuesExactlyAtAStrictLimitDoNotCount() {
        #expect(assess(run(8, 40), single(rule)).verdict == .ok)
    }

    @Test func runTouchingTheEndOfTheLogFires() {
        let assessment = assess(run(5, 3) + run(9, 20), single(rule))
        #expect(assessment.alarms.first?.firedAt == at(23))
    }

    @Test func runTouchingTheStartOfTheLogFires() {
        let assessment = assess(run(9, 20) + run(5, 3), single(rule))
        #expect(assessment.alarms.first?.runStart == t0)
        #expect(assessment.alarms.first?.firedAt == at(20))
    }

    @Test func anInsideSampleBreaksTheRun() {
        #expect(assess(run(9, 10) + [8] + run(9, 10), single(rule)).verdict == .ok)
    }

    @Test func firesWithinASampleWhenTheIntervalDoesNotDivideTheDuration() {
        // 7-minute samples: 86 × 7 = 602 min ≥ 600 min; the 10 h are reached 5 min into the 86th.
        let assessment = assess(run(9, 86), single(rule), interval: 420)
        #expect(assessment.alarms.first?.firedAt == t0.addingTimeInterval(36_000))
        #expect(assess(run(9, 85), single(rule), interval: 420).verdict == .ok)
    }

    @Test func strictlyLongerDuration() {
        let longer = Rule.continuous(Threshold(.greaterThan, 8), for: .moreThan(hours: 10))
        #expect(assess(run(9, 20), single(longer)).verdict == .ok)
        let assessment = assess(run(9, 21), single(longer))
        #expect(assessment.verdict == .alarm)
        #expect(assessment.alarms.first?.firedAt == at(20))
    }

    @Test func gapInsideTheRunMakesItInconclusive() {
        // 9.5 h known beyond with a 30-min gap inside: 10 h if the gap was beyond.
        let assessment = assess(run(9, 10) + [nil] + run(9, 9), single(rule))
        #expect(assessment.verdict == .inconclusive)
        #expect(assessment.possibleAlarms.first?.unknownSeconds == 1800)
        #expect(assessment.decidingGaps.count == 1)
        #expect(assessment.decidingGaps.first?.start == at(10))
        #expect(assessment.decidingGaps.first?.missingCount == 1)
        #expect(
            assessment.reasons.first?.hasPrefix(
                "Unknown time decides: counted as beyond the limits, the gap 2026-04-09 05:00 +00:00 → 2026-04-09 05:30 +00:00 (30 min: 1 missing) would fire '> 8 °C for 10 h continuous'"
            ) == true)
    }

    @Test func gapBesideTheRunMakesItInconclusive() {
        let assessment = assess(run(9, 19) + [nil], single(rule))
        #expect(assessment.verdict == .inconclusive)
        #expect(assessment.decidingGaps.first?.start == at(19))
    }

    @Test func clockJumpInsideTheRunIsAGap() {
        // 19 samples (9 h 30 min) beyond, with the clock jumping one interval after the 10th.
        var log = makeLog(run(9, 19))
        for index in 10..<19 { log.samples[index].time = at(index + 1) }
        let assessment = Assessor.assess(log, profile: single(rule), timeZone: utc)
        #expect(assessment.verdict == .inconclusive)
        #expect(assessment.excursions.count == 2)
        #expect(assessment.decidingGaps.first?.timeJumpSeconds == 1800)
        #expect(assessment.decidingGaps.first?.missingCount == 0)
        #expect(assessment.decidingGaps.first?.start == at(10))
    }

    @Test func gapSeparatedFromTheRunDoesNotMatter() {
        let assessment = assess(run(9, 19) + [5, nil], single(rule))
        #expect(assessment.verdict == .ok)
        #expect(assessment.reasons.first == "No rule fired, even with the 30 min of unknown time counted as beyond the limits.")
    }
}

@Suite struct CumulativeRuleTests {
    let rule = Rule.cumulative(Threshold(.greaterThanOrEqual, 30), for: .hours(10))

    @Test func addsUpSeparateRunsAndIncludesTheLimitValue() {
        // 12 + 8 samples at or above 30 °C = 10 h; fires at the end of the 20th.
        let values: [Double?] = run(30, 12) + run(20, 5) + run(31, 8) + run(20, 2)
        let assessment = assess(values, single(rule, band: nil))
        #expect(assessment.verdict == .alarm)
        #expect(assessment.alarms.first?.firedAt == at(25))
        #expect(assessment.alarms.first?.exposure == 36_000)
        #expect(assessment.alarms.first?.value == 31)
        #expect(assessment.alarms.first?.excess == 1)
    }

    @Test func justBelowTheLimitValueDoesNotCount() {
        #expect(assess(run(29.99, 30), single(rule, band: nil)).verdict == .ok)
        #expect(assess(run(30, 19) + run(29.99, 10), single(rule, band: nil)).verdict == .ok)
    }

    @Test func gapsTogetherDecide() {
        // 9 h known; two separate 30-min gaps: neither alone reaches 10 h, both together do.
        let values: [Double?] = run(30, 9) + [nil] + run(20, 2) + run(30, 9) + [nil]
        let assessment = assess(values, single(rule, band: nil))
        #expect(assessment.verdict == .inconclusive)
        #expect(assessment.decidingGaps.count == 2)
        #expect(
            assessment.reasons.first
                == "Unknown time decides: no single gap fires a rule, but the 2 gaps together (1 h), counted as beyond the limits, would fire '≥ 30 °C for 10 h cumulative'."
        )
    }

    @Test func perDayScopeSplitsAtLocalMidnight() {
        // 3 h at 12 °C from 22:30 to 01:30 Berlin time: 1.5 h on each day.
        let perDay = Rule.cumulative(Threshold(.greaterThanOrEqual, 10), for: .hours(2), per: .day)
        let start = Date(timeIntervalSince1970: 1_775_692_800 + 20.5 * 3600)  // 22:30 in Berlin
        let log = makeLog(run(12, 6) + run(5, 4), start: start)
        let profile = single(perDay)
        #expect(Assessor.assess(log, profile: profile, timeZone: berlin).verdict == .ok)
        // In UTC the 3 h (20:30–23:30Z) fall on one day.
        let utcAssessment = Assessor.assess(log, profile: profile, timeZone: utc)
        #expect(utcAssessment.verdict == .alarm)
        #expect(utcAssessment.alarms.first?.day == "2026-04-09")
        #expect(utcAssessment.alarms.first?.firedAt == start.addingTimeInterval(7200))
        // Over the whole log the same 3 h fire a log-wide rule.
        let wholeLog = single(.cumulative(Threshold(.greaterThanOrEqual, 10), for: .hours(2)))
        #expect(Assessor.assess(log, profile: wholeLog, timeZone: berlin).verdict == .alarm)
    }

    @Test func perDayRuleFiresOncePerDay() {
        let perDay = Rule.cumulative(Threshold(.greaterThanOrEqual, 10), for: .hours(2), per: .day)
        // 48 h of 12 °C from midnight UTC: fires on both days.
        let assessment = assess(run(12, 96), single(perDay))
        #expect(assessment.alarms.map(\.day) == ["2026-04-09", "2026-04-10"])
        #expect(assessment.alarms.map(\.exposure) == [86_400, 86_400])
    }
}

@Suite struct InstantaneousRuleTests {
    let rule = Rule.instantaneous(Threshold(.greaterThan, -15))

    @Test func exactlyAtTheLimitPasses() {
        #expect(assess(run(-15, 10), single(rule, band: nil)).verdict == .ok)
    }

    @Test func firstPointBeyondFires() {
        let assessment = assess([-20, -14.9, -20, -12, -20], single(rule, band: nil))
        #expect(assessment.verdict == .alarm)
        let alarm = assessment.alarms[0]
        #expect(alarm.firedAt == at(1))
        #expect(alarm.value == -12)
        #expect(abs((alarm.excess ?? 0) - 3) < 1e-12)
        #expect(alarm.exposure == 3600)
    }

    @Test func pointAtTheStartOrEndOfTheLogFires() {
        #expect(assess([-14, -20], single(rule, band: nil)).alarms.first?.firedAt == t0)
        #expect(assess([-20, -14], single(rule, band: nil)).alarms.first?.firedAt == at(1))
    }

    @Test func anyUnknownPointMakesItInconclusive() {
        let assessment = assess([-20, nil, -20], single(rule, band: nil))
        #expect(assessment.verdict == .inconclusive)
        #expect(assessment.decidingGaps.first?.firstSampleIndex == 1)
    }

    @Test func manyGapsAreNamedTogether() {
        var values: [Double?] = []
        for _ in 0..<201 { values += [-20, nil] }
        let assessment = assess(values, .frozen)
        #expect(assessment.verdict == .inconclusive)
        #expect(assessment.decidingGaps.count == 201)
        #expect(
            assessment.reasons.first
                == "Unknown time decides: counted as beyond the limits, the 201 gaps (100 h 30 min) would fire 'any point > −15 °C'; there are too many gaps to try each one alone."
        )
    }

    @Test func outOfRangeSampleIsUnknownNotItsValue() {
        // The sensor reported −60 (outside its range): unknown, not a reading below −50.
        let log = makeLog([-20, -60, -20], outOfRange: [1])
        let assessment = Assessor.assess(log, profile: .vaccineFreezer, timeZone: utc)
        #expect(assessment.alarms.isEmpty)
        #expect(assessment.verdict == .inconclusive)
        #expect(assessment.decidingGaps.first?.outOfRangeCount == 1)
    }
}

@Suite struct MeanKineticRuleTests {
    let rule = Rule.meanKinetic(Threshold(.greaterThan, 25))

    @Test func constantAtTheLimitPasses() {
        // Computed MKT of a constant 25 °C differs from 25 in the last bits; it must not fire.
        #expect(assess(run(25, 48), single(rule, band: nil)).verdict == .ok)
    }

    @Test func justAboveFires() {
        // Independent Python value: mkt([25.01] * 10) = 25.00999999999999.
        let assessment = assess(run(25.01, 10), single(rule, band: nil))
        #expect(assessment.verdict == .alarm)
        #expect(abs((assessment.alarms.first?.value ?? 0) - 25.01) < 1e-9)
        #expect(abs((assessment.alarms.first?.excess ?? 0) - 0.01) < 1e-9)
        #expect(assessment.alarms.first?.firedAt == at(10))
    }

    @Test func unknownTimeIsUnbounded() {
        let assessment = assess(run(20, 10) + [nil], single(rule, band: nil))
        #expect(assessment.verdict == .inconclusive)
        #expect(assessment.possibleAlarms.first?.value == nil)
    }
}
