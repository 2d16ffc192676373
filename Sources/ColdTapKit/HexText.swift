import Foundation

/// Bytes written as hex text: two hex digits per byte, optionally separated by spaces, tabs,
/// newlines, colons or commas, each group optionally prefixed with `0x` (`D1 01 05`,
/// `d1:01:05`, `0xD1, 0x01, 0x05` and `d10105` all give the same three bytes). A `0x` group
/// with one digit is one byte (`0x5` = 05).
public enum HexText {
    /// True when `content` consists only of hex digits, `x`/`X`, whitespace, `:` and `,`,
    /// with at least one hex digit.
    public static func looksLikeHex(_ content: Data) -> Bool {
        var sawDigit = false
        for byte in content {
            if hexValue(byte) != nil {
                sawDigit = true
            } else if !isSeparator(byte) && byte != UInt8(ascii: "x") && byte != UInt8(ascii: "X") {
                return false
            }
        }
        return sawDigit
    }

    /// Decodes hex text (see the type's documentation for the accepted forms).
    /// - Parameter name: how to name the input in an error message.
    /// - Throws: `InputError` (malformed) naming the 1-based character position of the
    ///   first bad character or of a group with an odd number of digits.
    public static func parseHex(_ content: Data, name: String = "the input") throws -> Data {
        let text = Array(content)
        var out = Data()
        out.reserveCapacity(text.count / 2)
        var index = 0
        while index < text.count {
            if isSeparator(text[index]) {
                index += 1
                continue
            }
            let groupStart = index
            var prefixed = false
            if text[index] == UInt8(ascii: "0"), index + 1 < text.count,
                text[index + 1] == UInt8(ascii: "x") || text[index + 1] == UInt8(ascii: "X")
            {
                prefixed = true
                index += 2
            }
            var digits: [UInt8] = []
            while index < text.count, !isSeparator(text[index]) {
                guard let value = hexValue(text[index]) else {
                    throw InputError(
                        .malformed,
                        "\(name) is not valid hex: unexpected character at position \(index + 1). Give raw bytes or hex digits separated by spaces, colons or newlines"
                    )
                }
                digits.append(value)
                index += 1
            }
            if prefixed && digits.isEmpty {
                throw InputError(.malformed, "\(name) is not valid hex: '0x' without digits at position \(groupStart + 1)")
            }
            if digits.count % 2 == 1 {
                guard prefixed else {
                    throw InputError(
                        .malformed, "\(name) is not valid hex: the group at position \(groupStart + 1) has an odd number of digits. Write two digits per byte")
                }
                digits.insert(0, at: 0)
            }
            var pair = 0
            while pair < digits.count {
                out.append(digits[pair] << 4 | digits[pair + 1])
                pair += 2
            }
        }
        return out
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
