import Foundation
import LoggerFormats
import Testing

@testable import ColdChain

/// `--profile logger`: the logger's own limits (docs/nhs31xx.md §3.2) and its own verdict.
@Suite struct LoggerLimitsTests {
    func log(_ values: [Double?], verdict: String?) -> TemperatureLog {
        var log = makeLog(values)
        log.metadata["loggerValidMinimum"] = .celsius(2)
        log.metadata["loggerValidMaximum"] = .celsius(8)
        if let verdict { log.metadata["loggerVerdict"] = .text(verdict) }
        log.metadata["statusBits"] = "pristine,configured,starting,logging"
        return log
    }

    @Test func theLoggersLimitsMakeTheProfile() {
        let assessment = Assessor.assess(log([5, 5, 8.1, 5], verdict: "excursion: samples above its maximum"), profile: .loggerLimits, timeZone: utc)
        #expect(assessment.profile.band == Band(min: 2, max: 8))
        #expect(assessment.verdict == .alarm)
        #expect(assessment.reasons.contains { $0.hasPrefix("The logger itself: excursion") })
        // 8.0 exactly is inside, as the logger counts it (strictly above the maximum).
        #expect(Assessor.assess(log([5, 8, 2, 5], verdict: "within its limits"), profile: .loggerLimits, timeZone: utc).verdict == .ok)
    }

    @Test func disagreementIsSaid() {
        let assessment = Assessor.assess(log([5, 5, 5], verdict: "excursion: samples above its maximum"), profile: .vaccineFridge, timeZone: utc)
        #expect(assessment.reasons.contains { $0.contains("disagrees with the samples read") })
    }

    @Test func noLimitsIsInconclusive() {
        var plain = makeLog([5, 5])
        plain.metadata["loggerLimits"] = "off"
        let assessment = Assessor.assess(plain, profile: .loggerLimits, timeZone: utc)
        #expect(assessment.verdict == .inconclusive)
        #expect(assessment.reasons.contains { $0.contains("needs the logger's own limits") })
    }
}
