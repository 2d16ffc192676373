/// A violation of the NDEF or a record-type specification, with the byte offset
/// (from the start of the parsed input, or of the record payload for record-type errors)
/// where it was found.
public struct NDEFError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case emptyInput
        /// The input ends before a field that its header promises.
        case truncated(needed: Int, available: Int)
        case missingMessageBegin
        case unexpectedMessageBegin
        case missingMessageEnd
        case bytesAfterMessageEnd(count: Int)
        case reservedTNF
        /// A TNF value and a type/ID/payload length contradict each other.
        case tnfContradiction(String)
        case chunkViolation(String)
        case invalidPayload(String)
    }

    public var kind: Kind
    public var offset: Int

    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String {
        let what: String
        switch kind {
        case .emptyInput: what = "the input is empty (an NDEF message has at least one record)"
        case .truncated(let needed, let available):
            what = "the record needs \(needed) more byte(s) but only \(available) remain"
        case .missingMessageBegin: what = "the first record does not have the MB (message begin) flag"
        case .unexpectedMessageBegin: what = "a record other than the first has the MB (message begin) flag"
        case .missingMessageEnd: what = "the input ends before a record with the ME (message end) flag"
        case .bytesAfterMessageEnd(let count): what = "\(count) byte(s) follow the record with the ME (message end) flag"
        case .reservedTNF: what = "the record uses the reserved TNF value 7"
        case .tnfContradiction(let detail): what = detail
        case .chunkViolation(let detail): what = detail
        case .invalidPayload(let detail): what = detail
        }
        return "offset \(offset): \(what)"
    }
}

/// A problem the lenient parser recovered from.
public struct NDEFWarning: Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "offset \(offset): \(message)" }
}
