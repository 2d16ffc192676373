import ColdChain
import Foundation

extension ReportPage {
    /// The rows of the audit page's input table (label, value).
    public var auditInputRows: [(String, String)] {
        let audit = language.audit
        var rows: [(String, String)] = []
        if let input = content.audit?.input {
            rows.append((audit.inputFile, input.name))
            rows.append((audit.inputSize, "\(input.size) \(audit.bytes)"))
            rows.append((audit.inputSHA256, input.sha256))
        }
        rows.append((strings.readTime, loggerRows.first { $0.0 == strings.readTime }?.1 ?? "—"))
        rows.append((audit.readTimeSource, readTimeSourceText))
        if let version = content.audit?.version { rows.append((audit.version, version)) }
        rows.append((strings.generatedBy, formatter.dateTime(generated, seconds: true)))
        return rows
    }

    /// The per-day table's rows, in the report's zone.
    public var auditDayRows: [[String]] {
        let f = formatter
        func temperature(_ value: Double?) -> String { value.map { f.temperature($0) } ?? "—" }
        return (content.audit?.days ?? []).map { day in
            // Whole minutes that add up to the day, as the terminal shows them.
            let parts = ColdChainFormat.minutesAddingUp([day.secondsInBand, day.secondsAbove, day.secondsBelow, day.unknownSeconds])
            return [day.day] + parts.map { f.duration($0) } + [temperature(day.min), temperature(day.max), temperature(day.mean)]
        }
    }

    /// The rule table's rows: state, rule, why.
    public var auditRuleRows: [[String]] {
        let audit = language.audit
        return (content.audit?.rules ?? []).map { row in
            let state: String
            switch row.state {
            case .passed: state = audit.rulePassed
            case .fired: state = audit.ruleFired
            case .undecided: state = audit.ruleUnknown
            }
            return [state, row.rule, row.why]
        }
    }

    /// "times estimated from the file's modification time", for a chart's title; `nil` when the times are known.
    public var chartTimesEstimatedNote: String? {
        content.log.timesEstimated ? language.audit.chartTimesEstimated.filled(["source": readTimeSourceText]) : nil
    }

    /// The warnings: the note on estimated times first, then the log's own.
    public var auditWarnings: [String] {
        let warnings = content.log.warnings
        guard let note = timesEstimatedNote else { return warnings.map { LogTexts.warning($0, language: language) } }
        // The note says in the report's language what the log's own warning on it says.
        return [note]
            + warnings.filter {
                if case .timesEstimated = $0.original { return false }
                return true
            }.map { LogTexts.warning($0, language: language) }
    }

    /// Draws the audit pages after the first: every reason, the rules with their outcome,
    /// the warnings, every excursion, per-day figures (when the log spans more than one
    /// day), the input, the archive's part and, last, the signatures. Calls `newPage` before
    /// each page, which must start a fresh page on `canvas` (a PDF's next page). The footers
    /// with their page numbers are `drawPages`'s.
    func drawAuditPages(on canvas: any Canvas, newPage: () -> Void) {
        let width = canvas.width, height = canvas.height
        let margin = 36.0
        let contentWidth = width - 2 * margin
        let audit = language.audit
        let font = ChartFont(size: 8.5)
        let bold = ChartFont(size: 8.5, weight: .bold)
        let lineHeight = 11.0
        var y = 0.0

        func startPage() {
            newPage()
            canvas.fill(.rect(ChartRect(x: 0, y: 0, width: width, height: height)), color: theme.background)
            canvas.text(
                strings.reportTitle, at: ChartPoint(x: margin, y: margin + 10), font: ChartFont(size: 11, weight: .bold),
                color: theme.text, anchor: .start)
            canvas.text(
                verdictText, at: ChartPoint(x: width - margin, y: margin + 10),
                font: ChartFont(size: 8), color: theme.secondaryText, anchor: .end)
            y = margin + 20
        }
        func ensure(_ room: Double) { if y + room > height - margin { startPage() } }
        // `y` is the top of the next element; text is drawn on a baseline below it.
        func section(_ title: String) {
            ensure(48)
            let baseline = y + 12
            canvas.text(
                title, at: ChartPoint(x: margin, y: baseline), font: ChartFont(size: 10.5, weight: .bold), color: theme.text,
                anchor: .start)
            canvas.fill(.rect(ChartRect(x: margin, y: baseline + 4, width: contentWidth, height: 0.8)), color: theme.axis)
            y = baseline + 8
        }
        func paragraph(_ text: String, color: ChartColor) {
            ensure(lineHeight)
            canvas.text(text, at: ChartPoint(x: margin + 4, y: y + 9), font: font, color: color, anchor: .start)
            y += lineHeight + 8
        }
        func bullets(_ items: [String]) {
            for item in items {
                let lines = ReportPage.wrap(item, width: contentWidth - 12, font: font, canvas: canvas)
                for (index, line) in lines.enumerated() {
                    ensure(lineHeight)
                    if index == 0 {
                        canvas.text("•", at: ChartPoint(x: margin + 2, y: y + 9), font: font, color: theme.secondaryText, anchor: .start)
                    }
                    canvas.text(line, at: ChartPoint(x: margin + 12, y: y + 9), font: font, color: theme.text, anchor: .start)
                    y += lineHeight
                }
            }
            y += 8
        }
        /// A table whose cells wrap inside their columns (`fractions` of the width).
        func table(_ header: [String]?, _ rows: [[String]], fractions: [Double], emphasis: (Int, Int) -> Bool = { _, _ in false }) {
            let columnWidths = fractions.map { $0 * contentWidth }
            var columnX: [Double] = []
            var position = margin + 4
            for columnWidth in columnWidths { columnX.append(position); position += columnWidth }
            func row(_ cells: [String], isHeader: Bool, stripe: Bool, index: Int) {
                let wrapped = cells.enumerated().map { column, cell in
                    ReportPage.wrap(
                        cell, width: columnWidths[min(column, columnWidths.count - 1)] - 6,
                        font: isHeader ? bold : font, canvas: canvas)
                }
                let lines = max(1, wrapped.map(\.count).max() ?? 1)
                let rowHeight = Double(lines) * lineHeight + 3
                ensure(rowHeight)
                if stripe { canvas.fill(.rect(ChartRect(x: margin, y: y, width: contentWidth, height: rowHeight)), color: theme.tableStripe) }
                for (column, cellLines) in wrapped.enumerated() {
                    let cellFont = isHeader || emphasis(index, column) ? bold : font
                    let color = isHeader ? theme.secondaryText : emphasis(index, column) ? theme.fail : theme.text
                    for (number, line) in cellLines.enumerated() {
                        canvas.text(
                            line, at: ChartPoint(x: columnX[min(column, columnX.count - 1)], y: y + 9 + Double(number) * lineHeight),
                            font: cellFont, color: color, anchor: .start)
                    }
                }
                y += rowHeight
            }
            if let header { row(header, isHeader: true, stripe: false, index: -1) }
            for (index, cells) in rows.enumerated() { row(cells, isHeader: false, stripe: index % 2 == 0, index: index) }
            y += 8
        }

        startPage()
        section(strings.reasons)
        bullets(content.reasons)
        section(audit.sectionRules)
        let ruleRows = auditRuleRows
        let fired = Set((content.audit?.rules ?? []).enumerated().filter { $0.element.state != .passed }.map(\.offset))
        table(nil, ruleRows, fractions: [0.13, 0.3, 0.57]) { row, column in column == 0 && fired.contains(row) }
        section(audit.sectionWarnings)
        let warnings = auditWarnings
        if warnings.isEmpty {
            paragraph(audit.noWarnings, color: theme.secondaryText)
        } else {
            bullets(warnings)
        }
        section(strings.sectionExcursions)
        if excursionRows.isEmpty {
            paragraph(strings.noExcursions, color: theme.secondaryText)
        } else {
            table(excursionHeader, excursionRows, fractions: [0.05, 0.25, 0.25, 0.17, 0.13, 0.15])
        }
        let days = auditDayRows
        if days.count > 1 {
            section(audit.sectionDays + " (\(timeZone.identifier))")
            table(audit.dayHeader, days, fractions: [0.14, 0.13, 0.12, 0.12, 0.12, 0.12, 0.12, 0.13])
        }
        section(audit.sectionInput)
        table(nil, auditInputRows.map { [$0.0, $0.1] }, fractions: [0.25, 0.75])
        drawArchiveSection(section: section, paragraph: paragraph, table: table)
        drawSignatureSection(
            on: canvas, pageRoom: height - 2 * margin - 20, section: section, keep: ensure,
            place: { room, draw in
                ensure(room)
                draw(y)
                y += room
            })
    }
}
