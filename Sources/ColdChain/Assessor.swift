import Foundation
import LoggerFormats

/// Judges a temperature log against a profile.
public enum Assessor {
    /// Above this many gaps, an inconclusive verdict names all gaps together instead of
    /// trying each one alone (each try walks the whole log once per rule).
    static let maximumGapsTriedAlone = 200

    /// Statistics, excursions, per-day figures and the verdict of `log` under `profile`.
    ///
    /// Rules are evaluated twice: with unknown time (missing, out-of-range, clock jumps)
    /// counted as inside the limits, and as beyond them. A rule firing the first way is an
    /// alarm; firing only the second way makes the verdict `INCONCLUSIVE`, naming the
    /// gaps that decide it. An empty log, a log without valid samples or without a usable
    /// interval, and a log whose integrity check failed are never `OK`.
    /// - Parameter timeZone: the calendar days of per-day figures and per-day rules, and the
    ///   times written in `reasons`.
    public static func assess(_ log: TemperatureLog, profile: Profile, timeZone: TimeZone) -> Assessment {
        let profile = profile.resolved(for: log)
        let timeline = Timeline(log: log, timeZone: timeZone)
        let band = profile.excursionBand
        let statistics = computeStatistics(timeline, band: band)
        var assessment = Assessment(
            profile: profile, band: band, timeZone: timeZone, verdict: .ok, statistics: statistics,
            excursions: findExcursions(timeline, band: band), alarms: [], possibleAlarms: [],
            gaps: timeline.gaps, decidingGaps: [], reasons: [], days: computeDays(timeline, band: band))
        decide(&assessment, log: log, timeline: timeline)
        compareWithLogger(&assessment, log: log)
        return assessment
    }

    // MARK: Statistics

    static func computeStatistics(_ timeline: Timeline, band: Band) -> Statistics {
        var statistics = Statistics.empty
        var weightedSum = 0.0
        var totalWeight = 0.0
        var valid: [(temperature: Double, weight: Double)] = []
        let weight = timeline.interval > 0 ? timeline.interval : 1
        for slot in timeline.slots {
            if slot.sampleIndex != nil { statistics.sampleCount += 1 }
            statistics.start = statistics.start.map { Swift.min($0, slot.start) } ?? slot.start
            statistics.end = statistics.end.map { Swift.max($0, slot.end) } ?? slot.end
            switch slot.unknown {
            case .missing:
                statistics.missingCount += 1
                statistics.missingSeconds += slot.duration
            case .outOfRange:
                statistics.outOfRangeCount += 1
                statistics.outOfRangeSeconds += slot.duration
            case .timeJump:
                statistics.timeJumpSeconds += slot.duration
            case nil:
                guard let temperature = slot.temperature else { continue }
                statistics.validCount += 1
                statistics.validSeconds += slot.duration
                if statistics.min.map({ temperature < $0 }) ?? true {
                    statistics.min = temperature
                    statistics.minTime = slot.start
                }
                if statistics.max.map({ temperature > $0 }) ?? true {
                    statistics.max = temperature
                    statistics.maxTime = slot.start
                }
                weightedSum += temperature * weight
                totalWeight += weight
                valid.append((temperature, weight))
                switch band.position(of: temperature) {
                case .inside: statistics.secondsInBand += slot.duration
                case .above: statistics.secondsAbove += slot.duration
                case .below: statistics.secondsBelow += slot.duration
                }
            }
        }
        if totalWeight > 0 {
            let mean = weightedSum / totalWeight
            statistics.mean = mean
            let variance = valid.reduce(0.0) { $0 + $1.weight * ($1.temperature - mean) * ($1.temperature - mean) } / totalWeight
            statistics.standardDeviation = variance.squareRoot()
            statistics.meanKineticTemperature = meanKineticTemperature(valid)
        }
        return statistics
    }

    static func computeDays(_ timeline: Timeline, band: Band) -> [DayFigures] {
        var days = timeline.dayNames.indices.map { index in
            DayFigures(day: timeline.dayNames[index], start: timeline.midnights[index],
                       end: timeline.midnights[index + 1], validSeconds: 0, secondsInBand: 0, secondsAbove: 0,
                       secondsBelow: 0, unknownSeconds: 0, min: nil, max: nil, mean: nil)
        }
        var sums = [Double](repeating: 0, count: days.count)
        for slot in timeline.slots {
            for piece in timeline.dayPieces(of: slot) {
                guard let temperature = slot.temperature else {
                    days[piece.day].unknownSeconds += piece.seconds
                    continue
                }
                days[piece.day].validSeconds += piece.seconds
                sums[piece.day] += temperature * piece.seconds
                days[piece.day].min = Swift.min(days[piece.day].min ?? temperature, temperature)
                days[piece.day].max = Swift.max(days[piece.day].max ?? temperature, temperature)
                switch band.position(of: temperature) {
                case .inside: days[piece.day].secondsInBand += piece.seconds
                case .above: days[piece.day].secondsAbove += piece.seconds
                case .below: days[piece.day].secondsBelow += piece.seconds
                }
            }
        }
        for index in days.indices where days[index].validSeconds > 0 {
            days[index].mean = sums[index] / days[index].validSeconds
        }
        return days
    }

    // MARK: Excursions

    /// The excursions of `log` beyond `band`, as `assess` finds them (for a chart drawn
    /// without a profile): maximal runs of consecutive valid samples on one side, each
    /// lasting its samples' intervals.
    /// - Parameter timeZone: only matters for per-day figures, which this does not return.
    public static func excursions(in log: TemperatureLog, band: Band, timeZone: TimeZone = .gmt) -> [Excursion] {
        findExcursions(Timeline(log: log, timeZone: timeZone), band: band)
    }

    static func findExcursions(_ timeline: Timeline, band: Band) -> [Excursion] {
        var excursions: [Excursion] = []
        var current: Excursion?
        var previousWasUnknown = false
        for slot in timeline.slots {
            let position = slot.temperature.map { band.position(of: $0) }
            let direction: Direction? = position == .above ? .high : position == .below ? .low : nil
            if var run = current, run.direction != direction {
                run.unknownAfter = slot.temperature == nil
                excursions.append(run)
                current = nil
            }
            defer { previousWasUnknown = slot.temperature == nil }
            guard let direction, let temperature = slot.temperature, let sampleIndex = slot.sampleIndex,
                  let limit = band.limit(direction) else { continue }
            let degreeMinutes = limit.excess(of: temperature) * slot.duration / 60
            if var run = current {
                run.end = slot.end
                run.sampleCount += 1
                run.duration += slot.duration
                run.lastSampleIndex = sampleIndex
                run.degreeMinutes += degreeMinutes
                if direction == .high ? temperature > run.peak : temperature < run.peak {
                    run.peak = temperature
                    run.peakTime = slot.start
                }
                current = run
            } else {
                current = Excursion(
                    direction: direction, limit: limit, start: slot.start, end: slot.end, sampleCount: 1,
                    duration: slot.duration, firstSampleIndex: sampleIndex, lastSampleIndex: sampleIndex,
                    peak: temperature, peakTime: slot.start, degreeMinutes: degreeMinutes,
                    unknownBefore: previousWasUnknown, unknownAfter: false)
            }
        }
        if let run = current { excursions.append(run) }
        return excursions
    }

    // MARK: Verdict

    static func decide(_ assessment: inout Assessment, log: TemperatureLog, timeline: Timeline) {
        let rules = assessment.profile.rules
        let timeZone = assessment.timeZone
        let statistics = assessment.statistics
        let recorded = rules.flatMap { timeline.evaluate($0, gapIsBeyond: { _ in false }) }
        let worstCase = rules.flatMap { timeline.evaluate($0, gapIsBeyond: { _ in true }) }
        let possible = worstCase.filter { alarm in
            !recorded.contains { $0.rule == alarm.rule && $0.day == alarm.day }
        }
        assessment.alarms = recorded
        assessment.possibleAlarms = possible
        var reasons: [String] = []
        var verdict: Verdict

        if log.samples.isEmpty {
            verdict = .inconclusive
            reasons.append("The log has no samples.")
        } else if statistics.validCount == 0 {
            verdict = .inconclusive
            reasons.append("No sample is valid (\(statistics.missingCount) missing, \(statistics.outOfRangeCount) out of range).")
        } else if !recorded.isEmpty {
            verdict = .alarm
            reasons += recorded.map { alarmSentence($0, timeZone: timeZone) }
            if !possible.isEmpty {
                reasons.append("Counting the \(ColdChainFormat.duration(statistics.unknownSeconds)) of unknown time as beyond the limits would also fire: "
                               + possible.map { "'\($0.rule)'" + ($0.day.map { " on \($0)" } ?? "") }.joined(separator: ", ") + ".")
            }
        } else if !possible.isEmpty {
            verdict = .inconclusive
            let deciding = decidingGaps(timeline, rules: rules, possible: possible, timeZone: timeZone)
            assessment.decidingGaps = deciding.gaps
            reasons += deciding.reasons
        } else {
            verdict = .ok
            var sentence = "No rule fired"
            if statistics.unknownSeconds > 0 {
                sentence += ", even with the \(ColdChainFormat.duration(statistics.unknownSeconds)) of unknown time counted as beyond the limits"
            }
            reasons.append(sentence + ".")
        }

        // A log that cannot be trusted is never OK: the reason why leads an OK turned
        // inconclusive, and follows the reasons of any other verdict.
        func neverOK(because sentence: String) {
            if verdict == .ok {
                verdict = .inconclusive
                reasons.insert(sentence, at: 0)
            } else {
                reasons.append(sentence)
            }
        }
        if timeline.interval == 0, !log.samples.isEmpty {
            neverOK(because: "The log gives no usable sample interval (\(log.interval) s), so durations cannot be measured.")
        }
        if log.integrity.status == .failed {
            let detail = log.integrity.detail.isEmpty ? "" : " (\(log.integrity.detail))"
            neverOK(because: "The log failed its integrity check\(detail): its data cannot be trusted.")
        }
        // Bytes that are no log decode mostly to values no sensor gives: what is left
        // in range is not a record to raise an alarm on.
        if isMostlyOutOfRange(statistics) {
            verdict = .inconclusive
            reasons.insert(mostlyOutOfRangeSentence(statistics), at: 0)
        }
        if !assessment.excursions.isEmpty {
            let count = assessment.excursions.count
            let total = assessment.excursions.reduce(0) { $0 + $1.duration }
            reasons.append("\(count) excursion\(count == 1 ? "" : "s") outside \(assessment.band) lasting \(ColdChainFormat.duration(total)) in total.")
        }
        assessment.verdict = verdict
        assessment.reasons = reasons
    }

    /// True when more than half of the samples are outside the sensor's range.
    public static func isMostlyOutOfRange(_ statistics: Statistics) -> Bool {
        statistics.sampleCount > 0 && statistics.outOfRangeCount * 2 > statistics.sampleCount
    }

    static func mostlyOutOfRangeSentence(_ statistics: Statistics) -> String {
        "\(statistics.outOfRangeCount) of \(statistics.sampleCount) samples are outside the sensor's range, so the log is not a record to judge (are these bytes really this logger's?)."
    }

    /// The gaps that decide an inconclusive verdict and the sentences that say so: each gap
    /// that fires a rule when it alone counts as beyond the limits; failing that, all gaps.
    private static func decidingGaps(_ timeline: Timeline, rules: [Rule], possible: [Alarm],
                                     timeZone: TimeZone) -> (gaps: [Gap], reasons: [String]) {
        func ruleList(_ alarms: [Alarm]) -> String {
            var seen: [String] = []
            for alarm in alarms {
                let text = "'\(alarm.rule)'" + (alarm.day.map { " on \($0)" } ?? "")
                if !seen.contains(text) { seen.append(text) }
            }
            return seen.joined(separator: ", ")
        }
        let gaps = timeline.gaps
        let total = ColdChainFormat.duration(gaps.reduce(0) { $0 + $1.duration })
        guard gaps.count <= maximumGapsTriedAlone else {
            return (gaps, ["Unknown time decides: counted as beyond the limits, the \(gaps.count) gaps (\(total)) would fire "
                           + ruleList(possible) + "; there are too many gaps to try each one alone."])
        }
        var deciding: [Gap] = []
        var reasons: [String] = []
        for index in gaps.indices {
            let fired = rules.flatMap { timeline.evaluate($0, gapIsBeyond: { $0 == index }) }
            guard !fired.isEmpty else { continue }
            deciding.append(gaps[index])
            reasons.append("Unknown time decides: counted as beyond the limits, the gap \(gapText(gaps[index], timeZone: timeZone)) would fire \(ruleList(fired)).")
        }
        if !deciding.isEmpty { return (deciding, reasons) }
        return (gaps, ["Unknown time decides: no single gap fires a rule, but the \(gaps.count) gaps together (\(total)), counted as beyond the limits, would fire \(ruleList(possible))."])
    }

    // MARK: Sentences

    static func gapText(_ gap: Gap, timeZone: TimeZone) -> String {
        var parts: [String] = []
        if gap.missingCount > 0 { parts.append("\(gap.missingCount) missing") }
        if gap.outOfRangeCount > 0 { parts.append("\(gap.outOfRangeCount) out of range") }
        if gap.timeJumpSeconds > 0 { parts.append("clock jump of \(ColdChainFormat.duration(gap.timeJumpSeconds))") }
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
