#if canImport(CCairo) && !canImport(CoreGraphics)
    import CCairo
    import Foundation

    /// A PNG encoder for Cairo image data tuned for charts: the "Sub" row filter turns flat
    /// colour into runs of zeros, which `RunLengthDeflate` codes in one pass, several times
    /// faster than Cairo's own writer (libpng defaults).
    enum PNGEncoder {
        /// PNG bytes for premultiplied ARGB32 pixels (`stride` bytes per row). Opaque images
        /// are written as RGB, others as straight-alpha RGBA.
        static func encode(data: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) -> Data {
            var opaque = true
            for row in 0..<height where opaque {
                let line = UnsafeRawPointer(data + row * stride)
                for column in 0..<width where line.load(fromByteOffset: column * 4, as: UInt32.self) >> 24 != 0xFF {
                    opaque = false
                    break
                }
            }
            let channels = opaque ? 3 : 4
            let rowBytes = 1 + width * channels
            // Every byte is written below, so the buffer is not zeroed first.
            let raw = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, initialized in
                initialized = rowBytes * height
                guard let out = buffer.baseAddress else { return }
                for row in 0..<height {
                    let line = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
                    var target = out + row * rowBytes
                    target.pointee = 1  // Sub filter: each byte minus the same channel of the pixel to its left.
                    target += 1
                    var pr: UInt8 = 0, pg: UInt8 = 0, pb: UInt8 = 0, pa: UInt8 = 0
                    if opaque {
                        for column in 0..<width {
                            let pixel = line[column]
                            let r = UInt8(truncatingIfNeeded: pixel >> 16), g = UInt8(truncatingIfNeeded: pixel >> 8)
                            let b = UInt8(truncatingIfNeeded: pixel)
                            target[0] = r &- pr; target[1] = g &- pg; target[2] = b &- pb
                            target += 3
                            pr = r; pg = g; pb = b
                        }
                        continue
                    }
                    for column in 0..<width {
                        let pixel = line[column]
                        var r = UInt8(truncatingIfNeeded: pixel >> 16), g = UInt8(truncatingIfNeeded: pixel >> 8)
                        var b = UInt8(truncatingIfNeeded: pixel)
                        let alpha = pixel >> 24
                        if alpha != 0xFF, alpha != 0 {
                            r = UInt8(min(255, UInt32(r) * 255 / alpha))
                            g = UInt8(min(255, UInt32(g) * 255 / alpha))
                            b = UInt8(min(255, UInt32(b) * 255 / alpha))
                        }
                        let a = UInt8(truncatingIfNeeded: alpha)
                        target[0] = r &- pr; target[1] = g &- pg; target[2] = b &- pb; target[3] = a &- pa
                        target += 4
                        pr = r; pg = g; pb = b; pa = a
                    }
                }
            }
            let compressed = Data(raw.withUnsafeBufferPointer { RunLengthDeflate.compress($0) })

            var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            var header = Data()
            header.appendBigEndian(UInt32(width))
            header.appendBigEndian(UInt32(height))
            header.append(contentsOf: [8, opaque ? 2 : 6, 0, 0, 0])
            appendChunk("IHDR", header, to: &png)
            appendChunk("IDAT", compressed, to: &png)
            appendChunk("IEND", Data(), to: &png)
            return png
        }

        private static func appendChunk(_ type: String, _ body: Data, to png: inout Data) {
            png.appendBigEndian(UInt32(body.count))
            var typed = Data(type.utf8)
            typed.append(body)
            png.append(typed)
            let crc = typed.withUnsafeBytes { bytes in
                crc32(0, bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count))
            }
            png.appendBigEndian(UInt32(truncatingIfNeeded: crc))
        }
    }

    extension Data {
        mutating func appendBigEndian(_ value: UInt32) {
            append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
        }
    }
#endif
