import ColdChain
import ColdTapBase
import Foundation
import LoggerFormats

/// The report's audit part: every rule with its outcome and why, every reason and warning,
/// per-day figures, and what was read (file, size, SHA-256), by which ColdTap, and how the
/// read time is known. Nothing in it is cut short.
public struct ReportAudit: Sendable {
    public struct RuleRow: Sendable, Equatable {
        public var state: RuleFinding.State
        public var rule: String
        public var why: String
    }

    /// The input file as an auditor identifies it.
    public struct InputFile: Sendable, Equatable {
        public var name: String
        public var size: Int
        /// Lower-case hex.
        public var sha256: String

        public init(name: String, size: Int, sha256: String) {
            self.name = name
            self.size = size
            self.sha256 = sha256
        }
    }

    public var rules: [RuleRow]
    public var days: [DayFigures]
    public var input: InputFile?
    /// The ColdTap version that made the report.
    public var version: String?
    /// The reads, gaps, conflicts, acknowledgements and chain head of a report made from the archive.
    public var archive: ReportArchiveSection?

    /// Builds the rule rows in `language` from the assessment.
    public init(log: TemperatureLog, assessment: Assessment, language: ReportLanguage) {
        let strings = language.strings
        let audit = language.audit
        let f = ChartFormatter(timeZone: assessment.timeZone, language: language)
        rules = Assessor.ruleFindings(log, assessment: assessment).map { finding in
            let rule = finding.rule
            let name = ReportAudit.ruleText(rule, language: language)
            let why: String
            switch finding.state {
            case .fired, .undecided:
                let alarms = finding.alarms.map { alarm -> String in
                    if rule.kind == .meanKinetic {
                        return strings.reasonAlarmMKT.filled(["rule": name, "value": alarm.value.map { f.temperature($0, decimals: 2) } ?? "—"])
                    }
                    return strings.reasonAlarm.filled([
                        "rule": name, "time": f.dateTime(alarm.firedAt), "exposure": f.duration(alarm.exposure),
                        "side": rule.threshold.direction == .high ? strings.limitAbove : strings.limitBelow,
                        "peak": alarm.value.map { f.temperature($0, decimals: 2) } ?? "—",
                    ])
                }
                let alarmText = alarms.joined(separator: " ")
                why = finding.state == .undecided ? audit.unknownWhy + (alarmText.isEmpty ? "" : " — " + alarmText) : alarmText
            case .passed:
                let limit = rule.duration.map { f.duration($0.seconds) } ?? "—"
                switch rule.kind {
                case .continuous: why = audit.passedContinuous.filled(["exposure": f.duration(finding.exposure), "limit": limit])
                case .cumulative: why = audit.passedCumulative.filled(["exposure": f.duration(finding.exposure), "limit": limit])
                case .instantaneous: why = audit.passedInstantaneous
                case .meanKinetic:
                    why = audit.passedMKT.filled(["value": assessment.statistics.meanKineticTemperature.map { f.temperature($0, decimals: 2) } ?? "—"])
                }
            }
            return RuleRow(state: finding.state, rule: name, why: why)
        }
        days = assessment.days
    }

    /// A rule in words: "> 8.0 °C for 10 h continuous" in the report's language.
    static func ruleText(_ rule: Rule, language: ReportLanguage) -> String {
        guard language != .english else { return rule.description }
        let strings = language.strings
        let f = ChartFormatter(timeZone: TimeZone.utc, language: language)
        let threshold = rule.threshold.description
        let duration = rule.duration.map { f.duration($0.seconds) } ?? ""
        switch rule.kind {
        case .continuous: return strings.ruleContinuous.filled(["threshold": threshold, "duration": duration])
        case .cumulative:
            return strings.ruleCumulative.filled(["threshold": threshold, "duration": duration]) + (rule.scope == .day ? strings.rulePerDay : "")
        case .instantaneous: return strings.ruleInstantaneous.filled(["threshold": threshold])
        case .meanKinetic: return "MKT \(threshold)"
        }
    }
}
