/// The URL-safe base64 of cuplTag (RFC 4648 §5 alphabet, `.` as padding; docs/formats/cupltag.md §3).
enum CuplBase64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    static let lookup: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = Int8(index) }
        return table
    }()

    /// Decodes groups of four characters; `.` (or `=`) may pad the last group only.
    /// - Returns: the bytes, or the index of the first character that is not valid here.
    static func decode(_ text: Substring.UTF8View) -> Result<[UInt8], BadCharacter> {
        let chars = Array(text)
        guard chars.count % 4 == 0 else { return .failure(BadCharacter(index: chars.count, reason: "its length \(chars.count) is not a multiple of 4")) }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var index = 0
        while index < chars.count {
            var values = [Int](repeating: 0, count: 4)
            var padding = 0
            for position in 0..<4 {
                let char = chars[index + position]
                if char == UInt8(ascii: ".") || char == UInt8(ascii: "=") {
                    guard index + 4 == chars.count, position >= 2 else {
                        return .failure(BadCharacter(index: index + position, reason: "padding '\(Character(Unicode.Scalar(char)))' before the end"))
                    }
                    padding += 1
                    continue
                }
                guard padding == 0 else {
                    return .failure(BadCharacter(index: index + position, reason: "a character after padding"))
                }
                let value = lookup[Int(char)]
                guard value >= 0 else {
                    let shown = char >= 0x20 && char < 0x7F ? "'\(Character(Unicode.Scalar(char)))'" : "byte 0x\(String(char, radix: 16))"
                    return .failure(BadCharacter(index: index + position, reason: "\(shown) is not a URL-safe base64 character"))
                }
                values[position] = Int(value)
            }
            let combined = values[0] << 18 | values[1] << 12 | values[2] << 6 | values[3]
            out.append(UInt8(combined >> 16 & 0xFF))
            if padding < 2 { out.append(UInt8(combined >> 8 & 0xFF)) }
            if padding < 1 { out.append(UInt8(combined & 0xFF)) }
            index += 4
        }
        return .success(out)
    }

    struct BadCharacter: Error {
        var index: Int
        var reason: String
    }

    /// Encodes with `.` padding.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let b0 = Int(bytes[index])
            let b1 = remaining > 1 ? Int(bytes[index + 1]) : 0
            let b2 = remaining > 2 ? Int(bytes[index + 2]) : 0
            let combined = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[combined >> 18 & 63])
            out.append(alphabet[combined >> 12 & 63])
            out.append(remaining > 1 ? alphabet[combined >> 6 & 63] : UInt8(ascii: "."))
            out.append(remaining > 2 ? alphabet[combined & 63] : UInt8(ascii: "."))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
