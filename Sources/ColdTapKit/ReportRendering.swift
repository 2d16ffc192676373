import ColdChain
import ColdTapBase
import Digest
import Foundation
import LoggerFormats
import TempChart

#if canImport(CCairo) && !canImport(CoreGraphics)
    import CairoCanvas
#endif

/// A kind of report file: the chart (PNG, SVG), the audit report (PDF, HTML), the samples (CSV).
public enum ReportFileKind: String, Sendable, CaseIterable {
    case png, pdf, svg, html, csv

    /// What follows the file name stem: `-chart.png`, `-report.pdf`, `.csv`.
    public var fileSuffix: String {
        switch self {
        case .png: return "-chart.png"
        case .svg: return "-chart.svg"
        case .pdf: return "-report.pdf"
        case .html: return "-report.html"
        case .csv: return ".csv"
        }
    }

    public var contentType: String {
        switch self {
        case .pdf: return "application/pdf"
        case .html: return "text/html; charset=utf-8"
        case .png: return "image/png"
        case .svg: return "image/svg+xml"
        case .csv: return "text/csv; charset=utf-8"
        }
    }
}

/// A report file kind this build cannot draw.
public struct ReportRenderingUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    public var kind: ReportFileKind

    public var description: String {
        "\(kind.rawValue.uppercased()) output needs Cairo or Core Graphics, which this build does not have"
    }
}

/// Report files drawn into bytes, the same for every front end: the command line writes them
/// to files, the station answers with them, the app shares them. PNG and PDF are drawn by
/// Core Graphics on Apple platforms and by Cairo elsewhere.
public struct ReportRendering: Sendable {
    public var theme: ChartTheme
    /// Chart size for PNG and SVG, in pixels.
    public var width: Int
    public var height: Int
    public var language: ReportLanguage
    /// The zone of the CSV's times; `nil` writes UTC.
    public var csvTimeZone: TimeZone?

    public init(
        theme: ChartTheme = .light, width: Int = 1200, height: Int = 600, language: ReportLanguage = .english,
        csvTimeZone: TimeZone? = nil
    ) {
        self.theme = theme
        self.width = width
        self.height = height
        self.language = language
        self.csvTimeZone = csvTimeZone
    }

    /// What a report is about: the log, its assessment, for the audit trail the input and
    /// the archive's record it was drawn from, and the electronic signatures on it.
    public struct Subject: Sendable {
        public var log: TemperatureLog
        public var assessment: Assessment
        public var input: ReportAudit.InputFile?
        public var archive: ReportArchiveSection?
        /// The signatures on the period, oldest first (the PDF and HTML show each, or an
        /// empty block to sign by hand when there are none).
        public var signatures: [ReportSignature]
        /// When the report is made (printed on it).
        public var generated: Date
        /// Said first, beside the verdict, before anything else (the app's sample read says it
        /// comes from no logger); nil for a logger's report.
        public var notice: String?

        public init(
            log: TemperatureLog, assessment: Assessment, input: ReportAudit.InputFile? = nil,
            archive: ReportArchiveSection? = nil, signatures: [ReportSignature] = [], generated: Date = Date()
        ) {
            self.log = log
            self.assessment = assessment
            self.input = input
            self.archive = archive
            self.signatures = signatures
            self.generated = generated
        }
    }

    /// The file of `kind` for `subject`.
    /// - Throws: `ReportRenderingUnavailable` for PNG or PDF on a build with neither Cairo nor
    ///   Core Graphics; the canvas's error when drawing fails.
    public func render(_ kind: ReportFileKind, of subject: Subject) throws -> Data {
        let log = subject.log
        let zone = subject.assessment.timeZone
        var content = ReportContent(log: log, assessment: subject.assessment, language: language)
        content.audit?.input = subject.input
        content.audit?.version = ColdTapVersion.current
        content.audit?.archive = subject.archive
        content.signatures = subject.signatures
        if let notice = subject.notice {
            content.headlineNote = [notice, content.headlineNote].compactMap { $0 }.joined(separator: language == .english ? "; " : "；")
        }
        var page = ReportPage(content: content, timeZone: zone, language: language, theme: theme, generated: subject.generated)
        let chartFrame = ChartRect(x: 0, y: 0, width: Double(width), height: Double(height))
        func chartModel() -> ChartModel {
            let title = chartTitle(subject, page: page)
            return ChartModel(
                content.chartSpec(
                    frame: chartFrame, timeZone: zone, language: language, theme: theme,
                    title: title.isEmpty ? nil : title))
        }
        switch kind {
        case .svg:
            let canvas = SVGCanvas(width: chartFrame.width, height: chartFrame.height)
            ChartRenderer.draw(chartModel(), on: canvas)
            return Data(canvas.document().utf8)
        case .html:
            return Data(page.html().utf8)
        case .csv:
            return Data(LogExport.csv(log, timeZone: csvTimeZone).utf8)
        case .png:
            #if canImport(CoreGraphics) && canImport(CoreText) && canImport(ImageIO)
                let model = chartModel()
                return try CoreGraphicsCanvas.png(width: chartFrame.width, height: chartFrame.height, scale: 1) { canvas in
                    ChartRenderer.draw(model, on: canvas)
                }
            #elseif canImport(CCairo)
                let canvas = try CairoCanvas(pixelWidth: width, height: height, cjkFamily: Self.cjkFamily(language))
                ChartRenderer.draw(chartModel(), on: canvas)
                return try canvas.pngData()
            #else
                throw ReportRenderingUnavailable(kind: .png)
            #endif
        case .pdf:
            page.pixelDensity = 4
            #if canImport(CoreGraphics) && canImport(CoreText) && canImport(ImageIO)
                let finalPage = page
                return try CoreGraphicsCanvas.pdf(width: ReportPage.a4.width, height: ReportPage.a4.height) { canvas, newPage in
                    finalPage.drawPages(on: canvas, newPage: newPage)
                }
            #elseif canImport(CCairo)
                let canvas = try CairoCanvas(
                    pdfWidth: ReportPage.a4.width, height: ReportPage.a4.height,
                    cjkFamily: Self.cjkFamily(language))
                page.drawPages(on: canvas) { canvas.showPage() }
                try canvas.finish()
                return try canvas.pdfData()
            #else
                throw ReportRenderingUnavailable(kind: .pdf)
            #endif
        }
    }

    /// The chart's title: the logger, and what a chart travelling alone must say itself (its
    /// time axis is a guess); a chart of the archive's record names the logger, the reads and
    /// the chain head it was drawn from (in place of the logger's model, so the whole hash fits).
    func chartTitle(_ subject: Subject, page: ReportPage) -> String {
        let log = subject.log
        var title = [log.logger.vendor, log.logger.model?.name, log.logger.serial].compactMap { $0 }.joined(separator: " ")
        if let note = page.chartTimesEstimatedNote {
            title = title.isEmpty ? note : "\(title) — \(note)"
        }
        if let archive = subject.archive {
            title =
                "\(archive.loggerID): \(archive.chartNote(language: language))"
                + (page.chartTimesEstimatedNote.map { " — \($0)" } ?? "")
        }
        return title
    }

    /// The file name stem for a log: format, serial (or tag UID) and the first sample's time
    /// in UTC, e.g. `cupltag-AAAACCCC-20240409T0743Z`; only letters, digits, `-`, `_` and `.`.
    public static func fileStem(_ log: TemperatureLog) -> String {
        var parts = [log.format.name]
        if let identity = log.logger.serial ?? log.logger.tagUID { parts.append(identity) }
        if let first = log.samples.first?.time {
            let calendar = Calendar(identifier: .gregorian)
            let c = calendar.dateComponents(in: TimeZone.utc, from: first)
            parts.append(String(format: "%04d%02d%02dT%02d%02dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0))
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        let stem = String(parts.joined(separator: "-").map { allowed.contains($0) ? $0 : "_" }.prefix(120))
        return stem.isEmpty || stem.hasPrefix(".") ? "coldtap" + stem : stem
    }

    /// The input as an auditor identifies it: the name given, its size and SHA-256.
    public static func inputFile(name: String, content: Data) -> ReportAudit.InputFile {
        ReportAudit.InputFile(name: name, size: content.count, sha256: SHA256Digest.hex(content))
    }

    static func cjkFamily(_ language: ReportLanguage) -> String {
        language == .japanese ? "Noto Sans CJK JP" : "Noto Sans CJK SC"
    }
}
