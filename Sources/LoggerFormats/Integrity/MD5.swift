import Foundation

/// MD5 message digest (RFC 1321). Used only to check cuplTag integrity hashes, which are
/// defined in terms of MD5; it is not a security primitive for anything new.
public struct MD5: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476)
    private var buffer: [UInt8] = []
    private var totalLength: UInt64 = 0

    public init() {}

    /// The 16-byte digest of `bytes`.
    public static func digest<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var md5 = MD5()
        md5.update(bytes)
        return md5.finalize()
    }

    /// Feeds more message bytes.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            buffer.append(byte)
            totalLength &+= 1
            if buffer.count == 64 {
                processBlock(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Pads the message and returns the digest (A, B, C, D, each little-endian).
    public mutating func finalize() -> [UInt8] {
        let bitLength = totalLength &* 8
        var padding: [UInt8] = [0x80]
        let afterMarker = (buffer.count + 1) % 64
        let zeros = afterMarker <= 56 ? 56 - afterMarker : 120 - afterMarker
        padding += [UInt8](repeating: 0, count: zeros)
        for shift in stride(from: 0, to: 64, by: 8) { padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        let savedLength = totalLength
        update(padding)
        totalLength = savedLength
        var out: [UInt8] = []
        for word in [state.0, state.1, state.2, state.3] {
            for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return out
    }

    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// T[i] = floor(2^32 × |sin(i + 1)|), RFC 1321 section 3.4.
    private static let sines: [UInt32] = (0..<64).map { index in
        UInt32(truncatingIfNeeded: Int64((abs(sin(Double(index + 1))) * 4_294_967_296.0).rounded(.down)))
    }

    private mutating func processBlock(_ block: [UInt8]) {
        var words = [UInt32](repeating: 0, count: 16)
        for index in 0..<16 {
            let base = index * 4
            words[index] =
                UInt32(block[base]) | UInt32(block[base + 1]) << 8
                | UInt32(block[base + 2]) << 16 | UInt32(block[base + 3]) << 24
        }
        var (a, b, c, d) = state
        for step in 0..<64 {
            var f: UInt32
            let g: Int
            switch step {
            case 0..<16: f = (b & c) | (~b & d); g = step
            case 16..<32: f = (d & b) | (~d & c); g = (5 * step + 1) % 16
            case 32..<48: f = b ^ c ^ d; g = (3 * step + 5) % 16
            default: f = c ^ (b | ~d); g = (7 * step) % 16
            }
            f = f &+ a &+ MD5.sines[step] &+ words[g]
            a = d
            d = c
            c = b
            let shift = MD5.shifts[step]
            b = b &+ (f << shift | f >> (32 - shift))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}

/// HMAC (RFC 2104) over MD5: block size 64, keys longer than 64 bytes are hashed first.
public enum HMACMD5 {
    /// The 16-byte authentication code of `message` under `key`.
    public static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var keyBlock = key.count > 64 ? MD5.digest(key) : key
        keyBlock += [UInt8](repeating: 0, count: 64 - keyBlock.count)
        var inner = MD5()
        inner.update(keyBlock.map { $0 ^ 0x36 })
        inner.update(message)
        let innerDigest = inner.finalize()
        var outer = MD5()
        outer.update(keyBlock.map { $0 ^ 0x5C })
        outer.update(innerDigest)
        return outer.finalize()
    }
}
