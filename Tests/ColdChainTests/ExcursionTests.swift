import Foundation
import LoggerFormats
import Testing

@testable import ColdChain

@Suite struct ExcursionTests {
    @Test func runsTouchingStartAndEndOfTheLog() {
        let excursions = assess([9, 9.5, 5, 10, 12, 9], .vaccineFridge).excursions
        #expect(excursions.count == 2)
        let first = excursions[0]
        #expect(first.direction == .high)
        #expect(first.limit == Threshold(.greaterThan, 8))
        #expect(first.start == t0)
        #expect(first.end == at(2))
        #expect(first.sampleCount == 2)
        #expect(first.duration == 3600)
        #expect(first.peak == 9.5 && first.peakTime == at(1))
        #expect(first.degreeMinutes == (1 + 1.5) * 30)
        #expect(first.firstSampleIndex == 0 && first.lastSampleIndex == 1)
        #expect(!first.unknownBefore && !first.unknownAfter)
        let last = excursions[1]
        #expect(last.start == at(3))
        #expect(last.end == at(6))  // end of the last sample's interval = end of the log
        #expect(last.duration == 3 * 1800)
        #expect(last.peak == 12 && last.peakTime == at(4))
        #expect(last.degreeMinutes == (2 + 4 + 1) * 30)
    }

    @Test func valuesExactlyAtTheBandEdgesAreInside() {
        let assessment = assess([8, 2, 8, 2], .vaccineFridge)
        #expect(assessment.excursions.isEmpty)
        #expect(assessment.statistics.secondsInBand == 4 * 1800)
    }

    @Test func lowExcursionsAndADirectSwitch() {
        let excursions = assess([5, 1.5, 0, 9, 5], .vaccineFridge).excursions
        #expect(excursions.map(\.direction) == [.low, .high])
        #expect(excursions[0].peak == 0 && excursions[0].peakTime == at(2))
        #expect(excursions[0].degreeMinutes == (0.5 + 2) * 30)
        #expect(excursions[0].end == at(3))
        #expect(excursions[1].start == at(3))
    }

    @Test func gapInsideAnExcursionSplitsItAndIsMarked() {
        let excursions = assess([5, 9, nil, 9, 5], .vaccineFridge).excursions
        #expect(excursions.count == 2)
        #expect(excursions[0].unknownAfter && !excursions[0].unknownBefore)
        #expect(excursions[1].unknownBefore && !excursions[1].unknownAfter)
        #expect(excursions[0].end == at(2))
        #expect(excursions[1].start == at(3))
    }

    @Test func gapBesideAnExcursionAtTheLogEdges() {
        let excursions = assess([nil, 9, 9, nil], .vaccineFridge).excursions
        #expect(excursions.count == 1)
        #expect(excursions[0].unknownBefore && excursions[0].unknownAfter)
        #expect(excursions[0].duration == 3600)
    }

    @Test func degreeMinutesUseTheSampleInterval() {
        // 5-minute samples: (10 − 8) × 5 + (11 − 8) × 5 = 25 degree-minutes.
        let excursion = assess([10, 11], .vaccineFridge, interval: 300).excursions.first
        #expect(excursion?.degreeMinutes == 25)
        #expect(excursion?.duration == 600)
    }

    @Test func excursionsOfAProfileWithoutBandUseItsRuleLimits() {
        // who-shipping-1: beyond ≥ 30 °C or ≤ −0.5 °C; 30 exactly counts, 29.9 does not.
        let excursions = assess([29.9, 30, 31, 29.9, -0.5, 0], .whoShipping1).excursions
        #expect(excursions.count == 2)
        #expect(excursions[0].sampleCount == 2 && excursions[0].direction == .high)
        #expect(excursions[0].degreeMinutes == (0 + 1) * 30)
        #expect(excursions[1].sampleCount == 1 && excursions[1].direction == .low)
    }
}
