import Foundation

extension NDEFMessage {
    /// Serializes the message: MB on the first record, ME on the last, the short-record
    /// form for payloads under 256 bytes, IL only where a record has an ID.
    /// - Parameter maxChunkSize: when set, payloads longer than this are written as chunked
    ///   records of at most that many payload bytes each.
    public func serialized(maxChunkSize: Int? = nil) -> Data {
        var out = Data()
        for (index, record) in records.enumerated() {
            let first = index == 0
            let last = index == records.count - 1
            if let chunkSize = maxChunkSize, chunkSize > 0, record.payload.count > chunkSize {
                let payload = Array(record.payload)
                var start = 0
                while start < payload.count {
                    let end = min(start + chunkSize, payload.count)
                    let initial = start == 0
                    let final = end == payload.count
                    NDEFMessage.appendRecord(
                        to: &out,
                        tnf: initial ? record.tnf.rawValue : TypeNameFormat.unchanged.rawValue,
                        type: initial ? record.type : Data(),
                        id: initial ? record.id : Data(),
                        payload: Data(payload[start..<end]),
                        messageBegin: first && initial, messageEnd: last && final, chunk: !final,
                        forceIDLength: false)
                    start = end
                }
            } else {
                NDEFMessage.appendRecord(to: &out, tnf: record.tnf.rawValue, type: record.type, id: record.id,
                                         payload: record.payload, messageBegin: first, messageEnd: last,
                                         chunk: false, forceIDLength: false)
            }
        }
        return out
    }

    static func appendRecord(to out: inout Data, tnf: UInt8, type: Data, id: Data, payload: Data,
                             messageBegin: Bool, messageEnd: Bool, chunk: Bool, forceIDLength: Bool) {
        var header = tnf & 0x07
        if messageBegin { header |= 0x80 }
        if messageEnd { header |= 0x40 }
        if chunk { header |= 0x20 }
        let short = payload.count < 256
        if short { header |= 0x10 }
        let hasID = !id.isEmpty || forceIDLength
        if hasID { header |= 0x08 }
        out.append(header)
        out.append(UInt8(truncatingIfNeeded: type.count))
        if short {
            out.append(UInt8(payload.count))
        } else {
            let length = UInt32(truncatingIfNeeded: payload.count)
            out.append(contentsOf: [UInt8(length >> 24), UInt8(length >> 16 & 0xFF),
                                    UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
        }
        if hasID { out.append(UInt8(truncatingIfNeeded: id.count)) }
        out.append(type)
        out.append(id)
        out.append(payload)
    }
}
