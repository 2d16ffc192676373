/// A violation of the NDEF or a record-type specification, with the byte offset where it
/// was found.
///
/// Offsets count from the start of the parsed input. Errors thrown by a typed view decoded
/// on its own (for example `TextRecord(payload:)`) count from the start of that payload.
public struct NDEFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Sendable, Equatable {
        /// There are no bytes at all (an NDEF message has at least one record).
        case emptyInput
        /// The input ends before a field that a header promises: `needed` bytes are
        /// declared, `available` are present.
        case truncated(needed: Int, available: Int)
        /// The first record does not set MB.
        case missingMessageBegin
        /// A record other than the first sets MB.
        case unexpectedMessageBegin
        /// No record sets ME before the input ends.
        case missingMessageEnd
        /// Bytes follow the record that sets ME.
        case bytesAfterMessageEnd(count: Int)
        /// The record uses TNF 7, which NDEF 1.0 reserves.
        case reservedTNF
        /// A TNF value and a type/ID/payload length contradict each other.
        case tnfContradiction(String)
        /// A chunked record breaks the chunking rules (NDEF 1.0, 2.3.3 and 3.2.3).
        case chunkViolation(String)
        /// The record type is not valid for its TNF (MIME type, absolute URI, external type).
        case invalidType(String)
        /// The payload breaks its record-type specification (Text, URI, Smart Poster).
        case invalidPayload(String)

        /// One sentence saying what is wrong, without the offset.
        public var explanation: String {
            switch self {
            case .emptyInput: return "the input is empty (an NDEF message has at least one record)"
            case .truncated(let needed, let available):
                return "the input ends inside a record: its header declares \(needed) more byte(s) but only \(available) remain"
            case .missingMessageBegin: return "the first record does not set the MB (message begin) flag"
            case .unexpectedMessageBegin: return "a record other than the first sets the MB (message begin) flag"
            case .missingMessageEnd: return "the input ends before a record with the ME (message end) flag"
            case .bytesAfterMessageEnd(let count): return "\(count) byte(s) follow the record with the ME (message end) flag"
            case .reservedTNF: return "the record uses the reserved TNF value 7"
            case .tnfContradiction(let detail), .chunkViolation(let detail), .invalidType(let detail),
                .invalidPayload(let detail):
                return detail
            }
        }
    }

    public var kind: Kind
    /// Byte offset of the violation (see the type's documentation for the origin).
    public var offset: Int

    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String { "offset \(offset): \(kind.explanation)" }
}

/// A problem the lenient parser recovered from: what was wrong and what it did about it.
public struct NDEFWarning: Sendable, Equatable, CustomStringConvertible {
    /// Byte offset of the problem, with the same origin as `NDEFError.offset`.
    public var offset: Int
    /// What was wrong and how it was recovered, in one sentence.
    public var message: String
    /// The violation that a strict parse would have thrown, when there is one.
    public var kind: NDEFError.Kind?

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
        self.kind = nil
    }

    /// A warning for a violation; `recovery` (if any) says what the lenient parser did.
    public init(_ kind: NDEFError.Kind, at offset: Int, recovery: String? = nil) {
        self.offset = offset
        self.kind = kind
        self.message = recovery.map { kind.explanation + "; " + $0 } ?? kind.explanation
    }

    public var description: String { "offset \(offset): \(message)" }
}

/// Maps an offset inside a (possibly reassembled) payload back to an offset in the input.
struct OffsetMap: Sendable {
    /// Where each chunk of a reassembled payload starts in the logical payload and in the
    /// input, in order.
    final class ChunkTable: Sendable {
        let starts: [(logical: Int, absolute: Int)]
        init(_ starts: [(logical: Int, absolute: Int)]) { self.starts = starts }
    }

    /// Added to the payload-relative offset (before the chunk lookup, if any).
    var shift: Int
    /// Nil for a contiguous payload: `shift` is then the payload's offset in the input.
    var chunks: ChunkTable?

    static let identity = OffsetMap(shift: 0, chunks: nil)

    func absolute(_ relative: Int) -> Int {
        let logical = shift + relative
        guard let starts = chunks?.starts, var best = starts.first else { return logical }
        for chunk in starts.dropFirst() where chunk.logical <= logical { best = chunk }
        return best.absolute + (logical - best.logical)
    }

    /// The map for a field that starts `offset` bytes into the payload this map describes.
    func nested(at offset: Int) -> OffsetMap {
        OffsetMap(shift: shift + offset, chunks: chunks)
    }
}

/// Collects violations: throws the first in strict mode, records warnings in lenient mode.
struct Diagnostics {
    let mode: NDEFParsingMode
    var map: OffsetMap
    var warnings: [NDEFWarning] = []
    /// Smart Poster nesting depth, bounded so hostile input cannot recurse deeply.
    var depth = 0

    init(mode: NDEFParsingMode, map: OffsetMap = .identity) {
        self.mode = mode
        self.map = map
    }

    var isStrict: Bool { mode == .strict }

    /// A violation at a payload-relative offset.
    mutating func violation(_ kind: NDEFError.Kind, at relative: Int, recovery: String? = nil) throws {
        try violation(kind, absolute: map.absolute(relative), recovery: recovery)
    }

    /// A violation at an offset already mapped to the input.
    mutating func violation(_ kind: NDEFError.Kind, absolute offset: Int, recovery: String? = nil) throws {
        if mode == .strict { throw NDEFError(kind, at: offset) }
        warnings.append(NDEFWarning(kind, at: offset, recovery: recovery))
    }
}
