import Foundation
import LoggerFormats

/// Judging a log the logger summarised by day and kept no readings of (a Berlinger
/// Fridge-tag 2, docs/berlinger.md §4): what each day's minimum, maximum and mean and the
/// logger's own alarm counts prove about each rule. A rule is an alarm only where the
/// summaries prove it fired, passed only where they prove it cannot have; otherwise the
/// verdict is INCONCLUSIVE and says why (docs/coldchain.md).
public struct SummaryFinding: Sendable, Equatable {
    public enum Outcome: String, Sendable, Equatable {
        /// The summaries prove the rule fired.
        case fired
        /// The summaries prove it cannot have fired.
        case cannotHaveFired = "cannot-have-fired"
        /// The summaries do not decide.
        case undecided
    }

    public var rule: Rule
    public var outcome: Outcome
    /// When it fired (for `fired`), as far as the summaries place it.
    public var firedAt: Date?
    /// The day that proves or decides it, `yyyy-MM-dd` as the logger printed it.
    public var day: String?
    /// What proves it, in English, without the rule.
    public var because: String
    /// What proves it, as a value each report language words (`because` is its English).
    public var evidence: Evidence

    /// What the days show about a rule, for the sentence after it.
    public enum Evidence: Sendable, Equatable {
        /// No day's extreme (its maximum for a high limit) is beyond the limit.
        case noDayBeyond(high: Bool, days: Int)
        /// The extreme of `day` was `value` °C.
        case dayExtreme(high: Bool, day: String, value: Double)
        /// A mean kinetic temperature needs readings, and some days reach the limit.
        case meanKineticNeedsReadings
        /// `day` had at least `seconds` beyond the limit.
        case dayAtLeast(day: String, seconds: TimeInterval)
        /// On `day` the time beyond lies between what the summary proves and the whole day.
        case dayBetween(day: String)
        /// No day can have reached `seconds` beyond the limit.
        case noDayReaches(seconds: TimeInterval)
        /// By the end of `day`, at least `seconds` beyond the limit in total.
        case totalAtLeast(day: String, seconds: TimeInterval)
        /// At most `seconds` in total can have been beyond the limit.
        case totalAtMost(seconds: TimeInterval)
        /// Between `low` and `high` seconds in total, and the days do not say which.
        case totalBetween(low: TimeInterval, high: TimeInterval)
        /// Whole days beyond (each day's mildest value beyond the limit) from `from` to the end of `day`.
        case wholeDaysBeyond(high: Bool, from: Date, day: String)
        /// The logger's own single-event alarm fired at `at` on `day`.
        case loggerAlarmFired(alarm: TemperatureLog.ConfiguredAlarm, at: Date, day: String)
        /// No unbroken run can have lasted `needed` seconds (at most `longest`).
        case noRunCanLast(needed: TimeInterval, longest: TimeInterval)
        /// Some days reach beyond the limit, and the days do not say for how long unbroken.
        case runLengthUnknown
    }

    /// The sentence for the verdict's reasons.
    public var english: String {
        switch outcome {
        case .fired: return "'\(rule)' fired (proved by the daily summaries): \(because)."
        case .cannotHaveFired: return "'\(rule)' cannot have fired: \(because)."
        case .undecided: return "'\(rule)' is not decided by the daily summaries: \(because)."
        }
    }
}

extension Assessor {
    /// The log's days, oldest first, when it has them and no readings to judge instead.
    static func summaryOnlyDays(of log: TemperatureLog) -> [TemperatureLog.DailySummary]? {
        guard let days = log.dailySummaries, !days.isEmpty, !log.samples.contains(where: \.isValid) else { return nil }
        return days
    }

    /// The verdict of a summary-only log: replaces what the (empty) timeline gave.
    static func judgeSummaries(_ assessment: inout Assessment, log: TemperatureLog, days: [TemperatureLog.DailySummary]) {
        let findings = assessment.profile.rules.map { judge($0, days: days, alarms: log.loggerAlarms ?? [], timeZone: assessment.timeZone) }
        var reasons: [VerdictReason] = [.dailySummariesOnly(days: days.count)]
        let verdict: Verdict
        if findings.isEmpty {
            verdict = .inconclusive
            reasons.append(.noSamples)
        } else if findings.contains(where: { $0.outcome == .fired }) {
            verdict = .alarm
        } else if findings.allSatisfy({ $0.outcome == .cannotHaveFired }) {
            verdict = .ok
        } else {
            verdict = .inconclusive
        }
        reasons += findings.map { .summary($0) }
        assessment.alarms = findings.filter { $0.outcome == .fired }.map { finding in
            Alarm(
                rule: finding.rule, firedAt: finding.firedAt ?? days.last!.coveredTo, exposure: 0, value: nil, excess: nil, day: finding.day,
                runStart: nil, unknownSeconds: 0)
        }
        var statistics = assessment.statistics
        statistics.start = days.first?.coveredFrom
        statistics.end = days.last?.coveredTo
        statistics.min = days.map(\.min).min()
        statistics.max = days.map(\.max).max()
        if let low = days.min(by: { $0.min < $1.min }) { statistics.minTime = low.minTime }
        if let high = days.max(by: { $0.max < $1.max }) { statistics.maxTime = high.maxTime }
        let covered = days.reduce(0.0) { $0 + $1.coveredTo.timeIntervalSince($1.coveredFrom) }
        if covered > 0 { statistics.mean = days.reduce(0.0) { $0 + $1.mean * $1.coveredTo.timeIntervalSince($1.coveredFrom) } / covered }
        assessment.statistics = statistics
        if log.integrity.status == .failed {
            reasons.append(.integrityFailed(detail: log.integrity.detail))
            assessment.verdict = verdict == .ok ? .inconclusive : verdict
        } else {
            assessment.verdict = verdict
        }
        assessment.verdictReasons = reasons
    }

    /// What the days prove about one rule. `alarms`: the logger's own (their daily counts are
    /// exact for its own limit, and bound the time beyond a nearby one).
    static func judge(_ rule: Rule, days: [TemperatureLog.DailySummary], alarms: [TemperatureLog.ConfiguredAlarm], timeZone: TimeZone)
        -> SummaryFinding
    {
        let threshold = rule.threshold
        let high = threshold.direction == .high
        let mildest: (TemperatureLog.DailySummary) -> Double = { high ? $0.min : $0.max }
        let extreme: (TemperatureLog.DailySummary) -> Double = { high ? $0.max : $0.min }
        func covered(_ day: TemperatureLog.DailySummary) -> TimeInterval { day.coveredTo.timeIntervalSince(day.coveredFrom) }
        func format(_ value: Double) -> String { ColdChainFormat.temperature(value, decimals: 1) + " °C" }
        func finding(
            _ outcome: SummaryFinding.Outcome, _ day: TemperatureLog.DailySummary?, at: Date? = nil, _ because: String, _ evidence: SummaryFinding.Evidence
        ) -> SummaryFinding {
            SummaryFinding(rule: rule, outcome: outcome, firedAt: at, day: day?.date, because: because, evidence: evidence)
        }
        let noneBeyond = days.allSatisfy { !threshold.isBeyond(extreme($0)) }
        let sideWord = high ? "maximum" : "minimum"
        if noneBeyond {
            return finding(.cannotHaveFired, nil, "no day's \(sideWord) is beyond the limit (\(days.count) days)", .noDayBeyond(high: high, days: days.count))
        }
        // The logger's alarm on this side whose counts bound this rule's time beyond: from
        // below (its limit is at least as far out) and from above (its limit is no further out).
        let ownAlarms = alarms.enumerated().filter { ($0.element.direction == .high) == high }
        func countsLowerBound(_ alarm: TemperatureLog.ConfiguredAlarm) -> Bool {
            high ? alarm.limit >= threshold.limit : alarm.limit <= threshold.limit
        }
        func countsUpperBound(_ alarm: TemperatureLog.ConfiguredAlarm) -> Bool {
            high
                ? alarm.limit < threshold.limit || (alarm.limit == threshold.limit && !threshold.comparator.includesLimit)
                : alarm.limit > threshold.limit || (alarm.limit == threshold.limit && !threshold.comparator.includesLimit)
        }
        func alarmDay(_ day: TemperatureLog.DailySummary, _ alarm: TemperatureLog.ConfiguredAlarm) -> TemperatureLog.DailySummary.AlarmDay? {
            day.alarms.first { $0.alarm == alarm.direction && $0.limit == alarm.limit && $0.allowedSeconds == alarm.minutes * 60 }
        }
        /// Seconds beyond this rule's limit on `day`: at least, at most.
        func bounds(_ day: TemperatureLog.DailySummary) -> (low: TimeInterval, high: TimeInterval) {
            if threshold.isBeyond(mildest(day)) { return (covered(day), covered(day)) }
            if !threshold.isBeyond(extreme(day)) { return (0, 0) }
            var low: TimeInterval = 0
            var upper = covered(day)
            for (_, alarm) in ownAlarms {
                guard let counted = alarmDay(day, alarm)?.seconds else { continue }
                if countsLowerBound(alarm) { low = max(low, counted) }
                if countsUpperBound(alarm) { upper = min(upper, counted) }
            }
            return (low, max(low, upper))
        }
        switch rule.kind {
        case .instantaneous:
            let day = days.first { threshold.isBeyond(extreme($0)) }!
            let at = (high ? day.maxTime : day.minTime) ?? day.coveredFrom
            return finding(
                .fired, day, at: at, "the \(sideWord) of \(day.date) was \(format(extreme(day)))", .dayExtreme(high: high, day: day.date, value: extreme(day)))
        case .meanKinetic:
            return finding(.undecided, nil, "a mean kinetic temperature needs the readings, and some days reach beyond the limit", .meanKineticNeedsReadings)
        case .cumulative:
            let needed = rule.duration?.seconds ?? 0
            let inclusive = rule.duration?.inclusive ?? true
            func reaches(_ seconds: TimeInterval) -> Bool { inclusive ? seconds >= needed : seconds > needed }
            if rule.scope == .day {
                var undecided: TemperatureLog.DailySummary?
                for day in days {
                    let (low, upper) = bounds(day)
                    if reaches(low) {
                        return finding(
                            .fired, day, at: day.coveredTo, "\(day.date) had at least \(ColdChainFormat.duration(low)) beyond the limit",
                            .dayAtLeast(day: day.date, seconds: low))
                    }
                    if reaches(upper) && undecided == nil { undecided = day }
                }
                if let undecided {
                    return finding(
                        .undecided, undecided, "on \(undecided.date) the time beyond the limit is between what the summary proves and the whole day",
                        .dayBetween(day: undecided.date))
                }
                return finding(
                    .cannotHaveFired, nil, "no day can have reached \(ColdChainFormat.duration(needed)) beyond the limit", .noDayReaches(seconds: needed))
            }
            var lowTotal: TimeInterval = 0
            var highTotal: TimeInterval = 0
            for day in days {
                let (low, upper) = bounds(day)
                lowTotal += low
                highTotal += upper
                if reaches(lowTotal) {
                    return finding(
                        .fired, day, at: day.coveredTo, "by the end of \(day.date) at least \(ColdChainFormat.duration(lowTotal)) beyond the limit",
                        .totalAtLeast(day: day.date, seconds: lowTotal))
                }
            }
            if !reaches(highTotal) {
                return finding(
                    .cannotHaveFired, nil, "at most \(ColdChainFormat.duration(highTotal)) can have been beyond the limit", .totalAtMost(seconds: highTotal))
            }
            return finding(
                .undecided, nil,
                "between \(ColdChainFormat.duration(lowTotal)) and \(ColdChainFormat.duration(highTotal)) beyond the limit, and the summaries do not say which",
                .totalBetween(low: lowTotal, high: highTotal))
        case .continuous:
            let needed = rule.duration?.seconds ?? 0
            let inclusive = rule.duration?.inclusive ?? true
            func reaches(_ seconds: TimeInterval) -> Bool { inclusive ? seconds >= needed : seconds > needed }
            // Whole days beyond the limit, back to back, prove an unbroken run.
            var runStart: Date?
            var runEnd: Date?
            for day in days {
                guard threshold.isBeyond(mildest(day)) else {
                    runStart = nil
                    continue
                }
                if runStart == nil || runEnd != day.coveredFrom { runStart = day.coveredFrom }
                runEnd = day.coveredTo
                if let start = runStart, let end = runEnd, reaches(end.timeIntervalSince(start)) {
                    let because =
                        "every reading from \(ColdChainFormat.time(start, in: timeZone)) to the end of \(day.date) was beyond the limit (each day's \(high ? "minimum" : "maximum") beyond it)"
                    return finding(.fired, day, at: start.addingTimeInterval(needed), because, .wholeDaysBeyond(high: high, from: start, day: day.date))
                }
            }
            // The logger's own single-event alarm fired, at a limit as far out, for as long.
            for (_, alarm) in ownAlarms where alarm.kind == .singleEvent && countsLowerBound(alarm) && reaches(alarm.minutes * 60) {
                if let day = days.first(where: { alarmDay($0, alarm)?.start != nil }), let triggered = alarmDay(day, alarm)?.triggered {
                    return finding(
                        .fired, day, at: triggered,
                        "the logger's own alarm (\(alarm.text)) fired at \(ColdChainFormat.time(triggered, in: timeZone)) on \(day.date)",
                        .loggerAlarmFired(alarm: alarm, at: triggered, day: day.date))
                }
            }
            // The longest run possible: back-to-back days whose upper bound is not zero.
            var longest: TimeInterval = 0
            var chain: TimeInterval = 0
            var previousEnd: Date?
            for day in days {
                let upper = bounds(day).high
                if upper == 0 || previousEnd != day.coveredFrom { chain = 0 }
                chain += upper
                longest = max(longest, chain)
                previousEnd = upper == 0 ? nil : day.coveredTo
            }
            if !reaches(longest) {
                return finding(
                    .cannotHaveFired, nil,
                    "no unbroken run beyond the limit can have lasted \(ColdChainFormat.duration(needed)) (at most \(ColdChainFormat.duration(longest)))",
                    .noRunCanLast(needed: needed, longest: longest))
            }
            return finding(.undecided, nil, "some days reach beyond the limit, and the summaries do not say for how long unbroken", .runLengthUnknown)
        }
    }
}
