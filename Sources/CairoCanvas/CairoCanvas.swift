#if canImport(CCairo) && !canImport(CoreGraphics)
    import CCairo
    import Foundation
    #if canImport(Glibc)
        import Glibc
    #endif
    import TempChart

    /// Errors from Cairo output.
    public enum CairoCanvasError: Error, Sendable, CustomStringConvertible {
        /// Cairo could not create the surface or context (size, memory); carries Cairo's status text.
        case surface(String)
        /// Writing the file failed; carries the path and Cairo's status text.
        case write(path: String, reason: String)

        public var description: String {
            switch self {
            case .surface(let reason): return "Cairo could not create the drawing surface: \(reason)"
            case .write(let path, let reason): return "could not write \(path): \(reason)"
            }
        }
    }

    /// A `Canvas` drawing with Cairo into an ARGB image (for PNG) or a PDF file.
    ///
    /// Text uses fontconfig families: DejaVu Sans (fonts-dejavu-core) for Latin text and a
    /// Noto Sans CJK face (fonts-noto-cjk) for strings containing CJK characters.
    public final class CairoCanvas: Canvas {
        public enum Kind: Sendable { case image, pdf }

        public let width: Double
        public let height: Double
        public let kind: Kind
        /// Family for strings with CJK characters: "Noto Sans CJK SC" or "Noto Sans CJK JP".
        public var cjkFamily: String
        /// Family for other text.
        public var latinFamily = "DejaVu Sans"
        private let surface: OpaquePointer
        private let context: OpaquePointer
        private var finished = false
        /// Where a PDF drawn into memory goes; kept alive as long as the surface writing into it.
        private var sink: PDFSink?
        /// The pixels of an image canvas, when they are in memory of its own (`MappedMemory`);
        /// released after the surface.
        private var pixelMemory: MappedMemory?

        private static func statusText(_ status: cairo_status_t) -> String {
            String(cString: cairo_status_to_string(status))
        }

        /// An image canvas of `width` × `height` pixels scaled by `scale` (canvas units stay
        /// `width` × `height`; the bitmap is `scale` times larger).
        /// - Throws: `CairoCanvasError.surface` when Cairo cannot allocate it.
        public init(pixelWidth width: Int, height: Int, scale: Double = 1, cjkFamily: String = "Noto Sans CJK SC") throws {
            let w = Int32(clamping: Int((Double(width) * scale).rounded())), h = Int32(clamping: Int((Double(height) * scale).rounded()))
            guard w > 0, h > 0, w <= 32_767, h <= 32_767 else {
                throw CairoCanvasError.surface("size \(width)×\(height) at scale \(scale) is out of range")
            }
            // Zeroed pixels as cairo_image_surface_create allocates them (calloc), for a large
            // image in memory of our own: the same image, fewer page faults (`MappedMemory`).
            let stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, w)
            let bytes = Int(stride) * Int(h)
            let memory = stride > 0 && bytes >= MappedMemory.worthwhile ? MappedMemory(size: bytes) : nil
            let created =
                if let memory {
                    cairo_image_surface_create_for_data(memory.pointer.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, w, h, stride)
                } else {
                    cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h)
                }
            guard let surface = created else {
                throw CairoCanvasError.surface("no surface")
            }
            let status = cairo_surface_status(surface)
            guard status == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else {
                cairo_surface_destroy(surface)
                throw CairoCanvasError.surface(CairoCanvas.statusText(status))
            }
            self.surface = surface
            self.context = context
            self.pixelMemory = memory
            self.width = Double(width)
            self.height = Double(height)
            self.kind = .image
            self.cjkFamily = cjkFamily
            cairo_scale(context, scale, scale)
            // Cairo's fast antialiasing (4 × 4 samples per pixel): for dense curves several times
            // quicker than the default rasterizer, and still smooth at chart line widths.
            cairo_set_antialias(context, CAIRO_ANTIALIAS_FAST)
        }

        /// A one-page PDF canvas of `width` × `height` points (A4 is 595.28 × 841.89) written to `url`.
        /// Call `finish()` to complete the file.
        /// - Throws: `CairoCanvasError.surface` when the file cannot be created.
        public convenience init(pdfAt url: URL, width: Double, height: Double, cjkFamily: String = "Noto Sans CJK SC") throws {
            guard let surface = cairo_pdf_surface_create(url.path, width, height) else {
                throw CairoCanvasError.surface("no PDF surface")
            }
            try self.init(pdfSurface: surface, width: width, height: height, cjkFamily: cjkFamily, path: url.path)
        }

        /// A PDF canvas of `width` × `height` points drawn into memory: `pdfData()` after
        /// `finish()` gives the document, so nothing touches the file system.
        /// - Throws: `CairoCanvasError.surface` when Cairo cannot create it.
        public convenience init(pdfWidth width: Double, height: Double, cjkFamily: String = "Noto Sans CJK SC") throws {
            let sink = PDFSink()
            let write: cairo_write_func_t = { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                Unmanaged<PDFSink>.fromOpaque(closure).takeUnretainedValue().bytes.append(data, count: Int(length))
                return CAIRO_STATUS_SUCCESS
            }
            guard let surface = cairo_pdf_surface_create_for_stream(write, Unmanaged.passUnretained(sink).toOpaque(), width, height) else {
                throw CairoCanvasError.surface("no PDF surface")
            }
            try self.init(pdfSurface: surface, width: width, height: height, cjkFamily: cjkFamily, path: "PDF in memory")
            self.sink = sink
        }

        private init(pdfSurface surface: OpaquePointer, width: Double, height: Double, cjkFamily: String, path: String) throws {
            let status = cairo_surface_status(surface)
            guard status == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else {
                cairo_surface_destroy(surface)
                throw CairoCanvasError.write(path: path, reason: CairoCanvas.statusText(status))
            }
            self.surface = surface
            self.context = context
            self.width = width
            self.height = height
            self.kind = .pdf
            self.cjkFamily = cjkFamily
        }

        /// The PDF drawn into memory (`init(pdfWidth:height:)`), complete once `finish()` returned.
        /// - Throws: `CairoCanvasError.surface` for a canvas that does not draw into memory or is not finished.
        public func pdfData() throws -> Data {
            guard let sink, finished else { throw CairoCanvasError.surface("not a finished PDF drawn into memory") }
            return sink.bytes
        }

        deinit {
            cairo_destroy(context)
            if !finished { cairo_surface_finish(surface) }
            cairo_surface_destroy(surface)
            // The pixels (`pixelMemory`) go after the surface, with this object.
        }

        // MARK: Canvas

        public func fill(_ path: ChartPath, color: ChartColor) {
            addPath(path)
            setColor(color)
            cairo_set_fill_rule(context, CAIRO_FILL_RULE_WINDING)
            cairo_fill(context)
        }

        public func stroke(_ path: ChartPath, color: ChartColor, style: StrokeStyle) {
            addPath(path)
            setColor(color)
            cairo_set_line_width(context, style.width)
            switch style.join {
            case .miter: cairo_set_line_join(context, CAIRO_LINE_JOIN_MITER)
            case .round: cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
            case .bevel: cairo_set_line_join(context, CAIRO_LINE_JOIN_BEVEL)
            }
            switch style.cap {
            case .butt: cairo_set_line_cap(context, CAIRO_LINE_CAP_BUTT)
            case .round: cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
            case .square: cairo_set_line_cap(context, CAIRO_LINE_CAP_SQUARE)
            }
            style.dash.withUnsafeBufferPointer { dashes in
                cairo_set_dash(context, dashes.baseAddress, Int32(dashes.count), 0)
            }
            cairo_stroke(context)
            cairo_set_dash(context, nil, 0, 0)
        }

        public func text(_ string: String, at point: ChartPoint, font: ChartFont, color: ChartColor, anchor: TextAnchor) {
            guard !string.isEmpty else { return }
            selectFont(for: string, font: font)
            var x = point.x
            if anchor != .start {
                var extents = cairo_text_extents_t()
                cairo_text_extents(context, string, &extents)
                x -= anchor == .middle ? extents.x_advance / 2 : extents.x_advance
            }
            setColor(color)
            cairo_move_to(context, x, point.y)
            cairo_show_text(context, string)
            cairo_new_path(context)
        }

        public func textWidth(_ string: String, font: ChartFont) -> Double {
            guard !string.isEmpty else { return 0 }
            selectFont(for: string, font: font)
            var extents = cairo_text_extents_t()
            cairo_text_extents(context, string, &extents)
            return extents.x_advance
        }

        public func pushClip(_ rect: ChartRect) {
            cairo_save(context)
            cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
            cairo_clip(context)
        }

        public func popClip() {
            cairo_restore(context)
        }

        // MARK: Output

        /// Writes the image as PNG (image canvases only).
        /// - Throws: `CairoCanvasError.write` when the file cannot be written or this is a PDF canvas.
        public func writePNG(to url: URL) throws {
            guard kind == .image else { throw CairoCanvasError.write(path: url.path, reason: "not an image canvas") }
            let png = try pngData()
            // Plain POSIX writes: measurably quicker than Data.write for files written often.
            let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { throw CairoCanvasError.write(path: url.path, reason: String(cString: strerror(errno))) }
            defer { close(descriptor) }
            let written = png.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard written == png.count else {
                throw CairoCanvasError.write(path: url.path, reason: String(cString: strerror(errno)))
            }
        }

        /// The image as PNG bytes (image canvases).
        /// - Throws: `CairoCanvasError.surface` for a PDF canvas.
        public func pngData() throws -> Data {
            guard kind == .image else { throw CairoCanvasError.surface("not an image canvas") }
            cairo_surface_flush(surface)
            guard let data = cairo_image_surface_get_data(surface) else { throw CairoCanvasError.surface("no image data") }
            return PNGEncoder.encode(
                data: data, width: Int(cairo_image_surface_get_width(surface)),
                height: Int(cairo_image_surface_get_height(surface)),
                stride: Int(cairo_image_surface_get_stride(surface)))
        }

        /// Completes the PDF file (PDF canvases); nothing can be drawn afterwards.
        /// - Throws: `CairoCanvasError.write` when Cairo reports an error writing the file.
        /// Ends the current PDF page and starts the next (same size); drawing goes on there.
        public func showPage() {
            guard !finished else { return }
            cairo_show_page(context)
        }

        public func finish() throws {
            guard !finished else { return }
            cairo_show_page(context)
            cairo_surface_finish(surface)
            finished = true
            let status = cairo_surface_status(surface)
            guard status == CAIRO_STATUS_SUCCESS else {
                throw CairoCanvasError.write(path: "PDF", reason: CairoCanvas.statusText(status))
            }
        }

        /// The image pixels as 32-bit premultiplied ARGB values in native byte order, row by
        /// row (image canvases; empty for PDF).
        public func pixels() -> [UInt32] {
            guard kind == .image else { return [] }
            cairo_surface_flush(surface)
            let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
            let stride = Int(cairo_image_surface_get_stride(surface))
            guard let data = cairo_image_surface_get_data(surface) else { return [] }
            var result = [UInt32](repeating: 0, count: w * h)
            for row in 0..<h {
                let rowPointer = UnsafeRawPointer(data + row * stride)
                for column in 0..<w {
                    result[row * w + column] = rowPointer.load(fromByteOffset: column * 4, as: UInt32.self)
                }
            }
            return result
        }

        /// Reads a PNG file into straight-alpha 0xAARRGGBB pixels, row by row.
        /// - Throws: `CairoCanvasError.surface` when the file cannot be read or decoded.
        public static func readPNG(_ url: URL) throws -> (width: Int, height: Int, pixels: [UInt32]) {
            guard let surface = cairo_image_surface_create_from_png(url.path) else {
                throw CairoCanvasError.surface("cannot read \(url.path)")
            }
            defer { cairo_surface_destroy(surface) }
            let status = cairo_surface_status(surface)
            guard status == CAIRO_STATUS_SUCCESS else {
                throw CairoCanvasError.surface("cannot read \(url.path): \(statusText(status))")
            }
            let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
            let stride = Int(cairo_image_surface_get_stride(surface))
            guard let data = cairo_image_surface_get_data(surface) else { return (w, h, []) }
            var pixels = [UInt32](repeating: 0, count: w * h)
            for row in 0..<h {
                let rowPointer = UnsafeRawPointer(data + row * stride)
                for column in 0..<w {
                    let premultiplied = rowPointer.load(fromByteOffset: column * 4, as: UInt32.self)
                    let alpha = premultiplied >> 24
                    if alpha == 0xFF || alpha == 0 {
                        pixels[row * w + column] = premultiplied
                    } else {
                        func channel(_ shift: UInt32) -> UInt32 { min(255, ((premultiplied >> shift) & 0xFF) * 255 / alpha) }
                        pixels[row * w + column] = alpha << 24 | channel(16) << 16 | channel(8) << 8 | channel(0)
                    }
                }
            }
            return (w, h, pixels)
        }

        /// Bitmap size in pixels (image canvases).
        public var pixelSize: (width: Int, height: Int) {
            (Int(cairo_image_surface_get_width(surface)), Int(cairo_image_surface_get_height(surface)))
        }

        // MARK: Helpers

        private func setColor(_ color: ChartColor) {
            cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
        }

        private func addPath(_ path: ChartPath) {
            cairo_new_path(context)
            for element in path.elements {
                switch element {
                case .move(let p): cairo_move_to(context, p.x, p.y)
                case .line(let p): cairo_line_to(context, p.x, p.y)
                case .circle(let c, let r):
                    cairo_new_sub_path(context)
                    cairo_arc(context, c.x, c.y, r, 0, 2 * Double.pi)
                    cairo_close_path(context)
                case .close: cairo_close_path(context)
                }
            }
        }

        private func selectFont(for string: String, font: ChartFont) {
            let family: String
            if font.monospaced {
                family = string.unicodeScalars.contains(where: TextMetrics.isWide) ? cjkFamily : "DejaVu Sans Mono"
            } else {
                family = string.unicodeScalars.contains(where: TextMetrics.isWide) ? cjkFamily : latinFamily
            }
            cairo_select_font_face(
                context, family, CAIRO_FONT_SLANT_NORMAL,
                font.weight == .bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
            cairo_set_font_size(context, font.size)
        }
    }

    /// The bytes Cairo streams out while it writes a PDF into memory.
    private final class PDFSink {
        var bytes = Data()
    }
#endif
