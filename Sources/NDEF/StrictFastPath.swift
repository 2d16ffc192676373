import Foundation

/// The common case read in two lean passes over the raw bytes: a strictly valid message of
/// unchunked records without Smart Posters. The first pass checks everything and counts the
/// records; only then does the second build them, into an array of exactly that size. It returns nil at the first thing it does not handle or that is wrong;
/// `MessageReader` then reads the message again and reports the exact violation and its
/// offset. It must accept nothing that `MessageReader` rejects in strict mode.
///
/// Speed without unsafe compiler flags: the input's storage is touched once, by one
/// `withUnsafeBytes` in `parse`, so the exclusivity checks that Foundation's inlined `Data`
/// code carries run once per message, not per field; both passes walk the raw buffer, and
/// only the payload slices (which share the input's storage) go through `Data` again.
enum StrictFastPath {
    static func parse(_ data: Data, checkingRecordTypes: Bool) -> [NDEFRecord]? {
        // Read once, outside the walk: for large inputs it lives in class storage.
        let dataStart = data.startIndex
        return data.withUnsafeBytes { buffer -> [NDEFRecord]? in
            guard let recordCount = validRecordCount(buffer, checkingRecordTypes: checkingRecordTypes) else {
                return nil
            }
            return records(of: data, startingAt: dataStart, buffer, count: recordCount)
        }
    }

    /// Where one record's fields lie, relative to the start of the message.
    struct Fields {
        var flags: UInt8
        var typeStart: Int
        var idStart: Int
        var payloadStart: Int
        var end: Int
    }

    /// The header at `position`, or nil when it (or the body it declares) does not fit.
    @inline(__always)
    static func fields(_ buffer: UnsafeRawBufferPointer, at position: Int) -> Fields? {
        let count = buffer.count
        guard position + 3 <= count else { return nil }
        let flags = buffer[position]
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
        return Fields(flags: flags, typeStart: cursor, idStart: idStart, payloadStart: payloadStart, end: end)
    }

    /// The number of records when the whole message is strictly valid and handled here, else nil.
    static func validRecordCount(_ buffer: UnsafeRawBufferPointer, checkingRecordTypes: Bool) -> Int? {
        let count = buffer.count
        var position = 0
        var records = 0
        while let record = fields(buffer, at: position) {
            let flags = record.flags
            guard flags & HeaderFlag.chunk == 0, (flags & HeaderFlag.messageBegin != 0) == (position == 0) else {
                return nil
            }
            let typeLength = record.idStart - record.typeStart
            switch flags & HeaderFlag.tnfMask {
            case 0: guard record.end == record.typeStart else { return nil }
            case 1, 2, 3, 4: guard typeLength > 0 else { return nil }
            case 5: guard typeLength == 0 else { return nil }
            default: return nil
            }
            if checkingRecordTypes {
                let type = UnsafeRawBufferPointer(rebasing: buffer[record.typeStart..<record.idStart])
                switch flags & HeaderFlag.tnfMask {
                case 1:
                    let payload = UnsafeRawBufferPointer(rebasing: buffer[record.payloadStart..<record.end])
                    if TextRecord.wellKnownType.matches(type) {
                        guard TextRecord.isValid(payload) else { return nil }
                    } else if URIRecord.wellKnownType.matches(type) {
                        guard URIRecord.isValid(payload) else { return nil }
                    } else if SmartPosterRecord.wellKnownType.matches(type) || ByteChecks.wellKnownTypeProblem(type) != nil {
                        return nil
                    }
                case 2: guard ByteChecks.isMediaType(type) else { return nil }
                case 3: if ByteChecks.absoluteURIProblem(type) != nil { return nil }
                case 4: if ByteChecks.externalTypeProblem(type) != nil { return nil }
                default: break
                }
            }
            records += 1
            position = record.end
            if flags & HeaderFlag.messageEnd != 0 {
                return position == count ? records : nil
            }
        }
        return nil
    }

    /// A type or ID of at most 14 bytes, held inline in its `Data` (no reference count). The
    /// usual one- and two-byte well-known types (`T`, `U`, `Sp`) get a copy of constant length,
    /// which the compiler keeps in registers instead of calling `memcpy`.
    @inline(__always)
    static func inlineField(_ bytes: UnsafeRawPointer, count: Int) -> Data {
        switch count {
        case 0: return Data()
        case 1: return Data(bytes: bytes, count: 1)
        case 2: return Data(bytes: bytes, count: 2)
        default: return Data(bytes: bytes, count: count)
        }
    }

    /// Builds the records of a message that `validRecordCount` accepted, into an array
    /// reserved at exactly that size.
    static func records(of data: Data, startingAt dataStart: Int, _ buffer: UnsafeRawBufferPointer,
                        count recordCount: Int) -> [NDEFRecord] {
        var records: [NDEFRecord] = []
        records.reserveCapacity(recordCount)
        guard let start = buffer.baseAddress else { return records }
        var position = 0
        while records.count < recordCount, let record = fields(buffer, at: position) {
            let typeLength = record.idStart - record.typeStart
            let idLength = record.payloadStart - record.idStart
            // Built inside the `append` call: with the fields in local constants first, the
            // optimizer copies (retains) each slice and releases the original.
            records.append(NDEFRecord(
                tnf: TypeNameFormat(rawValue: record.flags & HeaderFlag.tnfMask) ?? .unknown,
                type: typeLength <= 14 ? inlineField(start + record.typeStart, count: typeLength)
                    : data[(dataStart + record.typeStart)..<(dataStart + record.idStart)],
                id: idLength <= 14 ? inlineField(start + record.idStart, count: idLength)
                    : data[(dataStart + record.idStart)..<(dataStart + record.payloadStart)],
                payload: record.end == record.payloadStart ? Data()
                    : data[(dataStart + record.payloadStart)..<(dataStart + record.end)]))
            position = record.end
        }
        return records
    }
}
