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
        // The points as arrays once (a series read from a log makes them on every call).
        let times = series.times, values = series.values
        let count = min(times.count, values.count)
        let limits = [lower, upper].compactMap { $0 }
        guard let scale = Scale(values.prefix(count), limits: limits) else { return "(no valid samples)\n" }
        let labelWidth = ([scale.yMin, scale.yMax] + limits).map { label($0).count }.max() ?? 4
        var plot = BraillePlot(columns: max(8, max(24, width) - labelWidth - 2), rows: rows, scale: scale)
        for limit in limits { plot.drawLimit(limit) }
        let t0 = times[0], t1 = times[count - 1]
        let span = max(t1 - t0, 1)
        plot.markExcursions(excursions, start: t0, span: span, upper: upper, lower: lower)
        plot.drawCurve(times: times, values: values, interval: series.interval, count: count, start: t0, span: span)

        var lines = plot.lines(labelWidth: labelWidth, labels: labelRows(scale: scale, rows: rows, limits: limits, plot: plot), color: color)
        lines.append(String(repeating: " ", count: labelWidth) + " └" + String(repeating: "─", count: plot.columns))
        lines.append(timeAxis(from: t0, to: t1, labelWidth: labelWidth, plotColumns: plot.columns, timeZone: timeZone))
        lines.append(legend(timeZone: timeZone, at: t0, lower: lower, upper: upper, width: width))
        return lines.joined(separator: "\n") + "\n"
    }

    static func label(_ value: Double) -> String { String(format: "%.1f", value) }

    /// The value range shown: the samples' and the limits', with 5 % to spare either side.
    struct Scale {
        let yMin: Double
        let yMax: Double

        init?(_ values: ArraySlice<Double>, limits: [Double]) {
            var low = Double.infinity, high = -Double.infinity
            for value in values where value.isFinite {
                low = min(low, value)
                high = max(high, value)
            }
            guard low <= high, !values.isEmpty else { return nil }
            for limit in limits {
                low = min(low, limit)
                high = max(high, limit)
            }
            let pad = max(high - low, 1) * 0.05
            yMin = low - pad
            yMax = high + pad
        }
    }

    /// Text row → its label: the top and bottom of the scale and the limits.
    static func labelRows(scale: Scale, rows: Int, limits: [Double], plot: BraillePlot) -> [Int: String] {
        var result: [Int: String] = [0: label(scale.yMax), rows - 1: label(scale.yMin)]
        for limit in limits { result[plot.dotRow(limit) / 4] = label(limit) }
        return result
    }

    /// Braille cells of 2 × 4 dots, with which cells hold the curve and which lie beyond a limit.
    struct BraillePlot {
        let columns: Int
        let rows: Int
        let scale: Scale
        private var bits: [UInt8]
        private var beyondCell: [Bool]
        private var curveCell: [Bool]
        /// Dot columns whose time lies within an excursion, per side, and the limits' dot rows.
        private var highColumns: [Bool]
        private var lowColumns: [Bool]
        private var upperRow = -1
        private var lowerRow: Int
        private static let dotBits: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]

        var dotColumns: Int { columns * 2 }
        var dotRows: Int { rows * 4 }

        init(columns: Int, rows: Int, scale: Scale) {
            self.columns = columns
            self.rows = rows
            self.scale = scale
            bits = [UInt8](repeating: 0, count: columns * rows)
            beyondCell = [Bool](repeating: false, count: columns * rows)
            curveCell = [Bool](repeating: false, count: columns * rows)
            highColumns = [Bool](repeating: false, count: columns * 2)
            lowColumns = [Bool](repeating: false, count: columns * 2)
            lowerRow = rows * 4
        }

        func dotRow(_ value: Double) -> Int {
            Int(((scale.yMax - value) / (scale.yMax - scale.yMin) * Double(dotRows - 1)).rounded()).clamped(0, dotRows - 1)
        }

        private mutating func set(_ x: Int, _ y: Int, curve: Bool, beyond: Bool) {
            let cell = (y / 4) * columns + x / 2
            bits[cell] |= Self.dotBits[x % 2][y % 4]
            if curve { curveCell[cell] = true }
            if beyond { beyondCell[cell] = true }
        }

        /// A limit line, dotted.
        mutating func drawLimit(_ limit: Double) {
            let y = dotRow(limit)
            for x in stride(from: 0, to: dotColumns, by: 2) { set(x, y, curve: false, beyond: false) }
        }

        /// Notes the dot columns within each excursion, on its side of its limit line.
        mutating func markExcursions(_ excursions: [ChartExcursion], start t0: Double, span: Double, upper: Double?, lower: Double?) {
            upperRow = upper.map(dotRow) ?? -1
            lowerRow = lower.map(dotRow) ?? dotRows
            for excursion in excursions {
                let first = ((excursion.start.timeIntervalSince1970 - t0) / span * Double(dotColumns - 1)).rounded(.up)
                let last = ((excursion.end.timeIntervalSince1970 - t0) / span * Double(dotColumns - 1)).rounded(.down)
                guard first <= last, last >= 0, first <= Double(dotColumns - 1) else { continue }
                for column in Int(max(0, first))...Int(min(Double(dotColumns - 1), last)) {
                    if excursion.direction == .high { highColumns[column] = true } else { lowColumns[column] = true }
                }
            }
        }

        private mutating func vertical(_ x: Int, _ from: Int, _ to: Int) {
            for y in min(from, to)...max(from, to) {
                set(x, y, curve: true, beyond: (highColumns[x] && y <= upperRow) || (lowColumns[x] && y >= lowerRow))
            }
        }

        /// The curve: each pair of consecutive valid samples joined dot column by dot column
        /// (not across a gap of more than one and a half intervals).
        mutating func drawCurve(times: [Double], values: [Double], interval: Double, count: Int, start t0: Double, span: Double) {
            let maxStep = interval > 0 ? interval * 1.5 : Double.infinity
            var previous: (x: Int, row: Int, time: Double)? = nil
            for index in 0..<count {
                let value = values[index]
                guard value.isFinite else {
                    previous = nil
                    continue
                }
                let time = times[index]
                let x = Int(((time - t0) / span * Double(dotColumns - 1)).rounded()).clamped(0, dotColumns - 1)
                let row = dotRow(value)
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
        }

        /// The plot's text rows with their labels; red beyond a limit, cyan for the curve,
        /// yellow for the limit lines when `color`.
        func lines(labelWidth: Int, labels: [Int: String], color: Bool) -> [String] {
            let red = "\u{1B}[31m", yellow = "\u{1B}[33m", cyan = "\u{1B}[36m", reset = "\u{1B}[0m"
            var lines: [String] = []
            for row in 0..<rows {
                let text = labels[row] ?? ""
                var line = String(repeating: " ", count: labelWidth - text.count) + text + (labels[row] == nil ? " │" : " ┤")
                var currentColour = ""
                for columnIndex in 0..<columns {
                    let cell = row * columns + columnIndex
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
            return lines
        }
    }

    /// Time labels under the axis: start, middle (when there is room) and end, in `timeZone`.
    static func timeAxis(from t0: Double, to t1: Double, labelWidth: Int, plotColumns: Int, timeZone: TimeZone) -> String {
        let formatter = ChartFormatter(timeZone: timeZone, language: .english)
        func time(_ t: Double) -> String { String(formatter.dateTime(Date(timeIntervalSince1970: t)).dropFirst(5)) }
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
            let middle = time(t0 + max(t1 - t0, 1) / 2)
            place(middle, at: labelWidth + 2 + plotColumns / 2 - middle.count / 2)
        }
        return String(axis).trimmingTrailingSpaces()
    }

    /// The zone and the limits, cut to the width.
    static func legend(timeZone: TimeZone, at t0: Double, lower: Double?, upper: Double?, width: Int) -> String {
        let zone = TimeTicks.offsetText(timeZone, at: Date(timeIntervalSince1970: t0))
        var legend = "\(timeZone.identifier) (\(zone))"
        if lower != nil || upper != nil {
            legend += " · limits " + [lower, upper].map { $0.map(label) ?? "—" }.joined(separator: " … ") + " °C"
        }
        return String(legend.prefix(max(24, width)))
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
