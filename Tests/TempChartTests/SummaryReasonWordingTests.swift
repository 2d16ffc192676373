import ColdChain
import Foundation
import LoggerFormats
import TempChart
import TestSupport
import Testing

/// The reasons of a log judged by its daily summaries alone, in every report language: the
/// Chinese and Japanese reports word the typed evidence, the English one keeps ColdChain's sentence.
@Suite struct SummaryReasonWordingTests {
    typealias Maker = BerlingerReportMaker

    static func warmFridgeTag2() throws -> TemperatureLog {
        var maker = Maker(
            model: .fridgeTag2, serial: "190000000071", alarms: [.init(type: 1, limit: -0.5, minutes: 60), .init(type: 2, limit: 8, minutes: 600)],
            activation: "2026-03-02 08:30", reportTime: "2026-03-04 17:45")
        maker.days = [
            .init(date: "2026-03-02", min: 16.1, max: 18.9, mean: 17.2, alarms: [(0, nil), (915, "18:30")]),
            .init(date: "2026-03-03", min: 16.0, max: 19.0, mean: 17.5, alarms: [(0, nil), (1440, "00:00")]),
            .init(date: "2026-03-04", min: 16.4, max: 18.2, mean: 17.0, alarms: [(0, nil), (1065, "00:00")]),
        ]
        var options = DecodeOptions(readTime: Date(), readTimeSource: .now)
        options.loggerTimeZone = TimeZone(identifier: "UTC")
        return try BerlingerDecoder.decode(maker.report(), options: options)
    }

    @Test func everyLanguageWordsTheDaysEvidence() throws {
        let log = try Self.warmFridgeTag2()
        let assessment = Assessor.assess(log, profile: .vaccineFridge, timeZone: TimeZone(identifier: "UTC")!)
        #expect(assessment.verdict == .alarm)
        let english = assessment.reasons
        let chinese = ReportContent.localizedReasons(log: log, assessment: assessment, language: .simplifiedChinese)
        let japanese = ReportContent.localizedReasons(log: log, assessment: assessment, language: .japanese)
        #expect(chinese.count == english.count && japanese.count == english.count)
        #expect(chinese.first?.contains("每日汇总") == true, "\(chinese)")
        #expect(chinese.contains { $0.contains("已触发（由每日汇总证明）") }, "\(chinese)")
        #expect(chinese.contains { $0.contains("不可能触发") }, "\(chinese)")
        #expect(japanese.first?.contains("日ごとの集計") == true, "\(japanese)")
        #expect(japanese.contains { $0.contains("成立しました") }, "\(japanese)")
        // No English evidence left in the translated reasons.
        for sentence in chinese + japanese {
            #expect(!sentence.contains("beyond the limit") && !sentence.contains("daily summar"), "\(sentence)")
        }
    }
}
