import Foundation

/// Validation of text and type names straight on the input bytes, without building
/// strings, so that a strict parse checks record types at little cost.
enum ByteChecks {
    /// The offset of the first byte of the first ill-formed UTF-8 sequence, or nil.
    static func firstInvalidUTF8(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let count = bytes.count
        var index = 0
        while index < count {
            if index + 8 <= count,
                bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                continue
            }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            var continuation = 0
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: continuation = 1
            case 0xE0: continuation = 2; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: continuation = 2
            case 0xED: continuation = 2; high = 0x9F
            case 0xF0: continuation = 3; low = 0x90
            case 0xF1...0xF3: continuation = 3
            case 0xF4: continuation = 3; high = 0x8F
            default: return index
            }
            guard index + continuation < count else { return index }
            let second = bytes[index + 1]
            guard second >= low && second <= high else { return index }
            var next = 2
            while next <= continuation {
                guard bytes[index + next] & 0xC0 == 0x80 else { return index }
                next += 1
            }
            index += continuation + 1
        }
        return nil
    }

    /// The offset of the first byte of the first ill-formed UTF-16 code unit (an odd
    /// trailing byte or an unpaired surrogate), or nil.
    static func firstInvalidUTF16(_ bytes: UnsafeRawBufferPointer, bigEndian: Bool) -> Int? {
        let count = bytes.count
        var index = 0
        func unit(_ at: Int) -> UInt16 {
            let first = UInt16(bytes[at]), second = UInt16(bytes[at + 1])
            return bigEndian ? first << 8 | second : second << 8 | first
        }
        while index + 1 < count {
            let value = unit(index)
            if value & 0xF800 != 0xD800 {
                index += 2
            } else if value < 0xDC00, index + 3 < count, unit(index + 2) & 0xFC00 == 0xDC00 {
                index += 4
            } else {
                return index
            }
        }
        return index < count ? index : nil
    }

    /// The offset of the first C0 control character or DEL (bytes 0x00–0x1F, 0x7F), or nil.
    /// UTF-8 never uses these bytes inside a multi-byte sequence, so a byte test is exact.
    static func firstControlCharacter(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let count = bytes.count
        var index = 0
        while index + 8 <= count {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // Per byte, with the high bit masked off so no carry crosses bytes: below 0x20
            // (subtracting 0x20 borrows into the high bit) or 0x7F (adding 1 reaches it).
            let low = word & 0x7F7F_7F7F_7F7F_7F7F
            let ascii = ~word & 0x8080_8080_8080_8080
            let belowSpace = (low &- 0x2020_2020_2020_2020) & ascii
            let delete = (low &+ 0x0101_0101_0101_0101) & ascii
            if (belowSpace | delete) & 0x8080_8080_8080_8080 != 0 { break }
            index += 8
        }
        while index < count {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F { return index }
            index += 1
        }
        return nil
    }

    /// True when `bytes` is valid UTF-8 without control characters (the strict test of a URI
    /// field). Printable ASCII words are passed eight bytes at a time; from the first other
    /// word on, both byte checks decide.
    static func isCleanUTF8WithoutControls(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        var index = 0
        while index + 8 <= count {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            guard word & 0x8080_8080_8080_8080 == 0 else { break }
            // ASCII only: a byte below 0x20 borrows into its high bit, 0x7F + 1 reaches it.
            let belowSpace = (word &- 0x2020_2020_2020_2020) & ~word
            let delete = word &+ 0x0101_0101_0101_0101
            guard (belowSpace | delete) & 0x8080_8080_8080_8080 == 0 else { break }
            index += 8
        }
        let rest = UnsafeRawBufferPointer(rebasing: bytes[index...])
        return firstControlCharacter(rest) == nil && firstInvalidUTF8(rest) == nil
    }

    /// True when every byte is printable ASCII other than space (0x21–0x7E).
    static func isVisibleASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes where byte < 0x21 || byte > 0x7E { return false }
        return true
    }

    /// RFC 2045 token characters: visible ASCII except the tspecials `()<>@,;:\\"/[]?=`.
    /// Bit n of the first mask is byte n (< 64); bit n of the second is byte 64 + n.
    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        // Letters, the usual case, first (one comparison); the masks decide the rest.
        if (byte | 0x20) &- UInt8(ascii: "a") < 26 { return true }
        let mask: UInt64 = byte < 0x40 ? 0x03FF_6CFA_0000_0000 : byte < 0x80 ? 0x7FFF_FFFF_C7FF_FFFE : 0
        return (mask &>> UInt64(byte & 0x3F)) & 1 != 0
    }

    /// Why `type` is not an RFC 2046 media type (`type/subtype`, optional `;` parameters), or nil.
    static func mediaTypeProblem(_ type: UnsafeRawBufferPointer) -> String? {
        var index = 0
        let count = type.count
        var typeLength = 0
        while index < count, isTokenByte(type[index]) { index += 1; typeLength += 1 }
        guard typeLength > 0, index < count, type[index] == UInt8(ascii: "/") else {
            return "a MIME record's type is not of the form type/subtype"
        }
        index += 1
        var subtypeLength = 0
        while index < count, isTokenByte(type[index]) { index += 1; subtypeLength += 1 }
        guard subtypeLength > 0 else { return "a MIME record's type has no subtype after '/'" }
        if index < count {
            guard type[index] == UInt8(ascii: ";") else {
                return "a MIME record's type has a character that is not allowed in a media type"
            }
            for byte in type[index...] where byte < 0x20 || byte > 0x7E {
                return "a MIME record's type parameters are not printable ASCII"
            }
        }
        return nil
    }

    /// True exactly when `mediaTypeProblem(type)` is nil; the strict fast path's test.
    static func isMediaType(_ type: UnsafeRawBufferPointer) -> Bool {
        if let common = isCommonMediaType(type) { return common }
        let count = type.count
        var index = 0
        while index < count, isTokenByte(type[index]) { index += 1 }
        guard index > 0, index < count, type[index] == UInt8(ascii: "/") else { return false }
        index += 1
        let subtypeStart = index
        while index < count, isTokenByte(type[index]) { index += 1 }
        guard index > subtypeStart else { return false }
        guard index < count else { return true }
        guard type[index] == UInt8(ascii: ";") else { return false }
        while index < count {
            let byte = type[index]
            guard byte >= 0x20 && byte <= 0x7E else { return false }
            index += 1
        }
        return true
    }

    /// The usual media type (`application/json`, `image/png`, `application/vnd.x+json`) decided
    /// eight bytes at a time: true when every byte is a letter, digit, `-`, `.`, `+` or the one
    /// `/`, which is neither first nor last; nil when the type has any other byte (the byte
    /// loop in `isMediaType` then decides).
    @inline(__always)
    static func isCommonMediaType(_ type: UnsafeRawBufferPointer) -> Bool? {
        let count = type.count
        guard count >= 3, let base = type.baseAddress else { return nil }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        /// 0x80 in each byte of `word` (ASCII only) that equals `byte`.
        @inline(__always) func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
            let difference = word ^ (ones &* UInt64(byte))
            return ~(((difference & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | difference) & highBits
        }
        var slashes = 0
        var slashIndex = 0
        var index = 0
        while index < count {
            var word: UInt64
            if index + 8 <= count {
                word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            } else {
                // The tail, padded with letters.
                word = 0x6161_6161_6161_6161
                withUnsafeMutableBytes(of: &word) { padded in
                    padded.copyMemory(from: UnsafeRawBufferPointer(start: base + index, count: count - index))
                }
            }
            guard word & highBits == 0 else { return nil }
            // No byte is 0x80 or above, so the additions below never carry across bytes.
            let folded = word | 0x2020_2020_2020_2020
            let letters = (folded &+ 0x1F1F_1F1F_1F1F_1F1F) & ~(folded &+ 0x0505_0505_0505_0505) & highBits
            // The usual words: all letters, or letters and the one '/'.
            let others = ~letters & highBits
            if others == 0 {
                index += 8
                continue
            }
            if others.nonzeroBitCount == 1, slashes == 0, equal(word, UInt8(ascii: "/")) == others {
                slashes = 1
                slashIndex = index + others.trailingZeroBitCount / 8
                index += 8
                continue
            }
            let digits = (word &+ 0x5050_5050_5050_5050) & ~(word &+ 0x4646_4646_4646_4646) & highBits
            let slash = equal(word, UInt8(ascii: "/"))
            let allowed =
                letters | digits | slash | equal(word, UInt8(ascii: "-")) | equal(word, UInt8(ascii: "."))
                | equal(word, UInt8(ascii: "+"))
            guard allowed == highBits else { return nil }
            if slash != 0 {
                slashes += slash.nonzeroBitCount
                slashIndex = index + slash.trailingZeroBitCount / 8
            }
            index += 8
        }
        guard slashes == 1 else { return nil }
        return slashIndex > 0 && slashIndex < count - 1
    }

    /// Why `type` is not an RFC 3986 absolute URI (scheme ":" then visible ASCII), or nil.
    static func absoluteURIProblem(_ type: UnsafeRawBufferPointer) -> String? {
        guard let first = type.first, isLetter(first) else {
            return "an absolute-URI record's type does not start with a URI scheme"
        }
        var index = 1
        while index < type.count {
            let byte = type[index]
            if byte == UInt8(ascii: ":") { break }
            guard
                isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")
            else {
                return "an absolute-URI record's type has an invalid character in its scheme"
            }
            index += 1
        }
        guard index < type.count else { return "an absolute-URI record's type has no ':' after its scheme" }
        guard isVisibleASCII(UnsafeRawBufferPointer(rebasing: type[index...])) else {
            return "an absolute-URI record's type has a space or non-ASCII byte"
        }
        return nil
    }

    /// Why `type` is not an NFC Forum external type (`domain:type`), or nil.
    static func externalTypeProblem(_ type: UnsafeRawBufferPointer) -> String? {
        guard isVisibleASCII(type) else { return "an external type has a space or non-ASCII byte" }
        guard let colon = type.firstIndex(of: UInt8(ascii: ":")) else {
            return "an external type is not of the form domain:type"
        }
        guard colon > 0, colon + 1 < type.count else {
            return "an external type has an empty domain or type name"
        }
        for byte in type[..<colon]
        where
            !(isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "-"))
        {
            return "an external type's domain has a character other than letters, digits, '.' and '-'"
        }
        return nil
    }

    /// Why `type` is not an NFC Forum well-known type name, or nil.
    static func wellKnownTypeProblem(_ type: UnsafeRawBufferPointer) -> String? {
        isVisibleASCII(type) ? nil : "a well-known type name has a space or non-ASCII byte"
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
