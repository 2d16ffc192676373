import AppViewModels

#if canImport(UIKit)
    import UIKit
#else
    import UIKitStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// A `UIView` showing the temperature chart, drawn through TempChart's Core Graphics canvas
/// off the main thread. What to draw and when is `ChartRenderCache`'s (AppViewModels): the
/// image is drawn again only when the data, the size, light or dark, or the text size
/// (Dynamic Type, `ChartTextScale`) change, and only the newest drawing sets it.
final class TemperatureChartUIView: UIView {
    var input: ChartInput? {
        didSet { if cache.setInput(input) { setNeedsLayout() } }
    }

    private var cache = ChartRenderCache()
    private var renderTask: Task<Void, Never>?

    override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = true
        layer.contentsGravity = .resize
        isAccessibilityElement = true
        accessibilityTraits = .image
        if #available(iOS 17.0, *) {
            registerForTraitChanges([UITraitUserInterfaceStyle.self, UITraitPreferredContentSizeCategory.self]) {
                (view: TemperatureChartUIView, _: UITraitCollection) in view.setNeedsLayout()
            }
        }
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    @available(iOS, deprecated: 17.0)
    override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        if previousTraitCollection?.userInterfaceStyle != traitCollection.userInterfaceStyle
            || previousTraitCollection?.preferredContentSizeCategory != traitCollection.preferredContentSizeCategory
        {
            setNeedsLayout()
        }
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        let traits = traitCollection
        let key = ChartRenderCache.Key(
            width: Double(bounds.size.width), height: Double(bounds.size.height), scale: Double(traits.displayScale),
            dark: traits.userInterfaceStyle == .dark,
            textScale: ChartTextScale.forContentSize(traits.preferredContentSizeCategory.rawValue))
        guard let request = cache.request(for: key) else { return }
        backgroundColor = key.dark ? .black : .white
        renderTask?.cancel()
        renderTask = Task { [weak self] in
            let rendered = await Task.detached(priority: .userInitiated) { RenderedImage(image: request.image()) }.value
            guard let self, !Task.isCancelled, self.cache.accept(request) else { return }
            self.layer.contents = rendered.image
        }
    }
}

/// A finished bitmap handed from the drawing task to the main thread (a `CGImage` is
/// immutable, so sharing it is safe).
private struct RenderedImage: @unchecked Sendable {
    let image: CGImage?
}
