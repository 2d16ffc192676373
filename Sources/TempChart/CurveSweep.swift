import Foundation

/// One pass over the points of a series for the chart: the continuous stretches and the gaps
/// between them (`CurveSplitter.segments`), the extremes, and each stretch's M4 columns for an x
/// scale given before the pass. The y scale, which depends on the extremes, is applied to
/// the columns afterwards (`M4.pieces(_:columns:y:)`).
///
/// The x scale depends on the extremes as well (the y labels' width moves the plot), so the
/// chart guesses it from a sample of the points and checks the guess after the pass
/// (`ChartModel.init`); a wrong guess costs one more pass (`M4.pieces(_:range:...)`). A log
/// of a million samples is read once instead of twice: the pass is bound by memory.
struct CurveSweep {
    /// The index ranges of consecutive valid points.
    var ranges: [Range<Int>] = []
    /// The gaps between them, and before the first and after the last when the points start
    /// or end invalid.
    var gaps: [DataGap] = []
    /// The lowest and highest valid values, the first of each; `nil` when no value is valid.
    var extremes: ChartModel.Extremes?
    /// The M4 columns of every range, in order.
    var columns: [M4Column] = []
    /// Per range, where its columns are in `columns`.
    var columnRanges: [Range<Int>] = []

    init<Points: SeriesPoints>(_ points: Points, interval: Double, x: LinearScale, columnWidth: Double) {
        let count = points.count
        let maxStep = interval > 0 ? interval * 1.5 : Double.infinity
        let px = M4.ColumnX(x, columnWidth: columnWidth)
        var low = Double.infinity, high = -Double.infinity
        var minIndex = -1, maxIndex = -1
        var gapStart: Double? = nil
        // The time of the last valid point, once there is one.
        var previousTime: Double? = nil
        var index = 0
        while index < count {
            var value = points.value(index)
            guard value.isFinite else {
                if gapStart == nil { gapStart = previousTime ?? points.time(index) }
                index += 1
                continue
            }
            // A stretch starts at `index`: column by column until a point is not valid or
            // comes more than `maxStep` after the one before.
            var time = points.time(index)
            if let start = gapStart {
                gaps.append(DataGap(start: start, end: time))
                gapStart = nil
            }
            let runStart = index, firstColumn = columns.count
            var start = index
            var last: Double
            while true {
                // `value` and `time` are those of the point at `start`, which is valid.
                last = time
                let column = px(time)
                var (early, late) = px.bounds(of: column) ?? (time, time)
                var end = start + 1
                var lowest = value, highest = value
                var ended = true, jumped = false
                while end < count {
                    value = points.value(end)
                    guard value.isFinite else { break }
                    time = points.time(end)
                    if time - last > maxStep {
                        jumped = true
                        break
                    }
                    if !(time >= early && time <= late) {
                        guard px(time) == column else {
                            ended = false
                            break
                        }
                        early = min(early, time)
                        late = max(late, time)
                    }
                    lowest = min(lowest, value)
                    highest = max(highest, value)
                    last = time
                    end += 1
                }
                columns.append(M4Column(x: column, start: start, end: end, lowest: lowest, highest: highest, finite: true))
                // The first point of the lowest and highest values so far, as a scan point by
                // point finds them (a new one is rare after the first columns).
                if lowest < low {
                    low = lowest
                    minIndex = Self.first(lowest, in: start..<end, points)
                }
                if highest > high {
                    high = highest
                    maxIndex = Self.first(highest, in: start..<end, points)
                }
                if ended {
                    ranges.append(runStart..<end)
                    columnRanges.append(firstColumn..<columns.count)
                    previousTime = last
                    // A jump is a gap from the last point to the next (which closes it).
                    if jumped { gapStart = last }
                    index = end
                    break
                }
                start = end
            }
        }
        if let start = gapStart, count > 0 {
            gaps.append(DataGap(start: start, end: points.time(count - 1) + max(0, interval)))
        }
        if minIndex >= 0 { extremes = ChartModel.Extremes(low: low, high: high, minIndex: minIndex, maxIndex: maxIndex) }
    }

    /// The index of the first point in `range` whose value is `value`.
    private static func first<Points: SeriesPoints>(_ value: Double, in range: Range<Int>, _ points: Points) -> Int {
        for index in range where points.value(index) == value { return index }
        return range.lowerBound
    }

    /// The lowest and highest valid values of about `samples` points spread over the series
    /// (all of them when there are not more): a guess of the extremes, to lay the chart out
    /// before the pass. Indices are those of the values found.
    static func guessExtremes<Points: SeriesPoints>(_ points: Points, samples: Int) -> ChartModel.Extremes? {
        let count = points.count
        let step = max(1, count / max(1, samples))
        var low = Double.infinity, high = -Double.infinity
        var minIndex = -1, maxIndex = -1
        var index = 0
        while index < count {
            let value = points.value(index)
            if value < low, value.isFinite { low = value; minIndex = index }
            if value > high, value.isFinite { high = value; maxIndex = index }
            index += step
        }
        return minIndex >= 0 ? ChartModel.Extremes(low: low, high: high, minIndex: minIndex, maxIndex: maxIndex) : nil
    }
}
