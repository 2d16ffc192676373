import Foundation
import Testing

@testable import TempChart

private func utc(_ text: String) -> Date {
    (try? Date(text, strategy: .iso8601)) ?? .distantPast
}

private func calendar(_ zone: TimeZone) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    return calendar
}

@Suite struct TimeTickTests {
    let shanghai = ChartFixtures.shanghai

    @Test func tenMinutesGetsMinuteTicksOnLocalMinutes() {
        let start = utc("2026-03-02T00:00:30Z"), end = utc("2026-03-02T00:10:30Z")
        let step = TimeTicks.step(span: end.timeIntervalSince(start), maxTicks: 12)
        #expect(step == .minutes(1))
        let ticks = TimeTicks.dates(from: start, to: end, step: step, calendar: calendar(shanghai))
        #expect(ticks.count == 10)
        #expect(ticks.first == utc("2026-03-02T00:01:00Z"))
        #expect(ticks.last == utc("2026-03-02T00:10:00Z"))
    }

    @Test func threeDaysGetSixHourTicksAlignedToLocalMidnight() {
        let start = utc("2026-03-02T00:00:00Z"), end = utc("2026-03-05T00:00:00Z")
        let step = TimeTicks.step(span: end.timeIntervalSince(start), maxTicks: 12)
        #expect(step == .hours(6))
        let ticks = TimeTicks.dates(from: start, to: end, step: step, calendar: calendar(shanghai))
        // 08:00 local start: first tick 12:00 local (04:00 UTC), then every 6 h.
        #expect(ticks.first == utc("2026-03-02T04:00:00Z"))
        #expect(ticks[1] == utc("2026-03-02T10:00:00Z"))
        #expect(ticks[2] == utc("2026-03-02T16:00:00Z"))  // 00:00 local on 3 Mar
        #expect(ticks.count == 12)
    }

    @Test func sixWeeksGetMondayTicks() {
        let start = utc("2026-03-02T00:00:00Z"), end = utc("2026-04-16T00:00:00Z")
        let step = TimeTicks.step(span: end.timeIntervalSince(start), maxTicks: 10)
        #expect(step == .days(7))
        let ticks = TimeTicks.dates(from: start, to: end, step: step, calendar: calendar(shanghai))
        // 2 Mar 2026 is a Monday; 00:00 local is before the start, so the first is 9 Mar.
        #expect(ticks.first == utc("2026-03-08T16:00:00Z"))
        #expect(ticks.count == 6)
        #expect(ticks.allSatisfy { calendar(shanghai).component(.weekday, from: $0) == 2 })
    }

    @Test func eightMonthsGetMonthTicksWithYearOnFirst() {
        let start = utc("2026-03-02T00:00:00Z"), end = utc("2026-11-02T00:00:00Z")
        let step = TimeTicks.step(span: end.timeIntervalSince(start), maxTicks: 10)
        #expect(step == .months(1))
        let ticks = TimeTicks.dates(from: start, to: end, step: step, calendar: calendar(shanghai))
        #expect(ticks.first == utc("2026-03-31T16:00:00Z"))  // 1 Apr 00:00 +08:00
        #expect(ticks.count == 8)  // Apr ... Nov
        let formatter = ChartFormatter(timeZone: shanghai, language: .english)
        let scale = LinearScale(domain: start.timeIntervalSince1970...end.timeIntervalSince1970, rangeStart: 0, rangeEnd: 1000)
        let axis = ChartModel.timeTicks(
            start: start.timeIntervalSince1970, end: end.timeIntervalSince1970, scale: scale,
            plot: ChartRect(x: 0, y: 0, width: 1000, height: 300), fontSize: 14, formatter: formatter)
        #expect(axis.first?.label == ["Apr", "2026"])
        #expect(axis[1].label == ["May"])
    }

    @Test func modelLabelsShowLocalTimeDateAndZoneOffset() {
        // 6 hours of minute samples from 23:00 local: the day changes at 00:00 local.
        let start = utc("2026-03-02T15:00:00Z").timeIntervalSince1970
        let series = ChartSeries(times: (0...360).map { start + Double($0) * 60 }, values: Array(repeating: 5, count: 361), interval: 60)
        let model = ChartModel(
            ChartSpec(
                series: series, lowerLimit: 2, upperLimit: 8, timeZone: shanghai,
                frame: ChartRect(x: 0, y: 0, width: 1200, height: 600)))
        #expect(model.xTicks.first?.label == ["23:00", "2 Mar"])
        #expect(model.xTicks.contains { $0.label == ["00:00", "3 Mar"] })
        #expect(model.xTicks.contains { $0.label == ["01:00"] })
        #expect(model.xAxisTitle == "Time — Asia/Shanghai (UTC+08:00)")
        let japanese = ChartModel(
            ChartSpec(
                series: series, lowerLimit: 2, upperLimit: 8, timeZone: shanghai, language: .japanese,
                frame: ChartRect(x: 0, y: 0, width: 1200, height: 600)))
        #expect(japanese.xTicks.first?.label == ["23:00", "3月2日"])
    }

    @Test func daylightSavingChangeShowsBothOffsetsAndKeepsLocalAlignment() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        // 28 Mar 2026 12:00 UTC to 30 Mar 12:00 UTC; clocks go forward on 29 Mar at 01:00 UTC.
        let start = utc("2026-03-28T12:00:00Z"), end = utc("2026-03-30T12:00:00Z")
        let ticks = TimeTicks.dates(from: start, to: end, step: .hours(6), calendar: calendar(berlin))
        let hours = ticks.map { calendar(berlin).component(.hour, from: $0) }
        #expect(hours.allSatisfy { $0 % 6 == 0 })
        #expect(ticks.first == utc("2026-03-28T17:00:00Z"))  // 18:00 CET
        let formatter = ChartFormatter(timeZone: berlin, language: .english)
        #expect(formatter.zoneDescription(from: start, to: end) == "Europe/Berlin (UTC+01:00 / UTC+02:00)")
    }

    @Test func niceTemperatureTicks() {
        #expect(NiceTicks.step(span: 9, count: 6) == 2)
        #expect(NiceTicks.step(span: 0.9, count: 6) == 0.2)
        #expect(NiceTicks.step(span: 70, count: 6) == 10)
        #expect(NiceTicks.values(in: -0.35...0.95, step: 0.2) == [-0.2, 0, 0.2, 0.4, 0.6, 0.8])
        #expect(NiceTicks.decimals(for: 0.25) == 2)
        #expect(NiceTicks.decimals(for: 5) == 0)
    }

    @Test func temperatureAxisIsPaddedAndCoversLimitsAndData() throws {
        let series = ChartSeries(times: [0, 600, 1200], values: [4, 5, 6], interval: 600)
        let model = ChartModel(
            ChartSpec(
                series: series, lowerLimit: 2, upperLimit: 8, timeZone: .gmt,
                frame: ChartRect(x: 0, y: 0, width: 800, height: 400)))
        #expect(model.yScale.domain.lowerBound < 2)
        #expect(model.yScale.domain.upperBound > 8)
        #expect(model.yTicks.map(\.value).contains(2))
        #expect(model.yTicks.map(\.value).contains(8))
        let band = try #require(model.band)
        #expect(band.top == model.yScale.position(8))
        #expect(band.bottom == model.yScale.position(2))
        #expect(model.rules.map(\.label) == ["upper limit 8.0 °C", "lower limit 2.0 °C"])
    }
}

@Suite struct CurveTests {
    @Test func redPartStartsAndEndsExactlyOnTheLimit() {
        let series = ChartSeries(times: [0, 600, 1200], values: [6, 10, 6], interval: 600)
        let (runs, gaps) = CurveSplitter.split(series, lower: 2, upper: 8)
        #expect(gaps.isEmpty)
        #expect(runs.map(\.style) == [.normal, .beyond, .normal])
        #expect(runs[0].times == [0, 300] && runs[0].values == [6, 8])
        #expect(runs[1].times == [300, 600, 900] && runs[1].values == [8, 10, 8])
        #expect(runs[2].times == [900, 1200] && runs[2].values == [8, 6])
    }

    @Test func jumpFromAboveToBelowCrossesBothLimits() {
        let series = ChartSeries(times: [0, 1000], values: [10, 0], interval: 1000)
        let (runs, _) = CurveSplitter.split(series, lower: 2, upper: 8)
        #expect(runs.map(\.style) == [.beyond, .normal, .beyond])
        #expect(runs[0].times == [0, 200])
        #expect(runs[1].times == [200, 800] && runs[1].values == [8, 2])
        #expect(runs[2].times == [800, 1000] && runs[2].values == [2, 0])
    }

    @Test func valueOnTheLimitIsWithin() {
        let series = ChartSeries(times: [0, 600, 1200], values: [10, 8, 6], interval: 600)
        let (runs, _) = CurveSplitter.split(series, lower: nil, upper: 8)
        #expect(runs.map(\.style) == [.beyond, .normal])
        #expect(runs[0].times == [0, 600] && runs[0].values == [10, 8])
        #expect(runs[1].times == [600, 1200] && runs[1].values == [8, 6])
    }

    @Test func sampleOnTheLimitBetweenTwoBeyondPartsLeavesNoDot() {
        let series = ChartSeries(times: [0, 600, 1200], values: [10, 8, 10], interval: 600)
        let (runs, _) = CurveSplitter.split(series, lower: nil, upper: 8)
        #expect(runs.map(\.style) == [.beyond, .beyond])
        #expect(runs.map(\.times) == [[0, 600], [600, 1200]])
    }

    @Test func crossingPointLiesOnTheRuleInTheModel() {
        let series = ChartSeries(times: [0, 600, 1200], values: [6, 10, 6], interval: 600)
        let model = ChartModel(
            ChartSpec(
                series: series, lowerLimit: 2, upperLimit: 8, timeZone: .gmt,
                frame: ChartRect(x: 0, y: 0, width: 800, height: 400)))
        let red = model.lines.filter { $0.style == .beyond }
        let upper = model.rules.first { $0.kind == .upper }
        #expect(red.count == 1)
        #expect(red.first?.points.first?.y == upper?.y)
        #expect(red.first?.points.last?.y == upper?.y)
        // x of the crossing: halfway between the first two samples' (column-centred) positions.
        let x0 = M4.snap(model.xScale.position(0), origin: 0, columnWidth: 1)
        let x1 = M4.snap(model.xScale.position(600), origin: 0, columnWidth: 1)
        // (y is on a 1/256 grid, which moves the crossing by far less than a pixel.)
        #expect(abs((red.first?.points.first?.x ?? 0) - (x0 + 0.5 * (x1 - x0))) < 0.01)
    }

    @Test func missingAndOutOfRangeSamplesBreakTheCurve() {
        let log = ChartFixtures.fridgeLog()
        let series = ChartSeries(log: log)
        let (runs, gaps) = CurveSplitter.split(series, lower: 2, upper: 8)
        let t = { (index: Int) in series.times[index] }
        #expect(gaps == [DataGap(start: t(299), end: t(303)), DataGap(start: t(349), end: t(351))])
        // No run spans a gap.
        for run in runs {
            for gap in gaps { #expect(!(run.times.first! < gap.end && run.times.last! > gap.start)) }
        }
        // Excursion splits the first stretch in three; the gaps add two more runs.
        #expect(runs.count == 5)
        #expect(runs.filter { $0.style == .beyond }.count == 1)
    }

    @Test func timeGapLongerThanOneAndAHalfIntervalsBreaksTheCurve() {
        let series = ChartSeries(times: [0, 600, 1200, 5000, 5600], values: [5, 5, 5, 6, 6], interval: 600)
        let (runs, gaps) = CurveSplitter.split(series, lower: nil, upper: nil)
        #expect(gaps == [DataGap(start: 1200, end: 5000)])
        #expect(runs.map(\.times) == [[0, 600, 1200], [5000, 5600]])
    }

    @Test func infiniteValuesAreGapsNotExtremes() {
        let series = ChartSeries(times: [0, 600, 1200, 1800], values: [5, .infinity, -.infinity, 6], interval: 600)
        let model = ChartModel(
            ChartSpec(
                series: series, lowerLimit: 2, upperLimit: 8, timeZone: .gmt,
                frame: ChartRect(x: 0, y: 0, width: 800, height: 400)))
        #expect(model.annotations.map(\.value).sorted() == [5, 6])
        #expect(model.yScale.domain.upperBound.isFinite && model.yScale.domain.lowerBound.isFinite)
        #expect(model.gaps.count == 1)
    }

    @Test func gapMarksInModel() {
        let series = ChartSeries(times: [0, 600, 1200, 1800], values: [5, .nan, .nan, 6], interval: 600)
        let model = ChartModel(
            ChartSpec(
                series: series, lowerLimit: 2, upperLimit: 8, timeZone: .gmt,
                frame: ChartRect(x: 0, y: 0, width: 800, height: 400)))
        #expect(model.gaps.count == 1)
        #expect(model.gaps.first?.x0 == model.plot.minX)
        #expect(model.gaps.first?.x1 == model.plot.maxX)
        #expect(model.gaps.first?.label == "no data")
        // Two lone samples: each drawn as a dot.
        #expect(model.lines.map(\.points.count) == [1, 1])
    }
}

@Suite struct AnnotationTests {
    let series = ChartSeries(times: [0, 600, 1200, 1800].map { 1_772_409_600 + $0 }, values: [4, 9.5, 3, 6], interval: 600)

    @Test func minAndMaxCarryValueAndLocalTime() {
        let model = ChartModel(
            ChartSpec(
                series: series, lowerLimit: 2, upperLimit: 8, timeZone: ChartFixtures.shanghai,
                frame: ChartRect(x: 0, y: 0, width: 1000, height: 500)))
        let maximum = model.annotations.first { $0.kind == .maximum }
        let minimum = model.annotations.first { $0.kind == .minimum }
        #expect(maximum?.label == ["max 9.5 °C", "2 Mar 08:10"])
        #expect(minimum?.label == ["min 3.0 °C", "2 Mar 08:20"])
        #expect(maximum?.point.y == model.yScale.position(9.5))
        #expect(maximum?.point.x == model.xScale.position(1_772_409_600 + 600))
        // Labels stay inside the plot: max label above its point, min label below.
        if let maximum, let minimum {
            #expect(maximum.labelOrigin.y < maximum.point.y && maximum.labelOrigin.y - model.fontSize >= model.plot.minY)
            #expect(minimum.labelOrigin.y > minimum.point.y)
        }
    }

    @Test func annotationsInChinese() {
        let model = ChartModel(
            ChartSpec(
                series: series, lowerLimit: 2, upperLimit: 8, timeZone: ChartFixtures.shanghai,
                language: .simplifiedChinese, frame: ChartRect(x: 0, y: 0, width: 1000, height: 500)))
        #expect(model.annotations.first { $0.kind == .maximum }?.label == ["最高 9.5 °C", "3月2日 08:10"])
        #expect(model.rules.first?.label == "上限 8.0 °C")
    }

    @Test func coldChainsExcursionsAreMarkedOnTheTimeAxis() {
        // The same values as `series`: 9.5 °C beyond 8 for one 10-minute sample.
        let excursions = ChartFixtures.excursions(ChartFixtures.log([4, 9.5, 3, 6])).map(ChartExcursion.init)
        #expect(
            excursions == [
                ChartExcursion(
                    start: Date(timeIntervalSince1970: 1_772_409_600 + 600),
                    end: Date(timeIntervalSince1970: 1_772_409_600 + 1200), direction: .high)
            ])
        let model = ChartModel(
            ChartSpec(
                series: series, lowerLimit: 2, upperLimit: 8, excursions: excursions, timeZone: .gmt,
                frame: ChartRect(x: 0, y: 0, width: 1000, height: 500)))
        #expect(model.excursions.first?.x0 == model.xScale.position(1_772_409_600 + 600))
        #expect(model.excursions.first?.x1 == model.xScale.position(1_772_409_600 + 1200))
    }

    @Test func emptySeriesGivesAMessageNotACrash() {
        let model = ChartModel(
            ChartSpec(
                series: ChartSeries(times: [], values: [], interval: 60), lowerLimit: 2,
                upperLimit: 8, timeZone: .gmt, frame: ChartRect(x: 0, y: 0, width: 600, height: 300)))
        #expect(model.lines.isEmpty)
        #expect(model.message == "No valid samples to draw")
    }
}

/// M4's pieces, which find and sum up a column's samples without mapping each of them, are
/// those of mapping every sample and gathering it point by point (the plain M4 kept here).
@Suite struct M4ColumnTests {
    /// Maps and gathers every sample, as `M4.pieces` did before it summed up columns.
    static func plainPieces(
        times: [Double], values: [Double], range: Range<Int>, x: LinearScale, y: LinearScale, columnWidth: Double
    ) -> [[Double]] {
        var result: [[Double]] = []
        var chainX: [Double] = [], chainV: [Double] = []
        var columnX = Double.nan, count = 0
        var first = 0.0, second = 0.0, low = 0.0, high = 0.0, beforeLast = 0.0, last = 0.0
        func emitChain() {
            if chainX.count >= 2 { result.append(chainX + chainV) }
            chainX = []
            chainV = []
        }
        func flush() {
            guard count > 0 else { return }
            if count == 1 {
                chainX.append(columnX)
                chainV.append(first)
                return
            }
            if !chainX.isEmpty {
                chainX += [columnX, columnX]
                chainV += [first, first + (second > first ? M4.stub : -M4.stub)]
            }
            emitChain()
            result.append([columnX, columnX, low, high])
            chainX = [columnX, columnX]
            chainV = [last - (last > beforeLast ? M4.stub : -M4.stub), last]
        }
        let xSpan = x.domain.upperBound - x.domain.lowerBound, ySpan = y.domain.upperBound - y.domain.lowerBound
        let xFactor = xSpan > 0 ? (x.rangeEnd - x.rangeStart) / xSpan : 0
        let yFactor = ySpan > 0 ? (y.rangeEnd - y.rangeStart) / ySpan : 0
        // A scale of no span maps everything to the middle of its range.
        let xStart = xSpan > 0 ? x.rangeStart : (x.rangeStart + x.rangeEnd) / 2
        let yStart = ySpan > 0 ? y.rangeStart : (y.rangeStart + y.rangeEnd) / 2
        for index in range {
            let px = M4.snap(xStart + (times[index] - x.domain.lowerBound) * xFactor, origin: 0, columnWidth: columnWidth)
            let w = -M4.grid(yStart + (values[index] - y.domain.lowerBound) * yFactor)
            if px == columnX {
                if w == last { continue }
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
        flush()
        if result.isEmpty && chainX.count == 1 { result.append(chainX + chainV) } else { emitChain() }
        return result
    }

    @Test(arguments: [1.0, 0.25, 1.0 / 3])
    func columnsSummedUpAreColumnsGatheredPointByPoint(columnWidth: Double) {
        var state: UInt64 = 30
        func random(_ limit: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % limit
        }
        var compared = 0, severalPerColumn = 0
        for round in 0..<60 {
            let count = [1, 2, 5, 300, 4_000, 40_000][round % 6]
            var times: [Double] = [], values: [Double] = []
            var time = 0.0, value = 5.0
            for _ in 0..<count {
                // Mostly forward in time, now and then the same time or a step back (a clock
                // set back); values that repeat, jump, and now and then are not finite.
                let roll = random(1000)
                time += roll < 20 ? -Double(random(5_000)) : roll < 60 ? 0 : Double(1 + random(120))
                value = roll % 7 == 0 ? value : value + Double(random(41) - 20) / 16
                times.append(time)
                values.append(roll == 999 ? .nan : roll == 998 ? .infinity : value)
            }
            let low = values.filter(\.isFinite).min() ?? 0, high = values.filter(\.isFinite).max() ?? 1
            let x = LinearScale(domain: (times.min() ?? 0)...(times.max() ?? 1), rangeStart: 40.5, rangeEnd: 1170.25)
            // Canvas y downwards as in charts, and (every other six rounds) upwards.
            let y = LinearScale(
                domain: (low - 1)...(high + 1), rangeStart: round / 6 % 2 == 0 ? 540.3 : 30.7, rangeEnd: round / 6 % 2 == 0 ? 30.7 : 540.3)
            let range = (count > 3 ? 1 : 0)..<count
            let pieces = M4.pieces(times: times, values: values, range: range, x: x, y: y, columnWidth: columnWidth)
            let expected = Self.plainPieces(times: times, values: values, range: range, x: x, y: y, columnWidth: columnWidth)
            // Compared bit for bit (NaN and the sign of zero included).
            let found = pieces.map { ($0.xs + $0.values).map(\.bitPattern) }
            #expect(found == expected.map { $0.map(\.bitPattern) }, "round \(round), \(count) samples")
            compared += 1
            if expected.contains(where: { $0.count == 4 && $0[0] == $0[1] && $0[2] != $0[3] }) { severalPerColumn += 1 }
        }
        #expect(compared == 60)
        #expect(severalPerColumn >= 20)
    }
}
