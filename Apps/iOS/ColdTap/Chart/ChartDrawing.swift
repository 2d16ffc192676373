import AppViewModels
import Foundation
import TempChart

#if canImport(CoreGraphics)
    import CoreGraphics
#else
    import CoreGraphicsStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

extension ChartRenderCache.Request {
    /// Draws the chart (`ChartRenderCache.Request.model`, AppViewModels) into a new bitmap at
    /// the request's size and pixel scale, through TempChart's Core Graphics canvas.
    func image() -> CGImage? {
        let (frame, theme, model) = (frame, theme, model())
        return CoreGraphicsCanvas.image(width: frame.width, height: frame.height, scale: key.scale) { canvas in
            canvas.fill(.rect(frame), color: theme.background)
            ChartRenderer.draw(model, on: canvas)
        }
    }
}
