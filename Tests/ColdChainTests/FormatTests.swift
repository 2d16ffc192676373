import ColdChain
import Foundation
import Testing

/// One rounding rule for durations in tables (terminal, PDF, HTML), and a day's parts that
/// add up to the day.
@Suite struct DurationRoundingTests {
    @Test(
        arguments: [
            (45.4, ColdChainFormat.DurationParts(days: 0, hours: 0, minutes: 0, seconds: 45)),
            (750, .init(days: 0, hours: 0, minutes: 12, seconds: 30)),
            (76_300, .init(days: 0, hours: 21, minutes: 12, seconds: 0)),  // 21 h 11 min 40 s
            (86_399.6, .init(days: 0, hours: 24, minutes: 0, seconds: 0)),
            (2 * 86_400 + 3_629, .init(days: 2, hours: 1, minutes: 0, seconds: 0)),
        ] as [(Double, ColdChainFormat.DurationParts)])
    func durationsRoundOneWay(seconds: Double, parts: ColdChainFormat.DurationParts) throws {
        #expect(ColdChainFormat.durationParts(seconds) == parts)
    }

    @Test func aDaysPartsAddUpToTheDay() {
        // A complete day in band whose pieces summed to a hair under 24 h.
        #expect(ColdChainFormat.minutesAddingUp([86_399.97, 0, 0, 0]) == [86_400, 0, 0, 0])
        // Three parts each half a minute over: plain rounding would make 3 minutes too many.
        let parts = ColdChainFormat.minutesAddingUp([30_030, 30_030, 26_340, 0])
        #expect(parts.reduce(0, +) == 86_400)
        #expect(parts == [30_060, 30_000, 26_340, 0] || parts == [30_000, 30_060, 26_340, 0])
        #expect(ColdChainFormat.minutesAddingUp([.nan, -5, 0, 0]) == [0, 0, 0, 0])
    }
}
