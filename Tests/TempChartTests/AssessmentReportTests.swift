import ColdChain
import Foundation
import LoggerFormats
import Testing

@testable import TempChart

@Suite struct AssessmentReportTests {
    /// 2026-04-09 00:00Z; samples every 30 min.
    let start = Date(timeIntervalSince1970: 1_775_692_800)

    func log(_ values: [Double]) -> TemperatureLog {
        TemperatureLog(
            format: "test",
            samples: values.enumerated().map {
                TemperatureLog.Sample(time: start.addingTimeInterval(Double($0.offset) * 1800), temperature: $0.element)
            }, interval: 1800, timeBase: .loggerHeader, integrity: .init(status: .verified, detail: "HMAC-MD5"),
            readTime: start.addingTimeInterval(Double(values.count) * 1800))
    }

    @Test func alarmInChinese() throws {
        // 10 h 30 min at 9 °C, then 5 °C: "> 8 °C for 10 h continuous" fires at 10:00Z.
        let log = log(Array(repeating: 9, count: 21) + [5])
        let utc = try #require(TimeZone(identifier: "UTC"))
        let assessment = Assessor.assess(log, profile: .vaccineFridge, timeZone: utc)
        let content = ReportContent(log: log, assessment: assessment, language: .simplifiedChinese)
        #expect(content.verdict == .alarm)
        #expect(content.lowerLimit == 2 && content.upperLimit == 8)
        #expect(content.profile == "vaccine-fridge (2–8 °C)")
        #expect(
            content.reasons == [
                "规则「> 8 °C 连续 10小时」于 2026-04-09 10:00 触发：高于限值 10小时 30分钟，峰值 9.00 °C。",
                "共 1 次超出 2–8 °C 的偏离，合计 10小时 30分钟。",
            ])
        #expect(
            content.excursions == [
                ReportContent.Excursion(
                    start: start, end: start.addingTimeInterval(21 * 1800),
                    peak: 9, direction: .high)
            ])
        #expect(content.statistics.timeAbove == 21 * 1800)
        // English keeps the assessment's own sentences.
        #expect(ReportContent(log: log, assessment: assessment, language: .english).reasons == assessment.reasons)
    }

    @Test func passInJapanese() throws {
        let log = log([5, 5.5, 6, 5])
        let assessment = Assessor.assess(log, profile: .vaccineFridge, timeZone: ChartFixtures.shanghai)
        let content = ReportContent(log: log, assessment: assessment, language: .japanese)
        #expect(content.verdict == .ok)
        #expect(content.reasons == ["どのアラーム条件にも該当しませんでした。"])
        let page = ReportPage(
            content: content, timeZone: ChartFixtures.shanghai, language: .japanese, theme: .dark,
            generated: start)
        #expect(page.verdictText == "正常")
        #expect(page.verdictColor == ChartTheme.dark.pass)
        #expect(page.statisticsRows.first! == ("サンプル数", "4"))
        #expect(page.excursionRows.isEmpty)
    }
}

/// Chinese and Japanese reasons come from the same typed reasons as the English ones: one
/// sentence each, in the same order, none left out (the logger's own verdict included).
@Suite struct TypedReasonLocalizationTests {
    @Test func everyReasonIsWrittenInEveryLanguage() throws {
        let start = Date(timeIntervalSince1970: 1_775_692_800)
        var log = TemperatureLog(
            format: "test",
            samples: [5, 5, 8.1, 5].enumerated().map {
                TemperatureLog.Sample(time: start.addingTimeInterval(Double($0.offset) * 1800), temperature: $0.element)
            }, interval: 1800, timeBase: .loggerHeader, integrity: .init(status: .verified, detail: "test"),
            readTime: start.addingTimeInterval(4 * 1800))
        log.metadata["loggerValidMinimum"] = "2.0"
        log.metadata["loggerValidMaximum"] = "8.0"
        log.metadata["loggerVerdict"] = "excursion: samples above its maximum"
        log.metadata["statusBits"] = "logging"
        let utc = try #require(TimeZone(identifier: "UTC"))
        let assessment = Assessor.assess(log, profile: .loggerLimits, timeZone: utc)
        #expect(assessment.verdictReasons.contains(.loggerAgrees(verdict: "excursion: samples above its maximum", status: "logging")))
        let english = ReportContent(log: log, assessment: assessment, language: .english).reasons
        #expect(english.contains("The logger itself: excursion: samples above its maximum (status logging)."))
        let chinese = ReportContent(log: log, assessment: assessment, language: .simplifiedChinese).reasons
        let japanese = ReportContent(log: log, assessment: assessment, language: .japanese).reasons
        #expect(chinese.count == english.count && japanese.count == english.count)
        #expect(chinese.last == "记录仪自身的结论：excursion: samples above its maximum，状态 logging。")
        #expect(japanese.last == "ロガー自身の判定：excursion: samples above its maximum、ステータス logging。")
    }
}
