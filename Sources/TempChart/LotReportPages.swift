import ColdChain
import Foundation

extension LotReportPage {
    /// A4 in PDF points.
    public static let a4 = ReportPage.a4

    /// Draws every page on `canvas` (A4-sized: `LotReportPage.a4`): page 1, then the legs
    /// with their reads, the record and the signature block, each page with "Page x of y" in
    /// its footer. The pages are laid out first (measured on `canvas`), then drawn. Calls
    /// `newPage` before each page after the first, which must start a fresh page on `canvas`
    /// (a PDF's next page). Returns the number of pages drawn.
    @discardableResult
    public func draw(on canvas: any Canvas, newPage: () -> Void) -> Int {
        let recorder = PageRecorder(measuringWith: canvas)
        layOut(on: recorder, newPage: recorder.newPage)
        let margin = 36.0
        recorder.replay(newPage: newPage) { number, count in
            canvas.text(
                strings.pageOf.filled(["number": "\(number)", "count": "\(count)"]),
                at: ChartPoint(x: canvas.width - margin, y: canvas.height - margin + 14), font: ChartFont(size: 7),
                color: theme.secondaryText, anchor: .end)
        }
        return recorder.pageCount
    }

    /// Draws the pages without their page numbers.
    private func layOut(on canvas: any Canvas, newPage: () -> Void) {
        let width = canvas.width, height = canvas.height
        let margin = 36.0
        let contentWidth = width - 2 * margin
        let font = ChartFont(size: 8.5)
        let bold = ChartFont(size: 8.5, weight: .bold)
        let lineHeight = 11.0
        var pageNumber = 0
        var y = 0.0
        let f = formatter

        func footer() {
            canvas.text(
                "ColdTap · \(lot.lot) \(content.lot)", at: ChartPoint(x: margin, y: height - margin + 14), font: ChartFont(size: 7),
                color: theme.secondaryText, anchor: .start)
        }
        func startPage() {
            if pageNumber > 0 { newPage() }
            pageNumber += 1
            canvas.fill(.rect(ChartRect(x: 0, y: 0, width: width, height: height)), color: theme.background)
            footer()
            guard pageNumber > 1 else {
                y = margin
                return
            }
            canvas.text(
                "\(lot.title) · \(content.lot)", at: ChartPoint(x: margin, y: margin + 10), font: ChartFont(size: 11, weight: .bold),
                color: theme.text, anchor: .start)
            canvas.text(
                decisionText, at: ChartPoint(x: width - margin, y: margin + 10), font: ChartFont(size: 9, weight: .bold),
                color: decisionColor, anchor: .end)
            y = margin + 20
        }
        func ensure(_ room: Double) { if y + room > height - margin { startPage() } }
        // `y` is the top of the next element; text is drawn on a baseline below it.
        func section(_ title: String, room: Double = 48) {
            ensure(room)
            let baseline = y + 12
            canvas.text(title, at: ChartPoint(x: margin, y: baseline), font: ChartFont(size: 10.5, weight: .bold), color: theme.text, anchor: .start)
            canvas.fill(.rect(ChartRect(x: margin, y: baseline + 4, width: contentWidth, height: 0.8)), color: theme.axis)
            y = baseline + 8
        }
        func paragraph(_ text: String, color: ChartColor, textFont: ChartFont = font) {
            for line in Self.wrap(text, width: contentWidth - 8, font: textFont, canvas: canvas) {
                ensure(lineHeight)
                canvas.text(line, at: ChartPoint(x: margin + 4, y: y + 9), font: textFont, color: color, anchor: .start)
                y += lineHeight
            }
            y += 6
        }
        func bullets(_ items: [String]) {
            for item in items {
                for (index, line) in Self.wrap(item, width: contentWidth - 12, font: font, canvas: canvas).enumerated() {
                    ensure(lineHeight)
                    if index == 0 {
                        canvas.text("•", at: ChartPoint(x: margin + 2, y: y + 9), font: font, color: theme.secondaryText, anchor: .start)
                    }
                    canvas.text(line, at: ChartPoint(x: margin + 12, y: y + 9), font: font, color: theme.text, anchor: .start)
                    y += lineHeight
                }
            }
            y += 6
        }
        /// A table whose cells wrap inside their columns (`fractions` of the width).
        func table(_ header: [String]?, _ rows: [[String]], fractions: [Double], cellFont: ChartFont = font, monospacedFrom: Int = .max) {
            let columnWidths = fractions.map { $0 * contentWidth }
            var columnX: [Double] = []
            var position = margin + 4
            for columnWidth in columnWidths {
                columnX.append(position)
                position += columnWidth
            }
            func row(_ cells: [String], isHeader: Bool, stripe: Bool) {
                let fonts = cells.indices.map { column -> ChartFont in
                    if isHeader { return bold }
                    return column >= monospacedFrom ? ChartFont(size: 7, monospaced: true) : cellFont
                }
                // A line feed in a cell starts a new line; each line wraps in its column.
                let wrapped = cells.enumerated().map { column, cell in
                    cell.split(separator: "\n").flatMap {
                        Self.wrap(String($0), width: columnWidths[min(column, columnWidths.count - 1)] - 6, font: fonts[column], canvas: canvas)
                    }
                }
                let lines = max(1, wrapped.map(\.count).max() ?? 1)
                let rowHeight = Double(lines) * lineHeight + 3
                ensure(rowHeight)
                if stripe { canvas.fill(.rect(ChartRect(x: margin, y: y, width: contentWidth, height: rowHeight)), color: theme.tableStripe) }
                for (column, cellLines) in wrapped.enumerated() {
                    for (number, line) in cellLines.enumerated() {
                        canvas.text(
                            line, at: ChartPoint(x: columnX[min(column, columnX.count - 1)], y: y + 9 + Double(number) * lineHeight),
                            font: fonts[column], color: isHeader ? theme.secondaryText : theme.text, anchor: .start)
                    }
                }
                y += rowHeight
            }
            if let header { row(header, isHeader: true, stripe: false) }
            for (index, cells) in rows.enumerated() { row(cells, isHeader: false, stripe: index % 2 == 0) }
            y += 6
        }

        // Page 1: title, the lot, the decision.
        startPage()
        canvas.text(lot.title, at: ChartPoint(x: margin, y: y + 16), font: ChartFont(size: 17, weight: .bold), color: theme.text, anchor: .start)
        canvas.text(
            "\(strings.generatedBy) · \(f.dateTime(content.generated))", at: ChartPoint(x: width - margin, y: y + 16),
            font: ChartFont(size: 7.5), color: theme.secondaryText, anchor: .end)
        y += 24
        canvas.text(heading, at: ChartPoint(x: margin, y: y + 12), font: ChartFont(size: 12, weight: .bold), color: theme.text, anchor: .start)
        y += 20
        let badgeFont = ChartFont(size: 15, weight: .bold)
        let badgeWidth = canvas.textWidth(decisionText, font: badgeFont) + 28
        canvas.fill(.rect(ChartRect(x: margin, y: y, width: badgeWidth, height: 28)), color: decisionColor)
        canvas.text(decisionText, at: ChartPoint(x: margin + 14, y: y + 19.5), font: badgeFont, color: theme.onBanner, anchor: .start)
        canvas.text(
            "\(lot.decision) · \(f.dateTime(status.at))", at: ChartPoint(x: margin + badgeWidth + 10, y: y + 18), font: ChartFont(size: 9),
            color: theme.secondaryText, anchor: .start)
        y += 36
        table(nil, lotRows.map { [$0.0, $0.1] }, fractions: [0.2, 0.8])

        // The budget.
        section(lot.sectionBudget, room: 150)
        drawBudgetBar(in: ChartRect(x: margin, y: y + 4, width: contentWidth, height: 44), on: canvas)
        y += 54
        if status.bands.isEmpty {
            paragraph(lot.noBands, color: theme.secondaryText)
        } else {
            table(lot.bandHeader, bandRows, fractions: [0.4, 0.2, 0.2, 0.2])
        }
        table(nil, figureRows.map { [$0.0, $0.1] }, fractions: [0.4, 0.6])

        // The journey.
        section(lot.sectionJourney, room: 230)
        drawJourney(in: ChartRect(x: margin, y: y, width: contentWidth, height: 200), on: canvas)
        y += 206

        section(lot.sectionReasons)
        bullets(reasonTexts)
        section(lot.sectionDiscard)
        if discardRows.isEmpty {
            paragraph(lot.noDiscard, color: theme.secondaryText)
        } else {
            table(lot.discardHeader, discardRows, fractions: [0.34, 0.26, 0.18, 0.22])
        }

        // Each leg with its logger's chain of reads.
        startPage()
        section(lot.sectionLegs)
        for index in content.legs.indices {
            ensure(90)
            canvas.text(
                legTitle(index), at: ChartPoint(x: margin, y: y + 12), font: ChartFont(size: 9.5, weight: .bold), color: theme.text,
                anchor: .start)
            y += 16
            table(nil, legRows(index).map { [$0.0, $0.1] }, fractions: [0.25, 0.75])
            let reads = readRows(index)
            if reads.isEmpty {
                paragraph(noReadsText(index), color: theme.secondaryText)
            } else {
                // The two hashes one above the other, each on one line (they can be copied whole).
                let header = Array(lot.readsHeader.prefix(3)) + [lot.readsHeader.dropFirst(3).joined(separator: "\n")]
                table(
                    header, reads.map { Array($0.prefix(3)) + [$0.dropFirst(3).joined(separator: "\n")] }, fractions: [0.06, 0.16, 0.2, 0.58], monospacedFrom: 3
                )
            }
            y += 4
        }

        // The record.
        section(lot.sectionRecord)
        table(nil, [[lot.chainHead, content.chainHead]], fractions: [0.25, 0.75], monospacedFrom: 1)
        if let checkpoint = content.checkpoint {
            // The note as signed, its blank line kept, on one page when it fits on one.
            let mono = ChartFont(size: 7, monospaced: true)
            let lines = checkpoint.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
                let pieces = ReportPage.wrap(String(line), width: contentWidth - 8, font: mono, canvas: canvas)
                return pieces.isEmpty ? [""] : pieces
            }
            ensure(min(height / 2, Double(lines.count) * 9 + lineHeight + 12))
            paragraph(lot.checkpoint, color: theme.secondaryText, textFont: bold)
            for line in lines {
                ensure(9)
                canvas.text(line, at: ChartPoint(x: margin + 4, y: y + 8), font: mono, color: theme.text, anchor: .start)
                y += 9
            }
            y += 6
        }

        // The reviewer's signature, on paper.
        section(lot.sectionSignature, room: 190)
        let labelWidth = (lot.signatureFields + [lot.decisionConfirmed]).map { canvas.textWidth($0, font: bold) }.max() ?? 60
        for field in lot.signatureFields {
            y += 24
            canvas.text(field, at: ChartPoint(x: margin + 4, y: y), font: bold, color: theme.text, anchor: .start)
            canvas.stroke(
                .segment(ChartPoint(x: margin + labelWidth + 16, y: y + 2), ChartPoint(x: width - margin, y: y + 2)), color: theme.text,
                style: StrokeStyle(width: 0.6, cap: .butt))
        }
        y += 26
        canvas.text(lot.decisionConfirmed, at: ChartPoint(x: margin + 4, y: y), font: bold, color: theme.text, anchor: .start)
        var boxX = margin + labelWidth + 16
        for decision in signatureDecisions {
            let textWidth = canvas.textWidth(decision, font: font)
            if boxX + 14 + textWidth > width - margin {
                boxX = margin + labelWidth + 16
                y += 16
            }
            canvas.stroke(.rect(ChartRect(x: boxX, y: y - 8, width: 9, height: 9)), color: theme.text, style: StrokeStyle(width: 0.7))
            canvas.text(decision, at: ChartPoint(x: boxX + 13, y: y), font: font, color: theme.text, anchor: .start)
            boxX += 13 + textWidth + 16
        }
    }

    /// Punctuation that never starts a line in Chinese and Japanese.
    static let closingPunctuation: Set<Character> = ["。", "、", "，", "；", "：", "）", "」", "』", "！", "？", ")", ".", ",", ":", ";"]

    /// `ReportPage.wrap`, with a closing punctuation mark that would start a line kept at the
    /// end of the line before it (a mark may stand past the line's width, as in print).
    static func wrap(_ text: String, width: Double, font: ChartFont, canvas: any Canvas) -> [String] {
        var lines: [String] = []
        for line in ReportPage.wrap(text, width: width, font: font, canvas: canvas) {
            var line = line
            while let first = line.first, closingPunctuation.contains(first), !lines.isEmpty {
                lines[lines.count - 1].append(first)
                line.removeFirst()
            }
            if !line.isEmpty { lines.append(line) }
        }
        return lines
    }
}
