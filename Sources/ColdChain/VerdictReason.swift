import Foundation
import LoggerFormats

/// Why the verdict is what it is, as values (rule, limit, duration, times), so that every
/// language is worded from the same facts. `english(in:)` gives the sentences of
/// `Assessment.reasons` (and of `report --json`).
public enum VerdictReason: Sendable, Equatable {
    /// The log has no samples.
    case noSamples
    /// Samples exist but none is valid.
    case noValidSample(missing: Int, outOfRange: Int)
    /// A rule fired on the recorded data.
    case alarm(Alarm)
    /// With unknown time (`unknownSeconds`) counted as beyond the limits, these would fire too.
    case unknownTimeWouldAlsoFire(unknownSeconds: TimeInterval, possible: [Alarm])
    /// Unknown time decides: this one gap, alone counted as beyond the limits, fires `fired`.
    case unknownTimeDecidesGap(Gap, fired: [Alarm])
    /// Unknown time decides: no single gap fires a rule, but the gaps together fire `possible`.
    case unknownTimeDecidesTogether(gapCount: Int, total: TimeInterval, possible: [Alarm])
    /// Unknown time decides, and there are too many gaps to try each one alone.
    case unknownTimeDecidesTooManyGaps(gapCount: Int, total: TimeInterval, possible: [Alarm])
    /// No rule fired (even with `unknownSeconds` of unknown time counted as beyond the limits).
    case noRuleFired(unknownSeconds: TimeInterval)
    /// The log gives no usable sample interval.
    case noUsableInterval(TimeInterval)
    /// The log failed its integrity check (`detail` as the decoder gave it).
    case integrityFailed(detail: TemperatureLog.Integrity.Detail)
    /// Most samples are outside the sensor's range: the bytes are likely no log.
    case mostlyOutOfRange(outOfRange: Int, sampleCount: Int)
    /// Excursions outside the band, and their total duration.
    case excursions(count: Int, band: Band, total: TimeInterval)
    /// The logger-limits profile was asked for but the log records no limits (`recorded` is
    /// what the log says about them, when anything).
    case loggerLimitsMissing(recorded: String?)
    /// The logger's own verdict disagrees with the samples read.
    case loggerDisagrees(verdict: String, status: String?, samplesBeyond: Bool)
    /// The logger's own verdict, which agrees with the samples.
    case loggerAgrees(verdict: String, status: String?)
    /// The log holds only the logger's daily summaries (`days` of them), no readings.
    case dailySummariesOnly(days: Int)
    /// What the daily summaries prove about one rule (Sources/ColdChain/SummaryJudging.swift).
    case summary(SummaryFinding)

    /// The sentence in English, times in `timeZone`.
    public func english(in timeZone: TimeZone) -> String {
        switch self {
        case .noSamples:
            return "The log has no samples."
        case .noValidSample(let missing, let outOfRange):
            return "No sample is valid (\(missing) missing, \(outOfRange) out of range)."
        case .alarm(let alarm):
            return Self.alarmSentence(alarm, timeZone: timeZone)
        case .unknownTimeWouldAlsoFire(let unknownSeconds, let possible):
            return "Counting the \(ColdChainFormat.duration(unknownSeconds)) of unknown time as beyond the limits would also fire: "
                + possible.map { "'\($0.rule)'" + ($0.day.map { " on \($0)" } ?? "") }.joined(separator: ", ") + "."
        case .unknownTimeDecidesGap(let gap, let fired):
            return "Unknown time decides: counted as beyond the limits, the gap \(Self.gapText(gap, timeZone: timeZone)) would fire \(Self.ruleList(fired))."
        case .unknownTimeDecidesTogether(let gapCount, let total, let possible):
            return
                "Unknown time decides: no single gap fires a rule, but the \(gapCount) gaps together (\(ColdChainFormat.duration(total))), counted as beyond the limits, would fire \(Self.ruleList(possible))."
        case .unknownTimeDecidesTooManyGaps(let gapCount, let total, let possible):
            return "Unknown time decides: counted as beyond the limits, the \(gapCount) gaps (\(ColdChainFormat.duration(total))) would fire "
                + Self.ruleList(possible) + "; there are too many gaps to try each one alone."
        case .noRuleFired(let unknownSeconds):
            var sentence = "No rule fired"
            if unknownSeconds > 0 {
                sentence += ", even with the \(ColdChainFormat.duration(unknownSeconds)) of unknown time counted as beyond the limits"
            }
            return sentence + "."
        case .noUsableInterval(let interval):
            return "The log gives no usable sample interval (\(interval) s), so durations cannot be measured."
        case .integrityFailed(let detail):
            let shown = detail.isEmpty ? "" : " (\(detail.text))"
            return "The log failed its integrity check\(shown): its data cannot be trusted."
        case .mostlyOutOfRange(let outOfRange, let sampleCount):
            return
                "\(outOfRange) of \(sampleCount) samples are outside the sensor's range, so the log is not a record to judge (are these bytes really this logger's?)."
        case .excursions(let count, let band, let total):
            return "\(count) excursion\(count == 1 ? "" : "s") outside \(band) lasting \(ColdChainFormat.duration(total)) in total."
        case .loggerLimitsMissing(let recorded):
            return "The 'logger' profile needs the logger's own limits, and this log has none (\(recorded ?? "no limits recorded"))."
        case .loggerDisagrees(let verdict, let status, let samplesBeyond):
            return "The logger's own verdict, \(verdict)\(status.map { " (status \($0))" } ?? ""), disagrees with the samples read: "
                + (samplesBeyond
                    ? "they go beyond its limits but it did not flag it"
                    : "none of them is beyond its limits (it also counts samples taken while logging continued after the memory was full)")
                + "."
        case .loggerAgrees(let verdict, let status):
            return "The logger itself: \(verdict)\(status.map { " (status \($0))" } ?? "")."
        case .dailySummariesOnly(let days):
            return "The log is a daily summary (\(days) days of minimum, maximum and mean, no readings): it is judged only by what those prove."
        case .summary(let finding):
            return finding.english
        }
    }

    /// `'rule'` or `'rule' on DAY`, each once, in order.
    static func ruleList(_ alarms: [Alarm]) -> String {
        var seen: [String] = []
        for alarm in alarms {
            let text = "'\(alarm.rule)'" + (alarm.day.map { " on \($0)" } ?? "")
            if !seen.contains(text) { seen.append(text) }
        }
        return seen.joined(separator: ", ")
    }

    static func gapText(_ gap: Gap, timeZone: TimeZone) -> String {
        var parts: [String] = []
        if gap.missingCount > 0 { parts.append("\(gap.missingCount) missing") }
        if gap.outOfRangeCount > 0 { parts.append("\(gap.outOfRangeCount) out of range") }
        // Time between samples: a logger's clock that jumped, or (in an archived record) time no
        // read covered. Either way no sample stands for it.
        if gap.timeJumpSeconds > 0 { parts.append("no samples for \(ColdChainFormat.duration(gap.timeJumpSeconds))") }
        if gap.unrecordedSeconds > 0 {
            parts.append("\(ColdChainFormat.duration(gap.unrecordedSeconds)) unrecorded by a logger whose thresholds are wider than the limits")
        }
        return "\(ColdChainFormat.time(gap.start, in: timeZone)) → \(ColdChainFormat.time(gap.end, in: timeZone)) "
            + "(\(ColdChainFormat.duration(gap.duration)): \(parts.joined(separator: ", ")))"
    }

    static func alarmSentence(_ alarm: Alarm, timeZone: TimeZone) -> String {
        let rule = alarm.rule
        let when = ColdChainFormat.time(alarm.firedAt, in: timeZone)
        let side = rule.threshold.direction == .high ? "above" : "below"
        let peak = alarm.value.map { value in
            "\(ColdChainFormat.temperature(value, decimals: 2)) °C"
                + (alarm.excess.map { ", \(ColdChainFormat.temperature($0, decimals: 2)) °C \(side) the limit" } ?? "")
        }
        switch rule.kind {
        case .continuous:
            return "'\(rule)' fired at \(when): \(ColdChainFormat.duration(alarm.exposure)) continuous beyond the limit"
                + (alarm.runStart.map { " from \(ColdChainFormat.time($0, in: timeZone))" } ?? "")
                + (peak.map { ", peak \($0)" } ?? "") + "."
        case .cumulative:
            return "'\(rule)' fired at \(when): \(ColdChainFormat.duration(alarm.exposure)) beyond the limit"
                + (alarm.day.map { " on \($0)" } ?? " in total")
                + (peak.map { ", peak \($0)" } ?? "") + "."
        case .instantaneous:
            return "'\(rule)' fired at \(when)" + (peak.map { ": peak \($0)" } ?? "")
                + "; \(ColdChainFormat.duration(alarm.exposure)) beyond the limit in total."
        case .meanKinetic:
            return "'\(rule)' fired: the mean kinetic temperature is " + (peak ?? "unknown") + "."
        }
    }
}
