import ColdChain
import Foundation
import LoggerFormats
import TestSupport
import Testing

@testable import TempChart

/// The lot report's journey chart (issue 44 item 9): the largest consumers' fractions sit
/// off the curve, and their colour stays apart from the band's and the unknown time's, for
/// colour-blind readers too, in both themes.
@Suite struct LotJourneyChartTests {
    /// Keeps what is drawn: the curves' strokes and the texts with their fonts.
    final class Recorder: Canvas {
        var strokes: [(ChartPath, ChartColor)] = []
        var texts: [(String, ChartPoint, ChartFont, TextAnchor)] = []
        let width: Double
        let height: Double
        init(width: Double, height: Double) {
            self.width = width
            self.height = height
        }
        func fill(_ path: ChartPath, color: ChartColor) {}
        func stroke(_ path: ChartPath, color: ChartColor, style: StrokeStyle) { strokes.append((path, color)) }
        func text(_ string: String, at point: ChartPoint, font: ChartFont, color: ChartColor, anchor: TextAnchor) {
            texts.append((string, point, font, anchor))
        }
        func textWidth(_ string: String, font: ChartFont) -> Double { TextMetrics.estimatedWidth(string, font: font) }
        func pushClip(_ rect: ChartRect) {}
        func popClip() {}
    }

    /// The curve's segments as drawn (move/line pairs).
    static func segments(_ path: ChartPath) -> [(ChartPoint, ChartPoint)] {
        var result: [(ChartPoint, ChartPoint)] = []
        var last: ChartPoint?
        for element in path.elements {
            switch element {
            case .move(let point): last = point
            case .line(let point):
                if let last { result.append((last, point)) }
                last = point
            default: last = nil
            }
        }
        return result
    }

    /// The journey's sizes in the PDF (A4's content width) and the HTML.
    @Test(arguments: [(515.0, 200.0), (640, 230)])
    func theConsumersFractionsStayOffTheCurve(size: (Double, Double)) throws {
        // The depot's excursion at 29 °C, just under the top of the axis (30): its curve runs
        // a few points under the plot's top edge, where the label used to sit.
        let content = try LotReportFixtures.content(.english) { legs in
            legs[2].samples = legs[2].samples.map { ($0.time, $0.celsius > 20 ? 29 : $0.celsius) }
        }
        let theme = ChartTheme.light
        let page = LotReportPage(content: content, theme: theme)
        #expect(!page.largestConsumers.isEmpty, "the worked example has consumers")
        let canvas = Recorder(width: size.0, height: size.1)
        page.drawJourney(in: ChartRect(x: 0, y: 0, width: canvas.width, height: canvas.height), on: canvas)
        let curve = canvas.strokes.filter { $0.1 == theme.curve }.flatMap { Self.segments($0.0) }
        #expect(!curve.isEmpty)
        let labels = Set(page.largestConsumers.map { LotReason.fraction($0.consumed) })
        let drawn = canvas.texts.filter { labels.contains($0.0) && $0.2.weight == .bold }
        #expect(drawn.count == page.largestConsumers.count, "\(canvas.texts.map(\.0))")
        for (label, point, font, _) in drawn {
            let half = canvas.textWidth(label, font: font) / 2
            let box = ChartRect(x: point.x - half, y: point.y - font.size, width: half * 2, height: font.size + 1)
            let crossing = curve.filter { from, to in
                max(from.x, to.x) >= box.minX && min(from.x, to.x) <= box.maxX && max(from.y, to.y) >= box.minY && min(from.y, to.y) <= box.maxY
            }
            #expect(crossing.isEmpty, "the label \(label) at \(point) lies on the curve: \(crossing.prefix(3))")
        }
    }

    @Test func aLabelGoesToTheFootWhenTheCurveIsAtTheTop() {
        #expect(LotReportPage.labelBaseline(curveYs: [24, 28], top: 30, bottom: 200, height: 10) == 200)
        #expect(LotReportPage.labelBaseline(curveYs: [100], top: 30, bottom: 200, height: 10) == 30)
        #expect(LotReportPage.labelBaseline(curveYs: [], top: 30, bottom: 200, height: 10) == 30)
    }

    // MARK: Colours

    /// CIE L*a*b* of an sRGB colour, after a simulated colour-vision deficiency (Machado,
    /// Oliveira and Fernandes 2009, severity 1, applied to linear RGB).
    static func lab(_ color: (Double, Double, Double), deficiency matrix: [[Double]]) -> (Double, Double, Double) {
        func linear(_ value: Double) -> Double { value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4) }
        let rgb = [linear(color.0), linear(color.1), linear(color.2)]
        let seen = matrix.map { row in min(1, max(0, zip(row, rgb).map(*).reduce(0, +))) }
        let x = 0.4124 * seen[0] + 0.3576 * seen[1] + 0.1805 * seen[2]
        let y = 0.2126 * seen[0] + 0.7152 * seen[1] + 0.0722 * seen[2]
        let z = 0.0193 * seen[0] + 0.1192 * seen[1] + 0.9505 * seen[2]
        func f(_ t: Double) -> Double { t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116.0 }
        let (fx, fy, fz) = (f(x / 0.95047), f(y), f(z / 1.08883))
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    static let visions: [(String, [[Double]])] = [
        ("normal", [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
        ("deuteranopia", [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]),
        ("protanopia", [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]),
        ("tritanopia", [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]),
    ]

    /// `color` painted over `below`.
    static func over(_ color: ChartColor, _ below: (Double, Double, Double)) -> (Double, Double, Double) {
        (
            color.red * color.alpha + below.0 * (1 - color.alpha), color.green * color.alpha + below.1 * (1 - color.alpha),
            color.blue * color.alpha + below.2 * (1 - color.alpha)
        )
    }

    /// Over the storage band, the consumers' shade differs from the band and from the unknown
    /// time's by a colour difference (ΔE*ab) of at least 20 for every vision simulated: the
    /// red at 14 % they had was 4 to 10 from the grey.
    @Test(arguments: [ChartTheme.light, .dark])
    func theConsumersStayApartFromTheBandAndTheUnknownTime(theme: ChartTheme) {
        let background = (theme.plotBackground.red, theme.plotBackground.green, theme.plotBackground.blue)
        let band = Self.over(theme.band, background)
        let unknown = Self.over(theme.gap, band)
        let consumer = Self.over(theme.consumer, band)
        func distance(_ a: (Double, Double, Double), _ b: (Double, Double, Double), _ matrix: [[Double]]) -> Double {
            let (p, q) = (Self.lab(a, deficiency: matrix), Self.lab(b, deficiency: matrix))
            return ((p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)).squareRoot()
        }
        for (vision, matrix) in Self.visions {
            #expect(distance(consumer, unknown, matrix) >= 20, "\(theme.name), \(vision): consumers vs unknown")
            #expect(distance(consumer, band, matrix) >= 20, "\(theme.name), \(vision): consumers vs band")
        }
    }
}
