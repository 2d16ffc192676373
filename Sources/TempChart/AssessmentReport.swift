import ColdChain
import Foundation
import LoggerFormats

extension ReportContent {
    /// The report content for a log and its assessment. Limits are the assessment's band
    /// (the profile's allowed band, or its least strict alarm limits). English reasons are
    /// the assessment's own sentences; Chinese and Japanese ones are written from its alarms,
    /// gaps and excursions with the language's string table.
    public init(log: TemperatureLog, assessment: Assessment, language: ReportLanguage) {
        let s = assessment.statistics
        let verdict: Verdict
        switch assessment.verdict {
        case .ok: verdict = .ok
        case .alarm: verdict = .alarm
        case .inconclusive: verdict = .inconclusive
        }
        let statistics = Statistics(sampleCount: s.sampleCount, invalidCount: s.sampleCount - s.validCount,
                                    minimum: s.min, maximum: s.max, mean: s.mean,
                                    meanKineticTemperature: s.meanKineticTemperature,
                                    timeAbove: s.secondsAbove, timeBelow: s.secondsBelow)
        let excursions = assessment.excursions.map {
            Excursion(start: $0.start, end: $0.end, peak: $0.peak, direction: $0.direction)
        }
        let reasons = language == .english
            ? assessment.reasons
            : ReportContent.localizedReasons(log: log, assessment: assessment, language: language)
        self.init(log: log, profile: assessment.profile.description, lowerLimit: assessment.band.low?.limit,
                  upperLimit: assessment.band.high?.limit, verdict: verdict, reasons: reasons, statistics: statistics,
                  excursions: excursions)
        audit = ReportAudit(log: log, assessment: assessment, language: language)
    }

    /// The verdict's reasons written in `language` from the assessment's structured findings.
    public static func localizedReasons(log: TemperatureLog, assessment: Assessment, language: ReportLanguage) -> [String] {
        let strings = language.strings
        let f = ChartFormatter(timeZone: assessment.timeZone, language: language)
        let s = assessment.statistics
        func ruleText(_ rule: Rule) -> String {
            let threshold = rule.threshold.description
            let duration = rule.duration.map { f.duration($0.seconds) } ?? ""
            switch rule.kind {
            case .continuous: return strings.ruleContinuous.filled(["threshold": threshold, "duration": duration])
            case .cumulative:
                return strings.ruleCumulative.filled(["threshold": threshold, "duration": duration])
                    + (rule.scope == .day ? strings.rulePerDay : "")
            case .instantaneous: return strings.ruleInstantaneous.filled(["threshold": threshold])
            case .meanKinetic: return "MKT \(threshold)"
            }
        }
        func ruleList(_ alarms: [Alarm]) -> String {
            alarms.map { "「\(ruleText($0.rule))」" + ($0.day.map { " (\($0))" } ?? "") }.joined(separator: strings.listSeparator)
        }
        var reasons: [String] = []
        if log.samples.isEmpty {
            reasons.append(strings.reasonNoSamples)
        } else if s.validCount == 0 {
            reasons.append(strings.reasonNoValid)
        } else if !assessment.alarms.isEmpty {
            for alarm in assessment.alarms {
                if alarm.rule.kind == .meanKinetic {
                    reasons.append(strings.reasonAlarmMKT.filled(["rule": ruleText(alarm.rule),
                                                                  "value": alarm.value.map { f.temperature($0, decimals: 2) } ?? "—"]))
                } else {
                    reasons.append(strings.reasonAlarm.filled([
                        "rule": ruleText(alarm.rule), "time": f.dateTime(alarm.firedAt), "exposure": f.duration(alarm.exposure),
                        "side": alarm.rule.threshold.direction == .high ? strings.limitAbove : strings.limitBelow,
                        "peak": alarm.value.map { f.temperature($0, decimals: 2) } ?? "—"]))
                }
            }
            if !assessment.possibleAlarms.isEmpty {
                reasons.append(strings.reasonPossible.filled(["unknown": f.duration(s.unknownSeconds),
                                                              "rules": ruleList(assessment.possibleAlarms)]))
            }
        } else if !assessment.possibleAlarms.isEmpty {
            let gaps = assessment.decidingGaps.isEmpty ? assessment.gaps : assessment.decidingGaps
            let gapText = gaps.prefix(3).map { "\(f.dateTime($0.start)) → \(f.dateTime($0.end)) (\(f.duration($0.duration)))" }
                .joined(separator: strings.listSeparator) + (gaps.count > 3 ? " …" : "")
            reasons.append(strings.reasonUnknownDecides.filled(["gap": gapText, "rules": ruleList(assessment.possibleAlarms)]))
        } else {
            reasons.append(s.unknownSeconds > 0
                           ? strings.reasonNoRuleWithUnknown.filled(["unknown": f.duration(s.unknownSeconds)])
                           : strings.reasonNoRule)
        }
        if !(log.interval > 0), !log.samples.isEmpty { reasons.append(strings.reasonNoInterval) }
        if log.integrity.status == .failed {
            reasons.append(strings.reasonIntegrityFailed.filled(["detail": log.integrity.detail]))
        }
        if Assessor.isMostlyOutOfRange(s) {
            reasons.insert(language.audit.reasonMostlyOutOfRange.filled(["out": "\(s.outOfRangeCount)", "count": "\(s.sampleCount)"]),
                           at: 0)
        }
        if !assessment.excursions.isEmpty {
            let total = assessment.excursions.reduce(0) { $0 + $1.duration }
            reasons.append(strings.reasonExcursions.filled(["count": "\(assessment.excursions.count)",
                                                            "band": assessment.band.description, "total": f.duration(total)]))
        }
        return reasons
    }
}
