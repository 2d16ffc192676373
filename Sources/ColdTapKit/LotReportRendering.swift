import ColdChain
import Foundation
import TempChart

#if canImport(CCairo) && !canImport(CoreGraphics)
    import CairoCanvas
#endif

/// A kind of lot report file.
public enum LotReportFileKind: String, Sendable, CaseIterable {
    case pdf, html

    /// What follows the file name stem: `-lot-report.pdf`.
    public var fileSuffix: String { "-lot-report.\(rawValue)" }

    public var contentType: String { reportFileKind.contentType }

    /// The same kind among the logger report's files.
    public var reportFileKind: ReportFileKind {
        switch self {
        case .pdf: return .pdf
        case .html: return .html
        }
    }
}

/// The lot report (`LotReportPage`) drawn into bytes, the same for every front end, as
/// `ReportRendering` draws a logger's report: PDF through Core Graphics on Apple platforms
/// and Cairo elsewhere (with the language's CJK font), HTML as one self-contained file.
public struct LotReportRendering: Sendable {
    public var theme: ChartTheme

    public init(theme: ChartTheme = .light) {
        self.theme = theme
    }

    /// The file of `kind` for `content`.
    /// - Throws: `ReportRenderingUnavailable` for PDF on a build with neither Cairo nor Core
    ///   Graphics; the canvas's error when drawing fails.
    public func render(_ kind: LotReportFileKind, _ content: LotReportContent) throws -> Data {
        let page = LotReportPage(content: content, theme: theme)
        switch kind {
        case .html:
            return Data(page.html().utf8)
        case .pdf:
            #if canImport(CoreGraphics) && canImport(CoreText) && canImport(ImageIO)
                return try CoreGraphicsCanvas.pdf(width: LotReportPage.a4.width, height: LotReportPage.a4.height) { canvas, newPage in
                    page.draw(on: canvas, newPage: newPage)
                }
            #elseif canImport(CCairo)
                let canvas = try CairoCanvas(
                    pdfWidth: LotReportPage.a4.width, height: LotReportPage.a4.height,
                    cjkFamily: ReportRendering.cjkFamily(content.language))
                page.draw(on: canvas) { canvas.showPage() }
                try canvas.finish()
                return try canvas.pdfData()
            #else
                throw ReportRenderingUnavailable(kind: .pdf)
            #endif
        }
    }

    /// The file name stem for a lot: `lot-` and its name (product and lot names are already
    /// safe in a file name: `Product.isValidName`), anything else replaced by `_`.
    public static func fileStem(lot: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        return "lot-" + String(lot.map { allowed.contains($0) ? $0 : "_" }.prefix(120))
    }
}
