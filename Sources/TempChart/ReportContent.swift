import ColdChain
import Foundation
import LoggerFormats

/// Everything the one-page report shows, as plain values. Built from a log and its
/// assessment (see `ReportContent.init(log:assessment:...)`) or filled in directly.
public struct ReportContent: Sendable {
    /// The overall verdict shown on the banner.
    public enum Verdict: String, Sendable, Equatable {
        case ok, alarm, inconclusive, notAssessed
    }

    /// Summary statistics over valid samples.
    public struct Statistics: Sendable, Equatable {
        public var sampleCount: Int
        /// Missing or flagged samples.
        public var invalidCount: Int
        public var minimum: Double?
        public var maximum: Double?
        public var mean: Double?
        /// Mean kinetic temperature in °C, when computed.
        public var meanKineticTemperature: Double?
        /// Seconds above the allowed band / below it (sample rule: k samples × interval).
        public var timeAbove: TimeInterval
        public var timeBelow: TimeInterval

        public init(
            sampleCount: Int, invalidCount: Int, minimum: Double?, maximum: Double?, mean: Double?,
            meanKineticTemperature: Double?, timeAbove: TimeInterval, timeBelow: TimeInterval
        ) {
            self.sampleCount = sampleCount
            self.invalidCount = invalidCount
            self.minimum = minimum
            self.maximum = maximum
            self.mean = mean
            self.meanKineticTemperature = meanKineticTemperature
            self.timeAbove = timeAbove
            self.timeBelow = timeBelow
        }

        /// Statistics computed from the log alone (no MKT), for reports without an assessment.
        public init(log: TemperatureLog, lower: Double?, upper: Double?) {
            var count = 0, sum = 0.0, low = Double.infinity, high = -Double.infinity
            var above = 0, below = 0
            for sample in log.samples where sample.isValid {
                guard let value = sample.temperature else { continue }
                count += 1
                sum += value
                low = min(low, value)
                high = max(high, value)
                if let upper, value > upper { above += 1 }
                if let lower, value < lower { below += 1 }
            }
            self.init(
                sampleCount: log.samples.count, invalidCount: log.samples.count - count,
                minimum: count > 0 ? low : nil, maximum: count > 0 ? high : nil,
                mean: count > 0 ? sum / Double(count) : nil, meanKineticTemperature: nil,
                timeAbove: Double(above) * log.interval, timeBelow: Double(below) * log.interval)
        }
    }

    /// One row of the excursion table.
    public struct Excursion: Sendable, Equatable {
        public var start: Date
        public var end: Date
        /// Most extreme temperature reached, °C.
        public var peak: Double
        public var direction: Direction

        public init(start: Date, end: Date, peak: Double, direction: Direction) {
            self.start = start
            self.end = end
            self.peak = peak
            self.direction = direction
        }
    }

    public var log: TemperatureLog
    /// Profile name and its allowed band as text, e.g. "vaccine-fridge (2–8 °C)".
    public var profile: String?
    public var lowerLimit: Double?
    public var upperLimit: Double?
    public var verdict: Verdict
    /// What the headline says beside the verdict, in the report's language (excursions not
    /// yet acknowledged, the logger's own alarm): `Assessment.headlineNotes`.
    public var headlineNote: String?
    public var reasons: [String]
    public var statistics: Statistics
    public var excursions: [Excursion]
    /// The audit part (rules, per-day figures, input); `nil` for content filled in directly.
    public var audit: ReportAudit?
    /// The electronic signatures on the report's period, oldest first; the report shows each,
    /// or an empty block to sign by hand when there are none.
    public var signatures: [ReportSignature] = []

    public init(
        log: TemperatureLog, profile: String?, lowerLimit: Double?, upperLimit: Double?, verdict: Verdict,
        reasons: [String], statistics: Statistics, excursions: [Excursion]
    ) {
        self.log = log
        self.profile = profile
        self.lowerLimit = lowerLimit
        self.upperLimit = upperLimit
        self.verdict = verdict
        self.reasons = reasons
        self.statistics = statistics
        self.excursions = excursions
    }

    /// The chart's excursion marks.
    public var chartExcursions: [ChartExcursion] {
        excursions.map { ChartExcursion(start: $0.start, end: $0.end, direction: $0.direction) }
    }

    /// The chart spec for this content.
    public func chartSpec(
        frame: ChartRect, timeZone: TimeZone, language: ReportLanguage, theme: ChartTheme,
        pixelDensity: Double = 1, title: String? = nil
    ) -> ChartSpec {
        var spec = ChartSpec(
            series: ChartSeries(log: log), lowerLimit: lowerLimit, upperLimit: upperLimit,
            excursions: chartExcursions, timeZone: timeZone, language: language, theme: theme, frame: frame,
            pixelDensity: pixelDensity, title: title)
        spec.dailyRanges = Self.dailyRanges(of: log)
        return spec
    }

    /// A summary-only log's days as the chart draws them (none when the log has readings).
    public static func dailyRanges(of log: TemperatureLog) -> [DailyRange] {
        guard let days = log.dailySummaries, !log.samples.contains(where: \.isValid) else { return [] }
        return days.map { DailyRange(start: $0.coveredFrom, end: $0.coveredTo, min: $0.min, max: $0.max, mean: $0.mean) }
    }
}
