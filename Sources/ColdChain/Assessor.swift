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
    /// - Parameter acknowledgements: what the archive keeps about excursions; each marks the
    ///   excursion starting within half an interval of it. A profile whose alarms last until
    ///   acknowledged (`cdc-vaccine-fridge`) lets go of an alarm once every excursion beyond
    ///   its rule's limit is acknowledged.
    public static func assess(
        _ log: TemperatureLog, profile: Profile, timeZone: TimeZone,
        acknowledgements: [ExcursionAcknowledgement] = []
    ) -> Assessment {
        let profile = profile.resolved(for: log)
        let band = profile.excursionBand
        let timeline = Timeline(log: log, timeZone: timeZone, band: band)
        let statistics = computeStatistics(timeline, band: band)
        var excursions = findExcursions(timeline, band: band)
        for index in excursions.indices {
            excursions[index].acknowledgement =
                acknowledgements
                .filter { $0.names(excursionStartingAt: excursions[index].start, interval: log.interval) }
                .max { $0.at < $1.at }
        }
        var assessment = Assessment(
            profile: profile, band: band, timeZone: timeZone, verdict: .ok, statistics: statistics,
            excursions: excursions, alarms: [], possibleAlarms: [],
            gaps: timeline.gaps, decidingGaps: [], verdictReasons: [], days: computeDays(timeline, band: band))
        decide(&assessment, log: log, timeline: timeline)
        compareWithLogger(&assessment, log: log)
        if let days = summaryOnlyDays(of: log) { judgeSummaries(&assessment, log: log, days: days) }
        return assessment
    }

    // MARK: Statistics

    static func computeStatistics(_ timeline: Timeline, band: Band) -> Statistics {
        var statistics = Statistics.empty
        var weightedSum = 0.0
        var totalWeight = 0.0
        var valid: [(temperature: Double, weight: Double)] = []
        valid.reserveCapacity(timeline.slots.count)
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
            case .unrecorded:
                statistics.unrecordedSeconds += slot.duration
            case nil:
                guard let temperature = slot.temperature else {
                    if slot.knownInside { statistics.unrecordedInsideSeconds += slot.duration }
                    continue
                }
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
            DayFigures(
                day: timeline.dayNames[index], start: timeline.midnights[index],
                end: timeline.midnights[index + 1], validSeconds: 0, secondsInBand: 0, secondsAbove: 0,
                secondsBelow: 0, unknownSeconds: 0, min: nil, max: nil, mean: nil)
        }
        var sums = [Double](repeating: 0, count: days.count)
        for slot in timeline.slots {
            timeline.forEachDayPiece(of: slot) { day, _, seconds in
                guard let temperature = slot.temperature else {
                    if slot.isUnknown { days[day].unknownSeconds += seconds }
                    return
                }
                days[day].validSeconds += seconds
                sums[day] += temperature * seconds
                days[day].min = Swift.min(days[day].min ?? temperature, temperature)
                days[day].max = Swift.max(days[day].max ?? temperature, temperature)
                switch band.position(of: temperature) {
                case .inside: days[day].secondsInBand += seconds
                case .above: days[day].secondsAbove += seconds
                case .below: days[day].secondsBelow += seconds
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
    /// lasting its samples' intervals. One pass over the samples, keeping no timeline.
    /// - Parameter timeZone: not used (excursions need no calendar days); kept for callers.
    public static func excursions(in log: TemperatureLog, band: Band, timeZone: TimeZone = .gmt) -> [Excursion] {
        var finder = ExcursionFinder(band: band)
        Timeline.forEachSlot(of: log, band: nil) { finder.add($0) }
        return finder.finish()
    }

    static func findExcursions(_ timeline: Timeline, band: Band) -> [Excursion] {
        var finder = ExcursionFinder(band: band)
        for slot in timeline.slots { finder.add(slot) }
        return finder.finish()
    }

    /// Finds excursions one slot at a time, so that a timeline's slots and slots made on the
    /// fly (`Timeline.forEachSlot`) are judged by the same code.
    struct ExcursionFinder {
        let band: Band
        private var excursions: [Excursion] = []
        /// The run being followed, changed in place: an excursion is some 150 bytes, and
        /// copying it out and back for every slot cost more than judging the slot.
        private var current: Excursion?
        /// The direction of `current` (`nil` without one), so that a slot inside the band
        /// (most of them) is judged without looking into the run.
        private var currentDirection: Direction?
        private var previousWasUnknown = false

        init(band: Band) { self.band = band }

        /// Judges one slot: most are inside the band and only update `previousWasUnknown`,
        /// so the work on a run (rare) is done out of line and this stays small enough to inline.
        @inline(__always)
        mutating func add(_ slot: Slot) {
            let position = slot.temperature.map { band.position(of: $0) }
            let direction: Direction? = position == .above ? .high : position == .below ? .low : nil
            if currentDirection != nil, currentDirection != direction { endRun(before: slot) }
            if let direction { extendRun(with: slot, direction: direction) }
            previousWasUnknown = slot.isUnknown
        }

        @inline(never)
        private mutating func endRun(before slot: Slot) {
            current!.unknownAfter = slot.isUnknown
            excursions.append(current!)
            current = nil
            currentDirection = nil
        }

        @inline(never)
        private mutating func extendRun(with slot: Slot, direction: Direction) {
            guard let temperature = slot.temperature, let sampleIndex = slot.sampleIndex, let limit = band.limit(direction) else { return }
            let degreeMinutes = limit.excess(of: temperature) * slot.duration / 60
            guard currentDirection != nil else {
                current = Excursion(
                    direction: direction, limit: limit, start: slot.start, end: slot.end, sampleCount: 1,
                    duration: slot.duration, firstSampleIndex: sampleIndex, lastSampleIndex: sampleIndex,
                    peak: temperature, peakTime: slot.start, degreeMinutes: degreeMinutes,
                    unknownBefore: previousWasUnknown, unknownAfter: false)
                currentDirection = direction
                return
            }
            current!.end = slot.end
            current!.sampleCount += 1
            current!.duration += slot.duration
            current!.lastSampleIndex = sampleIndex
            current!.degreeMinutes += degreeMinutes
            if direction == .high ? temperature > current!.peak : temperature < current!.peak {
                current!.peak = temperature
                current!.peakTime = slot.start
            }
        }

        /// The excursions found, the last one ending with the last slot.
        mutating func finish() -> [Excursion] {
            if let run = current { excursions.append(run) }
            current = nil
            currentDirection = nil
            return excursions
        }
    }

    // MARK: Verdict

    static func decide(_ assessment: inout Assessment, log: TemperatureLog, timeline: Timeline) {
        let rules = assessment.profile.rules
        let timeZone = assessment.timeZone
        let statistics = assessment.statistics
        var recorded = rules.flatMap { timeline.evaluate($0, gapIsBeyond: { _ in false }) }
        let worstCase = rules.flatMap { timeline.evaluate($0, gapIsBeyond: { _ in true }) }
        // What only unknown time would fire, against every recorded alarm (an acknowledged one
        // was still recorded: it is dealt with, not unknown).
        let possible = worstCase.filter { alarm in
            !recorded.contains { $0.rule == alarm.rule && $0.day == alarm.day }
        }
        if assessment.profile.alarmsLastUntilAcknowledged {
            // An instantaneous alarm stands for the excursions beyond its limit: once each of
            // them is acknowledged, it has been dealt with.
            let open = assessment.excursions.filter { $0.acknowledgement == nil }
            recorded.removeAll { alarm in
                alarm.rule.kind == .instantaneous && !open.contains { $0.direction == alarm.rule.threshold.direction }
            }
        }
        assessment.alarms = recorded
        assessment.possibleAlarms = possible
        var reasons: [VerdictReason] = []
        var verdict: Verdict

        // A threshold-mode logger's time without records can be known inside the band: such
        // a log is judged even with no record at all (docs/coldchain.md).
        let knownInside = statistics.unrecordedInsideSeconds > 0
        if log.samples.isEmpty && !knownInside {
            verdict = .inconclusive
            reasons.append(.noSamples)
        } else if statistics.validCount == 0 && !knownInside {
            verdict = .inconclusive
            reasons.append(.noValidSample(missing: statistics.missingCount, outOfRange: statistics.outOfRangeCount))
        } else if !recorded.isEmpty {
            verdict = .alarm
            reasons += recorded.map { .alarm($0) }
            if !possible.isEmpty {
                reasons.append(.unknownTimeWouldAlsoFire(unknownSeconds: statistics.unknownSeconds, possible: possible))
            }
        } else if !possible.isEmpty {
            verdict = .inconclusive
            let deciding = decidingGaps(timeline, rules: rules, possible: possible)
            assessment.decidingGaps = deciding.gaps
            reasons += deciding.reasons
        } else {
            verdict = .ok
            reasons.append(.noRuleFired(unknownSeconds: statistics.unknownSeconds))
        }

        // A log that cannot be trusted is never OK: the reason why leads an OK turned
        // inconclusive, and follows the reasons of any other verdict.
        func neverOK(because reason: VerdictReason) {
            if verdict == .ok {
                verdict = .inconclusive
                reasons.insert(reason, at: 0)
            } else {
                reasons.append(reason)
            }
        }
        if timeline.interval == 0, !log.samples.isEmpty {
            neverOK(because: .noUsableInterval(log.interval))
        }
        if log.integrity.status == .failed {
            neverOK(because: .integrityFailed(detail: log.integrity.detail))
        }
        // Bytes that are no log decode mostly to values no sensor gives: what is left
        // in range is not a record to raise an alarm on.
        if isMostlyOutOfRange(statistics) {
            verdict = .inconclusive
            reasons.insert(.mostlyOutOfRange(outOfRange: statistics.outOfRangeCount, sampleCount: statistics.sampleCount), at: 0)
        }
        if !assessment.excursions.isEmpty {
            let total = assessment.excursions.reduce(0) { $0 + $1.duration }
            reasons.append(.excursions(count: assessment.excursions.count, band: assessment.band, total: total))
        }
        assessment.verdict = verdict
        assessment.verdictReasons = reasons
    }

    /// True when more than half of the samples are outside the sensor's range.
    public static func isMostlyOutOfRange(_ statistics: Statistics) -> Bool {
        statistics.sampleCount > 0 && statistics.outOfRangeCount * 2 > statistics.sampleCount
    }

    /// The gaps that decide an inconclusive verdict and the reasons that say so: each gap
    /// that fires a rule when it alone counts as beyond the limits; failing that, all gaps.
    private static func decidingGaps(
        _ timeline: Timeline, rules: [Rule],
        possible: [Alarm]
    ) -> (gaps: [Gap], reasons: [VerdictReason]) {
        let gaps = timeline.gaps
        let total = gaps.reduce(0) { $0 + $1.duration }
        guard gaps.count <= maximumGapsTriedAlone else {
            return (gaps, [.unknownTimeDecidesTooManyGaps(gapCount: gaps.count, total: total, possible: possible)])
        }
        var deciding: [Gap] = []
        var reasons: [VerdictReason] = []
        for index in gaps.indices {
            let fired = rules.flatMap { timeline.evaluate($0, gapIsBeyond: { $0 == index }) }
            guard !fired.isEmpty else { continue }
            deciding.append(gaps[index])
            reasons.append(.unknownTimeDecidesGap(gaps[index], fired: fired))
        }
        if !deciding.isEmpty { return (deciding, reasons) }
        return (gaps, [.unknownTimeDecidesTogether(gapCount: gaps.count, total: total, possible: possible)])
    }
}
