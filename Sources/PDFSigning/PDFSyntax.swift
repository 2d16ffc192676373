import Foundation

/// An indirect object's number and generation: `12 0 R`.
struct PDFReference: Hashable, Sendable, CustomStringConvertible {
    var number: Int
    var generation: Int

    /// `12 0 R`, as it is written in a PDF.
    var description: String { "\(number) \(generation) R" }
}

/// A PDF object as read from the file (docs/pdf-signatures.md, "What the signer reads"). Only
/// what the signer and the check need is kept: a real is its value, a string its bytes.
indirect enum PDFObject: Equatable, Sendable {
    case null
    case boolean(Bool)
    case integer(Int)
    case real(Double)
    /// A name without its slash, `#xx` escapes decoded.
    case name(String)
    /// A literal or hex string's bytes, escapes decoded.
    case string([UInt8])
    case array([PDFObject])
    case dictionary(PDFDictionary)
    case reference(PDFReference)

    var dictionary: PDFDictionary? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    var array: [PDFObject]? {
        if case .array(let value) = self { return value }
        return nil
    }

    var reference: PDFReference? {
        if case .reference(let value) = self { return value }
        return nil
    }

    var integer: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    var name: String? {
        if case .name(let value) = self { return value }
        return nil
    }

    var stringBytes: [UInt8]? {
        if case .string(let value) = self { return value }
        return nil
    }
}

/// A dictionary with each entry's bytes in the file, so that an object rewritten by an
/// incremental update keeps every entry it had exactly as it was written.
struct PDFDictionary: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        var key: String
        var value: PDFObject
        /// The bytes of `/Key value` in the file.
        var source: Range<Int>
    }

    var entries: [Entry]

    /// The value of the first entry named `key` (a PDF with the same key twice is not one
    /// whose meaning this reader should choose between; the first is what most readers take).
    subscript(key: String) -> PDFObject? { entries.first { $0.key == key }?.value }
}

/// Reads PDF objects from bytes, each length and position checked against the bytes present:
/// every byte of a PDF to sign is untrusted.
struct PDFScanner {
    let bytes: [UInt8]
    var position: Int

    /// Deeper nesting than this is refused rather than followed (a hostile file could nest
    /// arrays until the stack runs out).
    static let maximumDepth = 64

    init(bytes: [UInt8], position: Int) {
        self.bytes = bytes
        self.position = position
    }

    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x00 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D || byte == 0x20 }

    static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "/"), UInt8(ascii: "%"):
            return true
        default:
            return false
        }
    }

    static func isRegular(_ byte: UInt8) -> Bool { !isWhitespace(byte) && !isDelimiter(byte) }

    var atEnd: Bool { position >= bytes.count }

    func peek(_ offset: Int = 0) -> UInt8? {
        let index = position + offset
        return index >= 0 && index < bytes.count ? bytes[index] : nil
    }

    func malformed(_ problem: String, at offset: Int? = nil) -> PDFSigningError {
        .malformedPDF(offset: offset ?? min(position, bytes.count), problem: problem)
    }

    /// Skips white space and comments (`%` to the end of the line).
    mutating func skipWhitespace() {
        while let byte = peek() {
            if Self.isWhitespace(byte) {
                position += 1
            } else if byte == UInt8(ascii: "%") {
                while let next = peek(), next != 0x0A, next != 0x0D { position += 1 }
            } else {
                return
            }
        }
    }

    /// The run of regular characters at the position (a keyword or a number), empty when a
    /// delimiter or the end comes first.
    mutating func regularToken() -> [UInt8] {
        let start = position
        while let byte = peek(), Self.isRegular(byte) { position += 1 }
        return Array(bytes[start..<position])
    }

    /// Skips white space, then reads `keyword`.
    /// - Throws: `malformedPDF` naming the keyword expected when something else is there.
    mutating func expectKeyword(_ keyword: String) throws(PDFSigningError) {
        skipWhitespace()
        let start = position
        let token = regularToken()
        guard token == Array(keyword.utf8) else {
            throw malformed("expected '\(keyword)', found \(Self.describe(token, or: peek()))", at: start)
        }
    }

    /// True (and past it) when the next token is `keyword`; the position is unchanged otherwise.
    mutating func takeKeyword(_ keyword: String) -> Bool {
        let saved = position
        skipWhitespace()
        if regularToken() == Array(keyword.utf8) { return true }
        position = saved
        return false
    }

    /// A non-negative integer token (an offset, an object number, a count).
    /// - Throws: `malformedPDF` when the next token is not one, or has more than 15 digits.
    mutating func unsignedInteger(_ what: String) throws(PDFSigningError) -> Int {
        skipWhitespace()
        let start = position
        let token = regularToken()
        guard !token.isEmpty, token.count <= 15, token.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = Int(String(decoding: token, as: UTF8.self))
        else {
            throw malformed("expected \(what), found \(Self.describe(token, or: peek()))", at: start)
        }
        return value
    }

    /// A few characters of what was found, for an error message.
    static func describe(_ token: [UInt8], or next: UInt8?) -> String {
        if !token.isEmpty {
            let shown = token.prefix(20).map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "?" }.joined()
            return "'\(shown)'"
        }
        guard let next else { return "the end of the file" }
        return next >= 0x20 && next < 0x7F ? "'\(String(UnicodeScalar(next)))'" : String(format: "byte 0x%02X", next)
    }

    /// The object at the position (white space before it skipped), with the bytes it spans.
    /// - Throws: `malformedPDF` at the first byte that does not belong to an object.
    mutating func object(depth: Int = 0) throws(PDFSigningError) -> PDFObject {
        guard depth < Self.maximumDepth else { throw malformed("objects nested more than \(Self.maximumDepth) deep") }
        skipWhitespace()
        guard let byte = peek() else { throw malformed("expected an object, found the end of the file") }
        switch byte {
        case UInt8(ascii: "/"):
            return .name(try name())
        case UInt8(ascii: "("):
            return .string(try literalString())
        case UInt8(ascii: "<"):
            if peek(1) == UInt8(ascii: "<") { return .dictionary(try dictionary(depth: depth)) }
            return .string(try hexString())
        case UInt8(ascii: "["):
            position += 1
            var elements: [PDFObject] = []
            while true {
                skipWhitespace()
                guard let next = peek() else { throw malformed("an array is not closed before the end of the file") }
                if next == UInt8(ascii: "]") {
                    position += 1
                    return .array(elements)
                }
                elements.append(try object(depth: depth + 1))
            }
        default:
            return try numberReferenceOrKeyword()
        }
    }

    /// `<< /Key value ... >>` with each entry's bytes.
    mutating func dictionary(depth: Int) throws(PDFSigningError) -> PDFDictionary {
        position += 2
        var entries: [PDFDictionary.Entry] = []
        while true {
            skipWhitespace()
            guard let next = peek() else { throw malformed("a dictionary is not closed before the end of the file") }
            if next == UInt8(ascii: ">") {
                guard peek(1) == UInt8(ascii: ">") else { throw malformed("a dictionary ends with a single '>'") }
                position += 2
                return PDFDictionary(entries: entries)
            }
            let start = position
            guard next == UInt8(ascii: "/") else {
                throw malformed("a dictionary key must be a name, found \(Self.describe([], or: next))")
            }
            let key = try name()
            let value = try object(depth: depth + 1)
            entries.append(PDFDictionary.Entry(key: key, value: value, source: start..<position))
        }
    }

    /// `/Name`, `#xx` escapes decoded.
    mutating func name() throws(PDFSigningError) -> String {
        let start = position
        position += 1
        var decoded: [UInt8] = []
        while let byte = peek(), Self.isRegular(byte) {
            if byte == UInt8(ascii: "#") {
                guard let high = peek(1).flatMap(Self.hexValue), let low = peek(2).flatMap(Self.hexValue) else {
                    throw malformed("a name's '#' is not followed by two hex digits")
                }
                decoded.append(high << 4 | low)
                position += 3
            } else {
                decoded.append(byte)
                position += 1
            }
        }
        guard let text = String(bytes: decoded, encoding: .utf8) ?? String(bytes: decoded, encoding: .isoLatin1) else {
            throw malformed("a name that is not text", at: start)
        }
        return text
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    /// `(text)` with its escapes and balanced parentheses; an end of line inside is one LF.
    mutating func literalString() throws(PDFSigningError) -> [UInt8] {
        let start = position
        position += 1
        var result: [UInt8] = []
        var open = 1
        while let byte = peek() {
            position += 1
            switch byte {
            case UInt8(ascii: "("):
                open += 1
                result.append(byte)
            case UInt8(ascii: ")"):
                open -= 1
                if open == 0 { return result }
                result.append(byte)
            case 0x0D:
                if peek() == 0x0A { position += 1 }
                result.append(0x0A)
            case UInt8(ascii: "\\"):
                guard let escaped = peek() else { break }
                position += 1
                switch escaped {
                case UInt8(ascii: "n"): result.append(0x0A)
                case UInt8(ascii: "r"): result.append(0x0D)
                case UInt8(ascii: "t"): result.append(0x09)
                case UInt8(ascii: "b"): result.append(0x08)
                case UInt8(ascii: "f"): result.append(0x0C)
                case 0x0D:
                    if peek() == 0x0A { position += 1 }
                case 0x0A:
                    break
                case 0x30...0x37:
                    var value = Int(escaped - 0x30)
                    for _ in 0..<2 {
                        guard let digit = peek(), digit >= 0x30, digit <= 0x37 else { break }
                        value = value * 8 + Int(digit - 0x30)
                        position += 1
                    }
                    result.append(UInt8(truncatingIfNeeded: value))
                default:
                    result.append(escaped)
                }
            default:
                result.append(byte)
            }
        }
        throw malformed("a string is not closed before the end of the file", at: start)
    }

    /// `<48656C6C6F>`; white space inside is skipped, an odd last digit is followed by 0.
    mutating func hexString() throws(PDFSigningError) -> [UInt8] {
        let start = position
        position += 1
        var result: [UInt8] = []
        var high: UInt8?
        while let byte = peek() {
            position += 1
            if byte == UInt8(ascii: ">") {
                if let high { result.append(high << 4) }
                return result
            }
            if Self.isWhitespace(byte) { continue }
            guard let value = Self.hexValue(byte) else {
                throw malformed("a hex string holds \(Self.describe([], or: byte))", at: position - 1)
            }
            if let pending = high {
                result.append(pending << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        throw malformed("a hex string is not closed before the end of the file", at: start)
    }

    /// A number, `N G R`, `true`, `false` or `null`.
    mutating func numberReferenceOrKeyword() throws(PDFSigningError) -> PDFObject {
        let start = position
        let token = regularToken()
        switch String(decoding: token, as: UTF8.self) {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "null": return .null
        default: break
        }
        guard let number = Self.number(token) else {
            throw malformed("expected an object, found \(Self.describe(token, or: peek()))", at: start)
        }
        guard case .integer(let first) = number, first >= 0 else { return number }
        // `N G R`: look ahead without consuming unless all three are there.
        let afterFirst = position
        skipWhitespace()
        let generationToken = regularToken()
        if let generation = Self.number(generationToken)?.integer, generation >= 0, generation <= 65535 {
            skipWhitespace()
            if regularToken() == [UInt8(ascii: "R")] { return .reference(PDFReference(number: first, generation: generation)) }
        }
        position = afterFirst
        return number
    }

    /// An integer or a real from its token; `nil` for anything else.
    static func number(_ token: [UInt8]) -> PDFObject? {
        guard !token.isEmpty, token.count <= 32 else { return nil }
        var digits = token[...]
        if let sign = digits.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { digits = digits.dropFirst() }
        let dots = digits.filter { $0 == UInt8(ascii: ".") }.count
        guard !digits.isEmpty, dots <= 1, digits.contains(where: { $0 != UInt8(ascii: ".") }),
            digits.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") })
        else { return nil }
        let text = String(decoding: token, as: UTF8.self)
        if dots == 0, let value = Int(text) { return .integer(value) }
        return Double(text).map { .real($0) }
    }
}
