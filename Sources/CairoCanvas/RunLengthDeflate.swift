#if canImport(CCairo) && !canImport(CoreGraphics)
    import CCairo

    /// A minimal zlib stream writer (RFC 1950/1951) for filtered PNG rows: one block with the
    /// fixed Huffman codes, runs of a repeated byte as distance-1 matches, everything else as
    /// literals. Chart images filtered with "Sub" are mostly runs of zero bytes, which this
    /// codes at a few bits per 258 bytes, in one pass and without any match search.
    enum RunLengthDeflate {
        /// Bit-reversed fixed Huffman codes and their lengths for literal/length symbols 0...287.
        private static let literalCodes: [(code: UInt32, length: UInt32)] = (0..<288).map { symbol in
            let (code, length): (UInt32, UInt32)
            switch symbol {
            case 0...143: (code, length) = (UInt32(0x30 + symbol), 8)
            case 144...255: (code, length) = (UInt32(0x190 + symbol - 144), 9)
            case 256...279: (code, length) = (UInt32(symbol - 256), 7)
            default: (code, length) = (UInt32(0xC0 + symbol - 280), 8)
            }
            return (reversed(code, length), length)
        }

        /// For match lengths 3...258: the symbol's code and length followed by its extra bits,
        /// as one bit string (LSB first) and its total length.
        private static let lengthCodes: [(bits: UInt32, count: UInt32)] = {
            let bases: [(base: Int, extra: Int)] = [
                (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (8, 0), (9, 0), (10, 0), (11, 1), (13, 1), (15, 1), (17, 1),
                (19, 2), (23, 2), (27, 2), (31, 2), (35, 3), (43, 3), (51, 3), (59, 3), (67, 4), (83, 4), (99, 4), (115, 4),
                (131, 5), (163, 5), (195, 5), (227, 5), (258, 0),
            ]
            var table = [(bits: UInt32, count: UInt32)](repeating: (0, 0), count: 259)
            for length in 3...258 {
                let index = length == 258 ? 28 : (bases.lastIndex { $0.base <= length && $0.base != 258 } ?? 0)
                let symbol = literalCodes[257 + index]
                let extra = UInt32(length - bases[index].base)
                table[length] = (symbol.code | extra << symbol.length, symbol.length + UInt32(bases[index].extra))
            }
            return table
        }()

        private static func reversed(_ code: UInt32, _ length: UInt32) -> UInt32 {
            var result: UInt32 = 0
            for bit in 0..<length where code & (1 << bit) != 0 { result |= 1 << (length - 1 - bit) }
            return result
        }

        /// Adler-32 (RFC 1950 §9) of `input`, 16 bytes at a time: over a block of 16 bytes
        /// `b` grows by 16·`a` plus the bytes weighted 16…1 and `a` by their sum, the same
        /// sums as byte by byte (so the same checksum), without a chain of additions through
        /// every byte (zlib's byte loop took about a tenth of a chart's PNG time). Sums are
        /// reduced every 5,552 bytes, as zlib does, before 32 bits could overflow.
        static func adler32(_ input: UnsafeBufferPointer<UInt8>) -> UInt32 {
            let modulus: UInt32 = 65_521
            var a: UInt32 = 1
            var b: UInt32 = 0
            guard let start = input.baseAddress else { return 1 }
            let raw = UnsafeRawPointer(start)
            let weights = SIMD16<UInt16>(16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
            var index = 0
            while index < input.count {
                let end = min(input.count, index + 5552)
                while index + 16 <= end {
                    let bytes = SIMD16<UInt16>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self))
                    b &+= 16 &* a &+ UInt32((bytes &* weights).wrappedSum())
                    a &+= UInt32(bytes.wrappedSum())
                    index += 16
                }
                while index < end {
                    a &+= UInt32(input[index])
                    b &+= a
                    index += 1
                }
                a %= modulus
                b %= modulus
            }
            return b << 16 | a
        }

        /// The zlib stream (header, one fixed-Huffman block, Adler-32) for `input`.
        static func compress(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
            // An empty input: the final fixed block holding only its end code, Adler-32 = 1.
            guard let inputStart = input.baseAddress, !input.isEmpty else { return [0x78, 0x01, 0x03, 0x00, 0, 0, 0, 1] }
            let raw = UnsafeRawPointer(inputStart)
            // At most 9 bits per input byte plus header, end code and checksum; only the bytes
            // written are kept.
            return [UInt8](unsafeUninitializedCapacity: input.count + input.count / 8 + 64) { out, written in
                written = 0
                guard let base = out.baseAddress else { return }
                base[0] = 0x78
                base[1] = 0x01
                var position = 2
                var buffer: UInt64 = 0
                var bitCount: UInt64 = 0
                @inline(__always) func put(_ bits: UInt32, _ count: UInt32) {
                    buffer |= UInt64(bits) << bitCount
                    bitCount += UInt64(count)
                    if bitCount >= 32 {
                        UnsafeMutableRawPointer(base + position).storeBytes(
                            of: UInt32(truncatingIfNeeded: buffer).littleEndian,
                            as: UInt32.self)
                        position += 4
                        buffer >>= 32
                        bitCount -= 32
                    }
                }
                put(0b011, 3)  // final block, fixed Huffman codes
                let literals = literalCodes, lengths = lengthCodes
                let count = input.count
                var index = 0
                while index < count {
                    let byte = input[index]
                    if index > 0, input[index - 1] == byte {
                        var run = 1
                        // Eight bytes at a time through the long runs of flat colour.
                        let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
                        while index + run + 8 <= count, run + 8 <= 258,
                            raw.loadUnaligned(fromByteOffset: index + run, as: UInt64.self) == pattern
                        {
                            run += 8
                        }
                        while index + run < count, input[index + run] == byte, run < 258 { run += 1 }
                        if run >= 3 {
                            let code = lengths[run]
                            put(code.bits, code.count)
                            put(0, 5)  // distance code 0: distance 1
                            index += run
                            continue
                        }
                    }
                    let code = literals[Int(byte)]
                    put(code.code, code.length)
                    index += 1
                }
                let end = literals[256]
                put(end.code, end.length)
                while bitCount > 0 {
                    base[position] = UInt8(truncatingIfNeeded: buffer)
                    position += 1
                    buffer >>= 8
                    bitCount = bitCount >= 8 ? bitCount - 8 : 0
                }
                let checksum = adler32(input)
                for shift in stride(from: 24, through: 0, by: -8) {
                    base[position] = UInt8(truncatingIfNeeded: checksum >> UInt32(shift))
                    position += 1
                }
                written = position
            }
        }
    }
#endif
