import ColdTapBase
import Foundation

/// A point in canvas units (pixels for raster output, points for PDF), origin top-left,
/// y growing downwards.
public struct ChartPoint: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// An axis-aligned rectangle in canvas units, origin top-left.
public struct ChartRect: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }

    /// The rectangle shrunk by the given amounts on each side (never below zero size).
    public func inset(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) -> ChartRect {
        ChartRect(x: x + left, y: y + top, width: max(0, width - left - right), height: max(0, height - top - bottom))
    }
}

/// An sRGB colour with straight (not premultiplied) alpha, each component 0...1.
public struct ChartColor: Sendable, Equatable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from a 24-bit `0xRRGGBB` value.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(
            red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255,
            blue: Double(hex & 0xFF) / 255, alpha: alpha)
    }

    /// The same colour with another alpha.
    public func withAlpha(_ alpha: Double) -> ChartColor {
        ChartColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// `#rrggbb` (alpha is not included; see `alpha`).
    public var hexString: String {
        func byte(_ v: Double) -> UInt8 { UInt8((min(1, max(0, v)) * 255).rounded()) }
        return "#" + [byte(red), byte(green), byte(blue)].hexString(uppercase: false)
    }
}

/// A vector path: straight segments and full circles, in canvas units.
public struct ChartPath: Sendable, Equatable {
    public enum Element: Sendable, Equatable {
        case move(ChartPoint)
        case line(ChartPoint)
        /// A full circle as its own closed sub-path.
        case circle(center: ChartPoint, radius: Double)
        case close
    }

    public private(set) var elements: [Element] = []

    public init() {}

    public mutating func move(to point: ChartPoint) { elements.append(.move(point)) }
    public mutating func line(to point: ChartPoint) { elements.append(.line(point)) }
    public mutating func addCircle(center: ChartPoint, radius: Double) {
        elements.append(.circle(center: center, radius: radius))
    }
    public mutating func close() { elements.append(.close) }

    /// A closed rectangle.
    public static func rect(_ rect: ChartRect) -> ChartPath {
        var path = ChartPath()
        path.move(to: ChartPoint(x: rect.minX, y: rect.minY))
        path.line(to: ChartPoint(x: rect.maxX, y: rect.minY))
        path.line(to: ChartPoint(x: rect.maxX, y: rect.maxY))
        path.line(to: ChartPoint(x: rect.minX, y: rect.maxY))
        path.close()
        return path
    }

    /// An open polyline through the points (empty path for no points).
    public static func polyline(_ points: [ChartPoint]) -> ChartPath {
        var path = ChartPath()
        path.elements.reserveCapacity(points.count)
        for (index, point) in points.enumerated() {
            path.elements.append(index == 0 ? .move(point) : .line(point))
        }
        return path
    }

    /// A straight segment.
    public static func segment(_ from: ChartPoint, _ to: ChartPoint) -> ChartPath {
        var path = ChartPath()
        path.move(to: from)
        path.line(to: to)
        return path
    }
}

/// A font request. The canvas picks the family: a sans-serif with Latin glyphs, and a CJK
/// font for Chinese and Japanese text.
public struct ChartFont: Sendable, Equatable {
    public enum Weight: Sendable, Equatable { case regular, bold }

    /// Size in canvas units (the em height).
    public var size: Double
    public var weight: Weight
    /// A fixed-width face (numbers in tables, terminal-like text).
    public var monospaced: Bool

    public init(size: Double, weight: Weight = .regular, monospaced: Bool = false) {
        self.size = size
        self.weight = weight
        self.monospaced = monospaced
    }
}

/// Where a text's anchor point sits on the text horizontally; vertically the anchor is
/// always on the baseline.
public enum TextAnchor: Sendable, Equatable {
    case start, middle, end
}

/// How a stroke looks.
public struct StrokeStyle: Sendable, Equatable {
    public enum Join: Sendable, Equatable { case miter, round, bevel }
    public enum Cap: Sendable, Equatable { case butt, round, square }

    /// Line width in canvas units.
    public var width: Double
    /// On/off lengths in canvas units; empty for a solid line.
    public var dash: [Double]
    public var join: Join
    public var cap: Cap

    public init(width: Double, dash: [Double] = [], join: Join = .round, cap: Cap = .round) {
        self.width = width
        self.dash = dash
        self.join = join
        self.cap = cap
    }
}

/// A drawing surface. The chart and the report are drawn only through these calls, so
/// every back end (SVG, Cairo PNG/PDF, Core Graphics) draws the same picture.
///
/// Coordinates are in canvas units with the origin top-left and y growing downwards.
/// Calls draw in order (later calls paint over earlier ones). Canvases are reference
/// types because they wrap a drawing context.
public protocol Canvas: AnyObject {
    /// The drawable width in canvas units.
    var width: Double { get }
    /// The drawable height in canvas units.
    var height: Double { get }

    /// Fills the path (non-zero winding rule).
    func fill(_ path: ChartPath, color: ChartColor)

    /// Strokes the path.
    func stroke(_ path: ChartPath, color: ChartColor, style: StrokeStyle)

    /// Draws one line of text with its baseline at `point.y`, anchored horizontally at `point.x`.
    func text(_ string: String, at point: ChartPoint, font: ChartFont, color: ChartColor, anchor: TextAnchor)

    /// The advance width of one line of text in canvas units. Canvases without font
    /// metrics (SVG) return `TextMetrics.estimatedWidth`.
    func textWidth(_ string: String, font: ChartFont) -> Double

    /// Restricts drawing to the rectangle until the matching `popClip()`. Clips nest.
    func pushClip(_ rect: ChartRect)

    /// Ends the innermost `pushClip`.
    func popClip()
}

/// Text width estimates for canvases without font metrics and for layout decided before
/// drawing. Tuned on DejaVu Sans (Latin) and Noto Sans CJK (ideographs, kana).
public enum TextMetrics {
    /// Estimated advance width of `string` at `font`, in canvas units.
    public static func estimatedWidth(_ string: String, font: ChartFont) -> Double {
        var ems = 0.0
        for scalar in string.unicodeScalars {
            ems += font.monospaced ? (isWide(scalar) ? 1.0 : 0.602) : emWidth(scalar)
        }
        return ems * font.size * (font.weight == .bold && !font.monospaced ? 1.08 : 1)
    }

    /// True for East Asian wide characters (CJK ideographs, kana, full-width forms).
    public static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x20000...0x3FFFD).contains(v)
    }

    private static func emWidth(_ scalar: Unicode.Scalar) -> Double {
        if isWide(scalar) { return 1.0 }
        switch scalar {
        case " ": return 0.318
        case ".", ",", ":", ";", "'", "|", "i", "l", "j", "!": return 0.30
        case "f", "t", "r", "(", ")", "[", "]", "-", "/": return 0.40
        case "m", "w", "M", "W", "%", "@": return 0.88
        case "0"..."9": return 0.636
        case "A"..."Z": return 0.70
        case "°": return 0.50
        default: return 0.60
        }
    }
}
