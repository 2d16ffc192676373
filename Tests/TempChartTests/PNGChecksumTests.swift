#if canImport(CCairo)
    @testable import CairoCanvas
    import TestSupport
    import Testing

    /// The PNG encoder's Adler-32, 16 bytes at a time, against the definition byte by byte
    /// (RFC 1950 §9), over lengths around its 16-byte blocks and 5,552-byte reductions.
    @Suite struct PNGChecksumTests {
        static func definition(_ bytes: [UInt8]) -> UInt32 {
            var a: UInt32 = 1, b: UInt32 = 0
            for byte in bytes {
                a = (a + UInt32(byte)) % 65_521
                b = (b + a) % 65_521
            }
            return b << 16 | a
        }

        @Test func adler32IsTheDefinitionsChecksum() {
            var random = SeededGenerator(seed: 2026)
            for length in [0, 1, 15, 16, 17, 5551, 5552, 5553, 5568, 11_104, 100_003] {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                #expect(bytes.withUnsafeBufferPointer { RunLengthDeflate.adler32($0) } == Self.definition(bytes), "\(length) bytes")
            }
            // All 0xFF: the largest sums between reductions.
            let full = [UInt8](repeating: 0xFF, count: 200_000)
            #expect(full.withUnsafeBufferPointer { RunLengthDeflate.adler32($0) } == Self.definition(full))
        }
    }
#endif
