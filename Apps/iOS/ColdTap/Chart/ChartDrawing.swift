import AppViewModels
import Foundation
import TempChart

#if canImport(CoreGraphics)
    import CoreGraphics
#else
    import CoreGraphicsStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

extension ChartInput {
    /// Draws the chart (`ChartInput.model`, AppViewModels) into a new bitmap of `size` points
    /// at `scale` pixels per point, through TempChart's Core Graphics canvas.
    func image(size: CGSize, scale: Double, dark: Bool) -> CGImage? {
        let theme: ChartTheme = dark ? .dark : .light
        let frame = ChartRect(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
        let model = model(frame: frame, theme: theme, pixelDensity: scale)
        return CoreGraphicsCanvas.image(width: frame.width, height: frame.height, scale: scale) { canvas in
            canvas.fill(.rect(frame), color: theme.background)
            ChartRenderer.draw(model, on: canvas)
        }
    }
}
