import Foundation

/// How strictly `NDEFParser` applies the specifications.
public enum NDEFParsingMode: Sendable {
    /// Any violation of NDEF 1.0 or of a record-type specification throws `NDEFError`.
    case strict
    /// Recover what a phone would still show; each recovery is reported as an `NDEFWarning`.
    case lenient
}

/// The result of a lenient parse: the records that could be recovered and what was wrong.
public struct NDEFParseResult: Sendable, Equatable {
    public var message: NDEFMessage
    public var warnings: [NDEFWarning]
}

private enum HeaderFlag {
    static let messageBegin: UInt8 = 0x80
    static let messageEnd: UInt8 = 0x40
    static let chunk: UInt8 = 0x20
    static let shortRecord: UInt8 = 0x10
    static let idLength: UInt8 = 0x08
    static let tnfMask: UInt8 = 0x07
}

/// NFC Forum NDEF 1.0 message parser.
///
/// Every length field is checked against the bytes present before anything is sliced or
/// allocated, so a record that declares 0xFFFFFFFF payload bytes in a 10-byte input fails
/// at once. Payloads of unchunked records share storage with the input.
public enum NDEFParser {
    /// Parses one NDEF message.
    /// - Throws: `NDEFError` naming the offset of the first violation (in strict mode), or
    ///   when nothing at all can be recovered (in lenient mode).
    public static func parse(_ bytes: Data, mode: NDEFParsingMode = .strict) throws -> NDEFParseResult {
        var reader = RecordReader(bytes: bytes, mode: mode)
        return try reader.readMessage()
    }

    /// Strict parse returning only the message.
    public static func message(from bytes: Data) throws -> NDEFMessage {
        try parse(bytes, mode: .strict).message
    }
}

/// One record header and the positions of its fields, as read from the wire.
private struct RawRecord {
    var offset: Int
    var flags: UInt8
    var tnf: UInt8
    var type: Data
    var id: Data
    var payload: Data
    var hasIDLength: Bool

    var isChunk: Bool { flags & HeaderFlag.chunk != 0 }
    var isMessageBegin: Bool { flags & HeaderFlag.messageBegin != 0 }
    var isMessageEnd: Bool { flags & HeaderFlag.messageEnd != 0 }
}

private struct RecordReader {
    let bytes: Data
    let mode: NDEFParsingMode
    /// Position relative to `bytes.startIndex`.
    var position = 0
    var warnings: [NDEFWarning] = []

    init(bytes: Data, mode: NDEFParsingMode) {
        self.bytes = bytes
        self.mode = mode
    }

    var remaining: Int { bytes.count - position }

    /// In strict mode throws; in lenient mode records the warning and returns.
    mutating func violation(_ kind: NDEFError.Kind, at offset: Int) throws {
        let error = NDEFError(kind, at: offset)
        if mode == .strict { throw error }
        warnings.append(NDEFWarning(offset: offset, message: error.description.dropOffsetPrefix()))
    }

    mutating func readByte() throws -> UInt8 {
        guard remaining >= 1 else { throw NDEFError(.truncated(needed: 1, available: 0), at: position) }
        let byte = bytes[bytes.startIndex + position]
        position += 1
        return byte
    }

    mutating func readSlice(_ count: Int) throws -> Data {
        guard count <= remaining else {
            throw NDEFError(.truncated(needed: count, available: remaining), at: position)
        }
        let start = bytes.startIndex + position
        position += count
        return bytes[start..<(start + count)]
    }

    mutating func readRawRecord() throws -> RawRecord {
        let offset = position
        let flags = try readByte()
        let typeLength = Int(try readByte())
        let payloadLength: Int
        if flags & HeaderFlag.shortRecord != 0 {
            payloadLength = Int(try readByte())
        } else {
            guard remaining >= 4 else {
                throw NDEFError(.truncated(needed: 4, available: remaining), at: position)
            }
            var value = 0
            for _ in 0..<4 { value = value << 8 | Int(try readByte()) }
            payloadLength = value
        }
        let hasIDLength = flags & HeaderFlag.idLength != 0
        let idLength = hasIDLength ? Int(try readByte()) : 0
        // Check the whole record against the bytes present before slicing anything.
        let bodyLength = typeLength + idLength + payloadLength
        guard bodyLength <= remaining else {
            throw NDEFError(.truncated(needed: bodyLength, available: remaining), at: position)
        }
        let type = try readSlice(typeLength)
        let id = try readSlice(idLength)
        let payload = try readSlice(payloadLength)
        return RawRecord(offset: offset, flags: flags, tnf: flags & HeaderFlag.tnfMask, type: type,
                         id: id, payload: payload, hasIDLength: hasIDLength)
    }

    mutating func checkTNF(_ raw: RawRecord, allowUnchanged: Bool) throws -> TypeNameFormat {
        let tnf = TypeNameFormat(rawValue: raw.tnf) ?? .reserved
        switch tnf {
        case .empty:
            if !raw.type.isEmpty || !raw.id.isEmpty || !raw.payload.isEmpty {
                try violation(.tnfContradiction("an empty record (TNF 0) has a type, ID or payload"), at: raw.offset)
            }
        case .wellKnown, .media, .absoluteURI, .external:
            if raw.type.isEmpty {
                try violation(.tnfContradiction("a record of TNF \(raw.tnf) has no type"), at: raw.offset)
            }
        case .unknown:
            if !raw.type.isEmpty {
                try violation(.tnfContradiction("an unknown-type record (TNF 5) has a type"), at: raw.offset)
            }
        case .unchanged:
            if !allowUnchanged {
                try violation(.chunkViolation("TNF 6 (unchanged) outside a chunked record"), at: raw.offset)
            }
        case .reserved:
            try violation(.reservedTNF, at: raw.offset)
        }
        return tnf
    }

    mutating func readMessage() throws -> NDEFParseResult {
        guard !bytes.isEmpty else { throw NDEFError(.emptyInput, at: 0) }
        var records: [NDEFRecord] = []
        var sawEnd = false
        while remaining > 0 {
            let raw: RawRecord
            do {
                raw = try readRawRecord()
            } catch let error as NDEFError {
                if mode == .strict || records.isEmpty { throw error }
                warnings.append(NDEFWarning(offset: error.offset,
                                            message: "record dropped: " + error.description.dropOffsetPrefix()))
                break
            }
            if records.isEmpty && !raw.isMessageBegin {
                try violation(.missingMessageBegin, at: raw.offset)
            } else if !records.isEmpty && raw.isMessageBegin {
                try violation(.unexpectedMessageBegin, at: raw.offset)
            }
            var record: NDEFRecord
            var last = raw
            if raw.isChunk {
                (record, last) = try readChunks(startingWith: raw)
            } else {
                var tnf = try checkTNF(raw, allowUnchanged: false)
                if tnf == .reserved || tnf == .unchanged { tnf = .unknown }
                record = NDEFRecord(tnf: tnf, type: raw.type, id: raw.id, payload: raw.payload)
                if tnf == .unknown && raw.tnf != 5 { record.type = Data() }
            }
            records.append(record)
            if last.isMessageEnd {
                sawEnd = true
                break
            }
        }
        if !sawEnd {
            try violation(.missingMessageEnd, at: position)
        } else if remaining > 0 {
            try violation(.bytesAfterMessageEnd(count: remaining), at: position)
        }
        guard !records.isEmpty else { throw NDEFError(.emptyInput, at: 0) }
        return NDEFParseResult(message: NDEFMessage(records: records), warnings: warnings)
    }

    /// Reads the middle and terminating chunks after `initial` and joins them into one record.
    mutating func readChunks(startingWith initial: RawRecord) throws -> (NDEFRecord, RawRecord) {
        var tnf = try checkTNF(initial, allowUnchanged: false)
        if tnf == .reserved || tnf == .unchanged { tnf = .unknown }
        if initial.isMessageEnd {
            try violation(.chunkViolation("a chunk (CF set) also carries ME"), at: initial.offset)
            return (NDEFRecord(tnf: tnf, type: initial.type, id: initial.id, payload: initial.payload), initial)
        }
        var payload = Data(initial.payload)
        var last = initial
        while true {
            guard remaining > 0 else {
                try violation(.chunkViolation("the input ends inside a chunked record"), at: position)
                break
            }
            let chunk: RawRecord
            do {
                chunk = try readRawRecord()
            } catch let error as NDEFError {
                if mode == .strict { throw error }
                warnings.append(NDEFWarning(offset: error.offset,
                                            message: "chunk dropped: " + error.description.dropOffsetPrefix()))
                position = bytes.count
                break
            }
            last = chunk
            if chunk.tnf != TypeNameFormat.unchanged.rawValue {
                try violation(.chunkViolation("a middle or terminating chunk has TNF \(chunk.tnf), not 6 (unchanged)"),
                              at: chunk.offset)
            }
            if !chunk.type.isEmpty {
                try violation(.chunkViolation("a middle or terminating chunk has a type"), at: chunk.offset)
            }
            if chunk.hasIDLength {
                try violation(.chunkViolation("a middle or terminating chunk has an ID length field"), at: chunk.offset)
            }
            if chunk.isMessageBegin {
                try violation(.unexpectedMessageBegin, at: chunk.offset)
            }
            payload.append(chunk.payload)
            if !chunk.isChunk { break }
            if chunk.isMessageEnd {
                try violation(.chunkViolation("a chunk (CF set) also carries ME"), at: chunk.offset)
                break
            }
        }
        let record = NDEFRecord(tnf: tnf, type: initial.type, id: initial.id, payload: payload)
        return (record, last)
    }
}

extension String {
    /// Strips the leading "offset N: " that `NDEFError.description` adds.
    func dropOffsetPrefix() -> String {
        guard hasPrefix("offset "), let colon = firstIndex(of: ":") else { return self }
        return String(self[index(after: colon)...]).trimmingCharacters(in: .whitespaces)
    }
}
