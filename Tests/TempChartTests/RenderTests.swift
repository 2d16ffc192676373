import CairoCanvas
import ColdTapBase
import Foundation
import TestSupport
import Testing

@testable import TempChart

#if canImport(FoundationXML)
    import FoundationXML
#endif

private func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("tempchart-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Renders only the curve of `model` on a white Cairo image and returns its pixels.
private func curvePixels(_ model: ChartModel, width: Int, height: Int, scale: Double = 1) throws -> [UInt32] {
    let canvas = try CairoCanvas(pixelWidth: width, height: height, scale: scale)
    canvas.fill(.rect(ChartRect(x: 0, y: 0, width: Double(width), height: Double(height))), color: ChartColor(hex: 0xFFFFFF))
    ChartRenderer.drawCurve(model, on: canvas)
    return canvas.pixels()
}

@Suite(.tags(.slow)) struct M4PixelIdentityTests {
    func compare(
        series: ChartSeries, lower: Double?, upper: Double?, width: Int, height: Int,
        scale: Double = 1
    ) throws -> (m4Points: Int, allPoints: Int) {
        let frame = ChartRect(x: 0, y: 0, width: Double(width), height: Double(height))
        let reduced = ChartModel(
            ChartSpec(
                series: series, lowerLimit: lower, upperLimit: upper, timeZone: .gmt, frame: frame,
                pixelDensity: scale))
        let full = ChartModel(
            ChartSpec(
                series: series, lowerLimit: lower, upperLimit: upper, timeZone: .gmt, frame: frame,
                pixelDensity: scale, downsample: false))
        let a = try curvePixels(reduced, width: width, height: height, scale: scale)
        let b = try curvePixels(full, width: width, height: height, scale: scale)
        #expect(a.count == Int(Double(width) * scale) * Int(Double(height) * scale))
        let differing = zip(a, b).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) pixels differ between M4 and all samples")
        // Something was drawn, in both colours when limits are crossed.
        #expect(a.filter { $0 != 0xFFFF_FFFF }.count > width)
        return (reduced.drawnPointCount, full.drawnPointCount)
    }

    @Test func randomWalkWithLimitCrossingsIsPixelIdentical() throws {
        let series = ChartFixtures.randomWalk(count: 200_000)
        let (m4, all) = try compare(series: series, lower: 2, upper: 8, width: 800, height: 400)
        #expect(all >= 200_000)
        // At most six points per column per run piece: far fewer than the samples.
        #expect(m4 < 20_000)
    }

    @Test func withGapsAndNoLimitsIsPixelIdentical() throws {
        var series = ChartFixtures.randomWalk(count: 50_000, seed: 7)
        for index in stride(from: 1000, to: 50_000, by: 7919) {
            for k in 0..<40 { series.values[index + k] = .nan }
        }
        let (m4, all) = try compare(series: series, lower: nil, upper: nil, width: 640, height: 300)
        #expect(m4 < all / 5)
    }

    @Test func wideChartAtDoubleDensityIsPixelIdentical() throws {
        // 1.6-unit curve, a 2× bitmap and M4 columns of half a unit.
        let series = ChartFixtures.noisyWave(count: 150_000)
        let (m4, all) = try compare(series: series, lower: 2, upper: 8, width: 1200, height: 500, scale: 2)
        #expect(m4 < all / 5)
    }

    @Test func sparseDataKeepsEveryPoint() throws {
        let series = ChartFixtures.randomWalk(count: 300, seed: 3)
        let (m4, all) = try compare(series: series, lower: 2, upper: 8, width: 900, height: 300)
        #expect(m4 == all)
    }
}

@Suite struct OutputTests {
    func fridgeModel(width: Double = 1200, height: Double = 600, series: ChartSeries? = nil) -> ChartModel {
        let log = series.map(ChartFixtures.log) ?? ChartFixtures.fridgeLog()
        let series = series ?? ChartSeries(log: log)
        return ChartModel(
            ChartSpec(
                series: series, lowerLimit: 2, upperLimit: 8,
                excursions: ChartFixtures.excursions(log).map(ChartExcursion.init),
                timeZone: ChartFixtures.shanghai, frame: ChartRect(x: 0, y: 0, width: width, height: height),
                title: "Fridge <A&B>"))
    }

    func svg(_ model: ChartModel) -> String {
        let canvas = SVGCanvas(width: model.frame.width, height: model.frame.height)
        ChartRenderer.draw(model, on: canvas)
        return canvas.document()
    }

    @Test func svgIsWellFormedXML() throws {
        let document = svg(fridgeModel())
        let parser = XMLParser(data: Data(document.utf8))
        #expect(parser.parse(), "SVG does not parse: \(String(describing: parser.parserError))")
        #expect(document.contains("Fridge &lt;A&amp;B&gt;"))
        #expect(document.contains("upper limit 8.0 °C"))
        #expect(document.contains(ChartTheme.light.beyond.hexString))
    }

    @Test(.tags(.slow)) func svgSizeDoesNotGrowWithSampleCount() {
        // The same three days sampled 25 and 100 times more densely than the 1,130 pixel columns.
        let medium = svg(fridgeModel(series: ChartFixtures.noisyWave(count: 30_000))).utf8.count
        let large = svg(fridgeModel(series: ChartFixtures.noisyWave(count: 120_000))).utf8.count
        #expect(large < 200_000)
        #expect(abs(Double(large) / Double(medium) - 1) < 0.1, "30k samples: \(medium) bytes, 120k samples: \(large) bytes")
        // Dense random data: bounded by the width too.
        let walk = svg(fridgeModel(series: ChartFixtures.randomWalk(count: 400_000, interval: 3))).utf8.count
        #expect(walk < 200_000)
    }

    @Test func pngRoundTripsThroughLibpng() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Opaque: written as RGB, read back (by Cairo's libpng reader) pixel for pixel.
        let opaque = try CairoCanvas(pixelWidth: 640, height: 320)
        ChartRenderer.draw(fridgeModel(width: 640, height: 320), on: opaque)
        let url = directory.appendingPathComponent("opaque.png")
        try opaque.writePNG(to: url)
        let read = try CairoCanvas.readPNG(url)
        #expect(read.width == 640 && read.height == 320)
        #expect(read.pixels == opaque.pixels())
        // Translucent: RGBA with straight alpha.
        let clear = try CairoCanvas(pixelWidth: 50, height: 20)
        clear.fill(.rect(ChartRect(x: 10, y: 0, width: 20, height: 20)), color: ChartColor(hex: 0x336699, alpha: 0.5))
        let clearURL = directory.appendingPathComponent("clear.png")
        try clear.writePNG(to: clearURL)
        let clearRead = try CairoCanvas.readPNG(clearURL)
        #expect(clearRead.pixels[0] == 0)
        let middle = clearRead.pixels[10 * 50 + 20]
        #expect(middle >> 24 == 128 || middle >> 24 == 127)
        #expect(abs(Int(middle >> 16 & 0xFF) - 0x33) <= 2 && abs(Int(middle & 0xFF) - 0x99) <= 2)
    }

    @Test func pngAndPdfAreWritten() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = fridgeModel()
        let image = try CairoCanvas(pixelWidth: 1200, height: 600)
        ChartRenderer.draw(model, on: image)
        let png = directory.appendingPathComponent("chart.png")
        try image.writePNG(to: png)
        let pngData = try Data(contentsOf: png)
        #expect(Array(pngData.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(pngData.count > 10_000)
        // The beyond-limit colour is in the picture (premultiplied ARGB, opaque).
        let red = ChartTheme.light.beyond
        let redPixel = 0xFF00_0000 | UInt32((red.red * 255).rounded()) << 16 | UInt32((red.green * 255).rounded()) << 8 | UInt32((red.blue * 255).rounded())
        #expect(image.pixels().contains(redPixel))

        let pdf = directory.appendingPathComponent("chart.pdf")
        let page = try CairoCanvas(pdfAt: pdf, width: 595.28, height: 841.89)
        ChartRenderer.draw(fridgeModel(width: 515, height: 300), on: page)
        try page.finish()
        let pdfData = try Data(contentsOf: pdf)
        #expect(pdfData.starts(with: Data("%PDF-".utf8)))
        #expect(String(decoding: pdfData.suffix(8), as: UTF8.self).contains("%%EOF"))
    }
}
