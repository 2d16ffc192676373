import ColdTapBase
import Foundation
import TempChart

/// TempChart's chart model as inline SVG whose colours are CSS classes instead of fixed
/// colours, so that one picture follows the page's light or dark scheme (and prints light):
/// the model is drawn with `keyTheme`, whose every colour is a distinct key, on TempChart's
/// `SVGCanvas` with a style that writes the key's class; `css` gives each class the colour of
/// `ChartTheme.light` or `.dark`.
enum WebSVG {
    /// The pages' canvas style: classes for colours, tenths, inline (no line ends).
    static let style = SVGCanvas.Style(
        fill: { "class=\"f-\(role(of: $0))\"" }, stroke: { ("class=\"s-\(role(of: $0))\"", "") }, precision: .tenths,
        escape: HTML.escape, lineEnd: "", clipPrefix: clipPrefix, namesMonospacedFamily: false)

    /// Inline `<svg>` of what `canvas` drew: scales to its box's width, keeps its proportions.
    static func element(_ canvas: SVGCanvas, label: String, cssClass: String) -> String {
        "<svg class=\"\(cssClass)\" viewBox=\"0 0 \(number(canvas.width)) \(number(canvas.height))\" role=\"img\" aria-label=\"\(HTML.escape(label))\">"
            + canvas.content + "</svg>"
    }

    static let clipPrefix = "chartclip"

    /// The theme roles the chart paints with, in `ChartTheme` order.
    static let roles = [
        "bg", "plot", "text", "text2", "grid", "axis", "band", "limit", "curve", "beyond", "gap", "shade",
        "pass", "fail", "inconclusive", "onbanner", "stripe",
    ]

    static func colors(_ theme: ChartTheme) -> [ChartColor] {
        [
            theme.background, theme.plotBackground, theme.text, theme.secondaryText, theme.grid, theme.axis, theme.band, theme.limit,
            theme.curve, theme.beyond, theme.gap, theme.excursionShade, theme.pass, theme.fail, theme.inconclusive, theme.onBanner,
            theme.tableStripe,
        ]
    }

    /// A theme whose colour number i is (i/255, 0, 0) at full opacity; the renderer's
    /// `withAlpha` halos keep the key in the red channel.
    static let keyTheme: ChartTheme = {
        var theme = ChartTheme.light
        let keys = (0..<roles.count).map { ChartColor(red: Double($0) / 255, green: 0, blue: 0) }
        theme.background = keys[0]; theme.plotBackground = keys[1]; theme.text = keys[2]; theme.secondaryText = keys[3]
        theme.grid = keys[4]; theme.axis = keys[5]; theme.band = keys[6]; theme.limit = keys[7]; theme.curve = keys[8]
        theme.beyond = keys[9]; theme.gap = keys[10]; theme.excursionShade = keys[11]; theme.pass = keys[12]; theme.fail = keys[13]
        theme.inconclusive = keys[14]; theme.onBanner = keys[15]; theme.tableStripe = keys[16]
        theme.name = "web"
        return theme
    }()

    static func role(of color: ChartColor) -> String {
        let index = Int((color.red * 255).rounded())
        let role = roles.indices.contains(index) ? roles[index] : "text"
        // A halo behind a label: the background at 80 %.
        return color.alpha < 1 && role == "bg" ? "halo" : role
    }

    /// `.f-ROLE{fill:…}` and `.s-ROLE{stroke:…}` for one theme.
    static func css(_ theme: ChartTheme) -> String {
        var out = ""
        for (role, color) in zip(roles, colors(theme)) {
            let alpha = String(format: "%.2f", color.alpha)
            let opacity = color.alpha < 1 ? ";fill-opacity:\(alpha)" : ""
            let strokeOpacity = color.alpha < 1 ? ";stroke-opacity:\(alpha)" : ""
            out += ".f-\(role){fill:\(color.hexString)\(opacity)}.s-\(role){stroke:\(color.hexString)\(strokeOpacity)}"
        }
        out += ".f-halo{fill:\(theme.background.hexString);fill-opacity:.8}"
        return out
    }

    /// A coordinate with at most one decimal (a tenth of a CSS pixel at the chart's size).
    static func number(_ value: Double) -> String { SVGCanvas.tenths(value) }

    static func pathData(_ path: ChartPath) -> String { SVGCanvas.pathData(path, precision: .tenths) }

    /// The whole chart of the reports for `spec` (its theme replaced by the key theme).
    static func chart(_ spec: ChartSpec, label: String) -> String {
        var spec = spec
        spec.theme = keyTheme
        let model = ChartModel(spec)
        let canvas = SVGCanvas(width: spec.frame.width, height: spec.frame.height, style: style)
        ChartRenderer.draw(model, on: canvas)
        return element(canvas, label: label, cssClass: "chart")
    }

    /// A sparkline of `series`: TempChart's curve split (at the limits and at gaps, as the
    /// report chart splits it) M4-reduced to its columns — per column the first, lowest,
    /// highest and last point — so a year of samples is at most four points per column.
    /// Coordinates are whole tenths of a CSS pixel (the view box is ten times the size), so
    /// they are written as integers.
    static func sparkline(
        _ series: ChartSeries, from: Double, to: Double, lower: Double?, upper: Double?, label: String,
        width: Double = 160, height: Double = 36
    ) -> String {
        let (runs, _) = CurveSplitter.split(series, lower: lower, upper: upper)
        var low = Double.infinity, high = -Double.infinity
        for value in series.values where value.isFinite { low = min(low, value); high = max(high, value) }
        if let lower { low = min(low, lower); high = max(high, lower) }
        if let upper { low = min(low, upper); high = max(high, upper) }
        if !low.isFinite || !high.isFinite { low = 0; high = 1 }
        let pad = max((high - low) * 0.08, 0.5)
        let w = width * 10, h = height * 10
        let x = LinearScale(domain: from...(to > from ? to : from + 1), rangeStart: 10, rangeEnd: w - 10)
        let y = LinearScale(domain: (low - pad)...(high + pad), rangeStart: h - 10, rangeEnd: 10)
        var out = "<svg class=\"spark\" viewBox=\"0 0 \(Int(w)) \(Int(h))\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"\(HTML.escape(label))\">"
        if lower != nil || upper != nil {
            let top = Int(y.position(upper ?? (high + pad)).rounded()), bottom = Int(y.position(lower ?? (low - pad)).rounded())
            out += "<rect x=\"0\" y=\"\(top)\" width=\"\(Int(w))\" height=\"\(max(0, bottom - top))\" class=\"f-band\"/>"
        }
        for pass in [CurveStyle.normal, .beyond] {
            var data = ""
            data.reserveCapacity(2048)
            for run in runs where run.style == pass && !run.times.isEmpty {
                var count = 0
                var previous = (Int.min, Int.min)
                func emit(_ point: (Int, Int)) {
                    guard point != previous else { return }
                    data += count == 0 ? "M" : "L"
                    data += String(point.0)
                    data += " "
                    data += String(point.1)
                    previous = point
                    count += 1
                }
                // M4 over 1-pixel columns (10 units).
                var column = Int.min
                var first = (0, 0), lowest = (0, 0), highest = (0, 0), last = (0, 0)
                func flush() {
                    guard column != Int.min else { return }
                    let middle = lowest.0 <= highest.0 ? [lowest, highest] : [highest, lowest]
                    emit(first); emit(middle[0]); emit(middle[1]); emit(last)
                }
                for (time, value) in zip(run.times, run.values) {
                    let point = (Int(x.position(time).rounded()), Int(y.position(value).rounded()))
                    let index = point.0 / 10
                    if index != column {
                        flush()
                        column = index
                        first = point; lowest = point; highest = point
                    }
                    if point.1 > lowest.1 { lowest = point }
                    if point.1 < highest.1 { highest = point }
                    last = point
                }
                flush()
                if count == 1 { data += "h10" }
            }
            if !data.isEmpty {
                out += "<path d=\"\(data)\" fill=\"none\" class=\"s-\(pass == .normal ? "curve" : "beyond")\" stroke-width=\"16\" stroke-linejoin=\"round\"/>"
            }
        }
        return out + "</svg>"
    }
}
