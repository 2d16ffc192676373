import Foundation
import LoggerFormats
import Testing

@testable import TempChart

/// The chart's one pass over the points (`CurveSweep`) finds what separate passes found: the
/// stretches and gaps, the extremes, and per stretch the M4 columns, bit for bit. A series
/// read from a log in place is charted as the same points in two arrays.
@Suite struct CurveSweepTests {
    /// The stretches and gaps as `CurveSplitter.segments` found them in a pass of its own.
    static func plainSegments(times: [Double], values: [Double], interval: Double) -> (ranges: [Range<Int>], gaps: [DataGap]) {
        let count = min(times.count, values.count)
        let maxStep = interval > 0 ? interval * 1.5 : Double.infinity
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
            gaps.append(DataGap(start: start, end: times[count - 1] + max(0, interval)))
        }
        return (ranges, gaps)
    }

    /// The first lowest and first highest finite value, point by point.
    static func plainExtremes(_ values: [Double]) -> [Double] {
        var low = Double.infinity, high = -Double.infinity
        var minIndex = -1, maxIndex = -1
        for (index, v) in values.enumerated() {
            if v < low, v.isFinite { low = v; minIndex = index }
            if v > high, v.isFinite { high = v; maxIndex = index }
        }
        return minIndex >= 0 ? [low, high, Double(minIndex), Double(maxIndex)] : []
    }

    /// A series that steps forward, repeats times, steps back (a clock set back), jumps
    /// further than 1.5 intervals, repeats values, and has NaN and infinite values.
    static func randomSeries(count: Int, interval: Double, seed: UInt64) -> (times: [Double], values: [Double]) {
        var state = seed
        func random(_ limit: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % limit
        }
        var times: [Double] = [], values: [Double] = []
        var time = 1_772_409_600.0, value = 5.0
        for _ in 0..<count {
            let roll = random(1000)
            time +=
                roll < 10
                ? -Double(random(5_000)) : roll < 40 ? 0 : roll < 50 ? Double(200 + random(20_000)) : Double(1 + random(max(1, Int(interval))))
            value = roll % 7 == 0 ? value : value + Double(random(41) - 20) / 16
            times.append(time)
            values.append(roll >= 990 ? .nan : roll == 989 ? .infinity : roll == 988 ? -.infinity : value)
        }
        return (times, values)
    }

    @Test(arguments: [1.0, 0.25, 1.0 / 3])
    func sweepFindsWhatSeparatePassesFind(columnWidth: Double) {
        var compared = 0, columnsCompared = 0
        for round in 0..<60 {
            let count = [1, 2, 7, 300, 4_000, 40_000][round % 6]
            let interval = round % 5 == 4 ? 0 : 60.0
            let (times, values) = Self.randomSeries(count: count, interval: interval, seed: UInt64(round) + 7)
            let finite = values.filter(\.isFinite)
            let x = LinearScale(domain: (times.min() ?? 0)...(times.max() ?? 1), rangeStart: 40.5, rangeEnd: 1170.25)
            let y = LinearScale(
                domain: ((finite.min() ?? 0) - 1)...((finite.max() ?? 1) + 1), rangeStart: round / 6 % 2 == 0 ? 540.3 : 30.7,
                rangeEnd: round / 6 % 2 == 0 ? 30.7 : 540.3)
            let sweep = times.withUnsafeBufferPointer { t in
                values.withUnsafeBufferPointer { v in
                    CurveSweep(ArrayPoints(times: t, values: v), interval: interval, x: x, columnWidth: columnWidth)
                }
            }
            let (ranges, gaps) = Self.plainSegments(times: times, values: values, interval: interval)
            #expect(sweep.ranges == ranges, "round \(round)")
            #expect(sweep.gaps == gaps, "round \(round)")
            let extremes = sweep.extremes.map { [$0.low, $0.high, Double($0.minIndex), Double($0.maxIndex)] } ?? []
            #expect(extremes.map(\.bitPattern) == Self.plainExtremes(values).map(\.bitPattern), "round \(round)")
            #expect(CurveSplitter.segments(ChartSeries(times: times, values: values, interval: interval)) == (ranges, gaps))
            #expect(sweep.columnRanges.count == ranges.count)
            for (range, columns) in zip(sweep.ranges, sweep.columnRanges) {
                let expected = M4.pieces(times: times, values: values, range: range, x: x, y: y, columnWidth: columnWidth)
                let found = times.withUnsafeBufferPointer { t in
                    values.withUnsafeBufferPointer { v in
                        M4.pieces(ArrayPoints(times: t, values: v), columns: sweep.columns[columns], y: y)
                    }
                }
                #expect(
                    found.map { ($0.xs + $0.values).map(\.bitPattern) } == expected.map { ($0.xs + $0.values).map(\.bitPattern) },
                    "round \(round), range \(range)")
                columnsCompared += columns.count
            }
            compared += 1
        }
        #expect(compared == 60)
        #expect(columnsCompared > 10_000)
    }

    /// A log with flagged, missing and non-finite samples, and the same points as arrays.
    static func awkwardLog(count: Int) -> TemperatureLog {
        let series = ChartFixtures.randomWalk(count: count, seed: 11)
        var samples: [TemperatureLog.Sample] = []
        for (index, (time, value)) in zip(series.times, series.values).enumerated() {
            let date = Date(timeIntervalSince1970: time + (index > count / 3 ? 3_600 : 0))
            switch index % 997 {
            case 5: samples.append(.init(time: date, temperature: nil, flags: [.missing]))
            case 6: samples.append(.init(time: date, temperature: 127, flags: [.outOfRange]))
            case 7: samples.append(.init(time: date, temperature: .infinity))
            case 8: samples.append(.init(time: date, temperature: value, humidity: 40, flags: [.outOfRange]))
            default: samples.append(.init(time: date, temperature: value, humidity: index % 2 == 0 ? 55 : nil))
            }
        }
        return TemperatureLog(
            format: "generic16", samples: samples, interval: 60, timeBase: .loggerHeader,
            integrity: .init(status: .unverified, detail: "test"), readTime: ChartFixtures.start)
    }

    @Test func aLogReadInPlaceIsChartedAsItsPointsInArrays() {
        let log = Self.awkwardLog(count: 30_000)
        let inPlace = ChartSeries(log: log)
        let arrays = ChartSeries(times: inPlace.times, values: inPlace.values, interval: 60)
        #expect(inPlace.count == 30_000)
        #expect(inPlace.times == log.samples.map { $0.time.timeIntervalSince1970 })
        let expectedValues = log.samples.map { sample -> Double in
            guard sample.flags.isEmpty, let t = sample.temperature, t.isFinite else { return .nan }
            return t
        }
        #expect(inPlace.values.map(\.bitPattern) == expectedValues.map(\.bitPattern))
        #expect(inPlace.values.filter(\.isNaN).count == 4 * 31)
        // Equal as two arrays compare (a NaN gap is not equal to itself), at once for a copy.
        let copy = inPlace
        #expect(copy.sharesPoints(with: inPlace) && copy == inPlace)
        #expect(!arrays.sharesPoints(with: inPlace))
        #expect(ChartSeries(log: Self.awkwardLog(count: 300)) != ChartSeries(log: Self.awkwardLog(count: 300)))
        #expect(ChartSeries(log: ChartFixtures.log([4, 5, 6])) == ChartSeries(log: ChartFixtures.log([4, 5, 6])))
        #expect(
            ChartSeries(log: ChartFixtures.log([4, 5, 6]))
                == ChartSeries(times: ChartFixtures.log([4, 5, 6]).samples.map { $0.time.timeIntervalSince1970 }, values: [4, 5, 6], interval: 600))
        #expect(CurveSplitter.segments(inPlace) == CurveSplitter.segments(arrays))
        for (frame, density) in [(ChartRect(x: 0, y: 0, width: 1200, height: 600), 1.0), (ChartRect(x: 30, y: 40, width: 500, height: 300), 4)] {
            func model(_ series: ChartSeries) -> ChartModel {
                ChartModel(
                    ChartSpec(
                        series: series, lowerLimit: 2, upperLimit: 8, timeZone: ChartFixtures.shanghai, frame: frame,
                        pixelDensity: density, title: "T"))
            }
            let a = model(inPlace), b = model(arrays)
            #expect(a.lines == b.lines)
            #expect(a.gaps == b.gaps)
            #expect(a.annotations == b.annotations)
            #expect(a.plot == b.plot && a.xScale == b.xScale && a.yScale == b.yScale)
            #expect(a.xTicks == b.xTicks && a.yTicks == b.yTicks)
            #expect(a.lines.count > 10)
        }
        let terminal = { (series: ChartSeries) in
            TerminalChart.render(series: series, lower: 2, upper: 8, width: 90, timeZone: .gmt, color: true)
        }
        #expect(terminal(inPlace) == terminal(arrays))
    }

    @Test func aWrongGuessOfTheLayoutFindsTheColumnsAgain() {
        // A spike between the points the guess reads widens the temperature labels, which
        // moves the plot and with it every column.
        var series = ChartFixtures.randomWalk(count: 100_000)
        series.values[50_001] = 150
        let spec = ChartSpec(
            series: series, lowerLimit: 2, upperLimit: 8, timeZone: .gmt, frame: ChartRect(x: 0, y: 0, width: 1200, height: 600))
        let (lines, wrongX, rightX) = series.times.withUnsafeBufferPointer { t in
            series.values.withUnsafeBufferPointer { v in
                let points = ArrayPoints(times: t, values: v)
                let formatter = ChartFormatter(timeZone: .gmt, language: .english)
                let (start, end) = ChartModel.timeDomain(points)
                func layout(_ extremes: ChartModel.Extremes?) -> ChartModel.Layout {
                    ChartModel.Layout(spec, extremes: extremes, start: start, end: end, fontSize: 14, formatter: formatter)
                }
                let guessed = layout(CurveSweep.guessExtremes(points, samples: 4096))
                let wrong = CurveSweep(points, interval: 60, x: guessed.xScale, columnWidth: 1)
                let real = layout(wrong.extremes)
                let right = CurveSweep(points, interval: 60, x: real.xScale, columnWidth: 1)
                func curve(_ sweep: CurveSweep, _ sweptX: LinearScale) -> [LineMark] {
                    ChartModel.curve(spec, points: points, sweep: sweep, sweptX: sweptX, xScale: real.xScale, yScale: real.yScale, columnWidth: 1)
                }
                #expect(wrong.ranges == right.ranges && wrong.gaps == right.gaps)
                #expect(curve(wrong, guessed.xScale) == curve(right, real.xScale))
                return (curve(right, real.xScale), guessed.xScale, real.xScale)
            }
        }
        #expect(wrongX != rightX)
        #expect(ChartModel(spec).lines == lines)
        #expect(lines.count > 10)
    }
}
