import ColdChain
import ColdTapBase
import Foundation
import LoggerFormats
import TempChart

/// Everything the result screen shows for one read, worded and in order: the verdict
/// first, then the statistics, the curve's summary, the excursions, the gaps and the
/// logger's details. The screen lays these out and adds the chart and the share menu.
public struct ResultScreen: Sendable {
    /// A label and its value.
    public struct Row: Sendable, Hashable {
        public var label: String
        public var value: String
    }

    /// The verdict, big, with the reasons behind it.
    public struct Banner: Sendable, Equatable {
        public var title: String
        public var symbol: String
        public var tone: Tone
        public var explanation: String
        /// "Profile NAME: BAND".
        public var profileLine: String
        /// One line per reason, bulleted, in the app's language.
        public var reasons: [String]
    }

    /// One excursion beyond the band.
    public struct ExcursionItem: Sendable, Equatable {
        public var symbol: String
        /// "Above 8.0 °C" / "Below 2.0 °C".
        public var title: String
        /// When it started and how long it lasted.
        public var timeLine: String
        /// Its peak and when.
        public var peakLine: String
        /// Said when unknown time borders it (it may have lasted longer).
        public var unknownNote: String?
    }

    /// A line of the logger section.
    public enum DetailLine: Sendable, Equatable {
        case row(Row)
        /// Small secondary text under the row before it.
        case caption(String)
        /// A small note with a symbol.
        case note(String, symbol: String)
    }

    public var title: String
    /// Said first, above the verdict, for the bundled sample read (nil for a logger's read).
    public var sampleNote: String?
    public var banner: Banner
    public var statistics: [Row]
    /// What VoiceOver says for the chart.
    public var chartSummary: String
    /// Said instead of the excursions when there are none.
    public var noExcursionsNote: String?
    public var excursions: [ExcursionItem]
    /// Start and length of each gap (the section is left out when empty).
    public var gaps: [Row]
    public var details: [DetailLine]

    /// - Parameters:
    ///   - assessment: the read's assessment as shown now (`StoredRead.assessment`).
    ///   - upload: where the read stands with the station.
    ///   - timeZone: the zone times are shown in (Settings).
    ///   - language: the report language of the reasons and the logger's texts.
    ///   - hintWords: the app's words for what the decoder says the person could give.
    public init(
        read: StoredRead, assessment: Assessment, upload: UploadStatus, timeZone: TimeZone,
        language: ReportLanguage = .appLanguage, hintWords: (UserHint) -> String
    ) {
        let stats = assessment.statistics
        title = read.isSample ? Self.sampleTitle(read) : read.loggerName
        sampleNote = read.isSample ? Self.sampleNote : nil
        banner = Banner(
            title: assessment.verdict.title, symbol: assessment.verdict.symbol, tone: assessment.verdict.tone,
            explanation: assessment.verdict.explanation,
            profileLine: Self.profileLine(assessment),
            reasons: Self.reasons(read.log, assessment, language: language).map { reason in String(localized: "• \(reason)") })

        let start = Fmt.dateTime(stats.start, in: timeZone), end = Fmt.dateTime(stats.end, in: timeZone)
        statistics = [
            Row(label: String(localized: "Minimum"), value: Fmt.temperature(stats.min)),
            Row(label: String(localized: "Maximum"), value: Fmt.temperature(stats.max)),
            Row(label: String(localized: "Mean"), value: Fmt.temperature(stats.mean)),
            Row(label: String(localized: "Mean kinetic temperature"), value: Fmt.temperature(stats.meanKineticTemperature)),
            Row(label: String(localized: "Time in range"), value: Fmt.percent(stats.secondsInBand, of: stats.validSeconds)),
            Row(label: String(localized: "Time above"), value: Fmt.duration(stats.secondsAbove)),
            Row(label: String(localized: "Time below"), value: Fmt.duration(stats.secondsBelow)),
            Row(label: String(localized: "Unknown time"), value: Fmt.duration(stats.unknownSeconds)),
            Row(label: String(localized: "Samples"), value: "\(stats.validCount) / \(stats.sampleCount)"),
            Row(label: String(localized: "Period"), value: String(localized: "\(start) – \(end)")),
        ]

        let minimum = Fmt.temperature(stats.min), maximum = Fmt.temperature(stats.max)
        chartSummary = String(localized: "Temperature chart from \(minimum) to \(maximum)")

        let band = assessment.band.description
        noExcursionsNote = assessment.excursions.isEmpty ? String(localized: "No excursions beyond \(band).") : nil
        excursions = assessment.excursions.map { Self.item($0, timeZone: timeZone) }
        gaps = assessment.gaps.map { gap in Row(label: Fmt.dateTime(gap.start, in: timeZone), value: Fmt.duration(gap.duration)) }
        details = Self.details(read, assessment, upload: upload, timeZone: timeZone, language: language, hintWords: hintWords)
    }

    /// What the sample read says of itself on the screen, in the report and in the CSV.
    public static var sampleNote: String {
        String(localized: "Sample read: a logger's memory bundled with ColdTap to show a read. It comes from no logger here and is never uploaded.")
    }

    /// "Sample: LOGGER".
    static func sampleTitle(_ read: StoredRead) -> String {
        let name = read.loggerName
        return String(localized: "Sample: \(name)")
    }

    static func profileLine(_ assessment: Assessment) -> String {
        let name = assessment.profile.name, band = assessment.band.description
        return String(localized: "Profile \(name): \(band)")
    }

    /// The verdict's reasons in the app's language (ColdChain writes English; TempChart
    /// writes Chinese and Japanese ones from the same typed reasons).
    static func reasons(_ log: TemperatureLog, _ assessment: Assessment, language: ReportLanguage) -> [String] {
        language == .english
            ? assessment.reasons
            : ReportContent.localizedReasons(log: log, assessment: assessment, language: language)
    }

    static func item(_ excursion: Excursion, timeZone: TimeZone) -> ExcursionItem {
        let limit = excursion.limit.description
        let high = excursion.direction == .high
        let start = Fmt.dateTime(excursion.start, in: timeZone), length = Fmt.duration(excursion.duration)
        let peak = Fmt.temperature(excursion.peak), peakTime = Fmt.dateTime(excursion.peakTime, in: timeZone)
        return ExcursionItem(
            symbol: high ? "arrow.up.circle.fill" : "arrow.down.circle.fill",
            title: high ? String(localized: "Above \(limit)") : String(localized: "Below \(limit)"),
            timeLine: String(localized: "\(start) for \(length)"),
            peakLine: String(localized: "Peak \(peak) at \(peakTime)"),
            unknownNote: excursion.unknownBefore || excursion.unknownAfter
                ? String(localized: "Unknown time next to this excursion: it may have lasted longer.") : nil)
    }

    static func details(
        _ read: StoredRead, _ assessment: Assessment, upload: UploadStatus, timeZone: TimeZone, language: ReportLanguage,
        hintWords: (UserHint) -> String
    ) -> [DetailLine] {
        let log = read.log
        var lines: [DetailLine] = [
            .row(Row(label: String(localized: "Logger"), value: read.loggerName)),
            .row(Row(label: String(localized: "Format"), value: log.format.name)),
        ]
        if let uid = log.logger.tagUID {
            lines.append(.row(Row(label: String(localized: "Tag UID"), value: uid)))
        }
        lines.append(.row(Row(label: String(localized: "Integrity"), value: log.integrity.status.title)))
        if !log.integrity.detail.isEmpty {
            lines.append(.caption(LogTexts.integrity(log.integrity.detail, language: language)))
        }
        if let hint = log.integrity.hint {
            lines.append(.caption(hintWords(hint)))
        }
        lines.append(.row(Row(label: String(localized: "Profile"), value: assessment.profile.name)))
        lines.append(.row(Row(label: String(localized: "Read at"), value: Fmt.dateTime(read.readAt, in: timeZone))))
        lines.append(.row(Row(label: String(localized: "Time zone"), value: timeZone.identifier)))
        if read.automaticMode == true {
            lines.append(
                .note(
                    String(localized: "Read in automatic mode: the logger's answers were read one after another, without writing to it."),
                    symbol: "info.circle"))
        }
        if let station = upload.detail {
            lines.append(.row(Row(label: String(localized: "Station"), value: station.value)))
            if let reason = station.reason { lines.append(.caption(reason)) }
        }
        if read.resumes > 0 {
            lines.append(.row(Row(label: String(localized: "Resumed after losing the tag"), value: "\(read.resumes)")))
        }
        for warning in log.warnings {
            lines.append(.note(LogTexts.warning(warning, language: language), symbol: "exclamationmark.triangle"))
        }
        return lines
    }
}
