import Foundation

/// Draws a `ChartModel` on a `Canvas`. All decisions are in the model; this only paints.
public enum ChartRenderer {
    /// Paints the chart inside `model.frame`, background included.
    public static func draw(_ model: ChartModel, on canvas: any Canvas) {
        let theme = model.theme
        let plot = model.plot
        let font = ChartFont(size: model.fontSize)
        let small = ChartFont(size: model.fontSize * 0.9)
        let lineHeight = model.fontSize * 1.25

        canvas.fill(.rect(model.frame), color: theme.background)
        if let title = model.title {
            canvas.text(
                title, at: ChartPoint(x: plot.minX, y: model.frame.minY + lineHeight * 1.1),
                font: ChartFont(size: model.fontSize * 1.15, weight: .bold), color: theme.text, anchor: .start)
        }
        canvas.fill(.rect(plot), color: theme.plotBackground)

        // Shading under everything else: band, gaps, excursion spans.
        if let band = model.band {
            canvas.fill(
                .rect(ChartRect(x: plot.minX, y: band.top, width: plot.width, height: band.bottom - band.top)),
                color: theme.band)
        }
        for gap in model.gaps where gap.x1 > gap.x0 {
            canvas.fill(
                .rect(ChartRect(x: gap.x0, y: plot.minY, width: gap.x1 - gap.x0, height: plot.height)),
                color: theme.gap)
        }
        for mark in model.excursions {
            canvas.fill(
                .rect(ChartRect(x: mark.x0, y: plot.minY, width: mark.x1 - mark.x0, height: plot.height)),
                color: theme.excursionShade)
        }

        // Summarised days: each day's min–max band, its mean as a line across it.
        for day in model.dayRanges where day.x1 > day.x0 {
            let band = ChartRect(x: day.x0, y: day.top, width: day.x1 - day.x0, height: max(1, day.bottom - day.top))
            canvas.fill(.rect(band), color: (day.beyond ? theme.beyond : theme.curve).withAlpha(0.3))
            canvas.stroke(
                .segment(ChartPoint(x: day.x0, y: day.mean), ChartPoint(x: day.x1, y: day.mean)),
                color: day.beyond ? theme.beyond : theme.curve, style: StrokeStyle(width: model.curveWidth, cap: .butt))
        }

        // Grid and tick labels.
        var grid = ChartPath()
        for tick in model.yTicks {
            let y = (tick.position.rounded(.down)) + 0.5
            grid.move(to: ChartPoint(x: plot.minX, y: y))
            grid.line(to: ChartPoint(x: plot.maxX, y: y))
        }
        for tick in model.xTicks {
            let x = (tick.position.rounded(.down)) + 0.5
            grid.move(to: ChartPoint(x: x, y: plot.minY))
            grid.line(to: ChartPoint(x: x, y: plot.maxY))
        }
        canvas.stroke(grid, color: theme.grid, style: StrokeStyle(width: 1, cap: .butt))
        for tick in model.yTicks {
            canvas.text(
                tick.label.first ?? "", at: ChartPoint(x: plot.minX - 7, y: tick.position + model.fontSize * 0.35),
                font: font, color: theme.secondaryText, anchor: .end)
        }
        canvas.text(
            model.yAxisTitle, at: ChartPoint(x: plot.minX - 7, y: plot.minY - model.fontSize * 0.25 - 2),
            font: small, color: theme.secondaryText, anchor: .end)
        let labelTop = plot.maxY + 6 + model.fontSize
        var tickMarks = ChartPath()
        for tick in model.xTicks {
            let x = (tick.position.rounded(.down)) + 0.5
            tickMarks.move(to: ChartPoint(x: x, y: plot.maxY))
            tickMarks.line(to: ChartPoint(x: x, y: plot.maxY + 4))
            for (line, text) in tick.label.enumerated() {
                canvas.text(
                    text, at: ChartPoint(x: tick.position, y: labelTop + Double(line) * lineHeight),
                    font: line == 0 ? font : small, color: line == 0 ? theme.secondaryText : theme.text,
                    anchor: .middle)
            }
        }
        canvas.stroke(tickMarks, color: theme.axis, style: StrokeStyle(width: 1, cap: .butt))
        canvas.text(
            model.xAxisTitle, at: ChartPoint(x: plot.midX, y: labelTop + lineHeight * 2.2),
            font: small, color: theme.secondaryText, anchor: .middle)

        // Axis frame.
        var axes = ChartPath()
        axes.move(to: ChartPoint(x: plot.minX + 0.5, y: plot.minY))
        axes.line(to: ChartPoint(x: plot.minX + 0.5, y: plot.maxY + 0.5))
        axes.line(to: ChartPoint(x: plot.maxX, y: plot.maxY + 0.5))
        canvas.stroke(axes, color: theme.axis, style: StrokeStyle(width: 1, join: .miter, cap: .butt))

        // Excursion marks on the time axis.
        for mark in model.excursions {
            canvas.fill(
                .rect(ChartRect(x: mark.x0, y: plot.maxY - 2, width: mark.x1 - mark.x0, height: 5)),
                color: theme.beyond)
        }

        // Limit rules.
        canvas.pushClip(plot)
        for rule in model.rules {
            canvas.stroke(
                .segment(ChartPoint(x: plot.minX, y: rule.y), ChartPoint(x: plot.maxX, y: rule.y)),
                color: theme.limit, style: StrokeStyle(width: 1.2, dash: [6, 4], cap: .butt))
        }
        canvas.popClip()

        // The curve: within limits first, beyond limits on top.
        canvas.pushClip(plot.inset(top: -2, left: -2, bottom: -2, right: -2))
        drawCurve(model, on: canvas)
        canvas.popClip()

        // Rule labels, above their line at the right end (below it when too close to the top).
        for rule in model.rules where rule.y >= plot.minY && rule.y <= plot.maxY {
            let baseline = rule.y - 4 - model.fontSize < plot.minY ? rule.y + model.fontSize + 3 : rule.y - 4
            labelWithHalo(
                rule.label, at: ChartPoint(x: plot.maxX - 4, y: baseline), font: small, color: theme.limit,
                anchor: .end, theme: theme, canvas: canvas)
        }

        // Extremes.
        for note in model.annotations {
            var marker = ChartPath()
            marker.addCircle(center: note.point, radius: 3.5)
            canvas.fill(marker, color: theme.background)
            canvas.stroke(marker, color: theme.text, style: StrokeStyle(width: 1.4))
            for (line, text) in note.label.enumerated() {
                labelWithHalo(
                    text, at: ChartPoint(x: note.labelOrigin.x, y: note.labelOrigin.y + Double(line) * lineHeight * 0.95),
                    font: line == 0 ? ChartFont(size: model.fontSize * 0.9, weight: .bold) : small,
                    color: line == 0 ? theme.text : theme.secondaryText, anchor: note.labelAnchor,
                    theme: theme, canvas: canvas)
            }
        }

        for gap in model.gaps {
            guard let label = gap.label else { continue }
            canvas.text(
                label, at: ChartPoint(x: (gap.x0 + gap.x1) / 2, y: plot.minY + model.fontSize * 1.1),
                font: ChartFont(size: model.fontSize * 0.8), color: theme.secondaryText, anchor: .middle)
        }

        if let message = model.message {
            canvas.text(
                message, at: ChartPoint(x: plot.midX, y: plot.midY), font: font, color: theme.secondaryText,
                anchor: .middle)
        }
    }

    /// Strokes only the curve (both styles), the part M4 must keep pixel-identical.
    public static func drawCurve(_ model: ChartModel, on canvas: any Canvas) {
        // Butt caps and bevel joins: straight-edged geometry whose union does not depend on
        // how many vertices lie on a vertical run, which keeps M4 output pixel-identical.
        let style = StrokeStyle(width: model.curveWidth, join: .bevel, cap: .butt)
        for pass in [CurveStyle.normal, .beyond] {
            let color = pass == .normal ? model.theme.curve : model.theme.beyond
            var path = ChartPath()
            var dots = ChartPath()
            for line in model.lines where line.style == pass {
                if line.points.count == 1 {
                    dots.addCircle(center: line.points[0], radius: model.curveWidth)
                } else {
                    path.append(polyline: line.points)
                }
            }
            if !path.elements.isEmpty { canvas.stroke(path, color: color, style: style) }
            if !dots.elements.isEmpty { canvas.fill(dots, color: color) }
        }
    }

    static func labelWithHalo(
        _ text: String, at point: ChartPoint, font: ChartFont, color: ChartColor, anchor: TextAnchor,
        theme: ChartTheme, canvas: any Canvas
    ) {
        let width = canvas.textWidth(text, font: font)
        let x0: Double
        switch anchor {
        case .start: x0 = point.x
        case .middle: x0 = point.x - width / 2
        case .end: x0 = point.x - width
        }
        canvas.fill(
            .rect(ChartRect(x: x0 - 2, y: point.y - font.size * 0.95, width: width + 4, height: font.size * 1.25)),
            color: theme.background.withAlpha(0.8))
        canvas.text(text, at: point, font: font, color: color, anchor: anchor)
    }
}

extension ChartPath {
    /// Adds an open polyline as a new sub-path.
    public mutating func append(polyline points: [ChartPoint]) {
        guard let first = points.first else { return }
        move(to: first)
        for point in points.dropFirst() { line(to: point) }
    }
}
