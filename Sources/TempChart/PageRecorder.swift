import Foundation

/// A canvas that keeps what is drawn on it, page by page, and draws it later on the canvas it
/// measures with: a document is laid out once, then drawn knowing how many pages it has (for
/// "Page x of y"). Text is measured by the final canvas, so the layout is the one it draws.
public final class PageRecorder: Canvas {
    private enum Operation {
        case fill(ChartPath, ChartColor)
        case stroke(ChartPath, ChartColor, StrokeStyle)
        case text(String, ChartPoint, ChartFont, ChartColor, TextAnchor)
        case pushClip(ChartRect)
        case popClip
    }

    private let target: any Canvas
    private var pages: [[Operation]] = [[]]

    /// A recorder of pages the size of `target`, measuring text as `target` does.
    public init(measuringWith target: any Canvas) {
        self.target = target
    }

    public var width: Double { target.width }
    public var height: Double { target.height }

    /// The pages recorded so far (at least one: the page being drawn).
    public var pageCount: Int { pages.count }

    /// Ends the page being drawn; what follows is drawn on the next one.
    public func newPage() {
        pages.append([])
    }

    /// Draws the recorded pages on the canvas it measured with, calling `newPage` before each
    /// page after the first (which must start a fresh page on that canvas) and `decorate` after
    /// each page's own drawing with its number (from 1) and the number of pages.
    public func replay(newPage: () -> Void, decorate: (_ number: Int, _ count: Int) -> Void) {
        for (index, operations) in pages.enumerated() {
            if index > 0 { newPage() }
            for operation in operations {
                switch operation {
                case .fill(let path, let color): target.fill(path, color: color)
                case .stroke(let path, let color, let style): target.stroke(path, color: color, style: style)
                case .text(let string, let point, let font, let color, let anchor):
                    target.text(string, at: point, font: font, color: color, anchor: anchor)
                case .pushClip(let rect): target.pushClip(rect)
                case .popClip: target.popClip()
                }
            }
            decorate(index + 1, pages.count)
        }
    }

    public func fill(_ path: ChartPath, color: ChartColor) {
        record(.fill(path, color))
    }

    public func stroke(_ path: ChartPath, color: ChartColor, style: StrokeStyle) {
        record(.stroke(path, color, style))
    }

    public func text(_ string: String, at point: ChartPoint, font: ChartFont, color: ChartColor, anchor: TextAnchor) {
        record(.text(string, point, font, color, anchor))
    }

    public func textWidth(_ string: String, font: ChartFont) -> Double {
        target.textWidth(string, font: font)
    }

    public func pushClip(_ rect: ChartRect) {
        record(.pushClip(rect))
    }

    public func popClip() {
        record(.popClip)
    }

    private func record(_ operation: Operation) {
        pages[pages.count - 1].append(operation)
    }
}
