import CairoCanvas
import ColdTapBase
import Foundation
import Testing

@testable import TempChart

enum ReportFixtures {
    static func content() -> ReportContent {
        let log = ChartFixtures.fridgeLog()
        let excursions = ChartFixtures.excursions(log).map { e in
            ReportContent.Excursion(start: e.start, end: e.end, peak: e.peak, direction: e.direction)
        }
        return ReportContent(
            log: log, profile: "vaccine-fridge (2–8 °C)", lowerLimit: 2, upperLimit: 8, verdict: .alarm,
            reasons: [
                "Above 8 °C for 2 h 50 min continuously (limit 10 h); peak 10.1 °C on 2026-03-03 19:50.",
                "A second line of reasons that is long enough to need wrapping on the A4 page so the wrapping code is exercised properly.",
            ],
            statistics: .init(log: log, lower: 2, upper: 8), excursions: excursions)
    }
}

@Suite struct ReportTests {
    func page(_ language: ReportLanguage, _ theme: ChartTheme = .light) -> ReportPage {
        ReportPage(
            content: ReportFixtures.content(), timeZone: ChartFixtures.shanghai, language: language, theme: theme,
            generated: Date(timeIntervalSince1970: 1_772_700_000))
    }

    @Test(arguments: ReportLanguage.allCases)
    func pdfPageUsesTheLanguagesFont(language: ReportLanguage) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for theme in [ChartTheme.light, .dark] {
            let url = directory.appendingPathComponent("report-\(theme.name).pdf")
            let pdf = try CairoCanvas(
                pdfAt: url, width: ReportPage.a4.width, height: ReportPage.a4.height,
                cjkFamily: language == .japanese ? "Noto Sans CJK JP" : "Noto Sans CJK SC")
            page(language, theme).draw(on: pdf)
            try pdf.finish()
            let data = try Data(contentsOf: url)
            #expect(data.starts(with: Data("%PDF-".utf8)))
            // Cairo embeds font subsets under their PostScript names.
            #expect(data.range(of: Data("DejaVuSans".utf8)) != nil)
            #expect((data.range(of: Data("NotoSansCJK".utf8)) != nil) == language.usesCJK)
        }
    }

    @Test func pageContentInEachLanguage() {
        let expected: [ReportLanguage: [String]] = [
            .english: ["Temperature log report", "ALARM", "Excursions", "2026-03-03 18:20", "3 h 40 min", "upper limit 8.0 °C"],
            .simplifiedChinese: ["温度记录报告", "报警", "温度偏离", "3小时 40分钟", "上限 8.0 °C", "偏高"],
            .japanese: ["温度記録レポート", "警報", "逸脱", "3時間 40分", "上限 8.0 °C", "上限超過"],
        ]
        for (language, strings) in expected {
            let canvas = SVGCanvas(width: ReportPage.a4.width, height: ReportPage.a4.height)
            page(language).draw(on: canvas)
            let svg = canvas.document()
            for text in strings { #expect(svg.contains(">\(SVGCanvas.escape(text))<"), "\(language): \(text)") }
            #expect(svg.contains(ChartTheme.light.fail.hexString))
        }
    }

    @Test func excursionTableIsCappedOnThePage() {
        var content = ReportFixtures.content()
        let one = content.excursions[0]
        content.excursions = Array(repeating: one, count: 12)
        let canvas = SVGCanvas(width: ReportPage.a4.width, height: ReportPage.a4.height)
        ReportPage(content: content, timeZone: ChartFixtures.shanghai, language: .english, theme: .light).draw(on: canvas)
        let svg = canvas.document()
        #expect(svg.contains("… 4 more excursions not listed"))
        #expect(svg.components(separatedBy: ">2026-03-03 18:20</text>").count - 1 == 8)
    }

    @Test func wrappingBreaksLatinAtSpacesAndCJKAnywhere() {
        let canvas = SVGCanvas(width: 100, height: 100)
        let font = ChartFont(size: 10)
        #expect(ReportPage.wrap("温度记录报告温度记录报告", width: 55, font: font, canvas: canvas) == ["温度记录报", "告温度记录", "报告"])
        let lines = ReportPage.wrap("the quick brown fox jumps over the lazy dog", width: 60, font: font, canvas: canvas)
        #expect(lines.joined(separator: " ") == "the quick brown fox jumps over the lazy dog")
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { canvas.textWidth($0, font: font) <= 60 })
        #expect(ReportPage.truncate("abcdefghijklmnopqrstuvwxyz", width: 40, font: font, canvas: canvas).hasSuffix("…"))
    }
}
