import ColdChain
import Foundation

/// The temperature curve as braille characters for a terminal: 2 × 4 dots per character
/// cell, limit lines dotted, the curve red during ColdChain's excursions when colour is on.
public enum TerminalChart {
    /// Renders the chart in exactly `width` columns or fewer (at least 24 are used).
    /// - Parameters:
    ///   - rows: text rows of the plot area (the axis and labels add two more lines).
    ///   - excursions: the spans ColdChain found beyond the limits (`Assessment.excursions`);
    ///     the curve is red where it lies within one, on its side of the limit line.
    ///   - color: ANSI colours (red excursions, yellow limit lines).
    /// - Returns: lines joined by "\n", ending with a newline.
    public static func render(
        series: ChartSeries, lower: Double?, upper: Double?, excursions: [ChartExcursion] = [],
        width: Int, rows: Int = 12, timeZone: TimeZone, color: Bool
    ) -> String {
        let rows = max(3, rows)
        let count = min(series.times.count, series.values.count)
        var low = Double.infinity, high = -Double.infinity
        for v in series.values.prefix(count) where v.isFinite {
            low = min(low, v)
            high = max(high, v)
        }
        guard low <= high, count > 0 else { return "(no valid samples)\n" }
        for limit in [lower, upper].compactMap({ $0 }) {
            low = min(low, limit)
            high = max(high, limit)
        }
        let pad = max(high - low, 1) * 0.05
        let yMin = low - pad, yMax = high + pad

        // Labels: the limits and the top and bottom of the scale.
        func label(_ v: Double) -> String { String(format: "%.1f", v) }
        let labelWidth = ([yMin, yMax] + [lower, upper].compactMap { $0 }).map { label($0).count }.max() ?? 4
        let plotColumns = max(8, max(24, width) - labelWidth - 2)
        let dotColumns = plotColumns * 2, dotRows = rows * 4

        var bits = [UInt8](repeating: 0, count: plotColumns * rows)
        var beyondCell = [Bool](repeating: false, count: plotColumns * rows)
        var curveCell = [Bool](repeating: false, count: plotColumns * rows)
        func dotRow(_ v: Double) -> Int {
            Int(((yMax - v) / (yMax - yMin) * Double(dotRows - 1)).rounded()).clamped(0, dotRows - 1)
        }
        let dotBits: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]
        func set(_ x: Int, _ y: Int, curve: Bool, beyond: Bool) {
            let cell = (y / 4) * plotColumns + x / 2
            bits[cell] |= dotBits[x % 2][y % 4]
            if curve { curveCell[cell] = true }
            if beyond { beyondCell[cell] = true }
        }

        // Limit lines, dotted.
        for limit in [lower, upper].compactMap({ $0 }) {
            let y = dotRow(limit)
            for x in stride(from: 0, to: dotColumns, by: 2) { set(x, y, curve: false, beyond: false) }
        }

        // The curve: each pair of consecutive valid samples joined dot column by dot column.
        let t0 = series.times[0], t1 = series.times[count - 1]
        let span = max(t1 - t0, 1)
        let maxStep = series.interval > 0 ? series.interval * 1.5 : Double.infinity
        let upperRow = upper.map(dotRow) ?? -1
        let lowerRow = lower.map(dotRow) ?? dotRows
        // Dot columns whose time lies within an excursion, per side.
        var highColumns = [Bool](repeating: false, count: dotColumns)
        var lowColumns = [Bool](repeating: false, count: dotColumns)
        for excursion in excursions {
            let first = ((excursion.start.timeIntervalSince1970 - t0) / span * Double(dotColumns - 1)).rounded(.up)
            let last = ((excursion.end.timeIntervalSince1970 - t0) / span * Double(dotColumns - 1)).rounded(.down)
            guard first <= last, last >= 0, first <= Double(dotColumns - 1) else { continue }
            for column in Int(max(0, first))...Int(min(Double(dotColumns - 1), last)) {
                if excursion.direction == .high { highColumns[column] = true } else { lowColumns[column] = true }
            }
        }
        func vertical(_ x: Int, _ from: Int, _ to: Int) {
            for y in min(from, to)...max(from, to) {
                set(x, y, curve: true, beyond: (highColumns[x] && y <= upperRow) || (lowColumns[x] && y >= lowerRow))
            }
        }
        var previous: (x: Int, row: Int, time: Double)? = nil
        for index in 0..<count {
            let v = series.values[index]
            guard v.isFinite else { previous = nil; continue }
            let time = series.times[index]
            let x = Int(((time - t0) / span * Double(dotColumns - 1)).rounded()).clamped(0, dotColumns - 1)
            let row = dotRow(v)
            if let p = previous, time - p.time <= maxStep {
                if x == p.x {
                    vertical(x, p.row, row)
                } else {
                    var lastRow = p.row
                    for column in (p.x + 1)...max(p.x + 1, x) {
                        let fraction = Double(column - p.x) / Double(x - p.x)
                        let rowHere = Int((Double(p.row) + fraction * Double(row - p.row)).rounded())
                        vertical(column, lastRow, rowHere)
                        lastRow = rowHere
                    }
                }
            } else {
                vertical(x, row, row)
            }
            previous = (x, row, time)
        }

        // Assemble lines.
        let red = "\u{1B}[31m", yellow = "\u{1B}[33m", cyan = "\u{1B}[36m", reset = "\u{1B}[0m"
        let labelRows: [Int: String] = {
            var result: [Int: String] = [0: label(yMax), rows - 1: label(yMin)]
            for limit in [lower, upper].compactMap({ $0 }) { result[dotRow(limit) / 4] = label(limit) }
            return result
        }()
        var lines: [String] = []
        for row in 0..<rows {
            let text = labelRows[row] ?? ""
            var line = String(repeating: " ", count: labelWidth - text.count) + text + (labelRows[row] == nil ? " │" : " ┤")
            var currentColour = ""
            for columnIndex in 0..<plotColumns {
                let cell = row * plotColumns + columnIndex
                let character = Character(Unicode.Scalar(0x2800 + UInt32(bits[cell])) ?? " ")
                if color {
                    let wanted = beyondCell[cell] ? red : (curveCell[cell] ? cyan : (bits[cell] != 0 ? yellow : ""))
                    if wanted != currentColour {
                        line += currentColour.isEmpty ? wanted : reset + wanted
                        currentColour = wanted
                    }
                }
                line.append(character)
            }
            if color, !currentColour.isEmpty { line += reset }
            lines.append(line)
        }
        lines.append(String(repeating: " ", count: labelWidth) + " └" + String(repeating: "─", count: plotColumns))

        // Time labels: start, middle and end, in the zone given.
        let formatter = ChartFormatter(timeZone: timeZone, language: .english)
        func time(_ t: Double) -> String {
            let date = Date(timeIntervalSince1970: t)
            return String(formatter.dateTime(date).dropFirst(5))
        }
        var axis = [Character](repeating: " ", count: labelWidth + 2 + plotColumns)
        func place(_ text: String, at position: Int) {
            let characters = Array(text)
            let start = max(0, min(axis.count - characters.count, position))
            for (offset, character) in characters.enumerated() where start + offset < axis.count {
                axis[start + offset] = character
            }
        }
        let startLabel = time(t0), endLabel = time(t1)
        place(startLabel, at: labelWidth + 2)
        place(endLabel, at: axis.count - endLabel.count)
        if plotColumns > (startLabel.count + endLabel.count) * 2 {
            let middle = time(t0 + span / 2)
            place(middle, at: labelWidth + 2 + plotColumns / 2 - middle.count / 2)
        }
        lines.append(String(axis).trimmingTrailingSpaces())
        let zone = TimeTicks.offsetText(timeZone, at: Date(timeIntervalSince1970: t0))
        var legend = "\(timeZone.identifier) (\(zone))"
        if lower != nil || upper != nil {
            legend += " · limits " + [lower, upper].map { $0.map(label) ?? "—" }.joined(separator: " … ") + " °C"
        }
        lines.append(String(legend.prefix(max(24, width))))
        return lines.joined(separator: "\n") + "\n"
    }
}

extension Int {
    func clamped(_ low: Int, _ high: Int) -> Int { Swift.max(low, Swift.min(high, self)) }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var characters = Substring(self)
        while characters.last == " " { characters = characters.dropLast() }
        return String(characters)
    }
}
