import Foundation

/// A request's body or query as written, before it becomes a typed value: JSON keeps a whole
/// number apart from a fraction and `true` apart from 1; a form or a query holds text only.
/// Objects keep their keys in order, and a key given twice is refused where it is read.
indirect enum RequestValue: Equatable {
    case null, bool(Bool), integer(Int64), number(Double), string(String), array([RequestValue]), object([(String, RequestValue)])

    static func == (lhs: RequestValue, rhs: RequestValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: return false
        }
    }

    /// The fields of a query (`?a=b&c=d`, already decoded) or of a form.
    static func fields(_ pairs: [(String, String)]) -> RequestValue { .object(pairs.map { ($0.0, .string($0.1)) }) }

    /// `application/x-www-form-urlencoded` fields, at most 64 (`+` is a space); a field
    /// whose escapes are not UTF-8 is read as empty, as browsers never send one.
    static func form(_ body: Data) -> RequestValue {
        func decode(_ text: Substring) -> String { String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
        var pairs: [(String, String)] = []
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&").prefix(64) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first else { continue }
            pairs.append((decode(name), parts.count > 1 ? decode(parts[1]) : ""))
        }
        return fields(pairs)
    }
}

/// A strict reader of one JSON text (RFC 8259) into a `RequestValue`: nothing after the
/// value, no key twice in one object (JSONSerialization and JSONDecoder keep one of them
/// silently), nesting at most 32 deep.
struct StrictJSONReader {
    /// Where the text stopped being JSON, for the refusal's detail.
    struct Malformed: Error {
        var offset: Int
        var reason: String
    }

    /// A key given twice in one object.
    struct DuplicateKey: Error {
        var key: String
    }

    private let bytes: [UInt8]
    private var index = 0
    static let maximumDepth = 32

    static func read(_ data: Data) throws -> RequestValue {
        var reader = StrictJSONReader(bytes: Array(data))
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw Malformed(offset: reader.index, reason: "text after the value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func expect(_ literal: String, _ value: RequestValue) throws -> RequestValue {
        let scalars = Array(literal.utf8)
        guard index + scalars.count <= bytes.count, Array(bytes[index..<index + scalars.count]) == scalars else {
            throw Malformed(offset: index, reason: "not a JSON value")
        }
        index += scalars.count
        return value
    }

    private mutating func value(depth: Int) throws -> RequestValue {
        guard depth < StrictJSONReader.maximumDepth else { throw Malformed(offset: index, reason: "nested too deep") }
        switch current {
        case UInt8(ascii: "{")?: return try object(depth: depth)
        case UInt8(ascii: "[")?: return try array(depth: depth)
        case UInt8(ascii: "\"")?: return .string(try string())
        case UInt8(ascii: "t")?: return try expect("true", .bool(true))
        case UInt8(ascii: "f")?: return try expect("false", .bool(false))
        case UInt8(ascii: "n")?: return try expect("null", .null)
        case let byte? where byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte): return try number()
        default: throw Malformed(offset: index, reason: "not a JSON value")
        }
    }

    private mutating func object(depth: Int) throws -> RequestValue {
        index += 1
        var members: [(String, RequestValue)] = []
        var keys: Set<String> = []
        skipSpace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object([])
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw Malformed(offset: index, reason: "a key must be a string") }
            let key = try string()
            guard keys.insert(key).inserted else { throw DuplicateKey(key: key) }
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw Malformed(offset: index, reason: "':' expected") }
            index += 1
            skipSpace()
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            switch current {
            case UInt8(ascii: ",")?: index += 1
            case UInt8(ascii: "}")?:
                index += 1
                return .object(members)
            default: throw Malformed(offset: index, reason: "',' or '}' expected")
            }
        }
    }

    private mutating func array(depth: Int) throws -> RequestValue {
        index += 1
        var elements: [RequestValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array([])
        }
        while true {
            skipSpace()
            elements.append(try value(depth: depth + 1))
            skipSpace()
            switch current {
            case UInt8(ascii: ",")?: index += 1
            case UInt8(ascii: "]")?:
                index += 1
                return .array(elements)
            default: throw Malformed(offset: index, reason: "',' or ']' expected")
            }
        }
    }

    private mutating func string() throws -> String {
        let start = index
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else { throw Malformed(offset: start, reason: "unterminated string") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else { throw Malformed(offset: start, reason: "a string that is not UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard let escape = current else { throw Malformed(offset: index, reason: "unterminated escape") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): utf8.append(contentsOf: try unicodeEscape())
                default: throw Malformed(offset: index - 1, reason: "unknown escape")
                }
            case 0x00..<0x20: throw Malformed(offset: index - 1, reason: "a control character in a string")
            default: utf8.append(byte)
            }
        }
    }

    private mutating func hexQuad() throws -> UInt32 {
        guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
            bytes[index..<index + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
        else { throw Malformed(offset: index, reason: "\\u needs four hex digits") }
        index += 4
        return value
    }

    /// `\uXXXX`, a surrogate pair as one scalar; a lone surrogate is refused.
    private mutating func unicodeEscape() throws -> [UInt8] {
        let offset = index
        var code = try hexQuad()
        if (0xD800...0xDBFF).contains(code) {
            guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw Malformed(offset: offset, reason: "a lone surrogate")
            }
            index += 2
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw Malformed(offset: offset, reason: "a lone surrogate") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw Malformed(offset: offset, reason: "a lone surrogate") }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func number() throws -> RequestValue {
        let start = index
        func digits() -> Int {
            let first = index
            while let byte = current, (0x30...0x39).contains(byte) { index += 1 }
            return index - first
        }
        if current == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
            throw Malformed(offset: start, reason: "not a JSON number")
        }
        var whole = true
        if current == UInt8(ascii: ".") {
            index += 1
            whole = false
            guard digits() > 0 else { throw Malformed(offset: start, reason: "not a JSON number") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            whole = false
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw Malformed(offset: start, reason: "not a JSON number") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if whole, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else { throw Malformed(offset: start, reason: "a number out of range") }
        return .number(value)
    }
}
