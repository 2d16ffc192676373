import ColdChain
import Foundation
import LoggerFormats
import TempChart
#if canImport(CCairo) && !canImport(CoreGraphics)
import CairoCanvas
#endif

/// The files `coldtap report` writes (chart PNG and SVG, report PDF and HTML, samples CSV)
/// and the chart it draws in a terminal.
public enum ReportArtifacts {
    /// A file kind `coldtap report` can write.
    public enum Kind: String, Sendable, CaseIterable {
        case png, pdf, svg, html, csv
    }

    /// The chart/report options of `coldtap report`.
    public struct Options: Sendable {
        /// `--out DIR`; nil when not given.
        public var outDirectory: String?
        /// The kinds named (`--png --pdf ...`); empty = all of them.
        public var kinds: Set<Kind>
        public var theme: ChartTheme
        /// Chart size for PNG and SVG, in pixels (`--size WxH`).
        public var width: Int
        public var height: Int
        public var language: ReportLanguage

        public init(outDirectory: String? = nil, kinds: Set<Kind> = [], theme: ChartTheme = .light, width: Int = 1200,
                    height: Int = 600, language: ReportLanguage = .english) {
            self.outDirectory = outDirectory
            self.kinds = kinds
            self.theme = theme
            self.width = width
            self.height = height
            self.language = language
        }

        /// True when files are wanted: `--out` or any kind flag given.
        public var writesFiles: Bool { outDirectory != nil || !kinds.isEmpty }

        /// The kinds to write: the ones named, or all when none is named.
        public var chosenKinds: [Kind] { Kind.allCases.filter { kinds.isEmpty || kinds.contains($0) } }
    }

    /// Takes `--out DIR --png --pdf --svg --html --csv --theme light|dark --size WxH
    /// --lang en|zh-Hans|ja` from `arguments`.
    /// - Throws: `CommandError` (usage) for an unknown theme or language or a bad size.
    public static func parseOptions(_ arguments: inout Arguments) throws -> Options {
        var options = Options()
        options.outDirectory = try arguments.option("--out")
        for kind in Kind.allCases where arguments.flag("--\(kind.rawValue)") { options.kinds.insert(kind) }
        if let name = try arguments.option("--theme") {
            guard let theme = ChartTheme.named(name) else {
                throw CommandError.usage("--theme '\(name)' is unknown; use light or dark.")
            }
            options.theme = theme
        }
        if let size = try arguments.option("--size") {
            let parts = size.lowercased().split(separator: "x")
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                  (200...8000).contains(width), (150...8000).contains(height) else {
                throw CommandError.usage("--size '\(size)' is not WIDTHxHEIGHT in pixels (200x150 to 8000x8000), e.g. 1200x600.")
            }
            options.width = width
            options.height = height
        }
        if let code = try arguments.option("--lang") {
            guard let language = ReportLanguage(rawValue: code) else {
                throw CommandError.usage("--lang '\(code)' is unknown; use en, zh-Hans or ja.")
            }
            options.language = language
        }
        return options
    }

    /// Writes the chosen files into `options.outDirectory` (created if needed; the current
    /// directory when only kind flags are given), named after `inputName`, and prints each
    /// path (to standard error when `pathsToStandardError`, so JSON output stays clean).
    /// PNG and PDF are drawn by Core Graphics on Apple platforms and by Cairo elsewhere.
    /// - Returns: the files written, in the order of `Kind.allCases`.
    /// - Throws: `CommandError` (failure) when a file cannot be written; (unavailable) when
    ///   PNG/PDF are asked for on a build with neither.
    @discardableResult
    public static func write(log: TemperatureLog, assessment: Assessment, inputName: String, options: Options,
                             console: Console, pathsToStandardError: Bool = false, now: Date = Date()) throws -> [URL] {
        let directory = URL(fileURLWithPath: options.outDirectory ?? ".", isDirectory: true)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw CommandError(.failure, "The output directory '\(directory.path)' is a file; give --out a directory (it is created when missing).")
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandError(.failure, "Cannot create the output directory '\(directory.path)': check the path and permissions.")
        }
        let stem = fileStem(inputName)
        let zone = assessment.timeZone
        let content = ReportContent(log: log, assessment: assessment, language: options.language)
        var page = ReportPage(content: content, timeZone: zone, language: options.language, theme: options.theme, generated: now)
        let chartFrame = ChartRect(x: 0, y: 0, width: Double(options.width), height: Double(options.height))
        let chartTitle = [log.logger.vendor, log.logger.model, log.logger.serial].compactMap { $0 }.joined(separator: " ")
        var written: [URL] = []

        for kind in options.chosenKinds {
            let url: URL
            do {
                switch kind {
                case .svg:
                    url = directory.appendingPathComponent("\(stem)-chart.svg")
                    let canvas = SVGCanvas(width: chartFrame.width, height: chartFrame.height)
                    let spec = content.chartSpec(frame: chartFrame, timeZone: zone, language: options.language,
                                                 theme: options.theme, title: chartTitle.isEmpty ? nil : chartTitle)
                    ChartRenderer.draw(ChartModel(spec), on: canvas)
                    try Data(canvas.document().utf8).write(to: url)
                case .html:
                    url = directory.appendingPathComponent("\(stem)-report.html")
                    try Data(page.html().utf8).write(to: url)
                case .csv:
                    url = directory.appendingPathComponent("\(stem).csv")
                    try Data(LogExport.csv(log).utf8).write(to: url)
                case .png:
                    url = directory.appendingPathComponent("\(stem)-chart.png")
                    #if canImport(CoreGraphics) && canImport(CoreText) && canImport(ImageIO)
                    let spec = content.chartSpec(frame: chartFrame, timeZone: zone, language: options.language,
                                                 theme: options.theme, title: chartTitle.isEmpty ? nil : chartTitle)
                    let model = ChartModel(spec)
                    let png = try CoreGraphicsCanvas.png(width: chartFrame.width, height: chartFrame.height, scale: 1) { canvas in
                        ChartRenderer.draw(model, on: canvas)
                    }
                    try png.write(to: url)
                    #elseif canImport(CCairo)
                    let canvas = try CairoCanvas(pixelWidth: options.width, height: options.height,
                                                 cjkFamily: cjkFamily(options.language))
                    let spec = content.chartSpec(frame: chartFrame, timeZone: zone, language: options.language,
                                                 theme: options.theme, title: chartTitle.isEmpty ? nil : chartTitle)
                    ChartRenderer.draw(ChartModel(spec), on: canvas)
                    try canvas.writePNG(to: url)
                    #else
                    throw CommandError(.unavailable, "PNG output needs Cairo or Core Graphics, which this build does not have; use --svg or --html.")
                    #endif
                case .pdf:
                    url = directory.appendingPathComponent("\(stem)-report.pdf")
                    #if canImport(CoreGraphics) && canImport(CoreText) && canImport(ImageIO)
                    page.pixelDensity = 4
                    let finalPage = page
                    let pdf = try CoreGraphicsCanvas.pdf(width: ReportPage.a4.width, height: ReportPage.a4.height, pageCount: 1) { canvas, _ in
                        finalPage.draw(on: canvas)
                    }
                    try pdf.write(to: url)
                    #elseif canImport(CCairo)
                    page.pixelDensity = 4
                    let canvas = try CairoCanvas(pdfAt: url, width: ReportPage.a4.width, height: ReportPage.a4.height,
                                                 cjkFamily: cjkFamily(options.language))
                    page.draw(on: canvas)
                    try canvas.finish()
                    #else
                    throw CommandError(.unavailable, "PDF output needs Cairo or Core Graphics, which this build does not have; use --html.")
                    #endif
                }
            } catch let error as CommandError {
                throw error
            } catch {
                throw CommandError(.failure, "Cannot write the \(kind.rawValue.uppercased()) file in '\(directory.path)': \(error). Check the directory and free space.")
            }
            written.append(url)
            if pathsToStandardError { console.error(url.path) } else { console.print(url.path) }
        }
        return written
    }

    /// Draws the curve with its limits in braille, fitting `console.terminalColumns`
    /// (80 when unknown), when standard output is a terminal; does nothing otherwise.
    public static func drawTerminalChart(log: TemperatureLog, assessment: Assessment, console: Console) {
        guard console.outputIsTerminal else { return }
        let columns = max(24, console.terminalColumns ?? 80)
        let text = TerminalChart.render(series: ChartSeries(log: log), lower: assessment.band.low?.limit,
                                        upper: assessment.band.high?.limit,
                                        excursions: assessment.excursions.map(ChartExcursion.init), width: columns,
                                        rows: columns >= 100 ? 14 : 10, timeZone: assessment.timeZone, color: true)
        console.write(Data(text.utf8))
    }

    /// The file name stem for an input path ("-" → "coldtap").
    static func fileStem(_ inputName: String) -> String {
        guard inputName != "-" else { return "coldtap" }
        let stem = URL(fileURLWithPath: inputName).deletingPathExtension().lastPathComponent
        return stem.isEmpty ? "coldtap" : stem
    }

    static func cjkFamily(_ language: ReportLanguage) -> String {
        language == .japanese ? "Noto Sans CJK JP" : "Noto Sans CJK SC"
    }
}
