import ColdChain
import Foundation
import LoggerFormats

/// The lot report's two pictures, drawn on any canvas (the PDF's page, the HTML's inline
/// SVG): the budget bar and the journey over the loggers' curves.
extension LotReportPage {
    /// The budget bar in `frame`: the consumed fraction, the worst case with the unknown
    /// time counted, and marks at the review threshold and at 1.
    public func drawBudgetBar(in frame: ChartRect, on canvas: any Canvas) {
        let font = ChartFont(size: 8)
        let bold = ChartFont(size: 9, weight: .bold)
        let top = frame.minY + 14
        let barHeight = max(8, frame.height - 30)
        let bar = ChartRect(x: frame.minX, y: top, width: frame.width, height: barHeight)
        let end = min(2, max(1, status.worstCaseConsumed, status.consumed) * 1.08)
        let scale = LinearScale(domain: 0...end, rangeStart: bar.minX, rangeEnd: bar.maxX)
        func x(_ value: Double) -> Double { min(bar.maxX, max(bar.minX, scale.position(value))) }

        canvas.fill(.rect(bar), color: theme.tableStripe)
        let consumedColor =
            status.consumed >= 1 || !status.discardEvents.isEmpty
            ? theme.fail : status.consumed >= content.reviewThreshold ? theme.limit : theme.pass
        if status.worstCaseConsumed > status.consumed {
            let worst = ChartRect(x: x(status.consumed), y: bar.minY, width: x(status.worstCaseConsumed) - x(status.consumed), height: bar.height)
            canvas.fill(.rect(worst), color: theme.gap)
            canvas.stroke(.rect(worst), color: theme.axis, style: StrokeStyle(width: 0.8, dash: [3, 2]))
            canvas.text(
                lot.worstCaseMark.filled(["fraction": LotReason.fraction(status.worstCaseConsumed)]),
                at: ChartPoint(x: x(status.worstCaseConsumed), y: bar.maxY + 10), font: font, color: theme.secondaryText, anchor: .middle)
        }
        canvas.fill(.rect(ChartRect(x: bar.minX, y: bar.minY, width: x(status.consumed) - bar.minX, height: bar.height)), color: consumedColor)
        canvas.stroke(.rect(bar), color: theme.axis, style: StrokeStyle(width: 0.8))
        canvas.text(consumedText, at: ChartPoint(x: bar.minX, y: frame.minY + 9), font: bold, color: theme.text, anchor: .start)
        for (value, label, color) in [
            (content.reviewThreshold, lot.reviewMark.filled(["fraction": LotReason.fraction(content.reviewThreshold)]), theme.limit),
            (1.0, lot.discardMark, theme.fail),
        ] {
            let markX = x(value)
            canvas.stroke(
                .segment(ChartPoint(x: markX, y: bar.minY - 3), ChartPoint(x: markX, y: bar.maxY + 3)), color: color,
                style: StrokeStyle(width: 1.5, cap: .butt))
            canvas.text(label, at: ChartPoint(x: markX, y: bar.minY - 5), font: font, color: color, anchor: value >= end * 0.9 ? .end : .middle)
        }
    }

    /// The journey in `frame`: one time axis over every leg, each leg's curve, the legs no
    /// valid sample covers shaded as unknown, the product's storage band, and the
    /// excursions that consumed the most highlighted with their fractions.
    public func drawJourney(in frame: ChartRect, on canvas: any Canvas) {
        let f = formatter
        let font = ChartFont(size: 7.5)
        let bold = ChartFont(size: 7.5, weight: .bold)
        canvas.fill(.rect(frame), color: theme.background)
        let plot = frame.inset(top: 26, left: 40, bottom: 40, right: 8)
        guard let start = content.legs.map(\.from).min(), let stop = content.legs.map(\.to).max(), stop > start else {
            canvas.text(strings.noData, at: ChartPoint(x: plot.midX, y: plot.midY), font: font, color: theme.secondaryText, anchor: .middle)
            return
        }
        let time = LinearScale(
            domain: start.timeIntervalSince1970...stop.timeIntervalSince1970, rangeStart: plot.minX, rangeEnd: plot.maxX)
        func x(_ date: Date) -> Double { time.position(date.timeIntervalSince1970) }

        // The temperature range: every valid sample inside a leg, and the storage band.
        var temperatures: [Double] = [content.storage?.low?.limit, content.storage?.high?.limit].compactMap { $0 }
        for leg in content.legs {
            for sample in leg.log?.samples ?? [] where sample.isValid && sample.time < leg.to && sample.time >= leg.from {
                if let value = sample.temperature { temperatures.append(value) }
            }
        }
        var low = temperatures.min() ?? 0
        var high = temperatures.max() ?? 10
        if high - low < 4 { (low, high) = (low - 2, high + 2) }
        let step = NiceTicks.step(span: high - low, count: 5)
        low = (low / step).rounded(.down) * step
        high = (high / step).rounded(.up) * step
        let y = LinearScale(domain: low...high, rangeStart: plot.maxY, rangeEnd: plot.minY)

        canvas.fill(.rect(plot), color: theme.plotBackground)
        if let storage = content.storage {
            let top = y.position(storage.high?.limit ?? high), bottom = y.position(storage.low?.limit ?? low)
            canvas.fill(.rect(ChartRect(x: plot.minX, y: top, width: plot.width, height: bottom - top)), color: theme.band)
        }
        // Unknown time: unlogged legs whole, and what no valid sample covers in a logged one;
        // hatched, so that it stays apart from the band and the consumers without colour.
        for leg in content.legs {
            for gap in Self.uncovered(leg) {
                let area = ChartRect(x: x(gap.start), y: plot.minY, width: x(gap.end) - x(gap.start), height: plot.height)
                canvas.fill(.rect(area), color: theme.gap)
                hatch(area, on: canvas)
            }
            if leg.log == nil || leg.logger == nil, x(leg.to) - x(leg.from) > canvas.textWidth(lot.unknown, font: font) + 4 {
                canvas.text(
                    lot.unknown, at: ChartPoint(x: (x(leg.from) + x(leg.to)) / 2, y: plot.midY), font: font, color: theme.secondaryText,
                    anchor: .middle)
            }
        }
        // The largest consumers: their spans now, their labels once the curves are known.
        let consumerSpans = largestConsumers.map { excursion in
            ChartRect(x: x(excursion.start), y: plot.minY, width: max(1.5, x(excursion.end) - x(excursion.start)), height: plot.height)
        }
        for span in consumerSpans {
            canvas.fill(.rect(span), color: theme.consumer)
            for edge in [span.minX, span.maxX] {
                canvas.stroke(
                    .segment(ChartPoint(x: edge, y: plot.minY), ChartPoint(x: edge, y: plot.maxY)), color: theme.consumerMark,
                    style: StrokeStyle(width: 0.8, cap: .butt))
            }
        }

        // Grid and the temperature axis.
        var grid = ChartPath()
        for value in NiceTicks.values(in: low...high, step: step) {
            let tickY = y.position(value)
            grid.move(to: ChartPoint(x: plot.minX, y: tickY))
            grid.line(to: ChartPoint(x: plot.maxX, y: tickY))
            canvas.text(
                f.number(value, decimals: NiceTicks.decimals(for: step)), at: ChartPoint(x: plot.minX - 4, y: tickY + 2.5), font: font,
                color: theme.secondaryText, anchor: .end)
        }
        canvas.stroke(grid, color: theme.grid, style: StrokeStyle(width: 0.5, cap: .butt))
        canvas.text("°C", at: ChartPoint(x: plot.minX - 4, y: plot.minY - 4), font: font, color: theme.secondaryText, anchor: .end)

        // The time axis: ticks on round local times, the day under the first tick of each day.
        let tickStep = TimeTicks.step(span: stop.timeIntervalSince(start), maxTicks: max(2, Int(plot.width / 55)))
        let tickDates = TimeTicks.dates(from: start, to: stop, step: tickStep, calendar: f.calendar)
        var lastDay = ""
        if let first = tickDates.first, f.day(first) != f.day(start), x(first) - plot.minX > 50 {
            // The journey's first day, when no tick falls on it.
            lastDay = f.day(start)
            canvas.text(lastDay, at: ChartPoint(x: plot.minX, y: plot.maxY + 22), font: bold, color: theme.text, anchor: .start)
        }
        var ticks = ChartPath()
        for tick in tickDates {
            let tickX = x(tick)
            ticks.move(to: ChartPoint(x: tickX, y: plot.maxY))
            ticks.line(to: ChartPoint(x: tickX, y: plot.maxY + 3))
            canvas.text(f.clock(tick), at: ChartPoint(x: tickX, y: plot.maxY + 12), font: font, color: theme.secondaryText, anchor: .middle)
            let day = f.day(tick)
            if day != lastDay {
                canvas.text(day, at: ChartPoint(x: tickX, y: plot.maxY + 22), font: bold, color: theme.text, anchor: .middle)
                lastDay = day
            }
        }
        canvas.stroke(ticks, color: theme.axis, style: StrokeStyle(width: 0.8, cap: .butt))

        // Each leg's curve (a sample stands for its interval), clipped to the leg; its
        // horizontal runs are kept to place the consumers' labels off the curve.
        var runs: [(from: Double, to: Double, y: Double)] = []
        for leg in content.legs {
            guard let log = leg.log, leg.logger != nil else { continue }
            let clip = ChartRect(x: x(leg.from), y: plot.minY, width: x(leg.to) - x(leg.from), height: plot.height)
            canvas.pushClip(clip)
            var path = ChartPath()
            var open = false
            var previousEnd: Date?
            for sample in log.samples {
                guard sample.isValid, let value = sample.temperature, sample.time < leg.to,
                    sample.time.addingTimeInterval(log.interval) > leg.from
                else {
                    open = false
                    continue
                }
                let sampleY = y.position(value)
                if open, let previousEnd, abs(sample.time.timeIntervalSince(previousEnd)) < 1 {
                    path.line(to: ChartPoint(x: x(sample.time), y: sampleY))
                } else {
                    path.move(to: ChartPoint(x: x(sample.time), y: sampleY))
                }
                let end = sample.time.addingTimeInterval(log.interval)
                path.line(to: ChartPoint(x: x(end), y: sampleY))
                runs.append((max(x(sample.time), x(leg.from)), min(x(end), x(leg.to)), sampleY))
                previousEnd = end
                open = true
            }
            canvas.stroke(path, color: theme.curve, style: StrokeStyle(width: 1.4, join: .round, cap: .butt))
            canvas.popClip()
        }

        // Each consumer's fraction where the curve is not: at the top of the plot, else at its
        // foot, on a backing so the curve never runs through the figures.
        for (excursion, span) in zip(largestConsumers, consumerSpans) {
            let label = LotReason.fraction(excursion.consumed)
            let width = canvas.textWidth(label, font: bold) + 4
            let left = span.midX - width / 2, right = span.midX + width / 2
            let crossing = runs.filter { $0.to >= left && $0.from <= right }.map(\.y)
            let baseline = Self.labelBaseline(
                curveYs: crossing, top: plot.minY + 10, bottom: plot.maxY - 3, height: 10)
            canvas.fill(.rect(ChartRect(x: left, y: baseline - 8.5, width: width, height: 11)), color: theme.plotBackground.withAlpha(0.85))
            canvas.text(label, at: ChartPoint(x: span.midX, y: baseline), font: bold, color: theme.consumerMark, anchor: .middle)
        }

        // The discard events, where they happened.
        for event in status.discardEvents {
            var mark = ChartPath()
            mark.addCircle(center: ChartPoint(x: x(event.time), y: y.position(event.temperature)), radius: 3.5)
            canvas.stroke(mark, color: theme.fail, style: StrokeStyle(width: 1.4))
        }

        // Leg boundaries and names.
        for (index, leg) in content.legs.enumerated() {
            let left = x(leg.from), right = x(leg.to)
            if index > 0 {
                canvas.stroke(
                    .segment(ChartPoint(x: left, y: plot.minY - 14), ChartPoint(x: left, y: plot.maxY)), color: theme.axis,
                    style: StrokeStyle(width: 0.8, dash: [3, 2], cap: .butt))
            }
            let room = right - left - 4
            let number = "\(index + 1)"
            var label = ReportPage.truncate(legTitle(index), width: room, font: bold, canvas: canvas)
            if label.count <= number.count + 2 { label = number }
            if canvas.textWidth(label, font: bold) <= room + 2 {
                canvas.text(
                    label, at: ChartPoint(x: left + 3, y: plot.minY - 5), font: bold, color: leg.logger == nil ? theme.secondaryText : theme.text,
                    anchor: .start)
            }
        }
        canvas.stroke(.rect(plot), color: theme.axis, style: StrokeStyle(width: 0.8))

        // Legend.
        var legendX = plot.minX
        let legendY = frame.maxY - 4
        func swatch(_ color: ChartColor, _ text: String, hatched: Bool = false, edge: ChartColor? = nil) {
            let box = ChartRect(x: legendX, y: legendY - 7, width: 10, height: 8)
            canvas.fill(.rect(box), color: color)
            if hatched { hatch(box, on: canvas) }
            canvas.stroke(.rect(box), color: edge ?? theme.axis, style: StrokeStyle(width: edge == nil ? 0.4 : 0.8))
            canvas.text(text, at: ChartPoint(x: legendX + 13, y: legendY), font: font, color: theme.secondaryText, anchor: .start)
            legendX += 13 + canvas.textWidth(text, font: font) + 14
        }
        if let storage = content.storage { swatch(theme.band, lot.storage.filled(["band": storage.description])) }
        swatch(theme.gap, lot.unknown, hatched: true)
        if !largestConsumers.isEmpty { swatch(theme.consumer, lot.largestConsumers, edge: theme.consumerMark) }
        if !status.discardEvents.isEmpty {
            var mark = ChartPath()
            mark.addCircle(center: ChartPoint(x: legendX + 5, y: legendY - 3), radius: 3.5)
            canvas.stroke(mark, color: theme.fail, style: StrokeStyle(width: 1.4))
            canvas.text(lot.sectionDiscard, at: ChartPoint(x: legendX + 13, y: legendY), font: font, color: theme.secondaryText, anchor: .start)
        }
    }

    /// Thin diagonal lines over `area`: unknown time's pattern.
    func hatch(_ area: ChartRect, on canvas: any Canvas) {
        guard area.width > 0, area.height > 0 else { return }
        canvas.pushClip(area)
        var lines = ChartPath()
        var offset = -area.height
        while offset < area.width {
            lines.move(to: ChartPoint(x: area.minX + offset, y: area.maxY))
            lines.line(to: ChartPoint(x: area.minX + offset + area.height, y: area.minY))
            offset += 6
        }
        canvas.stroke(lines, color: theme.axis.withAlpha(0.45), style: StrokeStyle(width: 0.5, cap: .butt))
        canvas.popClip()
    }

    /// The baseline of a label `height` high: `top` when the curve's heights `curveYs` under
    /// it leave that place free, else `bottom`, else `top` (on its backing).
    static func labelBaseline(curveYs: [Double], top: Double, bottom: Double, height: Double) -> Double {
        func clearance(_ baseline: Double) -> Double {
            let boxTop = baseline - height + 1, boxBottom = baseline + 2
            return curveYs.map { y in y < boxTop ? boxTop - y : y > boxBottom ? y - boxBottom : -1 }.min() ?? .infinity
        }
        if clearance(top) >= 2 { return top }
        if clearance(bottom) >= 2 { return bottom }
        return top
    }

    /// The stretches of a leg no valid sample covers (a sample covers its interval): the
    /// whole leg when nobody logged it.
    static func uncovered(_ leg: LotReportLeg) -> [DateInterval] {
        guard leg.logger != nil, let log = leg.log else { return [DateInterval(start: leg.from, end: leg.to)] }
        var gaps: [DateInterval] = []
        var covered = leg.from
        for sample in log.samples.sorted(by: { $0.time < $1.time }) where sample.isValid {
            let end = min(leg.to, sample.time.addingTimeInterval(log.interval))
            guard end > leg.from, sample.time < leg.to else { continue }
            if sample.time > covered { gaps.append(DateInterval(start: covered, end: sample.time)) }
            covered = max(covered, end)
        }
        if covered < leg.to { gaps.append(DateInterval(start: covered, end: leg.to)) }
        return gaps
    }
}
