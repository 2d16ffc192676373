import Foundation
import TempChart

/// The chart's text under Dynamic Type: the result screen's chart is a bitmap, so its text
/// does not follow the person's text size by itself; its sizes are multiplied by this factor.
public enum ChartTextScale {
    /// The body text's size in points at each content size category, keyed by UIKit's
    /// `UIContentSizeCategory.rawValue` (Apple's Human Interface Guidelines, "Typography").
    static let bodySizes: [String: Double] = [
        "UICTContentSizeCategoryXS": 14, "UICTContentSizeCategoryS": 15, "UICTContentSizeCategoryM": 16,
        "UICTContentSizeCategoryL": 17, "UICTContentSizeCategoryXL": 19, "UICTContentSizeCategoryXXL": 21,
        "UICTContentSizeCategoryXXXL": 23, "UICTContentSizeCategoryAccessibilityM": 28,
        "UICTContentSizeCategoryAccessibilityL": 33, "UICTContentSizeCategoryAccessibilityXL": 40,
        "UICTContentSizeCategoryAccessibilityXXL": 47, "UICTContentSizeCategoryAccessibilityXXXL": 53,
    ]
    /// The largest factor: beyond it the labels of the 280-point-high chart would cover its
    /// curve; VoiceOver reads the chart's summary (`ResultScreen.chartSummary`) instead.
    public static let largest = 2.0

    /// The factor for the content size category named `rawValue` (UIKit's
    /// `UIContentSizeCategory.rawValue`): the body text's size there over its size at the
    /// default setting (Large, 17 pt), at most `largest`; 1 for an unknown or unspecified one.
    public static func forContentSize(_ rawValue: String) -> Double {
        guard let size = bodySizes[rawValue] else { return 1 }
        return min(largest, size / 17)
    }
}

/// What the result screen's chart view keeps between layouts. Drawing a long log costs real
/// time (M4 reduction, text layout), so the image drawn is reused until the data, the size,
/// the pixel scale, light or dark, or the text size change (scrolling and re-layout at the same
/// size draw nothing); and only the newest drawing started may set the image, so one that
/// finishes late is dropped.
public struct ChartRenderCache: Sendable {
    /// Everything besides the data that changes the picture.
    public struct Key: Equatable, Sendable {
        /// Points.
        public var width: Double
        public var height: Double
        /// Pixels per point.
        public var scale: Double
        public var dark: Bool
        /// `ChartTextScale.forContentSize`.
        public var textScale: Double

        public init(width: Double, height: Double, scale: Double, dark: Bool, textScale: Double) {
            self.width = width
            self.height = height
            self.scale = scale
            self.dark = dark
            self.textScale = textScale
        }
    }

    /// One drawing to make off the main thread.
    public struct Request: Sendable {
        public var input: ChartInput
        public var key: Key
        var generation: Int

        public var theme: ChartTheme { key.dark ? .dark : .light }
        public var frame: ChartRect { ChartRect(x: 0, y: 0, width: key.width, height: key.height) }

        /// The chart laid out for this drawing, for the platform's canvas.
        public func model() -> ChartModel {
            input.model(frame: frame, theme: theme, pixelDensity: key.scale, textScale: key.textScale)
        }
    }

    public private(set) var input: ChartInput?
    /// How many drawings set the image (stays put while scrolling).
    public private(set) var renderCount = 0
    private var drawnKey: Key?
    private var generation = 0

    public init() {}

    /// Sets the data; different data must be drawn again.
    /// - Returns: true when the data changed.
    @discardableResult
    public mutating func setInput(_ new: ChartInput?) -> Bool {
        guard new != input else { return false }
        input = new
        drawnKey = nil
        return true
    }

    /// The drawing to start for a layout with `key`, or nil when the image drawn (or being
    /// drawn) already fits, there are no data, or the view has no area yet.
    public mutating func request(for key: Key) -> Request? {
        guard key != drawnKey, let input, key.width >= 1, key.height >= 1, key.scale > 0 else { return nil }
        drawnKey = key
        generation += 1
        return Request(input: input, key: key, generation: generation)
    }

    /// Whether a finished drawing may set the image: only the newest one started; counted.
    public mutating func accept(_ request: Request) -> Bool {
        guard request.generation == generation else { return false }
        renderCount += 1
        return true
    }
}
