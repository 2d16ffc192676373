import Foundation
import LoggerFormats

/// One stretch of time the log speaks for: a sample's interval, or a clock jump between
/// two samples (unknown time that no sample stands for).
struct Slot {
    enum Unknown {
        case missing, outOfRange, timeJump
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
    init(log: TemperatureLog, timeZone: TimeZone, splittingDays: Bool = true) {
        interval = log.interval.isFinite && log.interval > 0 ? log.interval : 0
        var previousEnd: Date?
        // A slot per sample and a few for clock jumps: room for them at once.
        slots.reserveCapacity(log.samples.count + 8)
        log.samples.withUnsafeBufferPointer { samples in
            for index in samples.indices {
                let time = samples[index].time
                if let previousEnd, interval > 0 {
                    let jump = time.timeIntervalSince(previousEnd)
                    // Small clock jitter is not a gap; more than half an interval is.
                    if jump > interval / 2 {
                        slots.append(Slot(start: previousEnd, duration: jump, temperature: nil, unknown: .timeJump))
                    }
                }
                let valid = samples[index].isValid
                let unknown: Slot.Unknown? = valid ? nil
                    : (samples[index].temperature == nil || samples[index].flags.contains(.missing) ? .missing : .outOfRange)
                slots.append(Slot(start: time, duration: interval, temperature: valid ? samples[index].temperature : nil,
                                  unknown: unknown, sampleIndex: index))
                previousEnd = time.addingTimeInterval(interval)
            }
        }
        buildGaps()
        if splittingDays { buildDays(timeZone: timeZone) }
    }

    private mutating func buildGaps() {
        var index = 0
        while index < slots.count {
            guard slots[index].unknown != nil else { index += 1; continue }
            var gap = Gap(start: slots[index].start, end: slots[index].end, missingCount: 0, outOfRangeCount: 0,
                          timeJumpSeconds: 0, firstSampleIndex: nil, lastSampleIndex: nil)
            while index < slots.count, let unknown = slots[index].unknown {
                slots[index].gapIndex = gaps.count
                switch unknown {
                case .missing: gap.missingCount += 1
                case .outOfRange: gap.outOfRangeCount += 1
                case .timeJump: gap.timeJumpSeconds += slots[index].duration
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
