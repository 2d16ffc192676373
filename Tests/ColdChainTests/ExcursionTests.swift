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

    /// The excursions found without a timeline (`Assessor.excursions(in:band:)`, for charts)
    /// and by an assessment are the runs a plain walk over the samples finds: on a generated
    /// log with missing and flagged samples, clock jumps and runs on both sides of 2–8 °C.
    @Test func excursionsWithAndWithoutATimelineAreThoseOfTheSamples() {
        let interval: TimeInterval = 60
        var state: UInt64 = 2026
        var time = t0
        var value = 5.0
        var samples: [TemperatureLog.Sample] = []
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let roll = Int(state >> 33) % 1000
            // A random walk that wanders beyond the band now and then, in both directions.
            value += Double(Int(state >> 20) % 101 - 50) / 40
            value = min(12, max(-2, value))
            if roll < 10 {
                samples.append(.init(time: time, temperature: nil, flags: [.missing]))
            } else if roll < 15 {
                samples.append(.init(time: time, temperature: 99, flags: [.outOfRange]))
            } else {
                samples.append(.init(time: time, temperature: value))
            }
            // Now and then a clock jump: unknown time between two samples.
            time = time.addingTimeInterval(roll >= 995 ? interval * 4 : interval)
        }
        let log = TemperatureLog(
            format: "test", samples: samples, interval: interval, timeBase: .loggerHeader,
            integrity: .init(status: .verified, detail: "test"), readTime: time)

        // The runs of valid samples beyond one side, as the samples alone tell them: a run
        // ends at a sample on another side, an invalid sample or a clock jump.
        let band = Band(min: 2, max: 8)
        var expected: [Excursion] = []
        var open = false
        for (index, sample) in samples.enumerated() {
            let jumpBefore = index > 0 && sample.time.timeIntervalSince(samples[index - 1].time) > interval * 1.5
            let temperature = sample.isValid ? sample.temperature : nil
            let direction: Direction? = temperature.flatMap { $0 > 8 ? .high : $0 < 2 ? .low : nil }
            if open, jumpBefore || direction != expected[expected.count - 1].direction {
                expected[expected.count - 1].unknownAfter = jumpBefore || temperature == nil
                open = false
            }
            guard let direction, let temperature, let limit = band.limit(direction) else { continue }
            let degreeMinutes = limit.excess(of: temperature) * interval / 60
            if open {
                expected[expected.count - 1].end = sample.time.addingTimeInterval(interval)
                expected[expected.count - 1].sampleCount += 1
                expected[expected.count - 1].duration += interval
                expected[expected.count - 1].lastSampleIndex = index
                expected[expected.count - 1].degreeMinutes += degreeMinutes
                let peak = expected[expected.count - 1].peak
                if direction == .high ? temperature > peak : temperature < peak {
                    expected[expected.count - 1].peak = temperature
                    expected[expected.count - 1].peakTime = sample.time
                }
            } else {
                expected.append(
                    Excursion(
                        direction: direction, limit: limit, start: sample.time, end: sample.time.addingTimeInterval(interval),
                        sampleCount: 1, duration: interval, firstSampleIndex: index, lastSampleIndex: index, peak: temperature,
                        peakTime: sample.time, degreeMinutes: degreeMinutes,
                        unknownBefore: jumpBefore || (index > 0 && !samples[index - 1].isValid), unknownAfter: false))
                open = true
            }
        }
        #expect(expected.count > 100)
        #expect(expected.contains { $0.direction == .low } && expected.contains { $0.direction == .high })
        #expect(expected.contains { $0.unknownBefore } && expected.contains { $0.unknownAfter })

        let found = [
            ("without a timeline", Assessor.excursions(in: log, band: band)),
            ("by an assessment", Assessor.assess(log, profile: .vaccineFridge, timeZone: utc).excursions),
        ]
        for (way, excursions) in found {
            let firstDifference = zip(excursions, expected).enumerated().first { $0.element.0 != $0.element.1 }
            #expect(excursions.count == expected.count, "\(way)")
            #expect(firstDifference == nil, "\(way): excursion \(firstDifference?.offset ?? 0) is \(String(describing: firstDifference?.element.0))")
        }
    }
}
