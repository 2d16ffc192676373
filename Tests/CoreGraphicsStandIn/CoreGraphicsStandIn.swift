// Stand-in declarations of exactly the Core Graphics API that Apps/iOS/ColdTap uses, for
// checking only: scripts/test-ios-app-typecheck.sh compiles the app's files against this
// module on Linux (they import it when CoreGraphics cannot be imported). Nothing here runs.
// `CGSize`, `CGRect` and `CGFloat` come from Linux's Foundation, which declares them as Core
// Graphics does. `CoreGraphicsCanvas` is not Apple's: it is TempChart's Core Graphics canvas
// (Sources/TempChart/CoreGraphicsCanvas.swift), compiled only where Core Graphics exists; its
// one entry point the app calls is declared here with the same signature, and
// scripts/test-ios-app-typecheck.sh fails when that signature and the source's differ.

import Foundation
import TempChart

/// https://developer.apple.com/documentation/coregraphics/cgimage
/// (`Sendable` as Apple's SDK marks it is not assumed: the app hands images across with its
/// own `@unchecked Sendable` box)
public final class CGImage {
    private init() {}
}

/// TempChart's `CoreGraphicsCanvas` (Sources/TempChart/CoreGraphicsCanvas.swift): the signature
/// the app calls; its drawing is TempChart's, tested through the `Canvas` protocol.
public final class CoreGraphicsCanvas: Canvas {
    public let width: Double
    public let height: Double

    private init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    // The rest of TempChart's `Canvas` (shape of the conformance the draw closure relies on).
    public func fill(_ path: ChartPath, color: ChartColor) {}
    public func stroke(_ path: ChartPath, color: ChartColor, style: StrokeStyle) {}
    public func text(_ string: String, at point: ChartPoint, font: ChartFont, color: ChartColor, anchor: TextAnchor) {}
    public func textWidth(_ string: String, font: ChartFont) -> Double { 0 }
    public func pushClip(_ rect: ChartRect) {}
    public func popClip() {}

    // Signature checked against Sources/TempChart/CoreGraphicsCanvas.swift by the script.
    public static func image(
        width: Double, height: Double, scale: Double,
        draw: (_ canvas: CoreGraphicsCanvas) -> Void
    ) -> CGImage? {
        nil
    }
}
