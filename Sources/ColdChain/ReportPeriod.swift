import Foundation
import LoggerFormats

/// The period a report of a log states: one rule for every output (the terminal, the PDF
/// and HTML, the report JSON, the station's logger page and the review it signs), written
/// in docs/coldchain.md ("A report's period").
///
/// It runs from the first sample's time to the last sample's time: the instants the logger
/// recorded, so both ends are rows of the sample table and the CSV, and the end is never
/// after the read. (The statistics still weigh each sample by its interval; that interval's
/// end after the last sample is time nobody logged yet.) A log of daily summaries without
/// samples runs over the part of its days the logger covered.
public struct ReportPeriod: Sendable, Equatable {
    public var start: Date
    public var end: Date

    public init(start: Date, end: Date) {
        self.start = start
        self.end = end
    }

    /// The period of `log`; `nil` for a log with neither samples nor covered days.
    public init?(log: TemperatureLog) {
        if let first = log.samples.first?.time, let last = log.samples.last?.time {
            self.init(start: first, end: last)
        } else if let first = log.dailySummaries?.first?.coveredFrom, let last = log.dailySummaries?.last?.coveredTo {
            self.init(start: first, end: min(last, log.readTime))
        } else {
            return nil
        }
    }

    /// Seconds from the start to the end.
    public var duration: TimeInterval { end.timeIntervalSince(start) }
}
