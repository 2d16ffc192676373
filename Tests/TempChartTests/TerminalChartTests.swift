import Foundation
import Testing

@testable import TempChart

@Suite struct TerminalChartTests {
    let series = ChartSeries(log: ChartFixtures.fridgeLog())

    @Test(arguments: [40, 80, 132])
    func fitsTheWidth(width: Int) {
        let text = TerminalChart.render(
            series: series, lower: 2, upper: 8, width: width, rows: 10,
            timeZone: ChartFixtures.shanghai, color: false)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 10 + 3)
        for line in lines { #expect(line.count <= width, "\(line.count) > \(width): \(line)") }
        // Limit rows are labelled and carry dots across the plot.
        #expect(lines.contains { $0.hasPrefix(" 8.0 ┤") })
        #expect(lines.contains { $0.hasPrefix(" 2.0 ┤") })
        #expect(lines.last?.hasPrefix("Asia/Shanghai (UTC+08:00) · limits 2.0 … 8.0 °C".prefix(width)) == true)
        #expect(lines[lines.count - 2].hasPrefix("      03-02 08:00"))
    }

    @Test func colourMarksColdChainsExcursionsRed() {
        let excursions = ChartFixtures.excursions(ChartFixtures.fridgeLog()).map(ChartExcursion.init)
        #expect(!excursions.isEmpty)
        let text = TerminalChart.render(
            series: series, lower: 2, upper: 8, excursions: excursions, width: 80, rows: 10,
            timeZone: ChartFixtures.shanghai, color: true)
        #expect(text.contains("\u{1B}[31m"))
        // Without ColdChain's excursions nothing is red, whatever the curve does.
        let unjudged = TerminalChart.render(
            series: series, lower: 2, upper: 8, width: 80, rows: 10,
            timeZone: ChartFixtures.shanghai, color: true)
        #expect(!unjudged.contains("\u{1B}[31m"))
        #expect(text.contains("\u{1B}[33m"))
        // Without the escapes, every line still fits.
        let plain = text.replacingOccurrences(of: "\u{1B}[31m", with: "").replacingOccurrences(of: "\u{1B}[33m", with: "")
            .replacingOccurrences(of: "\u{1B}[36m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
        #expect(plain.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test func curveWithinLimitsHasNoRed() {
        let flat = ChartSeries(times: (0..<100).map { Double($0) * 60 }, values: Array(repeating: 5, count: 100), interval: 60)
        let text = TerminalChart.render(series: flat, lower: 2, upper: 8, width: 60, timeZone: .gmt, color: true)
        #expect(!text.contains("\u{1B}[31m"))
        #expect(text.contains("\u{1B}[36m"))
    }
}
