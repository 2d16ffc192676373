import Foundation
import LoggerFormats
import Testing

@testable import ColdChain

/// The verdict's reasons are values (rule, limit, duration, times); the English sentences
/// of `reasons` are made from them, so other languages can be made from the same facts.
@Suite struct VerdictReasonTests {
    @Test func anAlarmIsAReasonCarryingTheAlarm() throws {
        let rule = Rule.continuous(Threshold(.greaterThan, 8), for: .hours(1))
        let assessment = assess(run(5, 4) + run(9, 3) + run(5, 2), single(rule))
        #expect(assessment.verdict == .alarm)
        guard case .alarm(let alarm)? = assessment.verdictReasons.first else {
            Issue.record("first reason is \(String(describing: assessment.verdictReasons.first))")
            return
        }
        #expect(alarm.rule == rule)
        #expect(assessment.reasons == assessment.verdictReasons.map { $0.english(in: utc) })
        #expect(assessment.reasons.first?.hasPrefix("'> 8 °C for 1 h continuous' fired at 2026-04-09 ") == true)
    }

    @Test func aFailedIntegrityCheckCarriesTheDetailAndLeadsAnOK() {
        let log = makeLog(run(5, 6), integrity: .failed)
        let assessment = Assessor.assess(log, profile: single(.continuous(Threshold(.greaterThan, 8), for: .hours(1))), timeZone: utc)
        #expect(assessment.verdict == .inconclusive)
        #expect(assessment.verdictReasons.first == .integrityFailed(detail: "HMAC mismatch"))
        #expect(assessment.reasons.first == "The log failed its integrity check (HMAC mismatch): its data cannot be trusted.")
    }

    @Test func theSentencesFollowTheTimeZone() {
        let rule = Rule.continuous(Threshold(.greaterThan, 8), for: .hours(1))
        let assessment = assess(run(9, 4), single(rule), timeZone: berlin)
        #expect(assessment.reasons.first?.contains("+02:00") == true)
        #expect(assessment.verdictReasons.first.map { $0.english(in: utc) }?.contains("+00:00") == true)
    }
}
