import CairoCanvas
import Dispatch
import Foundation
import TestSupport
import Testing

@testable import TempChart

/// The Chromium binary (Debian package `chromium`, installed by `make deps`), if present.
let chromiumPath: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

@Suite struct HTMLScreenshotTests {
    /// Needs Chromium (`make test` installs it): a machine without it fails here, saying so.
    @Test(.tags(.slow), .timeLimit(.minutes(2)))
    func chromiumShowsTheVerdictAndTheChart() throws {
        let chromium = try #require(chromiumPath, "headless Chromium is not installed (Debian package chromium; `make test-deps` installs it)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tempchart-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = ReportPage(
            content: ReportFixtures.content(), timeZone: ChartFixtures.shanghai, language: .english,
            theme: .light, generated: Date(timeIntervalSince1970: 1_772_700_000))
        let html = directory.appendingPathComponent("report.html")
        try Data(page.html().utf8).write(to: html)
        let screenshot = directory.appendingPathComponent("shot.png")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
            "--screenshot=\(screenshot.path)", "--window-size=1100,1500", html.absoluteString,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // Waits for Chromium's exit (an event), giving up after 90 s so a hung browser fails the test.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        if exited.wait(timeout: .now() + 90) == .timedOut {
            process.terminate()
            Issue.record("headless Chromium did not finish within 90 s")
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let image = try CairoCanvas.readPNG(screenshot)
        #expect(image.width == 1100 && image.height == 1500)
        func rgb(_ color: ChartColor) -> (Int, Int, Int) {
            (Int((color.red * 255).rounded()), Int((color.green * 255).rounded()), Int((color.blue * 255).rounded()))
        }
        func rows(near color: ChartColor, tolerance: Int) -> [Int] {
            let (r, g, b) = rgb(color)
            var found: [Int] = []
            for (index, pixel) in image.pixels.enumerated() {
                let pr = Int(pixel >> 16 & 0xFF), pg = Int(pixel >> 8 & 0xFF), pb = Int(pixel & 0xFF)
                if abs(pr - r) <= tolerance && abs(pg - g) <= tolerance && abs(pb - b) <= tolerance { found.append(index / image.width) }
            }
            return found
        }
        // The FAIL banner: a large block of exactly the fail colour, near the top.
        let banner = rows(near: ChartTheme.light.fail, tolerance: 0)
        #expect(banner.count > 20_000, "banner pixels: \(banner.count)")
        // The chart: the allowed band (light green over white), the curve's blue inside it and
        // the beyond-limit red above its top edge (the 8 °C line).
        let band = ChartTheme.light.band
        let bandOnWhite = ChartColor(
            red: 1 - band.alpha + band.red * band.alpha, green: 1 - band.alpha + band.green * band.alpha,
            blue: 1 - band.alpha + band.blue * band.alpha)
        let bandRows = rows(near: bandOnWhite, tolerance: 3)
        #expect(bandRows.count > 50_000, "band pixels: \(bandRows.count)")
        let bandTop = bandRows.min() ?? 0, bandBottom = bandRows.max() ?? 0
        let curve = rows(near: ChartTheme.light.curve, tolerance: 24).filter { $0 >= bandTop && $0 <= bandBottom }
        let beyond = rows(near: ChartTheme.light.beyond, tolerance: 24).filter { $0 < bandTop && $0 > bandTop - (bandBottom - bandTop) / 2 }
        #expect(curve.count > 300, "curve pixels in the band: \(curve.count)")
        #expect(beyond.count > 40, "beyond-limit pixels above the band: \(beyond.count)")
        if let bannerBottom = banner.max() { #expect(bannerBottom < bandTop) }
    }
}
