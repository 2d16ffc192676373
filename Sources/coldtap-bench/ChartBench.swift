import CairoCanvas
import ColdChain
import ColdTapCommands
import Foundation
import LoggerFormats
import TempChart

// coldtap-bench chart: logs of 1,000, 100,000 and 1,000,000 samples (a daily wave with
// noise and one excursion above 8 °C, one sample a minute) → chart model, SVG and PNG
// (1200 × 600); the same chart (curve red beyond the limits, band, limit lines, min/max
// marks, local-time axis) drawn by matplotlib in the same run, and the ratio.

/// A log of `count` samples a minute apart, 2026-03-02 00:00 UTC onwards.
func chartBenchLog(count: Int) -> TemperatureLog {
    let start = Date(timeIntervalSince1970: 1_772_409_600)
    var state: UInt64 = 12_345
    var samples = [TemperatureLog.Sample]()
    samples.reserveCapacity(count)
    let excursion = (count / 2)..<(count / 2 + max(1, count / 50))
    for index in 0..<count {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let noise = Double(Int64(bitPattern: state >> 11) % 1000) / 2000 - 0.25
        var value = 5 + 1.5 * sin(Double(index) / 1440 * 2 * .pi) + noise
        if excursion.contains(index) { value += 5 * sin(Double(index - excursion.lowerBound) / Double(excursion.count) * .pi) }
        samples.append(TemperatureLog.Sample(time: start.addingTimeInterval(Double(index) * 60), temperature: value))
    }
    return TemperatureLog(
        format: "bench", samples: samples, interval: 60, timeBase: .loggerHeader,
        integrity: .init(status: .unverified, detail: "generated"),
        readTime: start.addingTimeInterval(Double(count) * 60))
}

let chartBenchZone = TimeZone(identifier: "Asia/Shanghai") ?? .gmt
let chartBenchFrame = ChartRect(x: 0, y: 0, width: 1200, height: 600)

func chartBenchSpec(_ log: TemperatureLog) -> ChartSpec {
    let series = ChartSeries(log: log)
    let excursions = Assessor.excursions(in: log, band: Band(min: 2, max: 8)).map(ChartExcursion.init)
    return ChartSpec(
        series: series, lowerLimit: 2, upperLimit: 8, excursions: excursions, timeZone: chartBenchZone,
        frame: chartBenchFrame, title: "Benchmark")
}

let matplotlibScript = #"""
    import json, sys, time
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.dates as mdates
    import numpy as np
    from datetime import timezone, timedelta

    tz = timezone(timedelta(hours=8))

    def draw(times, values, out):
        dates = times / 86400.0  # matplotlib date numbers are days since 1970
        fig, ax = plt.subplots(figsize=(12, 6), dpi=100)
        ax.axhspan(2, 8, color="#2da44e", alpha=0.13, linewidth=0)
        beyond = (values > 8) | (values < 2)
        ax.plot(dates, np.where(beyond, np.nan, values), color="#0969da", linewidth=1.6)
        ax.plot(dates, np.where(beyond, values, np.nan), color="#d1242f", linewidth=1.6)
        for limit, label in ((8, "upper limit 8.0 °C"), (2, "lower limit 2.0 °C")):
            ax.axhline(limit, color="#bc4c00", linestyle="--", linewidth=1.2)
            ax.annotate(label, (1, limit), xycoords=("axes fraction", "data"), ha="right", va="bottom", color="#bc4c00")
        i_max, i_min = int(np.argmax(values)), int(np.argmin(values))
        for i, name in ((i_max, "max"), (i_min, "min")):
            ax.plot([dates[i]], [values[i]], "o", mfc="white", mec="black")
            ax.annotate(f"{name} {values[i]:.1f} °C", (dates[i], values[i]), textcoords="offset points", xytext=(0, 8), ha="center")
        locator = mdates.AutoDateLocator(tz=tz)
        ax.xaxis.set_major_locator(locator)
        ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator, tz=tz))
        ax.set_xlabel("Time — Asia/Shanghai (UTC+08:00)")
        ax.set_ylabel("°C")
        ax.set_title("Benchmark", loc="left")
        ax.grid(True, color="#e4e7eb")
        fig.savefig(out)
        plt.close(fig)

    def best_seconds(body, runs):
        samples = []
        for _ in range(runs):
            before = time.perf_counter()
            body()
            samples.append(time.perf_counter() - before)
        return min(samples)

    result = {}
    for path in sys.argv[2:]:
        data = np.fromfile(path, dtype="<f8")
        n = data.size // 2
        times, values = data[:n], data[n:]
        runs = 5 if n >= 500_000 else 9
        result[str(n)] = best_seconds(lambda: draw(times, values, sys.argv[1]), runs) * 1000
    print(json.dumps(result))
    """#

/// Draws the same charts with matplotlib; returns milliseconds per chart by sample count.
func runMatplotlib(_ logs: [TemperatureLog]) throws -> [Int: Double] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("chart_bench.py")
    try Data(matplotlibScript.utf8).write(to: script)
    var files: [String] = []
    for log in logs {
        var raw = [Double]()
        raw.reserveCapacity(log.samples.count * 2)
        raw += log.samples.map { $0.time.timeIntervalSince1970 }
        raw += log.samples.map { $0.temperature ?? .nan }
        let file = directory.appendingPathComponent("log-\(log.samples.count).f64")
        try raw.withUnsafeBytes { Data($0) }.write(to: file)
        files.append(file.path)
    }
    let object = try runPythonReference(
        tool: "matplotlib", script: script,
        arguments: [directory.appendingPathComponent("reference.png").path] + files)
    var result: [Int: Double] = [:]
    for (key, value) in object { if let count = Int(key) { result[count] = value } }
    return result
}

/// The shortest of `runs` repetitions (this machine is shared: the best run is the one
/// least disturbed; the reference is measured the same way).
func bestSeconds(runs: Int, _ body: () throws -> Int) rethrows -> Double {
    var best = Double.infinity
    var checksum = 0
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let before = clock.now
        checksum &+= try body()
        let elapsed = clock.now - before
        best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    blackHole(checksum)
    return best
}

func runChartBench(json: Bool) async throws {
    let counts = BenchScale.pick([1_000, 100_000, 1_000_000], smoke: [1_000])
    let logs = counts.map(chartBenchLog)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let png = directory.appendingPathComponent("chart.png")

    struct Case {
        var samples: Int
        var modelMs: Double
        var seriesMs: Double
        var excursionsMs: Double
        var layoutMs: Double
        var drawMs: Double
        var encodeMs: Double
        var svgMs: Double
        var svgBytes: Int
        var pngMs: Double
        var pngBytes: Int
    }
    var cases: [Case] = []
    for log in logs {
        // Each measurement starts from the decoded log, as `coldtap report` does.
        let runs = BenchScale.smoke ? 1 : (log.samples.count >= 500_000 ? 9 : 21)
        let modelSeconds = bestSeconds(runs: runs) {
            ChartModel(chartBenchSpec(log)).drawnPointCount
        }
        // The model's parts apart, to tell which grows faster than the samples.
        let seriesSeconds = bestSeconds(runs: runs) { ChartSeries(log: log).count }
        let excursionsSeconds = bestSeconds(runs: runs) { Assessor.excursions(in: log, band: Band(min: 2, max: 8)).count }
        let spec = chartBenchSpec(log)
        let layoutSeconds = bestSeconds(runs: runs) { ChartModel(spec).drawnPointCount }
        var svgBytes = 0
        let svgSeconds = bestSeconds(runs: runs) {
            let canvas = SVGCanvas(width: chartBenchFrame.width, height: chartBenchFrame.height)
            ChartRenderer.draw(ChartModel(chartBenchSpec(log)), on: canvas)
            svgBytes = canvas.document().utf8.count
            return svgBytes
        }
        let pngSeconds = try bestSeconds(runs: runs) {
            let canvas = try CairoCanvas(pixelWidth: 1200, height: 600)
            ChartRenderer.draw(ChartModel(chartBenchSpec(log)), on: canvas)
            try canvas.writePNG(to: png)
            return 1
        }
        let pngBytes = (try? FileManager.default.attributesOfItem(atPath: png.path)[.size] as? Int) ?? 0
        // The PNG's parts after the model: Cairo drawing it, and encoding and writing the file.
        let model = ChartModel(spec)
        let drawSeconds = try bestSeconds(runs: runs) {
            let canvas = try CairoCanvas(pixelWidth: 1200, height: 600)
            ChartRenderer.draw(model, on: canvas)
            return 1
        }
        let drawn = try CairoCanvas(pixelWidth: 1200, height: 600)
        ChartRenderer.draw(model, on: drawn)
        let encodeSeconds = try bestSeconds(runs: runs) {
            try drawn.writePNG(to: png)
            return 1
        }
        cases.append(
            Case(
                samples: log.samples.count, modelMs: modelSeconds * 1000, seriesMs: seriesSeconds * 1000,
                excursionsMs: excursionsSeconds * 1000, layoutMs: layoutSeconds * 1000, drawMs: drawSeconds * 1000,
                encodeMs: encodeSeconds * 1000, svgMs: svgSeconds * 1000,
                svgBytes: svgBytes, pngMs: pngSeconds * 1000, pngBytes: pngBytes))
    }
    let reference = try runMatplotlib(logs)

    if json {
        let value = JSONValue.object([
            (
                "cases",
                .array(
                    cases.map { c in
                        let referenceMs = reference[c.samples] ?? .nan
                        return .object([
                            ("samples", .int(c.samples)), ("modelMs", .number(c.modelMs)), ("seriesMs", .number(c.seriesMs)),
                            ("excursionsMs", .number(c.excursionsMs)), ("layoutMs", .number(c.layoutMs)),
                            ("drawMs", .number(c.drawMs)), ("encodeMs", .number(c.encodeMs)), ("svgMs", .number(c.svgMs)),
                            ("svgBytes", .int(c.svgBytes)), ("pngMs", .number(c.pngMs)),
                            ("referencePngMs", .number(referenceMs)), ("ratio", .number(referenceMs / c.pngMs)),
                        ])
                    })
            )
        ])
        print(value.serialized(pretty: false))
        return
    }
    func ms(_ value: Double) -> String { String(format: "%.1f", value) }
    print(
        "chart 1200×600, Asia/Shanghai, best of several runs; ColdTap (M4, Cairo) vs matplotlib \(ProcessInfo.processInfo.environment["COLDTAP_PYTHON"] ?? "python3")"
    )
    print("samples     model ms   svg ms   svg bytes   png ms   png bytes   matplotlib ms   ratio")
    for c in cases {
        let referenceMs = reference[c.samples] ?? .nan
        print(
            String(c.samples).padding(toLength: 10, withPad: " ", startingAt: 0),
            ms(c.modelMs).leftPadded(10), ms(c.svgMs).leftPadded(8), String(c.svgBytes).leftPadded(11),
            ms(c.pngMs).leftPadded(8), String(c.pngBytes).leftPadded(11), ms(referenceMs).leftPadded(15),
            String(format: "%.1f×", referenceMs / c.pngMs).leftPadded(7))
    }
    print(
        "model = series (the log's samples, read in place) + excursions (ColdChain) + layout (one pass: stretches, extremes,"
            + " M4 columns; scales, marks); png = model + draw (Cairo) + encode (PNG file):")
    for c in cases {
        print(
            String(c.samples).padding(toLength: 10, withPad: " ", startingAt: 0),
            "series", ms(c.seriesMs).leftPadded(7), "  excursions", ms(c.excursionsMs).leftPadded(7), "  layout", ms(c.layoutMs).leftPadded(7),
            "  draw", ms(c.drawMs).leftPadded(7), "  encode", ms(c.encodeMs).leftPadded(7))
    }
    print("targets: 1,000,000 samples to PNG < 200 ms; SVG size independent of sample count; ≥ 10× faster than matplotlib")
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
