import Foundation

/// The answer to "can the goods be used?".
public enum Verdict: String, Sendable, Hashable, Codable, CaseIterable {
    /// No rule fired, whatever the unknown time held.
    case ok = "OK"
    /// At least one rule fired on the recorded data.
    case alarm = "ALARM"
    /// The recorded data cannot decide: unknown time decides, there is no valid sample, or
    /// the log failed its integrity check.
    case inconclusive = "INCONCLUSIVE"
}

/// Figures over the valid samples of a log; each sample stands for `interval` seconds
/// starting at its timestamp.
public struct Statistics: Sendable, Hashable {
    /// All samples, valid or not.
    public var sampleCount: Int
    /// Samples with a temperature and no flag.
    public var validCount: Int
    /// Samples the logger marked missing (or that carry no temperature).
    public var missingCount: Int
    /// Samples outside the sensor's range (and not missing).
    public var outOfRangeCount: Int
    /// Seconds covered by valid samples.
    public var validSeconds: TimeInterval
    /// Seconds covered by missing samples.
    public var missingSeconds: TimeInterval
    /// Seconds covered by out-of-range samples.
    public var outOfRangeSeconds: TimeInterval
    /// Seconds between samples that no sample stands for (the clock jumped further than one
    /// interval).
    public var timeJumpSeconds: TimeInterval
    /// Time a threshold-mode logger recorded nothing while its thresholds are wider than the
    /// profile's band (docs/coldchain.md, threshold-mode loggers): unknown.
    public var unrecordedSeconds: TimeInterval = 0
    /// Time a threshold-mode logger recorded nothing while its thresholds keep every reading
    /// inside the profile's band: known inside, though no temperature is known.
    public var unrecordedInsideSeconds: TimeInterval = 0
    /// Unknown time: missing + out-of-range + time jumps + unrecorded time that may have
    /// been beyond, in seconds.
    public var unknownSeconds: TimeInterval { missingSeconds + outOfRangeSeconds + timeJumpSeconds + unrecordedSeconds }
    /// Lowest valid temperature (°C) and the time of its first occurrence.
    public var min: Double?
    public var minTime: Date?
    /// Highest valid temperature (°C) and the time of its first occurrence.
    public var max: Double?
    public var maxTime: Date?
    /// Time-weighted mean of the valid temperatures, °C.
    public var mean: Double?
    /// Time-weighted population standard deviation of the valid temperatures, °C.
    public var standardDeviation: Double?
    /// Mean kinetic temperature, °C (ΔH/R = 10 000 K, each sample weighted by its time).
    public var meanKineticTemperature: Double?
    /// Seconds of valid samples inside, above and below the profile's excursion band.
    public var secondsInBand: TimeInterval
    public var secondsAbove: TimeInterval
    public var secondsBelow: TimeInterval
    /// Start of the first sample's interval and end of the last one's; `nil` for an empty log.
    public var start: Date?
    public var end: Date?

    /// Figures of a log without samples.
    public static let empty = Statistics(
        sampleCount: 0, validCount: 0, missingCount: 0, outOfRangeCount: 0, validSeconds: 0,
        missingSeconds: 0, outOfRangeSeconds: 0, timeJumpSeconds: 0, min: nil, minTime: nil, max: nil,
        maxTime: nil, mean: nil, standardDeviation: nil, meanKineticTemperature: nil, secondsInBand: 0,
        secondsAbove: 0, secondsBelow: 0, start: nil, end: nil)
}

/// Figures for one calendar day in the assessment's time zone. A sample whose interval
/// crosses midnight is split between the two days.
public struct DayFigures: Sendable, Hashable {
    /// The day as `yyyy-MM-dd` in the assessment's time zone.
    public var day: String
    /// Midnight starting the day and midnight ending it (23, 24 or 25 h later).
    public var start: Date
    public var end: Date
    /// Seconds of this day covered by valid samples, and how they split against the band.
    public var validSeconds: TimeInterval
    public var secondsInBand: TimeInterval
    public var secondsAbove: TimeInterval
    public var secondsBelow: TimeInterval
    /// Seconds of this day whose temperature is unknown.
    public var unknownSeconds: TimeInterval
    /// Extremes (°C) of the valid samples overlapping this day.
    public var min: Double?
    public var max: Double?
    /// Time-weighted mean (°C) over this day's valid time.
    public var mean: Double?
}

/// A maximal run of consecutive valid samples beyond the excursion band on one side.
/// A missing or out-of-range sample, or a jump in the clock, ends a run.
public struct Excursion: Sendable, Hashable {
    public var direction: Direction
    /// The band limit that was crossed.
    public var limit: Threshold
    /// Timestamp of the first sample of the run.
    public var start: Date
    /// End of the last sample's interval.
    public var end: Date
    /// Samples in the run (k); `duration` = k × interval.
    public var sampleCount: Int
    public var duration: TimeInterval
    /// Index in `TemperatureLog.samples` of the run's first and last sample.
    public var firstSampleIndex: Int
    public var lastSampleIndex: Int
    /// Most extreme temperature (°C) of the run and the time of its first occurrence.
    public var peak: Double
    public var peakTime: Date
    /// Σ (degrees beyond the limit value × minutes) over the run's samples.
    public var degreeMinutes: Double
    /// True when unknown time lies right before or right after the run: the real
    /// excursion may have been longer.
    public var unknownBefore: Bool
    public var unknownAfter: Bool
    /// Who acknowledged the excursion, and when: given to `Assessor.assess` by a caller that
    /// keeps acknowledgements (the archive); `nil` until one is given.
    public var acknowledgement: ExcursionAcknowledgement? = nil
}

/// That someone looked into an excursion and said what was done (the archive keeps these).
public struct ExcursionAcknowledgement: Sendable, Hashable {
    /// The start of the excursion it names (matched within half an interval).
    public var excursionStart: Date
    public var by: String
    public var at: Date
    /// What was done about it.
    public var comment: String

    public init(excursionStart: Date, by: String, at: Date, comment: String = "") {
        self.excursionStart = excursionStart
        self.by = by
        self.at = at
        self.comment = comment
    }
}

extension ExcursionAcknowledgement {
    /// How far an acknowledgement's excursion start may lie from the excursion's: half the
    /// log's interval (at least half a second), since a later read of the same logger may
    /// place the same sample that much apart. The one matching rule of the archive, the
    /// command line and the station.
    public static func tolerance(interval: TimeInterval) -> TimeInterval {
        max(interval / 2, 0.5)
    }

    /// Whether this names the excursion starting at `start` in a log sampled every `interval`.
    public func names(excursionStartingAt start: Date, interval: TimeInterval) -> Bool {
        abs(excursionStart.timeIntervalSince(start)) <= Self.tolerance(interval: interval)
    }
}

extension Assessment {
    /// The excursion an acknowledgement naming `start` is for, in a log sampled every `interval`.
    public func excursion(startingNear start: Date, interval: TimeInterval) -> Excursion? {
        let tolerance = ExcursionAcknowledgement.tolerance(interval: interval)
        return excursions.first { abs($0.start.timeIntervalSince(start)) <= tolerance }
    }
}

/// What the headline says beside the verdict, so that an OK is never read as "nothing
/// happened" when something did: excursions nobody has acknowledged yet, or all of them
/// acknowledged (by whom, when), and the logger's own record of an excursion.
public enum HeadlineNote: Sendable, Hashable {
    case excursionsNotAcknowledged(count: Int)
    /// Every excursion acknowledged; the latest acknowledgement.
    case excursionsAcknowledged(count: Int, lastBy: String, lastAt: Date)
    /// The logger itself recorded an excursion (its own verdict and status).
    case loggerRecordedExcursion(verdict: String, status: String?)

    /// The English words, times in `timeZone`.
    public func english(in timeZone: TimeZone) -> String {
        switch self {
        case .excursionsNotAcknowledged(let count):
            return "\(count) excursion\(count == 1 ? "" : "s") not yet acknowledged"
        case .excursionsAcknowledged(let count, let by, let at):
            return (count == 1 ? "the excursion" : "all \(count) excursions") + " acknowledged by \(by) on \(ColdChainFormat.time(at, in: timeZone))"
        case .loggerRecordedExcursion(let verdict, let status):
            return "the logger itself recorded an excursion (\(verdict)\(status.map { ", status \($0)" } ?? ""))"
        }
    }
}

/// A stretch of unknown time: consecutive missing or out-of-range samples, or a jump in
/// the clock between two samples.
public struct Gap: Sendable, Hashable {
    /// Start of the first unknown interval and end of the last.
    public var start: Date
    public var end: Date
    public var duration: TimeInterval { end.timeIntervalSince(start) }
    public var missingCount: Int
    public var outOfRangeCount: Int
    /// Seconds not covered by any sample (clock jumps) inside the gap.
    public var timeJumpSeconds: TimeInterval
    /// Seconds a threshold-mode logger recorded nothing, its thresholds wider than the band.
    public var unrecordedSeconds: TimeInterval = 0
    /// Index in `TemperatureLog.samples` of the gap's first and last unknown sample;
    /// `nil` for a gap made only of a clock jump.
    public var firstSampleIndex: Int?
    public var lastSampleIndex: Int?
}

/// One rule that fired.
public struct Alarm: Sendable, Hashable {
    public var rule: Rule
    /// When the rule fired: the moment the exposure reached the rule's duration, the first
    /// sample beyond an instantaneous limit, or the end of the log for an MKT rule.
    public var firedAt: Date
    /// Seconds beyond the limit that the rule measures: the longest run (continuous), the
    /// total (cumulative; per day: that day's), all time beyond (instantaneous), or the
    /// time the MKT covers (MKT).
    public var exposure: TimeInterval
    /// The most extreme recorded temperature within that exposure (°C), or the MKT for an
    /// MKT rule; `nil` when the exposure is unknown time only.
    public var value: Double?
    /// How far `value` lies past the limit (°C, ≥ 0).
    public var excess: Double?
    /// For a per-day cumulative rule: the calendar day (`yyyy-MM-dd`).
    public var day: String?
    /// Start of the run that fired a continuous rule.
    public var runStart: Date?
    /// Seconds of the exposure that are unknown time counted as beyond the limit (only in
    /// `Assessment.possibleAlarms`; 0 for alarms on recorded data).
    public var unknownSeconds: TimeInterval
}

/// What `Assessor.assess` found out about a log.
public struct Assessment: Sendable {
    public var profile: Profile
    /// The band excursions and time-in-band are measured against (`profile.excursionBand`).
    public var band: Band
    /// The time zone of the per-day figures and the times written in `reasons`.
    public var timeZone: TimeZone
    public var verdict: Verdict
    public var statistics: Statistics
    public var excursions: [Excursion]
    /// Rules that fired on the recorded data (unknown time counted as inside the limits),
    /// in the profile's rule order.
    public var alarms: [Alarm]
    /// Rules that fire only when unknown time is counted as beyond the limits.
    public var possibleAlarms: [Alarm]
    /// Every stretch of unknown time, oldest first.
    public var gaps: [Gap]
    /// For an `INCONCLUSIVE` verdict caused by unknown time: the gaps that decide it.
    public var decidingGaps: [Gap]
    /// Why the verdict is what it is, most important first, as values each language words.
    public var verdictReasons: [VerdictReason]
    /// `verdictReasons` in English, times in `timeZone` (the sentences of `report --json`).
    public var reasons: [String] { verdictReasons.map { $0.english(in: timeZone) } }
    /// Per calendar day in `timeZone`, oldest first.
    public var days: [DayFigures]

    /// What the headline says beside the verdict (see `HeadlineNote`), most pressing first.
    public var headlineNotes: [HeadlineNote] {
        var notes: [HeadlineNote] = []
        let open = excursions.filter { $0.acknowledgement == nil }.count
        if open > 0 {
            notes.append(.excursionsNotAcknowledged(count: open))
        } else if let latest = excursions.compactMap(\.acknowledgement).max(by: { $0.at < $1.at }) {
            notes.append(.excursionsAcknowledged(count: excursions.count, lastBy: latest.by, lastAt: latest.at))
        }
        for reason in verdictReasons {
            switch reason {
            case .loggerAgrees(let verdict, let status) where verdict.hasPrefix("excursion"):
                notes.append(.loggerRecordedExcursion(verdict: verdict, status: status))
            case .loggerDisagrees(let verdict, let status, _) where verdict.hasPrefix("excursion"):
                notes.append(.loggerRecordedExcursion(verdict: verdict, status: status))
            default: break
            }
        }
        return notes
    }

    /// `VERDICT — note; note`: the one headline every front end shows.
    public func headline(in timeZone: TimeZone) -> String {
        ([verdict.rawValue] + [headlineNotes.map { $0.english(in: timeZone) }.joined(separator: "; ")].filter { !$0.isEmpty })
            .joined(separator: " — ")
    }
}
