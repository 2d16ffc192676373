import Foundation

/// The common case read in one lean pass: a strictly valid message of unchunked records
/// without Smart Posters. It returns nil at the first thing it does not handle or that is
/// wrong; `MessageReader` then reads the message again and reports the exact violation and
/// its offset. It must accept nothing that `MessageReader` rejects in strict mode.
enum StrictFastPath {
    static func parse(_ data: Data, checkingRecordTypes: Bool) -> [NDEFRecord]? {
        data.withUnsafeBytes { buffer -> [NDEFRecord]? in
            let count = buffer.count
            guard count > 0, let start = buffer.baseAddress else { return nil }
            var records: [NDEFRecord] = []
            // Room for the usual few records; more grow the array as usual.
            records.reserveCapacity(4)
            let dataBase = data.startIndex
            var position = 0
            while position + 3 <= count {
                let flags = buffer[position]
                guard flags & HeaderFlag.chunk == 0, (flags & HeaderFlag.messageBegin != 0) == (position == 0) else {
                    return nil
                }
                let typeLength = Int(buffer[position + 1])
                var cursor = position + 2
                let payloadLength: Int
                if flags & HeaderFlag.shortRecord != 0 {
                    payloadLength = Int(buffer[cursor])
                    cursor += 1
                } else {
                    guard cursor + 4 <= count else { return nil }
                    payloadLength = Int(buffer[cursor]) << 24 | Int(buffer[cursor + 1]) << 16
                        | Int(buffer[cursor + 2]) << 8 | Int(buffer[cursor + 3])
                    cursor += 4
                }
                var idLength = 0
                if flags & HeaderFlag.idLength != 0 {
                    guard cursor < count else { return nil }
                    idLength = Int(buffer[cursor])
                    cursor += 1
                }
                let idStart = cursor + typeLength
                let payloadStart = idStart + idLength
                let end = payloadStart + payloadLength
                guard end <= count else { return nil }
                let tnf = flags & HeaderFlag.tnfMask
                switch tnf {
                case 0: guard typeLength == 0 && idLength == 0 && payloadLength == 0 else { return nil }
                case 1, 2, 3, 4: guard typeLength > 0 else { return nil }
                case 5: guard typeLength == 0 else { return nil }
                default: return nil
                }
                let type = UnsafeRawBufferPointer(rebasing: buffer[cursor..<idStart])
                if checkingRecordTypes {
                    let payload = UnsafeRawBufferPointer(rebasing: buffer[payloadStart..<end])
                    switch tnf {
                    case 1:
                        if typeLength == 1 && type[0] == UInt8(ascii: "T") {
                            guard TextRecord.isValid(payload) else { return nil }
                        } else if typeLength == 1 && type[0] == UInt8(ascii: "U") {
                            guard URIRecord.isValid(payload) else { return nil }
                        } else if ByteChecks.equals(type, "Sp") || ByteChecks.wellKnownTypeProblem(type) != nil {
                            return nil
                        }
                    case 2: if ByteChecks.mediaTypeProblem(type) != nil { return nil }
                    case 3: if ByteChecks.absoluteURIProblem(type) != nil { return nil }
                    case 4: if ByteChecks.externalTypeProblem(type) != nil { return nil }
                    default: break
                    }
                }
                let typeData = typeLength == 0 ? Data()
                    : typeLength <= 14 ? Data(bytes: start + cursor, count: typeLength)
                    : data[(dataBase + cursor)..<(dataBase + idStart)]
                let idData = idLength == 0 ? Data()
                    : idLength <= 14 ? Data(bytes: start + idStart, count: idLength)
                    : data[(dataBase + idStart)..<(dataBase + payloadStart)]
                let payloadData = payloadLength == 0 ? Data() : data[(dataBase + payloadStart)..<(dataBase + end)]
                records.append(NDEFRecord(tnf: TypeNameFormat(rawValue: tnf) ?? .unknown, type: typeData, id: idData,
                                          payload: payloadData))
                position = end
                if flags & HeaderFlag.messageEnd != 0 {
                    return position == count ? records : nil
                }
            }
            return nil
        }
    }
}
