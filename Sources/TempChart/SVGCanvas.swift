import ColdTapBase
import Foundation

/// A `Canvas` that writes SVG 1.1 text, in pure Swift. Coordinates are written with two
/// decimals; text uses a sans-serif font stack with CJK fallbacks.
public final class SVGCanvas: Canvas {
    public let width: Double
    public let height: Double
    private var body: String = ""
    private var clipCount = 0
    private var openClips = 0
    /// The CSS font-family list written on text.
    public var fontFamily =
        "'DejaVu Sans', 'Noto Sans CJK SC', 'Noto Sans CJK JP', 'Helvetica Neue', Arial, 'PingFang SC', 'Hiragino Sans', 'Microsoft YaHei', sans-serif"

    /// A canvas of `width` × `height` user units.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
        body.reserveCapacity(64 * 1024)
    }

    public func fill(_ path: ChartPath, color: ChartColor) {
        let data = SVGCanvas.pathData(path, number: SVGCanvas.number)
        guard !data.isEmpty else { return }
        body += "<path d=\"\(data)\" fill=\"\(color.hexString)\"\(SVGCanvas.opacity("fill-opacity", color))/>\n"
    }

    public func stroke(_ path: ChartPath, color: ChartColor, style: StrokeStyle) {
        let data = SVGCanvas.pathData(path, number: SVGCanvas.number)
        guard !data.isEmpty else { return }
        var attributes = "fill=\"none\" stroke=\"\(color.hexString)\" stroke-width=\"\(SVGCanvas.number(style.width))\""
        attributes += SVGCanvas.opacity("stroke-opacity", color)
        switch style.join {
        case .miter: break
        case .round: attributes += " stroke-linejoin=\"round\""
        case .bevel: attributes += " stroke-linejoin=\"bevel\""
        }
        switch style.cap {
        case .butt: break
        case .round: attributes += " stroke-linecap=\"round\""
        case .square: attributes += " stroke-linecap=\"square\""
        }
        if !style.dash.isEmpty {
            attributes += " stroke-dasharray=\"\(style.dash.map(SVGCanvas.number).joined(separator: " "))\""
        }
        body += "<path d=\"\(data)\" \(attributes)/>\n"
    }

    public func text(_ string: String, at point: ChartPoint, font: ChartFont, color: ChartColor, anchor: TextAnchor) {
        var attributes = "x=\"\(SVGCanvas.number(point.x))\" y=\"\(SVGCanvas.number(point.y))\" font-size=\"\(SVGCanvas.number(font.size))\""
        if font.weight == .bold { attributes += " font-weight=\"bold\"" }
        if font.monospaced { attributes += " font-family=\"'DejaVu Sans Mono', monospace\"" }
        switch anchor {
        case .start: break
        case .middle: attributes += " text-anchor=\"middle\""
        case .end: attributes += " text-anchor=\"end\""
        }
        attributes += " fill=\"\(color.hexString)\"\(SVGCanvas.opacity("fill-opacity", color))"
        body += "<text \(attributes)>\(SVGCanvas.escape(string))</text>\n"
    }

    public func textWidth(_ string: String, font: ChartFont) -> Double {
        TextMetrics.estimatedWidth(string, font: font)
    }

    public func pushClip(_ rect: ChartRect) {
        clipCount += 1
        openClips += 1
        body +=
            "<clipPath id=\"c\(clipCount)\"><rect x=\"\(SVGCanvas.number(rect.x))\" y=\"\(SVGCanvas.number(rect.y))\" width=\"\(SVGCanvas.number(rect.width))\" height=\"\(SVGCanvas.number(rect.height))\"/></clipPath>\n"
        body += "<g clip-path=\"url(#c\(clipCount))\">\n"
    }

    public func popClip() {
        guard openClips > 0 else { return }
        openClips -= 1
        body += "</g>\n"
    }

    /// The SVG document. `embedded` leaves out the XML declaration (for inline SVG in HTML).
    public func document(embedded: Bool = false) -> String {
        var out = embedded ? "" : "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(SVGCanvas.number(width))\" height=\"\(SVGCanvas.number(height))\" viewBox=\"0 0 \(SVGCanvas.number(width)) \(SVGCanvas.number(height))\" font-family=\"\(fontFamily)\">\n"
        out += body
        out += String(repeating: "</g>\n", count: openClips)
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
