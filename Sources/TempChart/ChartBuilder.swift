import Foundation

extension ChartModel {
    /// Lays out the chart for `spec`: scales, ticks, band, limit rules, the curve split at
    /// limit crossings and gaps (M4-reduced unless `spec.downsample` is false), min/max
    /// annotations and excursion marks. Never fails: an empty or all-invalid series gives
    /// a chart with axes and a message.
    public init(_ spec: ChartSpec) {
        self = spec.series.withPoints(arrays: { ChartModel(spec, points: $0) }, samples: { ChartModel(spec, points: $0) })
    }

    /// The chart of `spec` over its series' points read in place. The layout depends on the
    /// extremes, and the curve's columns on the layout: the extremes of a few thousand points
    /// lay out the x scale for the one pass (`CurveSweep`) that finds the extremes, the
    /// stretches and the columns; when the true extremes move the plot, the columns are
    /// found again (`M4.pieces`).
    /// - Parameter guessSamples: how many points the guess reads (tests make it wrong on purpose).
    init<Points: SeriesPoints>(_ spec: ChartSpec, points: Points, guessSamples: Int = 4096) {
        let formatter = ChartFormatter(timeZone: spec.timeZone, language: spec.language)
        let strings = formatter.strings
        let frame = spec.frame
        let textScale = spec.textScale.isFinite && spec.textScale > 0 ? spec.textScale : 1
        let fontSize = min(14, max(8, frame.width / 85)) * textScale
        var (start, end) = ChartModel.timeDomain(points)
        let days = spec.dailyRanges
        if points.count == 0, let first = days.first, let last = days.last {
            (start, end) = (first.start.timeIntervalSince1970, max(last.end.timeIntervalSince1970, first.start.timeIntervalSince1970 + 3600))
        }
        let columnWidth = 1 / max(spec.pixelDensity, 0.01)
        let guess = ChartModel.Layout(
            spec, extremes: CurveSweep.guessExtremes(points, samples: guessSamples), start: start, end: end, fontSize: fontSize,
            formatter: formatter)
        let sweep = CurveSweep(points, interval: spec.series.interval, x: guess.xScale, columnWidth: columnWidth)
        let extremes = sweep.extremes
        var layoutExtremes = extremes
        if let low = days.map(\.min).min(), let high = days.map(\.max).max() {
            layoutExtremes = Extremes(
                low: min(low, extremes?.low ?? low), high: max(high, extremes?.high ?? high), minIndex: extremes?.minIndex ?? 0,
                maxIndex: extremes?.maxIndex ?? 0)
        }
        let layout = ChartModel.Layout(spec, extremes: layoutExtremes, start: start, end: end, fontSize: fontSize, formatter: formatter)
        let (plot, xScale, yScale) = (layout.plot, layout.xScale, layout.yScale)
        let xTicks = ChartModel.timeTicks(start: start, end: end, scale: xScale, plot: plot, fontSize: fontSize, formatter: formatter)
        let (band, rules) = ChartModel.bandAndRules(spec, plot: plot, yScale: yScale, formatter: formatter)
        let lines = ChartModel.curve(
            spec, points: points, sweep: sweep, sweptX: guess.xScale, xScale: xScale, yScale: yScale, columnWidth: columnWidth)
        let gaps = ChartModel.gapMarks(sweep.gaps, plot: plot, xScale: xScale, columnWidth: columnWidth, fontSize: fontSize, strings: strings)
        let excursions = ChartModel.excursionMarks(spec.excursions, plot: plot, xScale: xScale, columnWidth: columnWidth)
        let annotations = ChartModel.extremeAnnotations(
            points, extremes: extremes, plot: plot, xScale: xScale, yScale: yScale, fontSize: fontSize, formatter: formatter)

        self.init(
            frame: frame, plot: plot, theme: spec.theme, fontSize: fontSize, title: spec.title,
            xScale: xScale, yScale: yScale, xTicks: xTicks, yTicks: layout.yTicks,
            xAxisTitle: "\(strings.timeAxis) — \(formatter.zoneDescription(from: Date(timeIntervalSince1970: start), to: Date(timeIntervalSince1970: end)))",
            yAxisTitle: "°C", band: band, rules: rules, lines: lines, gaps: gaps, annotations: annotations,
            excursions: excursions, message: extremes == nil && days.isEmpty ? strings.noData : nil, columnWidth: columnWidth,
            curveWidth: fontSize >= 11 ? 1.6 : 1.25)
        dayRanges = days.map { day in
            DayRangeMark(
                range: day, x0: xScale.position(day.start.timeIntervalSince1970), x1: xScale.position(day.end.timeIntervalSince1970),
                top: yScale.position(day.max), bottom: yScale.position(day.min), mean: yScale.position(day.mean),
                beyond: spec.upperLimit.map { day.max > $0 } ?? false || spec.lowerLimit.map { day.min < $0 } ?? false)
        }
    }

    /// The lowest and highest valid values and where they are.
    struct Extremes {
        var low: Double
        var high: Double
        var minIndex: Int
        var maxIndex: Int
    }

    /// The time span shown: the samples', or an hour around it when there is none.
    static func timeDomain<Points: SeriesPoints>(_ points: Points) -> (start: Double, end: Double) {
        let count = points.count
        var start = count > 0 ? points.time(0) : 0
        var end = count > 0 ? points.time(count - 1) : 3600
        if end <= start {
            start -= 1800
            end += 1800
        }
        return (start, end)
    }

    /// Where the plot sits in the frame, its scales and the value ticks (the time ticks,
    /// which depend only on the plot, are made once it is known: `timeTicks`).
    struct Layout {
        let plot: ChartRect
        let xScale: LinearScale
        let yScale: LinearScale
        let yTicks: [AxisTick]

        init(_ spec: ChartSpec, extremes: Extremes?, start: Double, end: Double, fontSize: Double, formatter: ChartFormatter) {
            let frame = spec.frame
            let lineHeight = fontSize * 1.25
            var dataLow = extremes?.low ?? 0, dataHigh = extremes?.high ?? 10
            for limit in [spec.lowerLimit, spec.upperLimit].compactMap({ $0 }) {
                dataLow = min(dataLow, limit)
                dataHigh = max(dataHigh, limit)
            }
            // Vertical layout first (the padding and the tick count depend on the plot height).
            // Room for the "°C" axis title above the plot (and the chart title).
            let top = fontSize * 1.6 + (spec.title == nil ? 0 : lineHeight * 1.4)
            let bottom = 6 + lineHeight * 2 + lineHeight * 1.3 + 6
            let plotHeight = max(10, frame.height - top - bottom)
            let span = max(dataHigh - dataLow, 1)
            // Room for the two-line min/max labels beyond the extremes, as a share of the plot.
            let labelShare = min(0.3, (lineHeight * 2 + 14) / plotHeight)
            let padded = span * 1.16 / max(0.4, 1 - 2 * labelShare)
            var upperBound = dataHigh + span * 0.08, lowerBound = dataLow - span * 0.08
            if let extremes {
                upperBound = max(upperBound, extremes.high + padded * labelShare)
                lowerBound = min(lowerBound, extremes.low - padded * labelShare)
            }
            let yDomain = lowerBound...upperBound
            let yStep = NiceTicks.step(
                span: yDomain.upperBound - yDomain.lowerBound,
                count: max(2, min(10, Int(plotHeight / (fontSize * 3.2)))))
            let yValues = NiceTicks.values(in: yDomain, step: yStep)
            let decimals = NiceTicks.decimals(for: yStep)
            let yLabels = yValues.map { formatter.number($0, decimals: decimals) }
            let tickFont = ChartFont(size: fontSize)
            let labelWidth = yLabels.map { TextMetrics.estimatedWidth($0, font: tickFont) }.max() ?? fontSize * 2
            let left = max(labelWidth, TextMetrics.estimatedWidth("°C", font: tickFont)) + 14
            let right = fontSize * 1.2
            plot = ChartRect(
                x: frame.x + left, y: frame.y + top,
                width: max(10, frame.width - left - right), height: plotHeight)
            xScale = LinearScale(domain: start...end, rangeStart: plot.minX, rangeEnd: plot.maxX)
            let yScale = LinearScale(domain: yDomain, rangeStart: plot.maxY, rangeEnd: plot.minY)
            self.yScale = yScale
            yTicks = zip(yValues, yLabels).map { AxisTick(value: $0, position: yScale.position($0), label: [$1]) }
        }
    }

    /// The band between the limits and their rules (on the same 1/256 grid as the curve,
    /// so crossings sit on them).
    static func bandAndRules(_ spec: ChartSpec, plot: ChartRect, yScale: LinearScale, formatter: ChartFormatter) -> (BandMark?, [RuleMark]) {
        let strings = formatter.strings
        var band: BandMark? = nil
        if spec.lowerLimit != nil || spec.upperLimit != nil {
            let topY = spec.upperLimit.map { max(plot.minY, min(plot.maxY, yScale.position($0))) } ?? plot.minY
            let bottomY = spec.lowerLimit.map { max(plot.minY, min(plot.maxY, yScale.position($0))) } ?? plot.maxY
            if bottomY > topY { band = BandMark(top: topY, bottom: bottomY) }
        }
        var rules: [RuleMark] = []
        if let upper = spec.upperLimit {
            rules.append(
                RuleMark(
                    kind: .upper, value: upper, y: M4.grid(yScale.position(upper)),
                    label: "\(strings.upperLimit) \(formatter.temperature(upper))"))
        }
        if let lower = spec.lowerLimit {
            rules.append(
                RuleMark(
                    kind: .lower, value: lower, y: M4.grid(yScale.position(lower)),
                    label: "\(strings.lowerLimit) \(formatter.temperature(lower))"))
        }
        return (band, rules)
    }

    /// The curve: x snapped to device pixel column centres and y to the 1/256 grid renderers
    /// use inside (Cairo's fixed point), repeated points dropped, each continuous stretch
    /// (from `CurveSweep`) reduced with M4 (see `M4.pieces`), then split at the
    /// limits. With butt caps and bevel joins (see ChartRenderer) each colour's pixels are
    /// exactly those of drawing every sample.
    /// The columns of `sweep` are used when they were found with the x scale of the chart
    /// (`sweptX` is `xScale`), else found again.
    static func curve<Points: SeriesPoints>(
        _ spec: ChartSpec, points: Points, sweep: CurveSweep, sweptX: LinearScale, xScale: LinearScale, yScale: LinearScale,
        columnWidth: Double
    ) -> [LineMark] {
        // Split in canvas space on -y (so "above" stays "greater than").
        let upperW = spec.upperLimit.map { -M4.grid(yScale.position($0)) }
        let lowerW = spec.lowerLimit.map { -M4.grid(yScale.position($0)) }
        var lines: [LineMark] = []
        for (range, columns) in zip(sweep.ranges, sweep.columnRanges) {
            let pieces: [(xs: [Double], values: [Double])]
            if spec.downsample, sweptX == xScale {
                pieces = M4.pieces(points, columns: sweep.columns[columns], y: yScale)
            } else if spec.downsample {
                pieces = M4.pieces(points, range: range, x: xScale, y: yScale, columnWidth: columnWidth)
            } else {
                // Every sample, for checking M4 against: the same snapping, grid and repeats rule.
                var xs = [Double](), ws = [Double]()
                for index in range {
                    let x = M4.snap(xScale.position(points.time(index)), origin: 0, columnWidth: columnWidth)
                    let w = -M4.grid(yScale.position(points.value(index)))
                    if let lastX = xs.last, let lastW = ws.last, lastX == x, lastW == w { continue }
                    xs.append(x)
                    ws.append(w)
                }
                pieces = [(xs, ws)]
            }
            for piece in pieces {
                for run in CurveSplitter.splitRun(xs: piece.xs, values: piece.values, lower: lowerW, upper: upperW) {
                    var points = [ChartPoint]()
                    points.reserveCapacity(run.times.count)
                    for i in 0..<run.times.count { points.append(ChartPoint(x: run.times[i], y: -run.values[i])) }
                    lines.append(LineMark(style: run.style, points: points))
                }
            }
        }
        return lines
    }

    /// Gaps in the data, merged when closer than a pixel column, labelled where they are wide enough.
    static func gapMarks(
        _ dataGaps: [DataGap], plot: ChartRect, xScale: LinearScale, columnWidth: Double, fontSize: Double,
        strings: ReportStrings
    ) -> [GapMark] {
        func clipX(_ x: Double) -> Double { max(plot.minX, min(plot.maxX, x)) }
        return dataGaps.map {
            GapMark(
                start: Date(timeIntervalSince1970: $0.start), end: Date(timeIntervalSince1970: $0.end),
                x0: clipX(xScale.position($0.start)), x1: clipX(xScale.position($0.end)), label: nil)
        }.reduce(into: [GapMark]()) { merged, gap in
            if let last = merged.last, gap.x0 <= last.x1 + columnWidth {
                merged[merged.count - 1].x1 = max(last.x1, gap.x1)
                merged[merged.count - 1].end = max(last.end, gap.end)
            } else {
                merged.append(gap)
            }
        }.map { gap in
            var gap = gap
            let width = TextMetrics.estimatedWidth(strings.gap, font: ChartFont(size: fontSize * 0.8))
            if gap.x1 - gap.x0 >= width + 6 { gap.label = strings.gap }
            return gap
        }
    }

    /// Excursion marks at least 2 points wide; marks closer than a pixel column are drawn as
    /// one, so the output does not grow with the number of excursions.
    static func excursionMarks(_ excursions: [ChartExcursion], plot: ChartRect, xScale: LinearScale, columnWidth: Double) -> [ExcursionMark] {
        func clipX(_ x: Double) -> Double { max(plot.minX, min(plot.maxX, x)) }
        return excursions.map { excursion -> ExcursionMark in
            var x0 = clipX(xScale.position(excursion.start.timeIntervalSince1970))
            var x1 = clipX(xScale.position(excursion.end.timeIntervalSince1970))
            if x1 - x0 < 2 {
                let mid = (x0 + x1) / 2
                x0 = max(plot.minX, mid - 1)
                x1 = min(plot.maxX, x0 + 2)
                x0 = x1 - 2
            }
            return ExcursionMark(excursion: excursion, x0: x0, x1: x1)
        }.sorted { $0.x0 < $1.x0 }.reduce(into: [ExcursionMark]()) { merged, mark in
            if let last = merged.last, mark.x0 <= last.x1 + columnWidth {
                merged[merged.count - 1].x1 = max(last.x1, mark.x1)
                merged[merged.count - 1].excursion.end = max(last.excursion.end, mark.excursion.end)
            } else {
                merged.append(mark)
            }
        }
    }

    /// The maximum's and (when it differs) the minimum's labels, kept inside the plot.
    static func extremeAnnotations<Points: SeriesPoints>(
        _ points: Points, extremes: Extremes?, plot: ChartRect, xScale: LinearScale, yScale: LinearScale, fontSize: Double,
        formatter: ChartFormatter
    ) -> [ExtremeAnnotation] {
        guard let extremes else { return [] }
        let strings = formatter.strings
        let lineHeight = fontSize * 1.25
        let tickFont = ChartFont(size: fontSize)
        var annotations: [ExtremeAnnotation] = []
        var wanted: [(ExtremeAnnotation.Kind, Int)] = [(.maximum, extremes.maxIndex)]
        if extremes.high > extremes.low { wanted.append((.minimum, extremes.minIndex)) }
        for (kind, index) in wanted {
            let time = points.time(index), value = points.value(index)
            let point = ChartPoint(x: xScale.position(time), y: yScale.position(value))
            let label = [
                "\(kind == .maximum ? strings.maximum : strings.minimum) \(formatter.temperature(value))",
                formatter.dayAndClock(Date(timeIntervalSince1970: time)),
            ]
            let width = label.map { TextMetrics.estimatedWidth($0, font: tickFont) }.max() ?? 0
            var anchor = TextAnchor.middle
            var x = point.x
            if point.x - width / 2 < plot.minX + 2 {
                anchor = .start
                x = max(plot.minX + 2, point.x - 6)
            }
            if point.x + width / 2 > plot.maxX - 2 {
                anchor = .end
                x = min(plot.maxX - 2, point.x + 6)
            }
            let aboveBaseline = point.y - 9 - lineHeight
            let belowBaseline = point.y + 9 + fontSize
            var baseline = kind == .maximum ? aboveBaseline : belowBaseline
            if kind == .maximum, aboveBaseline - fontSize < plot.minY { baseline = belowBaseline }
            if kind == .minimum, belowBaseline + lineHeight > plot.maxY { baseline = aboveBaseline }
            annotations.append(
                ExtremeAnnotation(
                    kind: kind, time: Date(timeIntervalSince1970: time), value: value,
                    point: point, label: label,
                    labelOrigin: ChartPoint(x: x, y: baseline), labelAnchor: anchor))
        }
        return annotations
    }

    /// Time ticks for `[start, end]` (seconds since 1970): the step is the shortest that
    /// leaves room for the labels; a second label line names the day (or year) where it changes.
    static func timeTicks(
        start: Double, end: Double, scale: LinearScale, plot: ChartRect, fontSize: Double,
        formatter: ChartFormatter
    ) -> [AxisTick] {
        let labelRoom = fontSize * 6.5
        let maxTicks = max(2, Int(plot.width / labelRoom))
        let step = TimeTicks.step(span: end - start, maxTicks: maxTicks)
        let dates = TimeTicks.dates(
            from: Date(timeIntervalSince1970: start), to: Date(timeIntervalSince1970: end),
            step: step, calendar: formatter.calendar)
        var ticks: [AxisTick] = []
        var previous: Date? = nil
        for date in dates {
            var label: [String]
            let calendar = formatter.calendar
            switch step {
            case .minutes, .hours:
                label = [formatter.clock(date)]
                if previous.map({ !calendar.isDate($0, inSameDayAs: date) }) ?? true { label.append(formatter.day(date)) }
            case .days:
                label = [formatter.day(date)]
                if previous.map({ calendar.component(.year, from: $0) != calendar.component(.year, from: date) }) ?? true {
                    label.append(formatter.year(date))
                }
            case .months:
                label = [formatter.month(date)]
                if previous.map({ calendar.component(.year, from: $0) != calendar.component(.year, from: date) }) ?? true {
                    label.append(formatter.year(date))
                }
            case .years:
                label = [formatter.year(date)]
            }
            ticks.append(
                AxisTick(
                    value: date.timeIntervalSince1970, position: scale.position(date.timeIntervalSince1970),
                    label: label))
            previous = date
        }
        return ticks
    }
}
