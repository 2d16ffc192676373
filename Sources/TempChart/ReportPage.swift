import ColdChain
import Foundation

/// The one-page audit report: header, verdict banner with reasons, logger and statistics
/// tables, excursion table and the chart, laid out for an A4 page and drawn on any `Canvas`.
public struct ReportPage: Sendable {
    /// A4 in PDF points.
    public static let a4 = (width: 595.28, height: 841.89)

    public var content: ReportContent
    public var timeZone: TimeZone
    public var language: ReportLanguage
    public var theme: ChartTheme
    /// When the report was made (printed in the header).
    public var generated: Date
    /// Excursion rows shown before "… N more".
    public var maxExcursionRows = 8
    /// Device pixels per canvas unit used for the chart's M4 columns (PDF: 4, so zooming in
    /// stays exact; a PNG at 2× scale: 2).
    public var pixelDensity: Double = 4

    public init(
        content: ReportContent, timeZone: TimeZone, language: ReportLanguage, theme: ChartTheme,
        generated: Date = Date()
    ) {
        self.content = content
        self.timeZone = timeZone
        self.language = language
        self.theme = theme
        self.generated = generated
    }

    var strings: ReportStrings { language.strings }
    var formatter: ChartFormatter { ChartFormatter(timeZone: timeZone, language: language) }

    // MARK: Text blocks shared with the HTML report

    /// The verdict word for the banner.
    public var verdictText: String {
        switch content.verdict {
        case .ok: return strings.verdictOK
        case .alarm: return strings.verdictAlarm
        case .inconclusive: return strings.verdictInconclusive
        case .notAssessed: return strings.verdictNone
        }
    }

    /// The banner colour for the verdict.
    public var verdictColor: ChartColor {
        switch content.verdict {
        case .ok: return theme.pass
        case .alarm: return theme.fail
        case .inconclusive, .notAssessed: return theme.inconclusive
        }
    }

    /// Logger rows (label, value).
    public var loggerRows: [(String, String)] {
        let log = content.log
        let f = formatter
        var rows: [(String, String)] = []
        let name = [log.logger.vendor, log.logger.model.map { LogTexts.model($0, language: language) }].compactMap { $0 }.joined(separator: " ")
        if !name.isEmpty { rows.append((strings.logger, name)) }
        if let uid = log.logger.tagUID { rows.append((strings.tagUID, uid)) }
        if let serial = log.logger.serial { rows.append((strings.serial, serial)) }
        rows.append((strings.format, log.format.name))
        if log.timesEstimated {
            rows.append(
                (
                    strings.readTime,
                    language.audit.readTimeEstimated.filled([
                        "time": f.dateTime(log.readTime, seconds: true), "source": readTimeSourceText,
                    ])
                ))
        } else {
            rows.append((strings.readTime, f.dateTime(log.readTime, seconds: true)))
        }
        rows.append((strings.timeZone, f.zoneDescription(from: log.readTime, to: log.readTime)))
        let timeBaseKey = log.timeBase == .readTime && log.timesEstimated ? "read-time-estimated" : log.timeBase.rawValue
        let timeBaseName = (strings.timeBaseNames[timeBaseKey] ?? log.timeBase.rawValue).replacingOccurrences(of: "{source}", with: readTimeSourceText)
        rows.append((strings.timeBase, timeBaseName))
        let status = strings.integrityNames[log.integrity.status.rawValue] ?? log.integrity.status.rawValue
        let detail = LogTexts.integrity(log.integrity.detail, language: language)
        rows.append((strings.integrity, detail.isEmpty ? status : "\(status) (\(detail))"))
        return rows
    }

    /// Statistics rows (label, value).
    public var statisticsRows: [(String, String)] {
        let s = content.statistics
        let f = formatter
        let log = content.log
        var rows: [(String, String)] = [(strings.samples, "\(s.sampleCount)"), (strings.interval, f.duration(log.interval))]
        if let period = ReportPeriod(log: log) {
            // The one rule of a report's period (ColdChain's `ReportPeriod`). The end without
            // its year when the year is the same, so the row fits.
            let endText =
                f.calendar.component(.year, from: period.end) == f.calendar.component(.year, from: period.start)
                ? String(f.dateTime(period.end).dropFirst(5)) : f.dateTime(period.end)
            rows.append((strings.period, "\(f.dateTime(period.start)) – \(endText)"))
        }
        func temperature(_ value: Double?, decimals: Int = 1) -> String { value.map { f.temperature($0, decimals: decimals) } ?? "—" }
        rows.append((strings.minMax, "\(temperature(s.minimum)) / \(temperature(s.maximum))"))
        rows.append((strings.mean, temperature(s.mean, decimals: 2)))
        if let mkt = s.meanKineticTemperature { rows.append((strings.mkt, f.temperature(mkt, decimals: 2))) }
        if content.upperLimit != nil { rows.append((strings.timeAbove, f.duration(s.timeAbove))) }
        if content.lowerLimit != nil { rows.append((strings.timeBelow, f.duration(s.timeBelow))) }
        rows.append((strings.invalidSamples, "\(s.invalidCount)"))
        return rows
    }

    /// Excursion table header.
    public var excursionHeader: [String] {
        [
            "#", strings.excursionStart, strings.excursionEnd, strings.excursionDuration, strings.excursionPeak,
            strings.excursionDirection,
        ]
    }

    /// Excursion table rows (all of them).
    public var excursionRows: [[String]] {
        let f = formatter
        return content.excursions.enumerated().map { index, e in
            [
                "\(index + 1)", f.dateTime(e.start), f.dateTime(e.end), f.duration(e.end.timeIntervalSince(e.start)),
                f.temperature(e.peak), e.direction == .high ? strings.above : strings.below,
            ]
        }
    }

    /// Where the read time came from, in the report's language.
    public var readTimeSourceText: String {
        let source = content.log.readTimeSource?.description ?? "—"
        return readTimeSourceName(source)
    }

    /// The note that every time is an estimate, or `nil` when the times are known.
    public var timesEstimatedNote: String? {
        content.log.timesEstimated ? language.audit.timesEstimatedNote.filled(["source": readTimeSourceText]) : nil
    }

    /// "vaccine-fridge (2–8 °C)" or "—".
    public var profileText: String { content.profile ?? "—" }

    // MARK: Page

    /// Draws the first page alone on `canvas` (which should be A4-sized: `ReportPage.a4`),
    /// without a page number; `drawPages` draws the whole report.
    public func draw(on canvas: any Canvas) {
        drawFirstPage(on: canvas)
        drawFooter(on: canvas, page: nil)
    }

    /// Draws the whole report on `canvas` (A4-sized: `ReportPage.a4`): the first page, the
    /// audit pages and the signatures, each page with "Page x of y" in its footer. The pages
    /// are laid out first (measured on `canvas`), then drawn. Calls `newPage` before each
    /// page after the first, which must start a fresh page on `canvas` (a PDF's next page).
    /// Returns the number of pages drawn.
    @discardableResult
    public func drawPages(on canvas: any Canvas, newPage: () -> Void) -> Int {
        let recorder = PageRecorder(measuringWith: canvas)
        drawFirstPage(on: recorder)
        drawAuditPages(on: recorder, newPage: recorder.newPage)
        recorder.replay(newPage: newPage) { number, count in drawFooter(on: canvas, page: (number, count)) }
        return recorder.pageCount
    }

    /// Every page's footer: the logger on the left, ColdTap and the page number on the right.
    func drawFooter(on canvas: any Canvas, page: (number: Int, count: Int)?) {
        let margin = 36.0
        let baseline = canvas.height - margin + 14
        let log = content.log
        let identity = [log.logger.tagUID, log.logger.serial].compactMap { $0 }.joined(separator: " · ")
        canvas.text(
            identity.isEmpty ? log.format.name : "\(log.format) · \(identity)", at: ChartPoint(x: margin, y: baseline),
            font: ChartFont(size: 7), color: theme.secondaryText, anchor: .start)
        let number = page.map { " · " + strings.pageOf.filled(["number": "\($0.number)", "count": "\($0.count)"]) } ?? ""
        canvas.text(
            "ColdTap" + number, at: ChartPoint(x: canvas.width - margin, y: baseline), font: ChartFont(size: 7),
            color: theme.secondaryText, anchor: .end)
    }

    func drawFirstPage(on canvas: any Canvas) {
        let width = canvas.width, height = canvas.height
        let margin = 36.0
        let contentWidth = width - 2 * margin
        let text = theme.text, secondary = theme.secondaryText
        canvas.fill(.rect(ChartRect(x: 0, y: 0, width: width, height: height)), color: theme.background)

        // Header.
        var y = margin + 16
        canvas.text(
            strings.reportTitle, at: ChartPoint(x: margin, y: y), font: ChartFont(size: 17, weight: .bold),
            color: text, anchor: .start)
        canvas.text(
            "\(strings.generatedBy) · \(formatter.dateTime(generated))", at: ChartPoint(x: width - margin, y: y),
            font: ChartFont(size: 7.5), color: secondary, anchor: .end)
        y += 12

        // Verdict banner.
        let bannerHeight = 30.0
        canvas.fill(.rect(ChartRect(x: margin, y: y, width: contentWidth, height: bannerHeight)), color: verdictColor)
        canvas.text(
            verdictText, at: ChartPoint(x: margin + 12, y: y + 20.5), font: ChartFont(size: 15, weight: .bold),
            color: theme.onBanner, anchor: .start)
        canvas.text(
            "\(strings.profile): \(profileText)", at: ChartPoint(x: width - margin - 12, y: y + 19.5),
            font: ChartFont(size: 9.5, weight: .bold), color: theme.onBanner, anchor: .end)
        y += bannerHeight + 13

        // What the verdict must not hide, right under it: an OK with excursions nobody has
        // acknowledged yet is not "nothing happened".
        if let note = content.headlineNote {
            let font = ChartFont(size: 10, weight: .bold)
            for line in ReportPage.wrap("\(verdictText) — \(note)", width: contentWidth - 12, font: font, canvas: canvas) {
                canvas.text(line, at: ChartPoint(x: margin, y: y), font: font, color: theme.inconclusive, anchor: .start)
                y += 13
            }
            y += 2
        }

        // Reasons, after the note that the times are estimates.
        let reasonFont = ChartFont(size: 8.5)
        var reasonLines = 0
        if let note = timesEstimatedNote {
            for line in ReportPage.wrap(note, width: contentWidth - 12, font: ChartFont(size: 8.5, weight: .bold), canvas: canvas) {
                canvas.text(
                    line, at: ChartPoint(x: margin, y: y), font: ChartFont(size: 8.5, weight: .bold), color: theme.inconclusive,
                    anchor: .start)
                y += 11.5
            }
        }
        for reason in content.reasons {
            let lines = ReportPage.wrap(reason, width: contentWidth - 12, font: reasonFont, canvas: canvas)
            for (index, line) in lines.enumerated() where reasonLines < 7 {
                if index == 0 {
                    canvas.text("•", at: ChartPoint(x: margin + 2, y: y), font: reasonFont, color: secondary, anchor: .start)
                }
                canvas.text(line, at: ChartPoint(x: margin + 12, y: y), font: reasonFont, color: text, anchor: .start)
                y += 11.5
                reasonLines += 1
            }
        }
        if content.audit != nil
            && content.reasons.map({ ReportPage.wrap($0, width: contentWidth - 12, font: reasonFont, canvas: canvas).count })
                .reduce(0, +) > 7
        {
            canvas.text("… \(language.audit.page) 2", at: ChartPoint(x: margin + 12, y: y), font: reasonFont, color: secondary, anchor: .start)
            y += 11.5
        }
        y += 8

        // Two tables side by side: logger | statistics.
        let columnWidth = (contentWidth - 20) / 2
        let loggerEnd = drawKeyValues(
            title: strings.sectionLogger, rows: loggerRows, x: margin, y: y, width: columnWidth,
            canvas: canvas)
        let statsEnd = drawKeyValues(
            title: strings.sectionStatistics, rows: statisticsRows, x: margin + columnWidth + 20,
            y: y, width: columnWidth, canvas: canvas)
        y = max(loggerEnd, statsEnd) + 14

        // Excursions.
        y = drawExcursions(x: margin, y: y, width: contentWidth, canvas: canvas) + 14
        y = drawLoggerEvents(x: margin, y: y, width: contentWidth, canvas: canvas)

        // Chart in the rest of the page.
        sectionTitle(strings.sectionChart, x: margin, y: y, width: contentWidth, canvas: canvas)
        y += 12
        let footer = 18.0
        let chartHeight = max(180, height - margin - footer - y)
        let spec = content.chartSpec(
            frame: ChartRect(x: margin, y: y, width: contentWidth, height: chartHeight),
            timeZone: timeZone, language: language, theme: theme, pixelDensity: pixelDensity)
        ChartRenderer.draw(ChartModel(spec), on: canvas)
    }

    private func sectionTitle(_ title: String, x: Double, y: Double, width: Double, canvas: any Canvas) {
        canvas.text(
            title, at: ChartPoint(x: x, y: y), font: ChartFont(size: 10.5, weight: .bold), color: theme.text,
            anchor: .start)
        canvas.fill(.rect(ChartRect(x: x, y: y + 4, width: width, height: 0.8)), color: theme.axis)
    }

    /// Draws a titled two-column table; returns the y below it.
    private func drawKeyValues(
        title: String, rows: [(String, String)], x: Double, y: Double, width: Double,
        canvas: any Canvas
    ) -> Double {
        sectionTitle(title, x: x, y: y, width: width, canvas: canvas)
        let font = ChartFont(size: 8.5)
        let bold = ChartFont(size: 8.5, weight: .bold)
        let labelWidth = min(width * 0.45, (rows.map { canvas.textWidth($0.0, font: font) }.max() ?? 0) + 10)
        var rowY = y + 8
        for (index, row) in rows.enumerated() {
            // Long values get a smaller font first, then wrap onto more lines: nothing is cut.
            let room = width - labelWidth - 6
            var valueFont = bold
            while valueFont.size > 7, canvas.textWidth(row.1, font: valueFont) > room { valueFont.size -= 0.5 }
            let lines = ReportPage.wrap(row.1, width: room, font: valueFont, canvas: canvas)
            let height = 13 + Double(max(0, lines.count - 1)) * (valueFont.size + 2)
            if index % 2 == 0 {
                canvas.fill(.rect(ChartRect(x: x, y: rowY, width: width, height: height)), color: theme.tableStripe)
            }
            canvas.text(row.0, at: ChartPoint(x: x + 4, y: rowY + 9.5), font: font, color: theme.secondaryText, anchor: .start)
            for (number, line) in lines.enumerated() {
                canvas.text(
                    line, at: ChartPoint(x: x + labelWidth, y: rowY + 9.5 + Double(number) * (valueFont.size + 2)),
                    font: valueFont, color: theme.text, anchor: .start)
            }
            rowY += height
        }
        return rowY
    }

    /// Draws the excursion table; returns the y below it.
    private func drawExcursions(x: Double, y: Double, width: Double, canvas: any Canvas) -> Double {
        sectionTitle(strings.sectionExcursions, x: x, y: y, width: width, canvas: canvas)
        var rowY = y + 8
        let font = ChartFont(size: 8.5)
        let rows = excursionRows
        guard !rows.isEmpty else {
            canvas.text(
                strings.noExcursions, at: ChartPoint(x: x + 4, y: rowY + 9.5), font: font, color: theme.secondaryText,
                anchor: .start)
            return rowY + 13
        }
        let fractions = [0.05, 0.25, 0.25, 0.17, 0.13, 0.15]
        var columnX: [Double] = []
        var position = x + 4
        for fraction in fractions { columnX.append(position); position += fraction * width }
        let header = excursionHeader
        for (index, title) in header.enumerated() {
            canvas.text(
                title, at: ChartPoint(x: columnX[index], y: rowY + 9.5), font: ChartFont(size: 8.5, weight: .bold),
                color: theme.secondaryText, anchor: .start)
        }
        rowY += 13
        for (rowIndex, row) in rows.prefix(maxExcursionRows).enumerated() {
            if rowIndex % 2 == 0 {
                canvas.fill(.rect(ChartRect(x: x, y: rowY, width: width, height: 13)), color: theme.tableStripe)
            }
            for (index, cell) in row.enumerated() {
                let color = index == 4 || index == 5 ? theme.beyond : theme.text
                canvas.text(cell, at: ChartPoint(x: columnX[index], y: rowY + 9.5), font: font, color: color, anchor: .start)
            }
            rowY += 13
        }
        if rows.count > maxExcursionRows {
            canvas.text(
                "… \(rows.count - maxExcursionRows) \(strings.moreExcursions)", at: ChartPoint(x: x + 4, y: rowY + 9.5),
                font: font, color: theme.secondaryText, anchor: .start)
            rowY += 13
        }
        return rowY
    }

    // MARK: Text helpers

    /// Breaks text into lines no wider than `width`: at spaces for Latin text, between any
    /// two characters for CJK text.
    public static func wrap(_ text: String, width: Double, font: ChartFont, canvas: any Canvas) -> [String] {
        var tokens: [String] = []
        var word = ""
        for character in text {
            let wide = character.unicodeScalars.contains(where: TextMetrics.isWide)
            if character == " " {
                if !word.isEmpty { tokens.append(word); word = "" }
                tokens.append(" ")
            } else if wide {
                if !word.isEmpty { tokens.append(word); word = "" }
                tokens.append(String(character))
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { tokens.append(word) }
        // A word wider than the line (a hash, a URL) is broken between characters.
        tokens = tokens.flatMap { token -> [String] in
            guard token != " ", canvas.textWidth(token, font: font) > width else { return [token] }
            var pieces: [String] = []
            var piece = ""
            for character in token {
                if !piece.isEmpty, canvas.textWidth(piece + String(character), font: font) > width {
                    pieces.append(piece)
                    piece = ""
                }
                piece.append(character)
            }
            if !piece.isEmpty { pieces.append(piece) }
            return pieces
        }
        var lines: [String] = []
        var line = ""
        for token in tokens {
            let candidate = line + token
            if canvas.textWidth(candidate, font: font) > width, !line.trimmingCharacters(in: .whitespaces).isEmpty {
                lines.append(line.trimmingCharacters(in: .whitespaces))
                line = token == " " ? "" : token
            } else {
                line = candidate
            }
        }
        let last = line.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty { lines.append(last) }
        return lines
    }

    /// The text, shortened with "…" to fit `width`.
    public static func truncate(_ text: String, width: Double, font: ChartFont, canvas: any Canvas) -> String {
        guard canvas.textWidth(text, font: font) > width else { return text }
        var characters = Array(text)
        while !characters.isEmpty, canvas.textWidth(String(characters) + "…", font: font) > width {
            characters.removeLast()
        }
        return String(characters) + "…"
    }
}
