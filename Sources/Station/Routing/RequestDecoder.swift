import Foundation

/// What a request's body, form or query is decoded into: a `Decodable` type whose keys are
/// the only ones taken (a key it does not read is refused), each value of the type it
/// declares. `shape` says what to send, in the refusal.
protocol RequestFields: Decodable {
    /// The body to send (`{"at": "…"}`) or the query parameters taken, for refusals.
    static var shape: String { get }
    /// What `field` must be, when more is known than its type ("a whole number from 0 to 9").
    static func rule(for field: String) -> String?
}

extension RequestFields {
    static func rule(for field: String) -> String? { nil }
}

/// Why a body, form or query is not the type asked for.
enum RequestDecodingError: Error, Equatable {
    case notAnObject
    case unknownField(String)
    case duplicateField(String)
    /// Missing, `null` where a value is needed, or of another type: what it must be.
    case wrongType(field: String, expected: String)
}

/// Decodes a `RequestValue` into a `Decodable` type: JSON values as their own types only
/// (a string is no number, 1 is no `true`); form and query values, which are text, as the
/// type's reading of the text (`1`/`true` and `0`/`false` for a flag, digits for a number).
/// Every key of an object must be read by the type, once.
struct RequestDecoder {
    enum Source { case json, text }

    static func decode<T: Decodable>(_ type: T.Type, from value: RequestValue, source: Source) throws -> T {
        let state = DecodingState(source: source)
        let decoded: T
        do {
            decoded = try T(from: ValueDecoder(value: value, path: [], state: state))
        } catch let error as RequestDecodingError {
            throw error
        } catch DecodingError.keyNotFound(let key, _) {
            throw RequestDecodingError.wrongType(field: key.stringValue, expected: "given")
        } catch DecodingError.valueNotFound(_, let context), DecodingError.typeMismatch(_, let context), DecodingError.dataCorrupted(let context) {
            // A type's own `init(from:)` (an enum of names) refused the value.
            throw RequestDecodingError.wrongType(field: context.codingPath.last?.stringValue ?? "", expected: "one of the values described")
        }
        for container in state.containers {
            if let unread = container.keys.first(where: { !container.read.contains($0) }) { throw RequestDecodingError.unknownField(unread) }
        }
        return decoded
    }
}

/// The keys of each object decoded, and which of them the type read.
private final class DecodingState {
    final class Container {
        let keys: [String]
        var read: Set<String> = []
        init(keys: [String]) { self.keys = keys }
    }

    let source: RequestDecoder.Source
    var containers: [Container] = []
    init(source: RequestDecoder.Source) { self.source = source }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

private struct ValueDecoder: Decoder {
    let value: RequestValue
    let path: [any CodingKey]
    let state: DecodingState
    var codingPath: [any CodingKey] { path }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            if path.isEmpty { throw RequestDecodingError.notAnObject }
            throw RequestDecodingError.wrongType(field: path.last?.stringValue ?? "", expected: "an object")
        }
        var fields: [String: RequestValue] = [:]
        for (key, member) in members {
            guard fields.updateValue(member, forKey: key) == nil else { throw RequestDecodingError.duplicateField(key) }
        }
        let container = DecodingState.Container(keys: members.map(\.0))
        state.containers.append(container)
        return KeyedDecodingContainer(KeyedContainer<Key>(fields: fields, path: path, state: state, container: container))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw RequestDecodingError.wrongType(field: path.last?.stringValue ?? "", expected: "an array")
        }
        return UnkeyedContainer(elements: elements, path: path, state: state)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValue(value: value, path: path, state: state) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: [String: RequestValue]
    let path: [any CodingKey]
    let state: DecodingState
    let container: DecodingState.Container
    var codingPath: [any CodingKey] { path }
    var allKeys: [Key] { container.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        container.read.insert(key.stringValue)
        return fields[key.stringValue] != nil
    }

    private func value(_ key: Key) throws -> RequestValue {
        container.read.insert(key.stringValue)
        guard let value = fields[key.stringValue] else { throw RequestDecodingError.wrongType(field: key.stringValue, expected: "given") }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        container.read.insert(key.stringValue)
        return fields[key.stringValue].map { $0 == .null } ?? true
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: ValueDecoder(value: try value(key), path: path + [key], state: state))
    }

    // Each type is read by `SingleValue`, the one place a type is checked.
    private func decode<T: Decodable>(_ type: T.Type, forKey key: Key, as: T.Type) throws -> T {
        try T(from: ValueDecoder(value: try value(key), path: path + [key], state: state))
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, forKey: key, as: Bool.self) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, forKey: key, as: String.self) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, forKey: key, as: Double.self) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, forKey: key, as: Float.self) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, forKey: key, as: Int.self) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, forKey: key, as: Int8.self) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, forKey: key, as: Int16.self) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, forKey: key, as: Int32.self) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, forKey: key, as: Int64.self) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, forKey: key, as: UInt.self) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, forKey: key, as: UInt8.self) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, forKey: key, as: UInt16.self) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, forKey: key, as: UInt32.self) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, forKey: key, as: UInt64.self) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: try value(key), path: path + [key], state: state).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: try value(key), path: path + [key], state: state).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(value: .object(fields.map { ($0.key, $0.value) }), path: path, state: state) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ValueDecoder(value: try value(key), path: path + [key], state: state) }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [RequestValue]
    let path: [any CodingKey]
    let state: DecodingState
    var currentIndex = 0
    var codingPath: [any CodingKey] { path }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func next() throws -> ValueDecoder {
        guard !isAtEnd else { throw RequestDecodingError.wrongType(field: path.last?.stringValue ?? "", expected: "a longer array") }
        defer { currentIndex += 1 }
        return ValueDecoder(value: elements[currentIndex], path: path + [AnyKey(intValue: currentIndex)], state: state)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: try next()) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try Bool(from: try next()) }
    mutating func decode(_ type: String.Type) throws -> String { try String(from: try next()) }
    mutating func decode(_ type: Double.Type) throws -> Double { try Double(from: try next()) }
    mutating func decode(_ type: Float.Type) throws -> Float { try Float(from: try next()) }
    mutating func decode(_ type: Int.Type) throws -> Int { try Int(from: try next()) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try Int8(from: try next()) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try Int16(from: try next()) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try Int32(from: try next()) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try Int64(from: try next()) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try UInt(from: try next()) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try UInt8(from: try next()) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try UInt16(from: try next()) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try UInt32(from: try next()) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try UInt64(from: try next()) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

/// One value read as a type: the only place a type is checked.
private struct SingleValue: SingleValueDecodingContainer {
    let value: RequestValue
    let path: [any CodingKey]
    let state: DecodingState
    var codingPath: [any CodingKey] { path }

    private func refuse(_ expected: String) -> RequestDecodingError { .wrongType(field: path.last?.stringValue ?? "", expected: expected) }

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch (value, state.source) {
        case (.bool(let flag), .json): return flag
        case (.string("1"), .text), (.string("true"), .text): return true
        case (.string("0"), .text), (.string("false"), .text): return false
        default: throw refuse(state.source == .json ? "true or false" : "1 or 0")
        }
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value else { throw refuse("a string") }
        // NUL and the other control characters (but tab and line breaks) are in no name or
        // text a person writes: a name that ends at a NUL for C and not for Swift is refused.
        guard !RequestText.hasControlCharacter(text, allowingLineBreaks: true) else {
            throw refuse("text without control characters (such as NUL)")
        }
        return text
    }

    private func wholeNumber() throws -> Int64 {
        switch (value, state.source) {
        case (.integer(let number), .json): return number
        case (.string(let text), .text) where text.count <= 20:
            if let number = Int64(text) { return number }
        default: break
        }
        throw refuse("a whole number")
    }

    private func number() throws -> Double {
        switch (value, state.source) {
        case (.integer(let number), .json): return Double(number)
        case (.number(let number), .json): return number
        case (.string(let text), .text) where text.count <= 40:
            if let number = Double(text), number.isFinite { return number }
        default: break
        }
        throw refuse("a number")
    }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard let exact = T(exactly: try wholeNumber()) else { throw refuse("a whole number from \(T.min) to \(T.max)") }
        return exact
    }

    func decode(_ type: Double.Type) throws -> Double { try number() }
    func decode(_ type: Float.Type) throws -> Float { Float(try number()) }
    func decode(_ type: Int.Type) throws -> Int { try integer(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try wholeNumber() }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: ValueDecoder(value: value, path: path, state: state)) }
}

extension HTTPRequest {
    /// The body as `T`: a JSON object (`Content-Type: application/json` or none), every key
    /// one `T` reads, each once and of its type.
    /// - Throws: `UploadRejection` 415 for another content type; `HTTPFailure` 400 naming the
    ///   field, or saying what to send (`T.shape`).
    func jsonBody<T: RequestFields>(_ type: T.Type) throws -> T {
        if let type = header("Content-Type"), !type.lowercased().hasPrefix("application/json") {
            throw UploadRejection(status: 415, "this request's body is JSON (Content-Type: application/json), not \(type.prefix(80)).")
        }
        let value: RequestValue
        do {
            value = try StrictJSONReader.read(body)
        } catch let duplicate as StrictJSONReader.DuplicateKey {
            throw HTTPFailure.badRequest("the body gives \"\(duplicate.key.prefix(64))\" twice; send \(T.shape).")
        } catch {
            throw HTTPFailure.badRequest("the body must be a JSON object \(T.shape).")
        }
        return try decodeFields(T.self, from: value, source: .json, what: "the body", noun: "field", send: "send \(T.shape)")
    }

    /// A posted form (`application/x-www-form-urlencoded`) as `T`.
    func formBody<T: RequestFields>(_ type: T.Type) throws -> T {
        try decodeFields(T.self, from: .form(body), source: .text, what: "the form", noun: "field", send: "it holds \(T.shape)")
    }

    /// The query as `T`: each parameter one `T` reads, once.
    func typedQuery<T: RequestFields>(_ type: T.Type) throws -> T {
        try decodeFields(
            T.self, from: .fields(query), source: .text, what: "the query", noun: "parameter",
            send: T.shape.isEmpty ? "this path takes none" : "this path takes \(T.shape)")
    }

    private func decodeFields<T: RequestFields>(
        _ type: T.Type, from value: RequestValue, source: RequestDecoder.Source, what: String, noun: String, send: String
    ) throws -> T {
        do {
            return try RequestDecoder.decode(T.self, from: value, source: source)
        } catch let error as RequestDecodingError {
            switch error {
            case .notAnObject: throw HTTPFailure.badRequest("\(what) must be a JSON object \(T.shape).")
            case .unknownField(let name): throw HTTPFailure.badRequest("\(what) has no \(noun) \"\(name.prefix(64))\"; \(send).")
            case .duplicateField(let name): throw HTTPFailure.badRequest("\(what) gives \"\(name.prefix(64))\" twice; \(send).")
            case .wrongType(let field, let expected):
                let rule = T.rule(for: field) ?? expected
                throw HTTPFailure.badRequest("\"\(field.prefix(64))\" must be \(rule).")
            }
        }
    }
}

/// A query, form or body that takes nothing.
struct NoFields: RequestFields {
    static let shape = ""

    /// Reads the (empty) object, so that any key in it is refused.
    init(from decoder: any Decoder) throws { _ = try decoder.container(keyedBy: AnyKey.self) }
}

/// Control characters in what a request names or says.
enum RequestText {
    /// True when `text` holds a C0 control character or DEL; with `allowingLineBreaks`, tab,
    /// line feed and carriage return are allowed (a comment may have several lines).
    static func hasControlCharacter(_ text: String, allowingLineBreaks: Bool) -> Bool {
        text.unicodeScalars.contains { scalar in
            guard scalar.value < 0x20 || scalar.value == 0x7F else { return false }
            return !(allowingLineBreaks && (scalar == "\t" || scalar == "\n" || scalar == "\r"))
        }
    }
}
