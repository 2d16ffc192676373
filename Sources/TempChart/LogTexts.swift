import ColdChain
import ColdTapBase
import Foundation
import LoggerFormats

/// What the decoders report as values — warnings, integrity details, logger events, why a
/// format was chosen — in the report's language. English is each value's own `text` (the
/// words of `decode --json`); every other language is one table of its own
/// (`ChineseLogWords`, `JapaneseLogWords`) written from the same values. A front end's worded
/// value (`.worded`) keeps its English and is translated from the value it words; an untyped
/// `.text` (a log stored by an older version) stays as stored.
public enum LogTexts {
    public static func warning(_ warning: LogWarning, language: ReportLanguage) -> String {
        language.logWords?.warning(warning) ?? warning.text
    }

    /// `HeadlineNote` in `language`, times in `timeZone`.
    public static func headlineNote(_ note: HeadlineNote, language: ReportLanguage, timeZone: TimeZone) -> String {
        language.logWords?.headlineNote(note, timeZone: timeZone) ?? note.english(in: timeZone)
    }

    public static func integrity(_ detail: TemperatureLog.Integrity.Detail, language: ReportLanguage) -> String {
        language.logWords?.integrity(detail) ?? detail.text
    }

    public static func event(_ detail: TemperatureLog.Event.Detail, language: ReportLanguage) -> String {
        language.logWords?.event(detail) ?? detail.text
    }

    public static func detection(_ detection: TemperatureLog.Detection, language: ReportLanguage) -> String {
        language.logWords?.detection(detection) ?? detection.text
    }

    public static func model(_ model: TemperatureLog.LoggerIdentity.Model, language: ReportLanguage) -> String {
        guard language != .english else { return model.name }
        switch model {
        case .cuplTagHDC2021(let humidity):
            // 温度 and 湿度 are the same words in both languages.
            return humidity ? "HDC2021 温度 + 湿度" : "HDC2021 温度"
        case .named(let name):
            return name
        }
    }
}

/// The decoders' values in one language other than English: one method per kind of value,
/// each a `switch` over the value's cases, so a new case is a compile error in every language.
protocol LogWords: Sendable {
    var language: ReportLanguage { get }
    func warning(_ warning: LogWarning) -> String
    func headlineNote(_ note: HeadlineNote, timeZone: TimeZone) -> String
    func implausibility(_ problem: LogWarning.Implausibility) -> String
    func integrity(_ detail: TemperatureLog.Integrity.Detail) -> String
    func event(_ detail: TemperatureLog.Event.Detail) -> String
    /// A SmarTag decoding note (docs/smartag.md).
    func smarTagNote(_ note: SmarTagNote) -> String
    /// What each NHS31xx status bit means, by bit (docs/nhs31xx.md §5.1).
    var statusPhrases: [String] { get }
    /// A status bit the table does not list.
    func unlistedStatus(bit: Int) -> String
    func detection(_ detection: TemperatureLog.Detection) -> String
}

extension LogWords {
    func statusPhrase(bit: Int) -> String {
        statusPhrases.indices.contains(bit) ? statusPhrases[bit] : unlistedStatus(bit: bit)
    }

    /// Where a read time came from, in this language (the audit table's words).
    func readTimeSource(_ source: DecodeOptions.ReadTimeSource) -> String {
        language.audit.readTimeSources[source.description] ?? source.description
    }

    func iso(_ date: Date) -> String { date.isoUTCWholeSeconds }
}

extension ReportLanguage {
    /// The table of the decoders' values in this language; `nil` for English, which is each
    /// value's own text.
    var logWords: (any LogWords)? {
        switch self {
        case .english: return nil
        case .simplifiedChinese: return ChineseLogWords()
        case .japanese: return JapaneseLogWords()
        }
    }
}
