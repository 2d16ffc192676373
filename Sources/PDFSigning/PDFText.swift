import ColdTapBase
import Foundation

/// PDF text strings and dates, written and read (docs/pdf-signatures.md, "The signature dictionary").
enum PDFText {
    /// `text` as a PDF text string: a literal `( … )` with `\`, `(` and `)` escaped when every
    /// character is printable ASCII, else a hex string of UTF-16BE behind its byte order mark,
    /// which every PDF reader takes for Unicode.
    static func string(_ text: String) -> String {
        if text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
            var escaped = ""
            for character in text {
                if character == "\\" || character == "(" || character == ")" { escaped.append("\\") }
                escaped.append(character)
            }
            return "(" + escaped + ")"
        }
        var units: [UInt8] = [0xFE, 0xFF]
        for unit in text.utf16 { units += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        return "<" + units.hexString() + ">"
    }

    /// The text of a PDF text string's bytes: UTF-16BE or UTF-8 behind their byte order
    /// marks, else PDFDocEncoding, read as Latin-1 (the two differ only in rarely used
    /// punctuation at 0x80–0x9F).
    static func decode(_ bytes: [UInt8]) -> String {
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF {
            var units: [UInt16] = []
            var index = 2
            while index + 1 < bytes.count {
                units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                index += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            return String(decoding: bytes.dropFirst(3), as: UTF8.self)
        }
        return String(bytes.map { Character(UnicodeScalar($0)) })
    }

    /// `(D:20260105143000Z)`: a PDF date in UTC, to the second.
    static func date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.utc
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "(D:%04d%02d%02d%02d%02d%02dZ)", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0,
            parts.second ?? 0)
    }

    /// The time of a PDF date string (`D:YYYYMMDDHHmmSS` with `Z` or an offset `+HH'mm'`;
    /// later parts may be left out); `nil` when it is not one.
    static func parseDate(_ text: String) -> Date? {
        var rest = Substring(text)
        if rest.hasPrefix("D:") { rest = rest.dropFirst(2) }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard digits.count >= 4, digits.count <= 14, digits.count % 2 == 0 else { return nil }
        func field(_ start: Int, _ length: Int, default value: Int) -> Int {
            guard digits.count >= start + length else { return value }
            let from = digits.index(digits.startIndex, offsetBy: start)
            return Int(digits[from..<digits.index(from, offsetBy: length)]) ?? value
        }
        var components = DateComponents()
        components.year = field(0, 4, default: 1970)
        components.month = field(4, 2, default: 1)
        components.day = field(6, 2, default: 1)
        components.hour = field(8, 2, default: 0)
        components.minute = field(10, 2, default: 0)
        components.second = field(12, 2, default: 0)
        var zone = rest.dropFirst(digits.count)
        var offsetSeconds = 0
        if let sign = zone.first, sign == "+" || sign == "-" {
            zone = zone.dropFirst()
            let numbers = zone.split(whereSeparator: { $0 == "'" }).compactMap { Int($0) }
            guard let hours = numbers.first, hours <= 23 else { return nil }
            let minutes = numbers.count > 1 ? numbers[1] : 0
            offsetSeconds = (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offsetSeconds) ?? calendar.timeZone
        return calendar.date(from: components)
    }
}
