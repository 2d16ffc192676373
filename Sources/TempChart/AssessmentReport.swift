import ColdChain
import Foundation
import LoggerFormats

extension ReportContent {
    /// The report content for a log and its assessment. Limits are the assessment's band
    /// (the profile's allowed band, or its least strict alarm limits). English reasons are
    /// the assessment's own sentences; Chinese and Japanese ones are written from the same
    /// typed reasons with the language's string table.
    public init(log: TemperatureLog, assessment: Assessment, language: ReportLanguage) {
        let s = assessment.statistics
        let verdict: Verdict
        switch assessment.verdict {
        case .ok: verdict = .ok
        case .alarm: verdict = .alarm
        case .inconclusive: verdict = .inconclusive
        }
        let statistics = Statistics(
            sampleCount: s.sampleCount, invalidCount: s.sampleCount - s.validCount,
            minimum: s.min, maximum: s.max, mean: s.mean,
            meanKineticTemperature: s.meanKineticTemperature,
            timeAbove: s.secondsAbove, timeBelow: s.secondsBelow)
        let excursions = assessment.excursions.map {
            Excursion(start: $0.start, end: $0.end, peak: $0.peak, direction: $0.direction)
        }
        let reasons =
            language == .english
            ? assessment.reasons
            : ReportContent.localizedReasons(log: log, assessment: assessment, language: language)
        self.init(
            log: log, profile: assessment.profile.description, lowerLimit: assessment.band.low?.limit,
            upperLimit: assessment.band.high?.limit, verdict: verdict, reasons: reasons, statistics: statistics,
            excursions: excursions)
        let notes = assessment.headlineNotes.map { LogTexts.headlineNote($0, language: language, timeZone: assessment.timeZone) }
        headlineNote = notes.isEmpty ? nil : notes.joined(separator: language == .english ? "; " : "；")
        audit = ReportAudit(log: log, assessment: assessment, language: language)
    }

    /// The verdict's reasons written in `language` from the assessment's typed reasons
    /// (`Assessment.verdictReasons`, whose English sentences are `Assessment.reasons`).
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
        func gapText(_ gaps: [Gap]) -> String {
            gaps.prefix(3).map { "\(f.dateTime($0.start)) → \(f.dateTime($0.end)) (\(f.duration($0.duration)))" }
                .joined(separator: strings.listSeparator) + (gaps.count > 3 ? " …" : "")
        }
        let audit = language.audit
        func status(_ bits: String?) -> String { bits.map { audit.loggerStatus.filled(["bits": $0]) } ?? "" }
        // The same typed reasons as the English sentences, in the same order.
        return assessment.verdictReasons.map { reason -> String in
            switch reason {
            case .noSamples: return strings.reasonNoSamples
            case .noValidSample: return strings.reasonNoValid
            case .alarm(let alarm):
                if alarm.rule.kind == .meanKinetic {
                    return strings.reasonAlarmMKT.filled([
                        "rule": ruleText(alarm.rule),
                        "value": alarm.value.map { f.temperature($0, decimals: 2) } ?? "—",
                    ])
                }
                return strings.reasonAlarm.filled([
                    "rule": ruleText(alarm.rule), "time": f.dateTime(alarm.firedAt), "exposure": f.duration(alarm.exposure),
                    "side": alarm.rule.threshold.direction == .high ? strings.limitAbove : strings.limitBelow,
                    "peak": alarm.value.map { f.temperature($0, decimals: 2) } ?? "—",
                ])
            case .unknownTimeWouldAlsoFire(let unknown, let possible):
                return strings.reasonPossible.filled(["unknown": f.duration(unknown), "rules": ruleList(possible)])
            case .unknownTimeDecidesGap(let gap, let fired):
                return strings.reasonUnknownDecides.filled(["gap": gapText([gap]), "rules": ruleList(fired)])
            case .unknownTimeDecidesTogether(_, _, let possible), .unknownTimeDecidesTooManyGaps(_, _, let possible):
                let gaps = assessment.decidingGaps.isEmpty ? assessment.gaps : assessment.decidingGaps
                return strings.reasonUnknownDecides.filled(["gap": gapText(gaps), "rules": ruleList(possible)])
            case .noRuleFired(let unknown):
                return unknown > 0 ? strings.reasonNoRuleWithUnknown.filled(["unknown": f.duration(unknown)]) : strings.reasonNoRule
            case .noUsableInterval: return strings.reasonNoInterval
            case .integrityFailed(let detail):
                return strings.reasonIntegrityFailed.filled(["detail": LogTexts.integrity(detail, language: language)])
            case .mostlyOutOfRange(let out, let count):
                return audit.reasonMostlyOutOfRange.filled(["out": "\(out)", "count": "\(count)"])
            case .excursions(let count, let band, let total):
                return strings.reasonExcursions.filled(["count": "\(count)", "band": band.description, "total": f.duration(total)])
            case .loggerLimitsMissing(let recorded):
                return audit.reasonLoggerLimitsMissing.filled(["recorded": recorded ?? "—"])
            case .loggerDisagrees(let verdict, let bits, let beyond):
                return (beyond ? audit.reasonLoggerDisagreesBeyond : audit.reasonLoggerDisagreesWithin)
                    .filled(["verdict": verdict, "status": status(bits)])
            case .loggerAgrees(let verdict, let bits):
                return audit.reasonLoggerAgrees.filled(["verdict": verdict, "status": status(bits)])
            case .dailySummariesOnly(let days):
                if language == .english { return reason.english(in: assessment.timeZone) }
                return SummaryReasonStrings.forLanguage(language).summaryOnly.filled(["days": "\(days)"])
            case .summary(let finding):
                // English keeps the sentence ColdChain made; other languages word the typed evidence.
                if language == .english { return reason.english(in: assessment.timeZone) }
                return finding.worded(language, rule: "「\(ruleText(finding.rule))」", formatter: f)
            }
        }
    }
}
