#if canImport(CoreGraphics) && canImport(CoreText) && canImport(ImageIO)
    import CoreGraphics
    import CoreText
    import Foundation
    import ImageIO

    /// A `Canvas` drawing into a Core Graphics context: the iPhone app's chart view, and PNG
    /// and PDF output on Apple platforms (Cairo plays this part on Linux).
    ///
    /// Canvas units map to the context's user space units (points for PDF and UIKit; pixels
    /// for a bitmap of scale 1). Text goes through Core Text, which falls back to a CJK font
    /// for Chinese and Japanese by itself.
    public final class CoreGraphicsCanvas: Canvas {
        public let context: CGContext
        public let width: Double
        public let height: Double
        private var clipDepth = 0

        /// - Parameters:
        ///   - context: the context to draw into.
        ///   - width: drawable width in canvas units.
        ///   - height: drawable height in canvas units.
        ///   - originTopLeft: true when the context already has its origin top-left with y
        ///     growing downwards (UIKit's contexts); false for bare bitmap and PDF contexts,
        ///     which the canvas flips once so that the chart's coordinates apply.
        public init(context: CGContext, width: Double, height: Double, originTopLeft: Bool) {
            self.context = context
            self.width = width
            self.height = height
            if !originTopLeft {
                context.translateBy(x: 0, y: CGFloat(height))
                context.scaleBy(x: 1, y: -1)
            }
        }

        public func fill(_ path: ChartPath, color: ChartColor) {
            context.addPath(Self.cgPath(path))
            context.setFillColor(Self.cgColor(color))
            context.fillPath(using: .winding)
        }

        public func stroke(_ path: ChartPath, color: ChartColor, style: StrokeStyle) {
            context.addPath(Self.cgPath(path))
            context.setStrokeColor(Self.cgColor(color))
            context.setLineWidth(CGFloat(style.width))
            context.setLineDash(phase: 0, lengths: style.dash.map { CGFloat($0) })
            switch style.join {
            case .miter: context.setLineJoin(.miter)
            case .round: context.setLineJoin(.round)
            case .bevel: context.setLineJoin(.bevel)
            }
            switch style.cap {
            case .butt: context.setLineCap(.butt)
            case .round: context.setLineCap(.round)
            case .square: context.setLineCap(.square)
            }
            context.strokePath()
        }

        public func text(_ string: String, at point: ChartPoint, font: ChartFont, color: ChartColor, anchor: TextAnchor) {
            let line = Self.line(string, font: font, color: color)
            let advance = CTLineGetTypographicBounds(line, nil, nil, nil)
            let x: Double
            switch anchor {
            case .start: x = point.x
            case .middle: x = point.x - advance / 2
            case .end: x = point.x - advance
            }
            context.saveGState()
            // The canvas space is y-down; Core Text draws y-up from the baseline.
            context.translateBy(x: CGFloat(x), y: CGFloat(point.y))
            context.scaleBy(x: 1, y: -1)
            context.textMatrix = .identity
            context.textPosition = .zero
            CTLineDraw(line, context)
            context.restoreGState()
        }

        public func textWidth(_ string: String, font: ChartFont) -> Double {
            CTLineGetTypographicBounds(Self.line(string, font: font, color: ChartColor(hex: 0)), nil, nil, nil)
        }

        public func pushClip(_ rect: ChartRect) {
            context.saveGState()
            clipDepth += 1
            context.clip(to: CGRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height))
        }

        public func popClip() {
            guard clipDepth > 0 else { return }
            clipDepth -= 1
            context.restoreGState()
        }

        // MARK: Conversions

        static func cgPath(_ path: ChartPath) -> CGPath {
            let result = CGMutablePath()
            for element in path.elements {
                switch element {
                case .move(let p):
                    result.move(to: CGPoint(x: p.x, y: p.y))
                case .line(let p):
                    if result.isEmpty { result.move(to: CGPoint(x: p.x, y: p.y)) } else { result.addLine(to: CGPoint(x: p.x, y: p.y)) }
                case .circle(let center, let radius):
                    result.addEllipse(in: CGRect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
                case .close:
                    if !result.isEmpty { result.closeSubpath() }
                }
            }
            return result
        }

        static func cgColor(_ color: ChartColor) -> CGColor {
            CGColor(srgbRed: CGFloat(color.red), green: CGFloat(color.green), blue: CGFloat(color.blue), alpha: CGFloat(color.alpha))
        }

        static func ctFont(_ font: ChartFont) -> CTFont {
            let size = CGFloat(font.size)
            if font.monospaced {
                let mono = CTFontCreateWithName("Menlo-Regular" as CFString, size, nil)
                guard font.weight == .bold else { return mono }
                return CTFontCreateCopyWithSymbolicTraits(mono, size, nil, .traitBold, .traitBold) ?? mono
            }
            return CTFontCreateUIFontForLanguage(font.weight == .bold ? .emphasizedSystem : .system, size, nil)
                ?? CTFontCreateWithName("Helvetica" as CFString, size, nil)
        }

        static func line(_ string: String, font: ChartFont, color: ChartColor) -> CTLine {
            let attributes: [NSAttributedString.Key: Any] = [
                NSAttributedString.Key(kCTFontAttributeName as String): ctFont(font),
                NSAttributedString.Key(kCTForegroundColorAttributeName as String): cgColor(color),
            ]
            return CTLineCreateWithAttributedString(NSAttributedString(string: string, attributes: attributes) as CFAttributedString)
        }
    }

    /// Why a Core Graphics output could not be made.
    public struct CoreGraphicsOutputError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    extension CoreGraphicsCanvas {
        /// Draws pages into a PDF document.
        /// - Parameters:
        ///   - width: page width in points.
        ///   - height: page height in points.
        ///   - pageCount: number of pages.
        ///   - draw: draws page `index` on the canvas.
        /// - Throws: `CoreGraphicsOutputError` when Core Graphics cannot create the document.
        public static func pdf(
            width: Double, height: Double, pageCount: Int,
            draw: (_ canvas: CoreGraphicsCanvas, _ index: Int) -> Void
        ) throws -> Data {
            let data = NSMutableData()
            var box = CGRect(x: 0, y: 0, width: width, height: height)
            guard let consumer = CGDataConsumer(data: data as CFMutableData),
                let context = CGContext(consumer: consumer, mediaBox: &box, nil)
            else {
                throw CoreGraphicsOutputError(description: "Core Graphics could not create a PDF context")
            }
            for index in 0..<max(pageCount, 1) {
                context.beginPDFPage(nil)
                context.saveGState()
                draw(CoreGraphicsCanvas(context: context, width: width, height: height, originTopLeft: false), index)
                context.restoreGState()
                context.endPDFPage()
            }
            context.closePDF()
            return data as Data
        }

        /// A PDF whose drawing starts its own pages: `newPage` ends the page being drawn and
        /// begins the next (the report's audit pages are counted only while they are laid out).
        /// - Throws: `CoreGraphicsOutputError` when the PDF context cannot be made.
        public static func pdf(
            width: Double, height: Double,
            draw: (_ canvas: CoreGraphicsCanvas, _ newPage: () -> Void) -> Void
        ) throws -> Data {
            let data = NSMutableData()
            var box = CGRect(x: 0, y: 0, width: width, height: height)
            guard let consumer = CGDataConsumer(data: data as CFMutableData),
                let context = CGContext(consumer: consumer, mediaBox: &box, nil)
            else {
                throw CoreGraphicsOutputError(description: "Core Graphics could not create a PDF context")
            }
            context.beginPDFPage(nil)
            context.saveGState()
            // The canvas flips the page once; every new PDF page starts with a fresh transform.
            let canvas = CoreGraphicsCanvas(context: context, width: width, height: height, originTopLeft: false)
            draw(canvas) {
                context.restoreGState()
                context.endPDFPage()
                context.beginPDFPage(nil)
                context.saveGState()
                context.translateBy(x: 0, y: CGFloat(height))
                context.scaleBy(x: 1, y: -1)
            }
            context.restoreGState()
            context.endPDFPage()
            context.closePDF()
            return data as Data
        }

        /// Draws into a bitmap and encodes it as PNG.
        /// - Parameters:
        ///   - width: image width in canvas units.
        ///   - height: image height in canvas units.
        ///   - scale: pixels per canvas unit.
        /// - Throws: `CoreGraphicsOutputError` when the bitmap or the PNG cannot be made.
        public static func png(
            width: Double, height: Double, scale: Double = 2,
            draw: (_ canvas: CoreGraphicsCanvas) -> Void
        ) throws -> Data {
            guard let image = image(width: width, height: height, scale: scale, draw: draw) else {
                throw CoreGraphicsOutputError(description: "Core Graphics could not create a \(Int(width))×\(Int(height)) bitmap")
            }
            let data = NSMutableData()
            guard let destination = CGImageDestinationCreateWithData(data as CFMutableData, "public.png" as CFString, 1, nil) else {
                throw CoreGraphicsOutputError(description: "ImageIO cannot write PNG")
            }
            CGImageDestinationAddImage(destination, image, nil)
            guard CGImageDestinationFinalize(destination) else {
                throw CoreGraphicsOutputError(description: "ImageIO failed to encode the PNG")
            }
            return data as Data
        }

        /// Draws into a new sRGB bitmap of `width × scale` by `height × scale` pixels.
        /// - Returns: the image, or `nil` for an empty size or when Core Graphics cannot allocate it.
        public static func image(
            width: Double, height: Double, scale: Double,
            draw: (_ canvas: CoreGraphicsCanvas) -> Void
        ) -> CGImage? {
            let pixelWidth = Int((width * scale).rounded(.up)), pixelHeight = Int((height * scale).rounded(.up))
            guard pixelWidth > 0, pixelHeight > 0,
                let space = CGColorSpace(name: CGColorSpace.sRGB),
                let context = CGContext(
                    data: nil, width: pixelWidth, height: pixelHeight, bitsPerComponent: 8,
                    bytesPerRow: 0, space: space,
                    bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
            else {
                return nil
            }
            context.scaleBy(x: CGFloat(scale), y: CGFloat(scale))
            draw(CoreGraphicsCanvas(context: context, width: width, height: height, originTopLeft: false))
            return context.makeImage()
        }
    }
#endif
