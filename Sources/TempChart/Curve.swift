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

    /// The samples of a log; samples that are not `isValid` become NaN (gaps).
    public init(log: TemperatureLog) {
        var times = [Double]()
        var values = [Double]()
        times.reserveCapacity(log.samples.count)
        values.reserveCapacity(log.samples.count)
        for sample in log.samples {
            times.append(sample.time.timeIntervalSince1970)
            values.append(sample.isValid ? (sample.temperature ?? .nan) : .nan)
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

/// M4 downsampling (Jugel et al., VLDB 2014): per pixel column keep the first, last,
/// minimum and maximum point, in time order — here also the second and the second-to-last
/// point, so the line leaves and enters each column in the same direction as the full
/// polyline and its joins are drawn the same. With x snapped to column centres the kept
/// points cover exactly the pixels all points cover, so the picture is the same while the
/// drawing cost follows the width, not the sample count.
public enum M4 {
    /// The canvas x of the centre of the column holding `x`.
    @inline(__always)
    public static func snap(_ x: Double, origin: Double, columnWidth: Double) -> Double {
        origin + ((x - origin) / columnWidth).rounded(.down) * columnWidth + columnWidth / 2
    }

    /// Keeps at most six points per column (first, second, min, max, second-to-last, last,
    /// in time order) of a polyline whose x are already snapped to column centres (equal x =
    /// same column).
    public static func reduce(xs: [Double], values: [Double]) -> (xs: [Double], values: [Double]) {
        let count = min(xs.count, values.count)
        guard count > 0 else { return ([], []) }
        var outX = [Double](), outV = [Double]()
        outX.reserveCapacity(min(count, 4096))
        outV.reserveCapacity(min(count, 4096))
        var start = 0
        var minIndex = 0, maxIndex = 0
        var minValue = values[0], maxValue = values[0]
        func emit(_ last: Int) {
            let a = min(minIndex, maxIndex), b = max(minIndex, maxIndex)
            var previous = -1
            let second = min(start + 1, last), beforeLast = max(last - 1, start)
            for index in [start, second, a, b, beforeLast, last].sorted() where index != previous {
                outX.append(xs[index])
                outV.append(values[index])
                previous = index
            }
        }
        for index in 1..<max(1, count) {
            let v = values[index]
            if xs[index] != xs[start] {
                emit(index - 1)
                start = index
                minIndex = index; maxIndex = index
                minValue = v; maxValue = v
            } else {
                if v < minValue { minValue = v; minIndex = index }
                if v > maxValue { maxValue = v; maxIndex = index }
            }
        }
        emit(count - 1)
        return (outX, outV)
    }
}
