import Foundation
import LoggerFormats

/// The samples of a log as the chart works on them: a time and a value per point. Made
/// from two arrays, or from a log, whose samples it then reads in place (`init(log:)`).
public struct ChartSeries: Sendable, Equatable {
    /// Where the points are. A log's samples are kept as they are: copying a million of them
    /// out into two arrays wrote 16 MB, whose page faults cost more than reading the samples
    /// where they are (coldtap-bench chart); the chart reads them through `withPoints`.
    enum Storage: Sendable {
        case arrays(times: [Double], values: [Double])
        case samples([TemperatureLog.Sample])
    }

    var storage: Storage

    /// Seconds since 1970 (UTC), ascending. Made anew on every call for a series read
    /// from a log: loops over the points use `withPoints`.
    public var times: [Double] {
        get {
            switch storage {
            case .arrays(let times, _): return times
            case .samples(let samples): return samples.map { SamplePoints.time(of: $0) }
            }
        }
        set { storage = .arrays(times: newValue, values: values) }
    }

    /// °C; NaN where the sample is missing or flagged (drawn as a gap). Made anew on every
    /// call for a series read from a log, as `times`.
    public var values: [Double] {
        get {
            switch storage {
            case .arrays(_, let values): return values
            case .samples(let samples): return samples.map { SamplePoints.value(of: $0) }
            }
        }
        set { storage = .arrays(times: times, values: newValue) }
    }

    /// Sample interval in seconds (0 when unknown). Two valid samples further apart than
    /// 1.5 intervals are not joined.
    public var interval: Double

    public init(times: [Double], values: [Double], interval: Double) {
        self.storage = .arrays(times: times, values: values)
        self.interval = interval
    }

    /// The samples of a log, read in place (nothing is copied); samples that are not
    /// `isValid` (or hold a non-finite value) are NaN (gaps).
    public init(log: TemperatureLog) {
        self.storage = .samples(log.samples)
        self.interval = log.interval
    }

    /// The number of points (of times, for two arrays of different lengths).
    public var count: Int {
        switch storage {
        case .arrays(let times, _): return times.count
        case .samples(let samples): return samples.count
        }
    }

    /// Equal times, values and interval, as two arrays compare (NaN is not equal to itself,
    /// except in the same stored points).
    public static func == (a: ChartSeries, b: ChartSeries) -> Bool {
        a.interval == b.interval && (a.sharesPoints(with: b) || (a.times == b.times && a.values == b.values))
    }

    /// True when both read the same stored points (one log's samples, or the same two
    /// arrays): then they are equal point for point without comparing them, or making the
    /// arrays of a series read from a log.
    public func sharesPoints(with other: ChartSeries) -> Bool {
        func same<T>(_ x: [T], _ y: [T]) -> Bool {
            x.withUnsafeBufferPointer { p in y.withUnsafeBufferPointer { q in p.baseAddress == q.baseAddress && p.count == q.count } }
        }
        switch (storage, other.storage) {
        case (.samples(let x), .samples(let y)): return same(x, y)
        case (.arrays(let t, let v), .arrays(let u, let w)): return same(t, u) && same(v, w)
        default: return false
        }
    }

    /// Calls `arrays` or `samples` with the points read in place, so that a loop over every
    /// point is compiled for each storage (pass the same generic function to both).
    func withPoints<Result>(arrays: (ArrayPoints) -> Result, samples: (SamplePoints) -> Result) -> Result {
        switch storage {
        case .arrays(let times, let values):
            return times.withUnsafeBufferPointer { t in
                values.withUnsafeBufferPointer { v in arrays(ArrayPoints(times: t, values: v)) }
            }
        case .samples(let stored):
            return stored.withUnsafeBufferPointer { samples(SamplePoints(samples: $0)) }
        }
    }
}

/// The points of a series read in place, for the loops over every point.
protocol SeriesPoints {
    /// The number of points with a time and a value.
    var count: Int { get }
    /// Seconds since 1970.
    func time(_ index: Int) -> Double
    /// °C, NaN for a gap.
    func value(_ index: Int) -> Double
}

/// The points of two arrays (as many as the shorter has).
struct ArrayPoints: SeriesPoints {
    let times: UnsafeBufferPointer<Double>
    let values: UnsafeBufferPointer<Double>
    let count: Int

    init(times: UnsafeBufferPointer<Double>, values: UnsafeBufferPointer<Double>) {
        self.times = times
        self.values = values
        self.count = min(times.count, values.count)
    }

    @inline(__always) func time(_ index: Int) -> Double { times[index] }
    @inline(__always) func value(_ index: Int) -> Double { values[index] }
}

/// The points of a log's samples, read where they are.
struct SamplePoints: SeriesPoints {
    let samples: UnsafeBufferPointer<TemperatureLog.Sample>

    var count: Int { samples.count }

    @inline(__always) static func time(of sample: TemperatureLog.Sample) -> Double { sample.time.timeIntervalSince1970 }

    /// The temperature of a sample with no flags, when it is finite; NaN otherwise.
    @inline(__always) static func value(of sample: TemperatureLog.Sample) -> Double {
        if sample.flags.isEmpty, let temperature = sample.temperature, temperature.isFinite { return temperature }
        return .nan
    }

    @inline(__always) func time(_ index: Int) -> Double { samples[index].time.timeIntervalSince1970 }

    @inline(__always) func value(_ index: Int) -> Double {
        if samples[index].flags.isEmpty, let temperature = samples[index].temperature, temperature.isFinite { return temperature }
        return .nan
    }
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
        let times = series.times, values = series.values
        var runs: [DataRun] = []
        for range in ranges {
            runs += splitRun(xs: Array(times[range]), values: Array(values[range]), lower: lower, upper: upper)
        }
        return (runs, gaps)
    }

    /// The index ranges of consecutive valid samples and the gaps between them. A gap is a
    /// stretch of missing or flagged samples, or two valid samples more than 1.5 intervals apart.
    public static func segments(_ series: ChartSeries) -> (ranges: [Range<Int>], gaps: [DataGap]) {
        // The chart's pass, with one column per stretch (a scale of no span).
        let none = LinearScale(domain: 0...0, rangeStart: 0, rangeEnd: 0)
        let sweep = series.withPoints(
            arrays: { CurveSweep($0, interval: series.interval, x: none, columnWidth: 1) },
            samples: { CurveSweep($0, interval: series.interval, x: none, columnWidth: 1) })
        return (sweep.ranges, sweep.gaps)
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
        times.withUnsafeBufferPointer { t in
            values.withUnsafeBufferPointer { v in
                pieces(ArrayPoints(times: t, values: v), range: range, x: x, y: y, columnWidth: columnWidth)
            }
        }
    }

    /// `pieces` of the points `range` of a series read in place (`ChartSeries.withPoints`).
    static func pieces<Points: SeriesPoints>(
        _ points: Points, range: Range<Int>, x: LinearScale, y: LinearScale, columnWidth: Double
    ) -> [(xs: [Double], values: [Double])] {
        guard !range.isEmpty else { return [] }
        let px = ColumnX(x, columnWidth: columnWidth), w = CanvasY(y)
        var gatherer = ColumnGatherer()
        var start = range.lowerBound
        while start < range.upperBound {
            let column = px(points.time(start))
            // Every step from a time to its column (a difference, products and sums
            // with the same signs, a floor) keeps the order: a time between two that
            // fall in the column falls in it too. So two times near its edges are mapped
            // (or, where the scale does not tell them, a few samples ahead), and each
            // sample is only compared with them.
            var (early, late) = px.bounds(of: column) ?? px.span(of: column, from: start, before: range.upperBound, points)
            var end = start + 1
            var lowest = points.value(start), highest = points.value(start)
            var finite = lowest.isFinite
            while end < range.upperBound {
                let time = points.time(end)
                if !(time >= early && time <= late) {
                    guard px(time) == column else { break }
                    early = min(early, time)
                    late = max(late, time)
                }
                let value = points.value(end)
                lowest = min(lowest, value)
                highest = max(highest, value)
                finite = finite && value.isFinite
                end += 1
            }
            gatherer.add(M4Column(x: column, start: start, end: end, lowest: lowest, highest: highest, finite: finite), points, w)
            start = end
        }
        return gatherer.finish()
    }

    /// `pieces` of one continuous stretch from its columns, found before the y scale was
    /// known (`CurveSweep`).
    static func pieces<Points: SeriesPoints>(
        _ points: Points, columns: ArraySlice<M4Column>, y: LinearScale
    ) -> [(xs: [Double], values: [Double])] {
        let w = CanvasY(y)
        var gatherer = ColumnGatherer()
        for column in columns { gatherer.add(column, points, w) }
        return gatherer.finish()
    }

    /// A time → the canvas x of the centre of its column (as `snap(x.position(time))`, the
    /// same operations in the same order).
    struct ColumnX {
        let start: Double, lower: Double, factor: Double, columnWidth: Double

        init(_ x: LinearScale, columnWidth: Double) {
            let span = x.domain.upperBound - x.domain.lowerBound
            factor = span > 0 ? (x.rangeEnd - x.rangeStart) / span : 0
            lower = x.domain.lowerBound
            start = span > 0 ? x.rangeStart : (x.rangeStart + x.rangeEnd) / 2
            self.columnWidth = columnWidth
        }

        @inline(__always) func callAsFunction(_ time: Double) -> Double {
            snap(start + (time - lower) * factor, origin: 0, columnWidth: columnWidth)
        }

        /// Times around the edges of `column` that fall in it (`nil` when it cannot tell
        /// without points): any time between them falls in the column too.
        @inline(__always)
        func bounds(of column: Double) -> (Double, Double)? {
            guard factor > 0, factor.isFinite else { return nil }
            let half = columnWidth / 2
            var early = lower + (column - half - start) / factor
            var late = lower + (column + half - start) / factor
            let margin = (abs(early) + abs(late)) * 1e-12
            early += margin
            late -= margin
            guard early <= late, self(early) == column, self(late) == column else { return nil }
            return (early, late)
        }

        /// The earliest and latest time of some points from `start` on (before `limit`) in
        /// the column of the point at `start`: a few mapped ahead, doubling the step, then
        /// halving it to the column's end. Any time between them falls in the column too.
        @inline(__always)
        func span<Points: SeriesPoints>(of column: Double, from start: Int, before limit: Int, _ points: Points) -> (Double, Double) {
            var early = points.time(start), late = early
            var inside = start, outside = limit, step = 1
            func probe(_ index: Int) -> Bool {
                let time = points.time(index)
                guard self(time) == column else { return false }
                early = min(early, time)
                late = max(late, time)
                return true
            }
            while start + step < limit {
                guard probe(start + step) else { outside = start + step; break }
                inside = start + step
                step *= 2
            }
            while outside - inside > 1 {
                let middle = (inside + outside) / 2
                if probe(middle) { inside = middle } else { outside = middle }
            }
            return (early, late)
        }
    }

    /// A value → canvas y negated (so that "greater" stays "above"), on the 1/256 grid (as
    /// `-grid(y.position(value))`).
    struct CanvasY {
        let start: Double, lower: Double, factor: Double

        init(_ y: LinearScale) {
            let span = y.domain.upperBound - y.domain.lowerBound
            factor = span > 0 ? (y.rangeEnd - y.rangeStart) / span : 0
            lower = y.domain.lowerBound
            start = span > 0 ? y.rangeStart : (y.rangeStart + y.rangeEnd) / 2
        }

        @inline(__always) func callAsFunction(_ value: Double) -> Double { -grid(start + (value - lower) * factor) }
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

        /// A column summed up: as `add` would leave it after each of its points (y follows
        /// the value in one direction, so its lowest and highest points are those of its
        /// extreme values; its second and before-last points are found from its ends).
        @inline(__always)
        mutating func add<Points: SeriesPoints>(_ column: M4Column, _ points: Points, _ w: CanvasY) {
            guard column.finite else {
                for index in column.start..<column.end { add(column.x, w(points.value(index))) }
                return
            }
            let first = w(points.value(column.start)), last = w(points.value(column.end - 1))
            let low = min(w(column.lowest), w(column.highest)), high = max(w(column.lowest), w(column.highest))
            guard low < high else {
                addColumn(column.x, first: first)
                return
            }
            // The first point after the first that differs from it, and the last that
            // differs from the last (repeated points are dropped).
            var second = column.start + 1
            while w(points.value(second)) == first { second += 1 }
            var beforeLast = column.end - 2
            while w(points.value(beforeLast)) == last { beforeLast -= 1 }
            addColumn(
                column.x, first: first, second: w(points.value(second)), low: low, high: high,
                beforeLast: w(points.value(beforeLast)), last: last)
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

/// One pixel column of M4 before the y scale is applied: its canvas x, where its points are
/// (`start..<end`), and their lowest and highest values.
struct M4Column {
    var x: Double
    var start: Int
    var end: Int
    var lowest: Double
    var highest: Double
    /// False when a value is not finite: its points are then gathered one by one.
    var finite: Bool
}
