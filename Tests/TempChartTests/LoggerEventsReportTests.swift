import Foundation
import LoggerFormats
import Testing

@testable import TempChart

/// The HTML report shows a logger's own events (NHS31xx) and nothing for logs without them.
@Suite struct LoggerEventsReportTests {
    @Test(arguments: ReportLanguage.allCases)
    func eventsSectionOnlyWhenTheLogHasEvents(language: ReportLanguage) {
        var content = ReportFixtures.content()
        let plain = ReportPage(
            content: content, timeZone: ChartFixtures.shanghai, language: language, theme: .light,
            generated: Date(timeIntervalSince1970: 1_772_700_000)
        ).html()
        #expect(!plain.contains("logger-events"))
        let start = content.log.samples.first?.time ?? Date(timeIntervalSince1970: 0)
        content.log.events = [
            TemperatureLog.Event(time: start, name: "logging", detail: "logging started (first sample due)"),
            TemperatureLog.Event(
                time: start.addingTimeInterval(3600), name: "temperatureTooHigh",
                end: start.addingTimeInterval(7200), detail: "a sample above the valid maximum <8.0>"),
        ]
        let html = ReportPage(
            content: content, timeZone: ChartFixtures.shanghai, language: language, theme: .light,
            generated: Date(timeIntervalSince1970: 1_772_700_000)
        ).html()
        #expect(html.contains("<section id=\"logger-events\">"))
        #expect(html.contains("temperatureTooHigh"))
        #expect(html.contains("&lt;8.0&gt;"))  // escaped
    }
}
