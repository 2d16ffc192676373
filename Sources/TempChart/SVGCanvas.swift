import ColdTapBase
import Foundation

/// A `Canvas` that writes SVG 1.1 text, in pure Swift: ColdTap's one SVG writer. The report's
/// chart file paints with fixed colours and two decimals (`Style.file`); the station's pages
/// paint with CSS classes so that one picture follows the page's light or dark scheme
/// (their `Style`); both write the same elements from the same strokes.
public final class SVGCanvas: Canvas {
    /// How colours are painted and numbers and text written.
    public struct Style: Sendable {
        /// The attribute that fills with `color` (` fill="#…"`, or a class).
        public var fill: @Sendable (ChartColor) -> String
        /// The attribute that strokes with `color`, written before `stroke-width`, and what
        /// follows the width (an opacity).
        public var stroke: @Sendable (ChartColor) -> (beforeWidth: String, afterWidth: String)
        /// How finely coordinates are written (a plain value: formatting a number is the hot
        /// path of a chart, so it is a switch the compiler inlines, not a stored closure).
        public var precision: Precision
        public var escape: @Sendable (String) -> String
        /// What ends each element (a newline, or nothing for inline SVG).
        public var lineEnd: String
        /// The ids of clip paths: the prefix and a number (unique within a page).
        public var clipPrefix: String
        /// Monospaced text names its font family.
        public var namesMonospacedFamily: Bool

        public init(
            fill: @escaping @Sendable (ChartColor) -> String,
            stroke: @escaping @Sendable (ChartColor) -> (beforeWidth: String, afterWidth: String),
            precision: Precision, escape: @escaping @Sendable (String) -> String,
            lineEnd: String, clipPrefix: String, namesMonospacedFamily: Bool
        ) {
            self.fill = fill
            self.stroke = stroke
            self.precision = precision
            self.escape = escape
            self.lineEnd = lineEnd
            self.clipPrefix = clipPrefix
            self.namesMonospacedFamily = namesMonospacedFamily
        }

        /// A chart file: fixed colours with their opacity, two decimals, one element a line.
        public static let file = Style(
            fill: { "fill=\"\($0.hexString)\"\(SVGCanvas.opacity("fill-opacity", $0))" },
            stroke: { ("stroke=\"\($0.hexString)\"", SVGCanvas.opacity("stroke-opacity", $0)) },
            precision: .hundredths, escape: SVGCanvas.escape, lineEnd: "\n", clipPrefix: "c", namesMonospacedFamily: true)
    }

    public let width: Double
    public let height: Double
    public let style: Style
    private var body: String = ""
    private var clipCount = 0
    private var openClips = 0
    /// The CSS font-family list written on the document.
    public var fontFamily =
        "'DejaVu Sans', 'Noto Sans CJK SC', 'Noto Sans CJK JP', 'Helvetica Neue', Arial, 'PingFang SC', 'Hiragino Sans', 'Microsoft YaHei', sans-serif"

    /// A canvas of `width` × `height` user units.
    public init(width: Double, height: Double, style: Style = .file) {
        self.width = width
        self.height = height
        self.style = style
        body.reserveCapacity(64 * 1024)
    }

    public func fill(_ path: ChartPath, color: ChartColor) {
        let data = SVGCanvas.pathData(path, precision: style.precision)
        guard !data.isEmpty else { return }
        body += "<path d=\"\(data)\" \(style.fill(color))/>" + style.lineEnd
    }

    public func stroke(_ path: ChartPath, color: ChartColor, style strokeStyle: StrokeStyle) {
        let data = SVGCanvas.pathData(path, precision: style.precision)
        guard !data.isEmpty else { return }
        let paint = style.stroke(color)
        var attributes = "fill=\"none\" \(paint.beforeWidth) stroke-width=\"\(style.precision.format(strokeStyle.width))\"" + paint.afterWidth
        switch strokeStyle.join {
        case .miter: break
        case .round: attributes += " stroke-linejoin=\"round\""
        case .bevel: attributes += " stroke-linejoin=\"bevel\""
        }
        switch strokeStyle.cap {
        case .butt: break
        case .round: attributes += " stroke-linecap=\"round\""
        case .square: attributes += " stroke-linecap=\"square\""
        }
        if !strokeStyle.dash.isEmpty {
            attributes += " stroke-dasharray=\"\(strokeStyle.dash.map(style.precision.format).joined(separator: " "))\""
        }
        body += "<path d=\"\(data)\" \(attributes)/>" + style.lineEnd
    }

    public func text(_ string: String, at point: ChartPoint, font: ChartFont, color: ChartColor, anchor: TextAnchor) {
        let number = style.precision.format
        var attributes = "x=\"\(number(point.x))\" y=\"\(number(point.y))\" font-size=\"\(number(font.size))\""
        if font.weight == .bold { attributes += " font-weight=\"bold\"" }
        if font.monospaced && style.namesMonospacedFamily { attributes += " font-family=\"'DejaVu Sans Mono', monospace\"" }
        switch anchor {
        case .start: break
        case .middle: attributes += " text-anchor=\"middle\""
        case .end: attributes += " text-anchor=\"end\""
        }
        body += "<text \(attributes) \(style.fill(color))>\(style.escape(string))</text>" + style.lineEnd
    }

    public func textWidth(_ string: String, font: ChartFont) -> Double {
        TextMetrics.estimatedWidth(string, font: font)
    }

    public func pushClip(_ rect: ChartRect) {
        clipCount += 1
        openClips += 1
        let number = style.precision.format, id = "\(style.clipPrefix)\(clipCount)"
        body +=
            "<clipPath id=\"\(id)\"><rect x=\"\(number(rect.x))\" y=\"\(number(rect.y))\" width=\"\(number(rect.width))\" height=\"\(number(rect.height))\"/></clipPath>"
            + style.lineEnd + "<g clip-path=\"url(#\(id))\">" + style.lineEnd
    }

    public func popClip() {
        guard openClips > 0 else { return }
        openClips -= 1
        body += "</g>" + style.lineEnd
    }

    /// What was drawn, every clip group closed: the content of an `<svg>` element.
    public var content: String {
        body + String(repeating: "</g>" + style.lineEnd, count: openClips)
    }

    /// The SVG document. `embedded` leaves out the XML declaration (for inline SVG in HTML).
    public func document(embedded: Bool = false) -> String {
        var out = embedded ? "" : "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(style.precision.format(width))\" height=\"\(style.precision.format(height))\" viewBox=\"0 0 \(style.precision.format(width)) \(style.precision.format(height))\" font-family=\"\(fontFamily)\">\n"
        out += content
        out += "</svg>\n"
        return out
    }

    // MARK: - Formatting

    static func opacity(_ attribute: String, _ color: ChartColor) -> String {
        color.alpha >= 1 ? "" : " \(attribute)=\"\(number(color.alpha))\""
    }

    /// A coordinate with at most two decimals and no trailing zeros.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let hundredths = (value * 100).rounded()
        let whole = Int(hundredths) / 100
        let fraction = abs(Int(hundredths)) % 100
        let sign = hundredths < 0 && whole == 0 ? "-" : ""
        if fraction == 0 { return "\(sign)\(whole)" }
        if fraction % 10 == 0 { return "\(sign)\(whole).\(fraction / 10)" }
        return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// How finely coordinates are written: hundredths (chart files) or tenths of a CSS
    /// pixel (the station's inline charts), trailing zeros dropped.
    public enum Precision: Sendable {
        case hundredths, tenths

        @inline(__always)
        public func format(_ value: Double) -> String {
            switch self {
            case .hundredths: return SVGCanvas.number(value)
            case .tenths: return SVGCanvas.tenths(value)
            }
        }
    }

    /// A coordinate with at most one decimal.
    public static func tenths(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let tenths = Int((value * 10).rounded())
        let whole = tenths / 10, fraction = abs(tenths % 10)
        let sign = tenths < 0 && whole == 0 ? "-" : ""
        return fraction == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }

    /// `pathData(_:number:)` at `precision`.
    public static func pathData(_ path: ChartPath, precision: Precision) -> String {
        switch precision {
        case .hundredths: return pathData(path, number: number)
        case .tenths: return pathData(path, number: tenths)
        }
    }

    /// The SVG path data of `path`, its coordinates written by `number` (the station's pages
    /// round to tenths; the report SVG keeps hundredths).
    public static func pathData(_ path: ChartPath, number: (Double) -> String) -> String {
        var out = ""
        for element in path.elements {
            switch element {
            case .move(let p): out += "M\(number(p.x)) \(number(p.y))"
            case .line(let p): out += "L\(number(p.x)) \(number(p.y))"
            case .circle(let c, let r):
                out +=
                    "M\(number(c.x - r)) \(number(c.y))a\(number(r)) \(number(r)) 0 1 0 \(number(2 * r)) 0a\(number(r)) \(number(r)) 0 1 0 \(number(-2 * r)) 0Z"
            case .close: out += "Z"
            }
        }
        return out
    }

    /// Escapes text for XML character data and attributes.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
