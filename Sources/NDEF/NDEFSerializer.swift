import Foundation

/// Why a message cannot be written as valid NDEF.
public struct NDEFEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Index of the offending record in `NDEFMessage.records` (0 for an empty message).
    public var recordIndex: Int
    /// One sentence saying what is wrong.
    public var reason: String

    public init(recordIndex: Int, reason: String) {
        self.recordIndex = recordIndex
        self.reason = reason
    }

    public var description: String { "record \(recordIndex + 1): \(reason)" }
}

extension NDEFMessage {
    /// Serializes the message: MB on the first record, ME on the last, the short-record
    /// form for payloads under 256 bytes, IL only where a record has an ID.
    ///
    /// Nothing is checked: a type or ID longer than 255 bytes is cut to its low 8 length
    /// bits and an empty message gives no bytes. Use `encoded(maxChunkSize:)` to check first.
    /// - Parameter maxChunkSize: when set (and positive), payloads longer than this are
    ///   written as chunked records of at most that many payload bytes each.
    public func serialized(maxChunkSize: Int? = nil) -> Data {
        var out = Data()
        out.reserveCapacity(records.reduce(0) { $0 + 7 + $1.type.count + $1.id.count + $1.payload.count })
        for (index, record) in records.enumerated() {
            let first = index == 0
            let last = index == records.count - 1
            if let chunkSize = maxChunkSize, chunkSize > 0, record.payload.count > chunkSize {
                var start = record.payload.startIndex
                while start < record.payload.endIndex {
                    let end = min(start + chunkSize, record.payload.endIndex)
                    let initial = start == record.payload.startIndex
                    let final = end == record.payload.endIndex
                    NDEFMessage.appendRecord(
                        to: &out, tnf: initial ? record.tnf.rawValue : TypeNameFormat.unchanged.rawValue,
                        type: initial ? record.type : Data(), id: initial ? record.id : Data(),
                        payload: record.payload[start..<end],
                        messageBegin: first && initial, messageEnd: last && final, chunk: !final)
                    start = end
                }
            } else {
                NDEFMessage.appendRecord(
                    to: &out, tnf: record.tnf.rawValue, type: record.type, id: record.id,
                    payload: record.payload, messageBegin: first, messageEnd: last, chunk: false)
            }
        }
        return out
    }

    /// Checks every record against NDEF 1.0 and its record-type specification, then
    /// serializes as `serialized(maxChunkSize:)` does.
    /// - Throws: `NDEFEncodingError` for an empty message, a type or ID over 255 bytes, a
    ///   payload over 4 GiB - 1, TNF 6 or 7, a TNF that contradicts the type/ID/payload
    ///   lengths, or a type or payload its record-type specification forbids.
    public func encoded(maxChunkSize: Int? = nil) throws -> Data {
        guard !records.isEmpty else {
            throw NDEFEncodingError(recordIndex: 0, reason: "a message needs at least one record (write EmptyRecord for an empty tag)")
        }
        for (index, record) in records.enumerated() {
            func fail(_ reason: String) -> NDEFEncodingError { NDEFEncodingError(recordIndex: index, reason: reason) }
            guard record.type.count <= 255 else { throw fail("the type is \(record.type.count) bytes; at most 255 fit") }
            guard record.id.count <= 255 else { throw fail("the ID is \(record.id.count) bytes; at most 255 fit") }
            guard record.payload.count <= Int(UInt32.max) else { throw fail("the payload is over 4 GiB - 1 bytes") }
            switch record.tnf {
            case .unchanged: throw fail("TNF 6 (unchanged) is only for chunks, which the serializer writes itself")
            case .reserved: throw fail("TNF 7 is reserved")
            case .empty where !record.type.isEmpty || !record.id.isEmpty || !record.payload.isEmpty:
                throw fail("an empty record (TNF 0) cannot have a type, ID or payload")
            case .unknown where !record.type.isEmpty: throw fail("an unknown-type record (TNF 5) cannot have a type")
            case .wellKnown, .media, .absoluteURI, .external:
                if record.type.isEmpty { throw fail("a record of TNF \(record.tnf.rawValue) needs a type") }
            default: break
            }
            do {
                _ = try record.decodedContent(mode: .strict)
            } catch let error as NDEFError {
                throw fail(error.kind.explanation)
            }
        }
        return serialized(maxChunkSize: maxChunkSize)
    }

    static func appendRecord(
        to out: inout Data, tnf: UInt8, type: Data, id: Data, payload: Data,
        messageBegin: Bool, messageEnd: Bool, chunk: Bool
    ) {
        var header = tnf & HeaderFlag.tnfMask
        if messageBegin { header |= HeaderFlag.messageBegin }
        if messageEnd { header |= HeaderFlag.messageEnd }
        if chunk { header |= HeaderFlag.chunk }
        let short = payload.count < 256
        if short { header |= HeaderFlag.shortRecord }
        if !id.isEmpty { header |= HeaderFlag.idLength }
        out.append(header)
        out.append(UInt8(truncatingIfNeeded: type.count))
        if short {
            out.append(UInt8(payload.count))
        } else {
            let length = UInt32(truncatingIfNeeded: payload.count)
            out.append(contentsOf: [
                UInt8(length >> 24), UInt8(length >> 16 & 0xFF),
                UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
            ])
        }
        if !id.isEmpty { out.append(UInt8(truncatingIfNeeded: id.count)) }
        out.append(type)
        out.append(id)
        out.append(payload)
    }
}
