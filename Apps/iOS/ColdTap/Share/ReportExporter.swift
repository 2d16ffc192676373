import ColdChain
import Foundation
import LoggerFormats
import TempChart

/// Writes a read as a PDF report or CSV data into a temporary file for the share sheet.
///
/// The PDF is drawn through TempChart's `Canvas` with the Core Graphics canvas, using the
/// report texts of TempChart's `ReportStrings` so that it reads like the command line's
/// reports in the same language.
struct ReportExporter {
    enum Kind { case pdf, csv }

    let read: StoredRead
    let assessment: Assessment
    let language: ReportLanguage

    /// Writes the file and returns its URL (in a fresh temporary folder).
    /// - Throws: file-system errors, or `CoreGraphicsOutputError` when the PDF cannot be made.
    func write(_ kind: Kind) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stamp = ISO8601DateFormatter.fileStamp().string(from: read.readAt)
        let base = "ColdTap-\(fileSafe(read.loggerName))-\(stamp)"
        switch kind {
        case .csv:
            let url = folder.appendingPathComponent(base + ".csv")
            try Data(csv().utf8).write(to: url, options: .atomic)
            return url
        case .pdf:
            let url = folder.appendingPathComponent(base + ".pdf")
            try pdf().write(to: url, options: .atomic)
            return url
        }
    }

    private func fileSafe(_ text: String) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
        return String(text.unicodeScalars.map { allowed.contains($0) ? Character($0) : "-" })
    }

    // MARK: CSV

    /// One row per sample, oldest first: UTC time, local time in the assessment's zone,
    /// temperature and humidity as recorded, flags, and the position against the band.
    /// Flagged samples keep their row. Column names are fixed English identifiers so that
    /// spreadsheets and scripts read every export the same way.
    func csv() -> String {
        let utc = ISO8601DateFormatter()
        utc.formatOptions = [.withInternetDateTime]
        let local = ISO8601DateFormatter()
        local.formatOptions = [.withInternetDateTime]
        local.timeZone = assessment.timeZone
        var lines = ["time_utc,time_local,temperature_c,humidity_percent,flags,position"]
        lines.reserveCapacity(read.log.samples.count + 1)
        for sample in read.log.samples {
            let temperature = sample.temperature.map { String(format: "%.2f", $0) } ?? ""
            let humidity = sample.humidity.map { String(format: "%.1f", $0) } ?? ""
            let flags = sample.flags.map(\.rawValue).joined(separator: ";")
            let position: String
            if sample.isValid, let value = sample.temperature {
                position = assessment.band.position(of: value).rawValue
            } else {
                position = "unknown"
            }
            lines.append([utc.string(from: sample.time), local.string(from: sample.time), temperature, humidity, flags, position]
                .joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    // MARK: PDF

    private static let pageWidth = 595.0   // A4 in points
    private static let pageHeight = 842.0
    private static let margin = 40.0

    func pdf() throws -> Data {
        let excursionPages = ExcursionTable.pages(count: assessment.excursions.count)
        return try CoreGraphicsCanvas.pdf(width: Self.pageWidth, height: Self.pageHeight, pageCount: 1 + excursionPages.count) { canvas, index in
            let page = ReportPage(canvas: canvas, formatter: ChartFormatter(timeZone: assessment.timeZone, language: language),
                                  theme: .light, margin: Self.margin)
            if index == 0 {
                drawFirstPage(page)
            } else {
                page.excursionTable(assessment.excursions, rows: excursionPages[index - 1],
                                    moreAfter: index == excursionPages.count ? max(0, assessment.excursions.count - ExcursionTable.maxListed) : 0)
            }
            page.footer(pageNumber: index + 1, pageCount: 1 + excursionPages.count)
        }
    }

    private func drawFirstPage(_ page: ReportPage) {
        let s = page.formatter.strings
        let f = page.formatter
        let stats = assessment.statistics
        let log = read.log
        page.title(s.reportTitle)

        let verdictText: String
        let verdictColor: ChartColor
        switch assessment.verdict {
        case .ok: verdictText = s.verdictPass; verdictColor = page.theme.pass
        case .alarm: verdictText = s.verdictFail; verdictColor = page.theme.fail
        case .inconclusive: verdictText = s.verdictInconclusive; verdictColor = page.theme.inconclusive
        }
        page.banner(verdictText, detail: "\(s.profile): \(assessment.profile.name) (\(assessment.band.description))", color: verdictColor)
        for reason in assessment.reasons { page.paragraph("• " + reason) }

        page.section(s.sectionLogger)
        page.rows([
            (s.logger, read.loggerName),
            (s.serial, log.logger.serial ?? "—"),
            (s.tagUID, log.logger.tagUID ?? "—"),
            (s.format, log.format),
            (s.readTime, f.dateTime(read.readAt)),
            (s.timeZone, stats.start.flatMap { start in stats.end.map { f.zoneDescription(from: start, to: $0) } } ?? assessment.timeZone.identifier),
            (s.timeBase, s.timeBaseNames[log.timeBase.rawValue] ?? log.timeBase.rawValue),
            (s.integrity, (s.integrityNames[log.integrity.status.rawValue] ?? log.integrity.status.rawValue)
                + (log.integrity.detail.isEmpty ? "" : " (\(log.integrity.detail))")),
        ])

        page.section(s.sectionStatistics)
        let temperature: (Double?) -> String = { $0.map { f.temperature($0) } ?? "—" }
        page.rows([
            (s.samples, "\(stats.validCount) / \(stats.sampleCount)"),
            (s.interval, f.duration(log.interval)),
            (s.period, stats.start.flatMap { start in stats.end.map { f.dateTime(start) + " – " + f.dateTime($0) } } ?? "—"),
            (s.minimum, temperature(stats.min) + (stats.minTime.map { "  (" + f.dateTime($0) + ")" } ?? "")),
            (s.maximum, temperature(stats.max) + (stats.maxTime.map { "  (" + f.dateTime($0) + ")" } ?? "")),
            (s.mean, temperature(stats.mean)),
            (s.mkt, temperature(stats.meanKineticTemperature)),
            (s.timeAbove, f.duration(stats.secondsAbove)),
            (s.timeBelow, f.duration(stats.secondsBelow)),
            (s.invalidSamples, "\(stats.missingCount) / \(stats.outOfRangeCount)"),
        ])

        page.section(s.sectionChart)
        page.chart(ChartInput(log: log, assessment: assessment, language: language), height: max(160, page.remainingHeight - 30))
    }
}

/// How the excursion list is split over pages.
enum ExcursionTable {
    static let rowsPerPage = 44
    static let maxListed = 200

    /// Row ranges per page (none when there is no excursion: the first page says so).
    static func pages(count: Int) -> [Range<Int>] {
        let listed = min(count, maxListed)
        guard listed > 0 else { return [] }
        return stride(from: 0, to: listed, by: rowsPerPage).map { $0..<min($0 + rowsPerPage, listed) }
    }
}

/// A report page laid out top to bottom on a canvas.
final class ReportPage {
    let canvas: CoreGraphicsCanvas
    let formatter: ChartFormatter
    let theme: ChartTheme
    let margin: Double
    private(set) var y: Double

    init(canvas: CoreGraphicsCanvas, formatter: ChartFormatter, theme: ChartTheme, margin: Double) {
        self.canvas = canvas
        self.formatter = formatter
        self.theme = theme
        self.margin = margin
        self.y = margin
        canvas.fill(.rect(ChartRect(x: 0, y: 0, width: canvas.width, height: canvas.height)), color: theme.background)
    }

    var contentWidth: Double { canvas.width - 2 * margin }
    var remainingHeight: Double { canvas.height - margin - 24 - y }

    func title(_ text: String) {
        let font = ChartFont(size: 20, weight: .bold)
        y += font.size
        canvas.text(text, at: ChartPoint(x: margin, y: y), font: font, color: theme.text, anchor: .start)
        y += 14
    }

    func banner(_ text: String, detail: String, color: ChartColor) {
        let height = 46.0
        canvas.fill(.rect(ChartRect(x: margin, y: y, width: contentWidth, height: height)), color: color)
        canvas.text(text, at: ChartPoint(x: margin + 12, y: y + 28), font: ChartFont(size: 18, weight: .bold),
                    color: theme.onBanner, anchor: .start)
        canvas.text(detail, at: ChartPoint(x: canvas.width - margin - 12, y: y + 28), font: ChartFont(size: 10),
                    color: theme.onBanner, anchor: .end)
        y += height + 10
    }

    func paragraph(_ text: String) {
        let font = ChartFont(size: 10)
        for line in wrap(text, font: font, width: contentWidth) {
            y += 13
            canvas.text(line, at: ChartPoint(x: margin, y: y), font: font, color: theme.text, anchor: .start)
        }
        y += 3
    }

    func section(_ text: String) {
        y += 20
        canvas.text(text, at: ChartPoint(x: margin, y: y), font: ChartFont(size: 13, weight: .bold), color: theme.text, anchor: .start)
        y += 4
        canvas.stroke(.segment(ChartPoint(x: margin, y: y), ChartPoint(x: canvas.width - margin, y: y)),
                      color: theme.grid, style: StrokeStyle(width: 0.75))
    }

    func rows(_ pairs: [(String, String)]) {
        let font = ChartFont(size: 10)
        let keyWidth = 150.0
        for (index, pair) in pairs.enumerated() {
            let lines = wrap(pair.1, font: font, width: contentWidth - keyWidth)
            let rowHeight = 14.0 * Double(max(1, lines.count))
            if index % 2 == 1 {
                canvas.fill(.rect(ChartRect(x: margin, y: y + 2, width: contentWidth, height: rowHeight)), color: theme.tableStripe)
            }
            canvas.text(pair.0, at: ChartPoint(x: margin + 4, y: y + 12), font: font, color: theme.secondaryText, anchor: .start)
            for (lineIndex, line) in lines.enumerated() {
                canvas.text(line, at: ChartPoint(x: margin + keyWidth, y: y + 12 + 14 * Double(lineIndex)), font: font,
                            color: theme.text, anchor: .start)
            }
            y += rowHeight
        }
    }

    func chart(_ input: ChartInput, height: Double) {
        y += 8
        let frame = ChartRect(x: margin, y: y, width: contentWidth, height: height)
        // PDF is vector: a finer M4 grid keeps the curve exact when zoomed.
        ChartRenderer.draw(input.model(frame: frame, theme: theme, pixelDensity: 4), on: canvas)
        y += height
    }

    func excursionTable(_ excursions: [Excursion], rows: Range<Int>, moreAfter: Int) {
        let s = formatter.strings
        title(s.sectionExcursions)
        let font = ChartFont(size: 9)
        let bold = ChartFont(size: 9, weight: .bold)
        let columns = [0.0, 70, 190, 310, 410]
        let headers = [s.excursionDirection, s.excursionStart, s.excursionEnd, s.excursionDuration, s.excursionPeak]
        y += 6
        for (column, header) in zip(columns, headers) {
            canvas.text(header, at: ChartPoint(x: margin + column + 4, y: y + 11), font: bold, color: theme.secondaryText, anchor: .start)
        }
        y += 16
        for index in rows where excursions.indices.contains(index) {
            let excursion = excursions[index]
            if (index - rows.lowerBound) % 2 == 1 {
                canvas.fill(.rect(ChartRect(x: margin, y: y, width: contentWidth, height: 15)), color: theme.tableStripe)
            }
            let cells = [excursion.direction == .high ? s.above : s.below,
                         formatter.dateTime(excursion.start), formatter.dateTime(excursion.end),
                         formatter.duration(excursion.duration), formatter.temperature(excursion.peak)]
            for (column, cell) in zip(columns, cells) {
                canvas.text(cell, at: ChartPoint(x: margin + column + 4, y: y + 11), font: font,
                            color: column == 0 ? theme.beyond : theme.text, anchor: .start)
            }
            y += 15
        }
        if moreAfter > 0 {
            y += 14
            canvas.text("+\(moreAfter) \(s.moreExcursions)", at: ChartPoint(x: margin, y: y), font: font,
                        color: theme.secondaryText, anchor: .start)
        }
    }

    func footer(pageNumber: Int, pageCount: Int) {
        let font = ChartFont(size: 8)
        let baseline = canvas.height - margin / 2
        canvas.text(formatter.strings.generatedBy, at: ChartPoint(x: margin, y: baseline), font: font,
                    color: theme.secondaryText, anchor: .start)
        canvas.text("\(pageNumber) / \(pageCount)", at: ChartPoint(x: canvas.width - margin, y: baseline), font: font,
                    color: theme.secondaryText, anchor: .end)
    }

    /// Breaks text into lines no wider than `width`: at spaces for Latin text, between any
    /// two characters for Chinese and Japanese.
    func wrap(_ text: String, font: ChartFont, width: Double) -> [String] {
        var lines: [String] = []
        var current: [Character] = []
        var breakAfter: Int?  // characters of `current` that may end a line
        for character in text {
            let candidate = current + [character]
            if current.isEmpty || canvas.textWidth(String(candidate), font: font) <= width {
                current = candidate
                if character == " " || character.unicodeScalars.contains(where: TextMetrics.isWide) {
                    breakAfter = current.count
                }
                continue
            }
            if let cut = breakAfter, cut < current.count {
                lines.append(String(current[..<cut]).trimmingCharacters(in: .whitespaces))
                current = Array(current[cut...]) + [character]
            } else {
                lines.append(String(current).trimmingCharacters(in: .whitespaces))
                current = character == " " ? [] : [character]
            }
            breakAfter = nil
        }
        let last = String(current).trimmingCharacters(in: .whitespaces)
        if !last.isEmpty { lines.append(last) }
        return lines.isEmpty ? [""] : lines
    }
}

extension ISO8601DateFormatter {
    /// `20260305T142000Z`, for file names.
    static func fileStamp() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        return formatter
    }
}
