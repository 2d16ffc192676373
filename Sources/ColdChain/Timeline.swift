import Foundation
import LoggerFormats

/// One stretch of time the log speaks for: a sample's interval, or a clock jump between
/// two samples (unknown time that no sample stands for).
struct Slot {
    enum Unknown {
        case missing, outOfRange, timeJump
        /// Time a threshold-mode logger recorded nothing, whose thresholds are wider than
        /// the profile's band: the readings may have been beyond it (docs/coldchain.md).
        case unrecorded
    }

    var start: Date
    var duration: TimeInterval
    /// The temperature of a valid sample; `nil` for unknown time.
    var temperature: Double?
    /// Why the temperature is unknown; `nil` for a valid sample.
    var unknown: Unknown?
    /// Index into `TemperatureLog.samples`; `nil` for a clock jump.
    var sampleIndex: Int?
    /// Index into the timeline's gaps for unknown slots.
    var gapIndex: Int?
    /// Time a threshold-mode logger recorded nothing while its thresholds guarantee the
    /// readings stayed inside the profile's band: no temperature, yet not unknown.
    var knownInside = false

    /// True for time whose temperature is not known to be anything.
    var isUnknown: Bool { temperature == nil && !knownInside }

    var end: Date { start.addingTimeInterval(duration) }
}

/// A log turned into contiguous slots, with its gaps and calendar days.
struct Timeline {
    var slots: [Slot] = []
    var gaps: [Gap] = []
    /// Sample interval in seconds, 0 when the log gives none that can be used.
    var interval: TimeInterval
    /// Midnights in the assessment's time zone from the one before the first slot to the
    /// one after the last; day `i` runs from `midnights[i]` to `midnights[i + 1]`.
    var midnights: [Date] = []
    var dayNames: [String] = []

    /// Most days a timeline splits into; a log with absurd timestamps keeps its other figures.
    static let maximumDays = 20_000

    /// - Parameter splittingDays: false for a caller that needs no per-day figures (finding
    ///   excursions): the calendar work is then skipped.
    /// - Parameter band: the profile's band, against which the time a threshold-mode logger
    ///   recorded nothing is known inside or unknown (`nil`: always unknown).
    init(log: TemperatureLog, timeZone: TimeZone, splittingDays: Bool = true, band: Band? = nil) {
        interval = Timeline.usableInterval(of: log)
        var slots: [Slot] = []
        // A slot per sample and a few for clock jumps: room for them at once.
        slots.reserveCapacity(log.samples.count + 8)
        Timeline.forEachSlot(of: log, band: band) { slots.append($0) }
        self.slots = slots
        buildGaps()
        if splittingDays { buildDays(timeZone: timeZone) }
    }

    /// The log's sample interval, or 0 when it gives none that can be used.
    static func usableInterval(of log: TemperatureLog) -> TimeInterval {
        log.interval.isFinite && log.interval > 0 ? log.interval : 0
    }

    /// Calls `body` with the slots of `log` in order, as a timeline holds them (without their
    /// gap indices), keeping none: a caller that walks them once, finding excursions, needs
    /// no array of a slot per sample (64 MB for a million samples, beyond the caches: that
    /// made the chart's excursions grow faster than the log, see coldtap-bench chart).
    /// - Parameter band: as for `init`.
    @inline(__always)
    static func forEachSlot(of log: TemperatureLog, band: Band?, _ body: (Slot) -> Void) {
        let interval = usableInterval(of: log)
        var previousEnd: Date?
        let thresholds = interval > 0 ? log.thresholdLogging : nil
        let unrecordedIsInside = thresholds.map { Timeline.guarantees($0, inside: band) } ?? false
        func unrecorded(from start: Date, to end: Date) {
            guard end > start else { return }
            body(
                Slot(
                    start: start, duration: end.timeIntervalSince(start), temperature: nil,
                    unknown: unrecordedIsInside ? nil : .unrecorded, knownInside: unrecordedIsInside))
        }
        if let thresholds { previousEnd = thresholds.coverageStart }
        log.samples.withUnsafeBufferPointer { samples in
            for index in samples.indices {
                let time = samples[index].time
                if thresholds != nil, let previousEnd {
                    // Between records the logger measured and stored nothing: its thresholds say what that was.
                    unrecorded(from: previousEnd, to: time)
                } else if let previousEnd, interval > 0 {
                    let jump = time.timeIntervalSince(previousEnd)
                    // Small clock jitter is not a gap; more than half an interval is.
                    if jump > interval / 2 {
                        body(Slot(start: previousEnd, duration: jump, temperature: nil, unknown: .timeJump))
                    }
                }
                let valid = samples[index].isValid
                let unknown: Slot.Unknown? =
                    valid
                    ? nil
                    : (samples[index].temperature == nil || samples[index].flags.contains(.missing) ? .missing : .outOfRange)
                body(
                    Slot(
                        start: time, duration: interval, temperature: valid ? samples[index].temperature : nil,
                        unknown: unknown, sampleIndex: index))
                previousEnd = time.addingTimeInterval(interval)
            }
        }
        if let thresholds, let end = previousEnd { unrecorded(from: end, to: thresholds.coverageEnd) }
    }

    /// True when every reading the logger did not store lay inside `band` (on a side the
    /// band leaves open any bound will do; a side the logger leaves open is no guarantee).
    static func guarantees(_ thresholds: TemperatureLog.ThresholdLogging, inside band: Band?) -> Bool {
        guard let band else { return false }
        if let high = band.high {
            guard let highest = thresholds.highest, !high.isBeyond(highest) else { return false }
        }
        if let low = band.low {
            guard let lowest = thresholds.lowest, !low.isBeyond(lowest) else { return false }
        }
        return true
    }

    private mutating func buildGaps() {
        var index = 0
        while index < slots.count {
            guard slots[index].unknown != nil else { index += 1; continue }
            var gap = Gap(
                start: slots[index].start, end: slots[index].end, missingCount: 0, outOfRangeCount: 0,
                timeJumpSeconds: 0, unrecordedSeconds: 0, firstSampleIndex: nil, lastSampleIndex: nil)
            while index < slots.count, let unknown = slots[index].unknown {
                slots[index].gapIndex = gaps.count
                switch unknown {
                case .missing: gap.missingCount += 1
                case .outOfRange: gap.outOfRangeCount += 1
                case .timeJump: gap.timeJumpSeconds += slots[index].duration
                case .unrecorded: gap.unrecordedSeconds += slots[index].duration
                }
                if let sampleIndex = slots[index].sampleIndex {
                    gap.firstSampleIndex = gap.firstSampleIndex ?? sampleIndex
                    gap.lastSampleIndex = sampleIndex
                }
                gap.end = Swift.max(gap.end, slots[index].end)
                index += 1
            }
            gaps.append(gap)
        }
    }

    private mutating func buildDays(timeZone: TimeZone) {
        guard var first = slots.first?.start, var last = slots.first?.end else { return }
        for slot in slots {
            first = Swift.min(first, slot.start)
            last = Swift.max(last, slot.end)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var midnight = calendar.startOfDay(for: first)
        midnights = [midnight]
        while let next = calendar.date(byAdding: .day, value: 1, to: midnight), next > midnight {
            dayNames.append(ColdChainFormat.day(calendar.dateComponents([.year, .month, .day], from: midnight)))
            midnights.append(next)
            midnight = next
            if midnight >= last || dayNames.count >= Timeline.maximumDays { break }
        }
    }

    /// The day containing `date`, or `nil` outside the days the timeline covers.
    func dayIndex(of date: Date) -> Int? {
        guard let first = midnights.first, let last = midnights.last, date >= first, date < last else { return nil }
        var low = 0
        var high = midnights.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if midnights[middle] <= date { low = middle } else { high = middle }
        }
        return low
    }

    /// Splits a slot at midnights: (day index, start of the piece, seconds).
    /// Calls `body` with each part of `slot` that falls in one day: the day's index, where
    /// the part starts and how long it lasts (a slot of no duration is one part of 0 s).
    /// Called for every slot of every day rule: it walks without allocating.
    func forEachDayPiece(of slot: Slot, _ body: (_ day: Int, _ start: Date, _ seconds: TimeInterval) -> Void) {
        guard var day = dayIndex(of: slot.start) else { return }
        if slot.duration <= 0 {
            body(day, slot.start, 0)
            return
        }
        var pieceStart = slot.start
        let end = slot.end
        while pieceStart < end, day < dayNames.count {
            let pieceEnd = Swift.min(end, midnights[day + 1])
            body(day, pieceStart, pieceEnd.timeIntervalSince(pieceStart))
            pieceStart = pieceEnd
            day += 1
        }
    }
}
