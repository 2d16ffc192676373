import CairoCanvas
import Foundation
import Testing
@testable import TempChart

enum ReportFixtures {
    static func content() -> ReportContent {
        let log = ChartFixtures.fridgeLog()
        let series = ChartSeries(log: log)
        let excursions = ChartExcursion.detect(in: series, lower: 2, upper: 8).map { e in
            ReportContent.Excursion(start: e.start, end: e.end, peak: 10.1, direction: e.direction)
        }
        return ReportContent(log: log, profile: "vaccine-fridge (2–8 °C)", lowerLimit: 2, upperLimit: 8, verdict: .fail,
                             reasons: ["Above 8 °C for 2 h 50 min continuously (limit 10 h); peak 10.1 °C on 2026-03-03 19:50.",
                                       "A second line of reasons that is long enough to need wrapping on the A4 page so the wrapping code is exercised properly."],
                             statistics: .init(log: log, lower: 2, upper: 8), excursions: excursions)
    }
}

@Suite struct ReportTests {
    @Test func previewPages() throws {
        for language in ReportLanguage.allCases {
            for theme in [ChartTheme.light, .dark] {
                let page = ReportPage(content: ReportFixtures.content(), timeZone: ChartFixtures.shanghai, language: language, theme: theme,
                                      generated: Date(timeIntervalSince1970: 1_772_700_000))
                let url = URL(fileURLWithPath: "/tmp/chart-report-\(language.rawValue)-\(theme.name).pdf")
                let pdf = try CairoCanvas(pdfAt: url, width: ReportPage.a4.width, height: ReportPage.a4.height,
                                          cjkFamily: language == .japanese ? "Noto Sans CJK JP" : "Noto Sans CJK SC")
                page.draw(on: pdf)
                try pdf.finish()
                try page.html().write(to: URL(fileURLWithPath: "/tmp/chart-report-\(language.rawValue)-\(theme.name).html"), atomically: true, encoding: .utf8)
            }
        }
    }
}
