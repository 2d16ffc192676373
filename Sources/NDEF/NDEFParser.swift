import Foundation

/// How strictly `NDEFParser` applies the specifications.
public enum NDEFParsingMode: Sendable {
    /// Any violation of NDEF 1.0 or of a record-type specification throws `NDEFError`.
    case strict
    /// Recover what a phone would still show; each recovery is reported as an `NDEFWarning`.
    case lenient
}

/// The result of a parse: the records and what the lenient parser recovered from (always
/// empty in strict mode).
public struct NDEFParseResult: Sendable, Equatable {
    /// The records read (chunked records joined into one).
    public var message: NDEFMessage
    /// What lenient parsing recovered from, in input order (offsets from the input start).
    public var warnings: [NDEFWarning]

    public init(message: NDEFMessage, warnings: [NDEFWarning]) {
        self.message = message
        self.warnings = warnings
    }
}

/// Bits of the first header byte (NFC Forum NDEF 1.0, 3.2).
enum HeaderFlag {
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
/// at once. The payload of an unchunked record is a slice of the input (no payload byte is
/// copied); a chunked record's payload is joined into new storage. Types and IDs longer
/// than 14 bytes are slices too; shorter ones are held inline in their `Data`.
///
/// Besides the record layer, the parser checks the record types it knows: the type names
/// of MIME, absolute-URI and external records, and the payloads of Text, URI and Smart
/// Poster records (RTD-Text, RTD-URI, Smart Poster RTD).
public enum NDEFParser {
    /// Parses one NDEF message.
    /// - Parameters:
    ///   - bytes: exactly one NDEF message (no TLV wrapper, no padding).
    ///   - mode: `.strict` throws on the first violation; `.lenient` recovers and lists warnings.
    ///   - checkingRecordTypes: when false, only the record layer (NDEF 1.0) is checked.
    /// - Throws: `NDEFError` naming the offset of the first violation (strict mode), or, in
    ///   lenient mode, when not even one record can be recovered (empty or cut-off input).
    public static func parse(
        _ bytes: Data, mode: NDEFParsingMode = .strict,
        checkingRecordTypes: Bool = true
    ) throws -> NDEFParseResult {
        if mode == .strict, let records = StrictFastPath.parse(bytes, checkingRecordTypes: checkingRecordTypes) {
            return NDEFParseResult(message: NDEFMessage(records: records), warnings: [])
        }
        var reader = MessageReader(
            data: bytes, diagnostics: Diagnostics(mode: mode),
            checkingRecordTypes: checkingRecordTypes)
        let records = try reader.read()
        return NDEFParseResult(message: NDEFMessage(records: records), warnings: reader.diagnostics.warnings)
    }

    /// Strict parse returning only the message.
    /// - Throws: `NDEFError` naming the offset of the first violation.
    public static func message(from bytes: Data) throws -> NDEFMessage {
        if let records = StrictFastPath.parse(bytes, checkingRecordTypes: true) {
            return NDEFMessage(records: records)
        }
        return try parse(bytes, mode: .strict).message
    }
}

/// Positions (relative to the start of the data being read) of one record's fields.
struct RecordHeader {
    var offset: Int
    var flags: UInt8
    var typeStart: Int
    var idStart: Int
    var payloadStart: Int
    var end: Int
    var hasIDLength: Bool

    var tnf: UInt8 { flags & HeaderFlag.tnfMask }
    var isChunk: Bool { flags & HeaderFlag.chunk != 0 }
    var isMessageBegin: Bool { flags & HeaderFlag.messageBegin != 0 }
    var isMessageEnd: Bool { flags & HeaderFlag.messageEnd != 0 }
    var typeLength: Int { idStart - typeStart }
    var idLength: Int { payloadStart - idStart }
    var payloadLength: Int { end - payloadStart }
}

/// Reads the records of one message from `data`; `diagnostics.map` says where `data`
/// sits in the original input (it is the payload of a Smart Poster when nested).
struct MessageReader {
    let data: Data
    var diagnostics: Diagnostics
    let checkingRecordTypes: Bool
    /// Offsets (relative to `data`) of each returned record's first header, when wanted.
    var recordOffsets: [Int]?

    init(data: Data, diagnostics: Diagnostics, checkingRecordTypes: Bool, collectingOffsets: Bool = false) {
        self.data = data
        self.diagnostics = diagnostics
        self.checkingRecordTypes = checkingRecordTypes
        self.recordOffsets = collectingOffsets ? [] : nil
    }

    private var strict: Bool { diagnostics.mode == .strict }

    private func absolute(_ relative: Int) -> Int { diagnostics.map.absolute(relative) }

    mutating func read() throws -> [NDEFRecord] {
        let data = self.data
        guard !data.isEmpty else { throw NDEFError(.emptyInput, at: absolute(0)) }
        return try data.withUnsafeBytes { buffer in try readRecords(buffer) }
    }

    /// Reads one record header at `position` and checks the declared lengths against the
    /// bytes present, before anything is sliced.
    private func readHeader(_ buffer: UnsafeRawBufferPointer, at position: Int) throws -> RecordHeader {
        let remaining = buffer.count - position
        guard remaining >= 1 else { throw NDEFError(.truncated(needed: 1, available: 0), at: absolute(position)) }
        let flags = buffer[position]
        let short = flags & HeaderFlag.shortRecord != 0
        let hasIDLength = flags & HeaderFlag.idLength != 0
        let headerLength = 2 + (short ? 1 : 4) + (hasIDLength ? 1 : 0)
        guard remaining >= headerLength else {
            throw NDEFError(.truncated(needed: headerLength, available: remaining), at: absolute(position))
        }
        let typeLength = Int(buffer[position + 1])
        var payloadLength: Int
        var cursor = position + 2
        if short {
            payloadLength = Int(buffer[cursor])
            cursor += 1
        } else {
            payloadLength =
                Int(buffer[cursor]) << 24 | Int(buffer[cursor + 1]) << 16
                | Int(buffer[cursor + 2]) << 8 | Int(buffer[cursor + 3])
            cursor += 4
        }
        var idLength = 0
        if hasIDLength {
            idLength = Int(buffer[cursor])
            cursor += 1
        }
        let bodyLength = typeLength + idLength + payloadLength
        let bodyAvailable = buffer.count - cursor
        guard bodyLength <= bodyAvailable else {
            throw NDEFError(.truncated(needed: bodyLength, available: bodyAvailable), at: absolute(cursor))
        }
        return RecordHeader(
            offset: position, flags: flags, typeStart: cursor, idStart: cursor + typeLength,
            payloadStart: cursor + typeLength + idLength, end: cursor + bodyLength,
            hasIDLength: hasIDLength)
    }

    private func slice(_ start: Int, _ end: Int) -> Data {
        guard end > start else { return Data() }
        let base = data.startIndex
        return data[(base + start)..<(base + end)]
    }

    /// A type or ID field: short ones (the usual `T`, `U`, `Sp`, short IDs) are copied into
    /// Data's inline storage, which costs less than a reference-counted slice; longer ones
    /// are slices of the input like payloads.
    private func smallField(_ buffer: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Data {
        guard end > start else { return Data() }
        guard end - start <= 14, let base = buffer.baseAddress else { return slice(start, end) }
        return Data(bytes: base + start, count: end - start)
    }

    /// The number of records (chunks counted once) up to the first ME, from the headers
    /// that fit; only used to size the result array.
    static func countRecords(_ buffer: UnsafeRawBufferPointer) -> Int {
        var position = 0
        var count = 0
        while position + 3 <= buffer.count {
            let flags = buffer[position]
            var length = 2
            var payloadLength: Int
            if flags & HeaderFlag.shortRecord != 0 {
                payloadLength = Int(buffer[position + 2])
                length += 1
            } else {
                guard position + 6 <= buffer.count else { break }
                payloadLength =
                    Int(buffer[position + 2]) << 24 | Int(buffer[position + 3]) << 16
                    | Int(buffer[position + 4]) << 8 | Int(buffer[position + 5])
                length += 4
            }
            var idLength = 0
            if flags & HeaderFlag.idLength != 0 {
                guard position + length < buffer.count else { break }
                idLength = Int(buffer[position + length])
                length += 1
            }
            if flags & HeaderFlag.chunk == 0 { count += 1 }
            if flags & HeaderFlag.messageEnd != 0 { break }
            position += length + Int(buffer[position + 1]) + idLength + payloadLength
        }
        return max(count, 1)
    }

    private mutating func readRecords(_ buffer: UnsafeRawBufferPointer) throws -> [NDEFRecord] {
        var records: [NDEFRecord] = []
        records.reserveCapacity(MessageReader.countRecords(buffer))
        var position = 0
        var sawEnd = false
        while position < buffer.count {
            let header: RecordHeader
            do {
                header = try readHeader(buffer, at: position)
            } catch let error as NDEFError {
                if strict || records.isEmpty { throw error }
                diagnostics.warnings.append(
                    NDEFWarning(
                        error.kind, at: error.offset,
                        recovery: "the rest of the input is ignored"))
                position = buffer.count
                break
            }
            position = header.end
            if records.isEmpty && !header.isMessageBegin {
                try diagnostics.violation(.missingMessageBegin, absolute: absolute(header.offset))
            } else if !records.isEmpty && header.isMessageBegin {
                try diagnostics.violation(.unexpectedMessageBegin, absolute: absolute(header.offset))
            }
            recordOffsets?.append(header.offset)
            let record: NDEFRecord
            var endsMessage = header.isMessageEnd
            if header.isChunk {
                (record, endsMessage) = try readChunkedRecord(buffer, initial: header, position: &position)
            } else {
                record = try readSingleRecord(buffer, header)
            }
            records.append(record)
            if endsMessage {
                sawEnd = true
                break
            }
        }
        if !sawEnd {
            try diagnostics.violation(
                .missingMessageEnd, absolute: absolute(position),
                recovery: "the records read so far are kept")
        } else if position < buffer.count {
            try diagnostics.violation(
                .bytesAfterMessageEnd(count: buffer.count - position),
                absolute: absolute(position), recovery: "they are ignored")
        }
        return records
    }

    /// Checks the TNF against the field lengths; returns the TNF the record is kept under.
    private mutating func checkTNF(_ header: RecordHeader, chunked: Bool) throws -> TypeNameFormat {
        let at = absolute(header.offset)
        switch TypeNameFormat(rawValue: header.tnf) ?? .reserved {
        case .empty:
            if header.typeLength != 0 || header.idLength != 0 || header.payloadLength != 0 {
                try diagnostics.violation(
                    .tnfContradiction("an empty record (TNF 0) has a type, ID or payload"),
                    absolute: at, recovery: "its bytes are kept")
            }
            if chunked {
                try diagnostics.violation(.chunkViolation("an empty record (TNF 0) is chunked"), absolute: at)
            }
            return .empty
        case .wellKnown, .media, .absoluteURI, .external:
            let tnf = TypeNameFormat(rawValue: header.tnf) ?? .unknown
            if header.typeLength == 0 {
                try diagnostics.violation(
                    .tnfContradiction("a record of TNF \(header.tnf) has no type"),
                    absolute: at, recovery: "it is kept without a type")
            }
            return tnf
        case .unknown:
            if header.typeLength != 0 {
                try diagnostics.violation(
                    .tnfContradiction("an unknown-type record (TNF 5) has a type"),
                    absolute: at, recovery: "the type is ignored")
            }
            return .unknown
        case .unchanged:
            let detail =
                chunked
                ? "the first chunk of a chunked record has TNF 6 (unchanged)"
                : "a record that is not a middle or last chunk has TNF 6 (unchanged)"
            try diagnostics.violation(.chunkViolation(detail), absolute: at, recovery: "it is read as an unknown-type record")
            return .unknown
        case .reserved:
            try diagnostics.violation(.reservedTNF, absolute: at, recovery: "it is read as an unknown-type record")
            return .unknown
        }
    }

    private mutating func readSingleRecord(_ buffer: UnsafeRawBufferPointer, _ header: RecordHeader) throws -> NDEFRecord {
        let tnf = try checkTNF(header, chunked: false)
        let keepsType = tnf != .unknown || header.tnf == TypeNameFormat.unknown.rawValue
        let record = NDEFRecord(
            tnf: tnf, type: keepsType ? smallField(buffer, header.typeStart, header.idStart) : Data(),
            id: smallField(buffer, header.idStart, header.payloadStart),
            payload: slice(header.payloadStart, header.end))
        if checkingRecordTypes {
            let type = UnsafeRawBufferPointer(rebasing: buffer[header.typeStart..<header.idStart])
            let payload = UnsafeRawBufferPointer(rebasing: buffer[header.payloadStart..<header.end])
            // The checks report payload-relative offsets through `diagnostics.map`.
            let messageMap = diagnostics.map
            diagnostics.map = messageMap.nested(at: header.payloadStart)
            defer { diagnostics.map = messageMap }
            try RecordTypeChecks.check(
                tnf: tnf, type: type, typeOffset: messageMap.absolute(header.typeStart),
                payload: payload, payloadData: record.payload, diagnostics: &diagnostics)
        }
        return record
    }

    /// Reads the middle and last chunks after `initial` and joins them into one record.
    /// Returns the record and whether the message ends with it.
    private mutating func readChunkedRecord(
        _ buffer: UnsafeRawBufferPointer, initial: RecordHeader,
        position: inout Int
    ) throws -> (NDEFRecord, Bool) {
        let tnf = try checkTNF(initial, chunked: true)
        if initial.isMessageEnd {
            try diagnostics.violation(
                .chunkViolation("a chunk (CF set) also sets ME"), absolute: absolute(initial.offset),
                recovery: "the chunk is read as a whole record")
            return (try readSingleRecord(buffer, initial), true)
        }
        var pieces: [(start: Int, end: Int)] = [(initial.payloadStart, initial.end)]
        var map: [(logical: Int, absolute: Int)] = [(0, absolute(initial.payloadStart))]
        var total = initial.payloadLength
        var endsMessage = false
        while true {
            guard position < buffer.count else {
                try diagnostics.violation(
                    .chunkViolation("the input ends before the last chunk of a chunked record"),
                    absolute: absolute(position), recovery: "the chunks read so far are joined")
                break
            }
            let chunk: RecordHeader
            do {
                chunk = try readHeader(buffer, at: position)
            } catch let error as NDEFError {
                if strict { throw error }
                diagnostics.warnings.append(
                    NDEFWarning(
                        error.kind, at: error.offset,
                        recovery: "the chunks read so far are joined"))
                position = buffer.count
                break
            }
            position = chunk.end
            let at = absolute(chunk.offset)
            if chunk.tnf != TypeNameFormat.unchanged.rawValue {
                try diagnostics.violation(
                    .chunkViolation("a middle or last chunk has TNF \(chunk.tnf), not 6 (unchanged)"),
                    absolute: at, recovery: "its TNF is ignored")
            }
            if chunk.typeLength != 0 {
                try diagnostics.violation(
                    .chunkViolation("a middle or last chunk has a type"), absolute: at,
                    recovery: "the type is ignored")
            }
            if chunk.hasIDLength {
                try diagnostics.violation(
                    .chunkViolation("a middle or last chunk sets IL (has an ID length field)"),
                    absolute: at, recovery: "its ID is ignored")
            }
            if chunk.isMessageBegin {
                try diagnostics.violation(.unexpectedMessageBegin, absolute: at)
            }
            pieces.append((chunk.payloadStart, chunk.end))
            map.append((total, absolute(chunk.payloadStart)))
            total += chunk.payloadLength
            if !chunk.isChunk {
                endsMessage = chunk.isMessageEnd
                break
            }
            if chunk.isMessageEnd {
                try diagnostics.violation(
                    .chunkViolation("a chunk (CF set) also sets ME"), absolute: at,
                    recovery: "the record ends with this chunk")
                endsMessage = true
                break
            }
        }
        // `total` counts bytes that are present in the input, so this never over-allocates.
        var payload = Data(capacity: total)
        for piece in pieces {
            payload.append(slice(piece.start, piece.end))
        }
        let keepsType = tnf != .unknown || initial.tnf == TypeNameFormat.unknown.rawValue
        let record = NDEFRecord(
            tnf: tnf, type: keepsType ? smallField(buffer, initial.typeStart, initial.idStart) : Data(),
            id: smallField(buffer, initial.idStart, initial.payloadStart), payload: payload)
        if checkingRecordTypes {
            let type = UnsafeRawBufferPointer(rebasing: buffer[initial.typeStart..<initial.idStart])
            let typeOffset = absolute(initial.typeStart)
            let messageMap = diagnostics.map
            diagnostics.map = OffsetMap(shift: 0, chunks: OffsetMap.ChunkTable(map))
            defer { diagnostics.map = messageMap }
            var sub = diagnostics
            try payload.withUnsafeBytes { payloadBytes in
                try RecordTypeChecks.check(
                    tnf: tnf, type: type, typeOffset: typeOffset,
                    payload: payloadBytes, payloadData: payload, diagnostics: &sub)
            }
            diagnostics.warnings = sub.warnings
        }
        return (record, endsMessage)
    }
}
