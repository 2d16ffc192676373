extension Sequence where Element == UInt8 {
    /// The bytes as hexadecimal, two digits each: ColdTap's one hex formatter (dumps, traces,
    /// UIDs, messages), e.g. `[0x04, 0xA2].hexString(separator: " ")` is `"04 A2"`.
    /// - Parameters:
    ///   - separator: put between two bytes.
    ///   - uppercase: `A`–`F` (default) or `a`–`f`.
    public func hexString(separator: String = "", uppercase: Bool = true) -> String {
        let digits: StaticString = uppercase ? "0123456789ABCDEF" : "0123456789abcdef"
        let separatorBytes = Array(separator.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(underestimatedCount * (2 + separatorBytes.count))
        digits.withUTF8Buffer { digits in
            for byte in self {
                if !out.isEmpty { out.append(contentsOf: separatorBytes) }
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
