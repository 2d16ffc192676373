import ColdChain
import ColdTapKit
import Foundation
import LoggerFormats

/// `coldtap report`'s text for a terminal, section by section: the verdict and its reasons,
/// the rules, the log, the statistics, the excursions, the logger's events, the days.
struct ReportText {
    var log: TemperatureLog
    var assessment: Assessment
    /// What the input was taken for, when the report is of a file.
    var input: String?
    /// ANSI colours (for a terminal only).
    var colour: Bool

    var text: String {
        var lines = verdict
        for section in [rules, logSection, statistics, excursions, events, days] where !section.isEmpty {
            lines.append("")
            lines += section
        }
        return lines.joined(separator: "\n")
    }

    private var zone: TimeZone { assessment.timeZone }
    private func time(_ date: Date?) -> String { date.map { ColdChainFormat.time($0, in: zone) } ?? "—" }
    private func celsius(_ value: Double?) -> String { value.map { ColdChainFormat.temperature($0, decimals: 2) + " °C" } ?? "—" }
    private func duration(_ seconds: TimeInterval) -> String { LogExport.readableDuration(seconds) }
    private func paint(_ text: String, _ code: String) -> String { colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    private func table(_ rows: [[String]], header: [String]? = nil, rightAligned: Set<Int> = []) -> [String] {
        ReportCommand.table(rows, header: header, rightAligned: rightAligned)
    }

    /// The verdict with what it must not hide (excursions not yet acknowledged, the logger's
    /// own alarm), the profile, and the reasons.
    private var verdict: [String] {
        let code: String
        switch assessment.verdict {
        case .ok: code = "1;32"
        case .alarm: code = "1;31"
        case .inconclusive: code = "1;33"
        }
        let notes = assessment.headlineNotes.map { $0.english(in: zone) }.joined(separator: "; ")
        return [
            "\(paint(assessment.verdict.rawValue, code))\(notes.isEmpty ? "" : " — " + paint(notes, "1"))  \(assessment.profile.name) — \(Self.profileLine(assessment.profile))"
        ]
            + assessment.reasons.map { "  • \($0)" }
    }

    private var rules: [String] {
        let rows = assessment.profile.rules.map { rule -> [String] in
            let state: String
            if assessment.alarms.contains(where: { $0.rule == rule }) {
                state = paint("fired", "31")
            } else if assessment.possibleAlarms.contains(where: { $0.rule == rule }) {
                state = paint("unknown", "33")
            } else {
                state = "passed"
            }
            return [state, rule.description]
        }
        return [paint("Rules", "1")] + table(rows)
    }

    private var logSection: [String] {
        let statistics = assessment.statistics
        var rows: [[String]] = [["format", log.format.name]]
        let identity = [
            log.logger.vendor, log.logger.model?.name, log.logger.serial.map { "serial \($0)" },
            log.logger.tagUID.map { "tag \($0)" },
        ].compactMap { $0 }
        if !identity.isEmpty { rows.append(["logger", identity.joined(separator: ", ")]) }
        if let input { rows.append(["input", input]) }
        rows.append(["samples", "\(statistics.sampleCount) every \(duration(log.interval))"])
        if let period = ReportPeriod(log: log) {
            rows.append(["period", "\(time(period.start)) → \(time(period.end)) (\(duration(period.duration)))"])
        }
        rows.append([
            "read time",
            log.timesEstimated
                ? paint(LogExport.readTimeText(log, wording: HintWording.logWording), "33") : LogExport.readTimeText(log, wording: HintWording.logWording),
        ])
        rows.append(["time base", log.timeBase.rawValue])
        let integrity =
            log.integrity.detail.isEmpty
            ? log.integrity.status.rawValue
            : "\(log.integrity.status.rawValue) (\(log.integrity.detail))"
        rows.append(["integrity", log.integrity.status == .failed ? paint(integrity, "31") : integrity])
        rows.append(["time zone", zone.identifier])
        return [paint("Log", "1")] + table(rows) + log.warnings.map { "  warning: \($0)" }
    }

    private var statistics: [String] {
        let statistics = assessment.statistics
        var rows: [[String]] = [
            ["valid", "\(statistics.validCount) of \(statistics.sampleCount) samples"],
            [
                "unknown",
                "\(duration(statistics.unknownSeconds)) (\(statistics.missingCount) missing, \(statistics.outOfRangeCount) out of range"
                    + (statistics.timeJumpSeconds > 0 ? ", \(duration(statistics.timeJumpSeconds)) without samples" : "")
                    + (statistics.unrecordedSeconds > 0
                        ? ", \(duration(statistics.unrecordedSeconds)) unrecorded beyond what the logger's thresholds guarantee" : "") + ")",
            ],
            ["min", statistics.min == nil ? "—" : "\(celsius(statistics.min)) at \(time(statistics.minTime))"],
            ["max", statistics.max == nil ? "—" : "\(celsius(statistics.max)) at \(time(statistics.maxTime))"],
            [
                "mean",
                celsius(statistics.mean)
                    + (statistics.standardDeviation.map { " ± \(ColdChainFormat.temperature($0, decimals: 2)) °C (standard deviation)" } ?? ""),
            ],
            ["MKT", celsius(statistics.meanKineticTemperature) + " (ΔH/R = 10 000 K)"],
        ]
        if statistics.unrecordedInsideSeconds > 0, let thresholds = log.thresholdLogging {
            rows.append([
                "unrecorded",
                "\(duration(statistics.unrecordedInsideSeconds)) known inside the band: the logger \(thresholds.rule), so what it did not store lay within \(thresholds.rangeText)",
            ])
        }
        func share(_ seconds: TimeInterval) -> String {
            guard statistics.validSeconds > 0 else { return duration(seconds) }
            return "\(duration(seconds)) (\(String(format: "%.1f", 100 * seconds / statistics.validSeconds)) %)"
        }
        rows.append(["in band", "\(share(statistics.secondsInBand)) within \(assessment.band.description)"])
        rows.append(["above", share(statistics.secondsAbove)])
        rows.append(["below", share(statistics.secondsBelow)])
        return [paint("Statistics", "1") + " (valid samples)"] + table(rows)
    }

    private var excursions: [String] {
        let band = assessment.band.description
        guard !assessment.excursions.isEmpty else { return [paint("Excursions", "1") + ": none outside \(band)"] }
        let rows = assessment.excursions.enumerated().map { index, excursion in
            [
                String(index + 1), excursion.direction.rawValue, time(excursion.start), time(excursion.end),
                duration(excursion.duration), celsius(excursion.peak), time(excursion.peakTime),
                String(format: "%.1f", excursion.degreeMinutes),
                [excursion.unknownBefore ? "before" : nil, excursion.unknownAfter ? "after" : nil]
                    .compactMap { $0 }.joined(separator: ", "),
            ]
        }
        return [paint("Excursions", "1") + " outside \(band)"]
            + table(
                rows, header: ["#", "side", "start", "end", "duration", "peak", "peak at", "°C·min", "unknown time"],
                rightAligned: [0, 4, 5, 7])
    }

    /// The logger's own event record, when it keeps one.
    private var events: [String] {
        guard !log.events.isEmpty else { return [] }
        let rows = log.events.map { [time($0.time), $0.name, $0.end.map { time($0) } ?? "", $0.detail?.text ?? ""] }
        return [paint("Logger events", "1") + " (the logger's own record)"] + table(rows, header: ["time", "event", "until", "meaning"])
    }

    private var days: [String] {
        guard !assessment.days.isEmpty else { return [] }
        let rows = assessment.days.map { day in
            let parts = ColdChainFormat.minutesAddingUp([day.secondsInBand, day.secondsAbove, day.secondsBelow, day.unknownSeconds])
            return [day.day] + parts.map(duration) + [celsius(day.min), celsius(day.max), celsius(day.mean)]
        }
        return [paint("Per day", "1") + " (\(zone.identifier))"]
            + table(rows, header: ["day", "in band", "above", "below", "unknown", "min", "max", "mean"], rightAligned: [1, 2, 3, 4, 5, 6, 7])
    }

    /// The profile's summary, or its band when it has none; a band taken from the rules says so.
    static func profileLine(_ profile: Profile) -> String {
        if profile.band == nil {
            let derived = "allowed band from its rule limits: \(profile.excursionBand)"
            return profile.summary.isEmpty ? derived : "\(profile.summary); \(derived)"
        }
        return profile.summary.isEmpty ? "band \(profile.excursionBand)" : profile.summary
    }
}
