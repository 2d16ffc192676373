import AppViewModels

#if canImport(SwiftUI)
    import SwiftUI
#else
    import SwiftUIStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif
#if canImport(UIKit)
    import UIKit
#else
    import UIKitStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// A `UIView` showing the temperature chart, drawn through TempChart's Core Graphics canvas.
///
/// Drawing a long log costs real time (M4 reduction, text layout), so the rendered image is
/// cached: it is drawn again only when the data change, the view changes size, or the
/// interface switches between light and dark. Scrolling and re-layout with the same size
/// reuse the image.
final class TemperatureChartUIView: UIView {
    var input: ChartInput? {
        didSet {
            guard input != oldValue else { return }
            invalidateRendering()
        }
    }

    /// How many times the chart was drawn (for diagnostics; stays put while scrolling).
    private(set) var renderCount = 0

    private struct RenderKey: Equatable {
        var size: CGSize
        var scale: CGFloat
        var dark: Bool
    }

    private var renderedKey: RenderKey?
    private var renderTask: Task<Void, Never>?
    private var generation = 0

    override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = true
        layer.contentsGravity = .resize
        isAccessibilityElement = true
        accessibilityTraits = .image
        if #available(iOS 17.0, *) {
            registerForTraitChanges([UITraitUserInterfaceStyle.self]) { (view: TemperatureChartUIView, _: UITraitCollection) in
                view.setNeedsLayout()
            }
        }
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    @available(iOS, deprecated: 17.0)
    override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        if previousTraitCollection?.userInterfaceStyle != traitCollection.userInterfaceStyle {
            setNeedsLayout()
        }
    }

    private func invalidateRendering() {
        renderedKey = nil
        setNeedsLayout()
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        let key = RenderKey(
            size: bounds.size, scale: traitCollection.displayScale,
            dark: traitCollection.userInterfaceStyle == .dark)
        guard key != renderedKey, let input, key.size.width >= 1, key.size.height >= 1, key.scale > 0 else { return }
        renderedKey = key
        backgroundColor = key.dark ? .black : .white
        generation += 1
        let current = generation
        renderTask?.cancel()
        // Drawn off the main thread; only the newest request may set the image.
        renderTask = Task { [weak self] in
            let rendered = await Task.detached(priority: .userInitiated) {
                RenderedImage(image: input.image(size: key.size, scale: Double(key.scale), dark: key.dark))
            }.value
            guard let self, !Task.isCancelled, current == self.generation else { return }
            self.layer.contents = rendered.image
            self.renderCount += 1
        }
    }
}

/// A finished bitmap handed from the drawing task to the main thread (a `CGImage` is
/// immutable, so sharing it is safe).
private struct RenderedImage: @unchecked Sendable {
    let image: CGImage?
}

/// SwiftUI wrapper for `TemperatureChartUIView`.
struct TemperatureChartView: UIViewRepresentable {
    var input: ChartInput
    var accessibilitySummary: String

    func makeUIView(context: Context) -> TemperatureChartUIView {
        TemperatureChartUIView(frame: .zero)
    }

    func updateUIView(_ view: TemperatureChartUIView, context: Context) {
        view.input = input
        view.accessibilityLabel = accessibilitySummary
    }
}
