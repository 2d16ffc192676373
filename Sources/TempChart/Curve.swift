import Foundation
import LoggerFormats

/// The samples of a log as two flat arrays, the form the chart works on.
public struct ChartSeries: Sendable, Equatable {
    /// Seconds since 1970 (UTC), ascending.
    public var times: [Double]
    /// °C; NaN where the sample is missing or flagged (drawn as a gap).
    public var values: [Double]
    /// Sample interval in seconds (0 when unknown). Two valid samples further apart than
    /// 1.5 intervals are not joined.
    public var interval: Double

    public init(times: [Double], values: [Double], interval: Double) {
        self.times = times
        self.values = values
        self.interval = interval
    }

    /// The samples of a log; samples that are not `isValid` (or hold a non-finite value)
    /// become NaN (gaps).
    public init(log: TemperatureLog) {
        let count = log.samples.count
        var values: [Double] = []
        // Reads the samples in place (no copies of each sample and its flags array) into arrays
        // not filled first (16 MB for a million samples; a Double needs no initialising).
        let times = log.samples.withUnsafeBufferPointer { samples in
            [Double](unsafeUninitializedCapacity: count) { t, timesCount in
                values = [Double](unsafeUninitializedCapacity: count) { v, valuesCount in
                    for index in 0..<count {
                        t[index] = samples[index].time.timeIntervalSince1970
                        v[index] = .nan
                        if samples[index].flags.isEmpty, let temperature = samples[index].temperature, temperature.isFinite {
                            v[index] = temperature
                        }
                    }
                    valuesCount = count
                }
                timesCount = count
            }
        }
        self.init(times: times, values: values, interval: log.interval)
    }

    public var count: Int { times.count }
}

/// How a part of the curve is drawn.
public enum CurveStyle: Sendable, Equatable {
    /// Within the limits (or on a limit).
    case normal
    /// Beyond a limit: drawn red.
    case beyond
}

/// A continuous piece of the curve in data space: times (s since 1970) and °C.
public struct DataRun: Sendable, Equatable {
    public var style: CurveStyle
    public var times: [Double]
    public var values: [Double]

    public init(style: CurveStyle, times: [Double] = [], values: [Double] = []) {
        self.style = style
        self.times = times
        self.values = values
    }
}

/// A stretch of time without data, in seconds since 1970.
public struct DataGap: Sendable, Equatable {
    public var start: Double
    public var end: Double

    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }
}

/// Splits a series into continuous runs, breaking at gaps and at limit crossings.
public enum CurveSplitter {
    /// The runs and gaps of `series` in data space. A run changes style exactly where the
    /// straight line between two samples crosses `lower` or `upper` (linear interpolation),
    /// so a red part starts and ends on the limit line. A value equal to a limit is within.
    public static func split(_ series: ChartSeries, lower: Double?, upper: Double?) -> (runs: [DataRun], gaps: [DataGap]) {
        let (ranges, gaps) = segments(series)
        var runs: [DataRun] = []
        for range in ranges {
            runs += splitRun(xs: Array(series.times[range]), values: Array(series.values[range]), lower: lower, upper: upper)
        }
        return (runs, gaps)
    }

    /// The index ranges of consecutive valid samples and the gaps between them. A gap is a
    /// stretch of missing or flagged samples, or two valid samples more than 1.5 intervals apart.
    public static func segments(_ series: ChartSeries) -> (ranges: [Range<Int>], gaps: [DataGap]) {
        let times = series.times, values = series.values
        let count = min(times.count, values.count)
        let maxStep = series.interval > 0 ? series.interval * 1.5 : Double.infinity
        var ranges: [Range<Int>] = []
        var gaps: [DataGap] = []
        var runStart = -1
        var previousValid = -1
        var gapStart: Double? = nil
        for index in 0..<count {
            guard values[index].isFinite else {
                if gapStart == nil { gapStart = previousValid >= 0 ? times[previousValid] : times[index] }
                if runStart >= 0 { ranges.append(runStart..<index); runStart = -1 }
                continue
            }
            if previousValid >= 0, gapStart == nil, runStart >= 0, times[index] - times[previousValid] > maxStep {
                gapStart = times[previousValid]
                ranges.append(runStart..<index)
                runStart = -1
            }
            if let start = gapStart {
                gaps.append(DataGap(start: start, end: times[index]))
                gapStart = nil
            }
            if runStart < 0 { runStart = index }
            previousValid = index
        }
        if runStart >= 0 { ranges.append(runStart..<count) }
        if let start = gapStart, count > 0 {
            gaps.append(DataGap(start: start, end: times[count - 1] + max(0, series.interval)))
        }
        return (ranges, gaps)
    }

    /// Splits one continuous polyline (`xs` ascending: times or canvas x; `values` in °C) at
    /// the limits. Consecutive runs share their crossing point.
    public static func splitRun(xs: [Double], values: [Double], lower: Double?, upper: Double?) -> [DataRun] {
        let count = min(xs.count, values.count)
        guard count > 0 else { return [] }
        let upperLimit = upper ?? .infinity, lowerLimit = lower ?? -.infinity
        @inline(__always) func state(_ v: Double) -> Int { v > upperLimit ? 1 : (v < lowerLimit ? -1 : 0) }
        var runs: [DataRun] = []
        var previousState = state(values[0])
        var current = DataRun(style: previousState == 0 ? .normal : .beyond, times: [xs[0]], values: [values[0]])
        current.times.reserveCapacity(count)
        current.values.reserveCapacity(count)
        for index in 1..<count {
            let x = xs[index], value = values[index]
            let s = state(value)
            if s == previousState {
                current.times.append(x)
                current.values.append(value)
                continue
            }
            let x0 = xs[index - 1], v0 = values[index - 1]
            // The limits met between the two points, in the order they are met.
            var limits: [Double] = []
            if value > v0 {
                if previousState < 0 { limits.append(lowerLimit) }
                if s > 0 { limits.append(upperLimit) }
            } else {
                if previousState > 0 { limits.append(upperLimit) }
                if s < 0 { limits.append(lowerLimit) }
            }
            for limit in limits {
                let crossing = x0 + (limit - v0) / (value - v0) * (x - x0)
                if current.times.last != crossing || current.values.last != limit {
                    current.times.append(crossing)
                    current.values.append(limit)
                }
                // A one-point piece (a sample exactly on the limit between two beyond parts) draws nothing.
                if current.times.count > 1 { runs.append(current) }
                current = DataRun(style: current.style == .normal ? .beyond : .normal, times: [crossing], values: [limit])
            }
            if current.times.last != x || current.values.last != value {
                current.times.append(x)
                current.values.append(value)
            }
            previousState = s
        }
        if current.times.count > 1 || runs.isEmpty { runs.append(current) }
        return runs
    }
}

/// M4 downsampling (Jugel et al., VLDB 2014) for drawing: per pixel column only the first,
/// last, minimum and maximum matter. With x snapped to column centres, the stroke of the
/// polyline through all points (butt caps, bevel joins) is, column by column, one vertical
/// bar from the minimum to the maximum, the segments between columns, and the joins where
/// the line enters and leaves a column. `pieces` draws exactly that geometry with a few
/// sub-paths per column, so the picture is pixel-identical while the drawing cost follows
/// the width, not the sample count.
public enum M4 {
    /// The canvas x of the centre of the column holding `x`.
    @inline(__always)
    public static func snap(_ x: Double, origin: Double, columnWidth: Double) -> Double {
        // A product with the reciprocal (hoisted out of loops) instead of a division per sample.
        origin + floor((x - origin) * (1 / columnWidth)) * columnWidth + columnWidth / 2
    }

    /// `value` rounded to the 1/256 grid of Cairo's fixed-point coordinates (halves up).
    @inline(__always)
    public static func grid(_ value: Double) -> Double {
        floor(value * 256 + 0.5) / 256
    }

    /// Rounds down; an integer conversion instead of a libm call (this runs per sample).
    @inline(__always)
    static func floor(_ value: Double) -> Double {
        guard abs(value) < 9e15 else { return value.rounded(.down) }
        let truncated = Double(Int64(value))
        return truncated > value ? truncated - 1 : truncated
    }

    /// Length of the stubs that carry the direction in which the line enters and leaves a
    /// column: one unit of the 1/256 grid the points lie on (Cairo's fixed point).
    public static let stub = 1.0 / 256

    /// Sub-paths with the same stroke as the polyline through the samples `range` of
    /// `times`/`values` mapped by the scales: x snapped to column centres, canvas y (negated,
    /// so that "greater" stays "above") on the 1/256 grid, repeated points dropped. One
    /// streaming pass, no per-sample arrays; a column's samples are found and summed up
    /// without mapping each of them (see the comments inside and `ColumnGatherer.addColumn`).
    ///
    /// Per column with several points: a bar from min to max; between columns: the
    /// connecting segments, starting and ending with a `stub`-long piece in the direction
    /// the full polyline leaves and enters the column, so the joins are drawn the same.
    public static func pieces(
        times: [Double], values: [Double], range: Range<Int>, x: LinearScale, y: LinearScale,
        columnWidth: Double
    ) -> [(xs: [Double], values: [Double])] {
        guard !range.isEmpty else { return [] }
        let xSpan = x.domain.upperBound - x.domain.lowerBound
        let xFactor = xSpan > 0 ? (x.rangeEnd - x.rangeStart) / xSpan : 0
        let ySpan = y.domain.upperBound - y.domain.lowerBound
        let yFactor = ySpan > 0 ? (y.rangeEnd - y.rangeStart) / ySpan : 0
        let xLower = x.domain.lowerBound, yLower = y.domain.lowerBound
        let xStart = xSpan > 0 ? x.rangeStart : (x.rangeStart + x.rangeEnd) / 2
        let yStart = ySpan > 0 ? y.rangeStart : (y.rangeStart + y.rangeEnd) / 2
        return times.withUnsafeBufferPointer { t in
            values.withUnsafeBufferPointer { v in
                @inline(__always) func px(_ index: Int) -> Double {
                    snap(xStart + (t[index] - xLower) * xFactor, origin: 0, columnWidth: columnWidth)
                }
                @inline(__always) func w(_ value: Double) -> Double { -grid(yStart + (value - yLower) * yFactor) }
                var gatherer = ColumnGatherer()
                var start = range.lowerBound
                while start < range.upperBound {
                    let column = px(start)
                    // Every step from a time to its column (a difference, products and sums
                    // with the same signs, a floor) keeps the order: a time between two that
                    // fall in the column falls in it too. So a few samples ahead are mapped,
                    // and each of the others is only compared with the times found.
                    var early = t[start], late = t[start]
                    var inside = start, outside = range.upperBound, step = 1
                    func probe(_ index: Int) -> Bool {
                        guard px(index) == column else { return false }
                        early = min(early, t[index])
                        late = max(late, t[index])
                        return true
                    }
                    while start + step < range.upperBound {
                        guard probe(start + step) else { outside = start + step; break }
                        inside = start + step
                        step *= 2
                    }
                    while outside - inside > 1 {
                        let middle = (inside + outside) / 2
                        if probe(middle) { inside = middle } else { outside = middle }
                    }
                    var end = start + 1
                    var lowest = v[start], highest = v[start]
                    var finite = lowest.isFinite
                    while end < range.upperBound {
                        let time = t[end]
                        if !(time >= early && time <= late) {
                            guard px(end) == column else { break }
                            early = min(early, time)
                            late = max(late, time)
                        }
                        let value = v[end]
                        lowest = min(lowest, value)
                        highest = max(highest, value)
                        finite = finite && value.isFinite
                        end += 1
                    }
                    guard finite else {
                        for index in start..<end { gatherer.add(column, w(v[index])) }
                        start = end
                        continue
                    }
                    // y follows the value in one direction too (up or down with the scale):
                    // the column's lowest and highest points are those of its extreme values.
                    let first = w(v[start]), last = w(v[end - 1])
                    let low = min(w(lowest), w(highest)), high = max(w(lowest), w(highest))
                    guard low < high else {
                        gatherer.addColumn(column, first: first)
                        start = end
                        continue
                    }
                    // The first point after the first that differs from it, and the last
                    // that differs from the last (repeated points are dropped).
                    var second = start + 1
                    while w(v[second]) == first { second += 1 }
                    var beforeLast = end - 2
                    while w(v[beforeLast]) == last { beforeLast -= 1 }
                    gatherer.addColumn(
                        column, first: first, second: w(v[second]), low: low, high: high, beforeLast: w(v[beforeLast]),
                        last: last)
                    start = end
                }
                return gatherer.finish()
            }
        }
    }

    /// The per-column state of `pieces` and the sub-paths made so far.
    private struct ColumnGatherer {
        var result: [(xs: [Double], values: [Double])] = []
        var chainX: [Double] = [], chainV: [Double] = []
        var columnX = Double.nan
        var count = 0
        var first = 0.0, second = 0.0, low = 0.0, high = 0.0, beforeLast = 0.0, last = 0.0

        @inline(__always)
        mutating func add(_ px: Double, _ w: Double) {
            if px == columnX {
                if w == last { return }
                count += 1
                if count == 2 { second = w }
                low = min(low, w)
                high = max(high, w)
                beforeLast = last
                last = w
            } else {
                flush()
                columnX = px
                count = 1
                first = w; low = w; high = w; last = w
            }
        }

        /// A column of one point (or of several that are all the same), as `add` would leave it.
        mutating func addColumn(_ px: Double, first: Double) {
            flush()
            columnX = px
            count = 1
            self.first = first; low = first; high = first; last = first
        }

        /// A column of several points, as `add` would leave it after all of them (`count`
        /// only tells one point from several from here on).
        mutating func addColumn(
            _ px: Double, first: Double, second: Double, low: Double, high: Double, beforeLast: Double, last: Double
        ) {
            flush()
            columnX = px
            count = 2
            self.first = first
            self.second = second
            self.low = low
            self.high = high
            self.beforeLast = beforeLast
            self.last = last
        }

        mutating func emitChain() {
            if chainX.count >= 2 { result.append((chainX, chainV)) }
            chainX = []
            chainV = []
        }

        mutating func flush() {
            guard count > 0 else { return }
            if count == 1 {
                chainX.append(columnX)
                chainV.append(first)
                return
            }
            if !chainX.isEmpty {
                chainX += [columnX, columnX]
                chainV += [first, first + (second > first ? stub : -stub)]
            }
            emitChain()
            result.append(([columnX, columnX], [low, high]))
            chainX = [columnX, columnX]
            chainV = [last - (last > beforeLast ? stub : -stub), last]
        }

        mutating func finish() -> [(xs: [Double], values: [Double])] {
            flush()
            // A stretch of one sample is drawn as a dot.
            if result.isEmpty && chainX.count == 1 { result.append((chainX, chainV)) } else { emitChain() }
            return result
        }
    }
}
