import Foundation
import LoggerFormats

/// One rule of a profile and what the log did to it: for the report's rule table, which
/// lists every rule with passed, fired or undecided and why.
public struct RuleFinding: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        /// The rule did not fire, even counting unknown time as beyond the limits.
        case passed
        /// The rule fired on recorded samples.
        case fired
        /// The rule fires only when unknown time counts as beyond the limits.
        case undecided
    }

    public var rule: Rule
    public var state: State
    /// The largest recorded exposure beyond the rule's threshold, unknown time counted as
    /// inside: the longest run (continuous), the total (cumulative; the worst day for a
    /// per-day rule), the time beyond (instantaneous); 0 for MKT rules.
    public var exposure: TimeInterval
    /// The alarms this rule raised (recorded ones when fired, possible ones when undecided).
    public var alarms: [Alarm]
}

extension Assessor {
    /// Every rule of the assessment's profile with its state and largest exposure.
    public static func ruleFindings(_ log: TemperatureLog, assessment: Assessment) -> [RuleFinding] {
        let timeline = Timeline(log: log, timeZone: assessment.timeZone)
        return assessment.profile.rules.map { rule in
            let fired = assessment.alarms.filter { $0.rule == rule }
            let possible = assessment.possibleAlarms.filter { $0.rule == rule }
            let state: RuleFinding.State = !fired.isEmpty ? .fired : !possible.isEmpty ? .undecided : .passed
            return RuleFinding(
                rule: rule, state: state, exposure: timeline.largestExposure(rule),
                alarms: fired.isEmpty ? possible : fired)
        }
    }
}

extension Timeline {
    /// The rule's largest exposure over recorded samples (see `RuleFinding.exposure`).
    func largestExposure(_ rule: Rule) -> TimeInterval {
        func isBeyond(_ slot: Slot) -> Bool { slot.temperature.map(rule.threshold.isBeyond) ?? false }
        switch rule.kind {
        case .meanKinetic:
            return 0
        case .continuous:
            var longest: TimeInterval = 0
            var run: TimeInterval = 0
            for slot in slots {
                run = isBeyond(slot) ? run + slot.duration : 0
                longest = max(longest, run)
            }
            return longest
        case .cumulative where rule.scope == .day:
            var perDay = [TimeInterval](repeating: 0, count: dayNames.count)
            for slot in slots where isBeyond(slot) {
                forEachDayPiece(of: slot) { day, _, seconds in
                    if perDay.indices.contains(day) { perDay[day] += seconds }
                }
            }
            return perDay.max() ?? 0
        case .cumulative, .instantaneous:
            return slots.filter(isBeyond).reduce(0) { $0 + $1.duration }
        }
    }
}
