import Foundation

/// The common case read in one lean pass over the raw bytes: a strictly valid message of
/// unchunked records without Smart Posters. Each header is read once, checked, and its record
/// built. It returns nil at the first thing it does not handle or that is wrong;
/// `MessageReader` then reads the message again and reports the exact violation and its
/// offset. It must accept nothing that `MessageReader` rejects in strict mode.
///
/// Speed without unsafe compiler flags: the input's storage is touched once, by one
/// `withUnsafeBytes` in `parse`, so the exclusivity checks that Foundation's inlined `Data`
/// code carries run once per message, not per field; the walk reads the raw buffer, and
/// only the payload slices (which share the input's storage) go through `Data` again.
enum StrictFastPath {
    static func parse(_ data: Data, checkingRecordTypes: Bool) -> [NDEFRecord]? {
        // Read once, outside the walk: for large inputs it lives in class storage.
        let dataStart = data.startIndex
        return data.withUnsafeBytes { buffer -> [NDEFRecord]? in
            checkedRecords(of: data, startingAt: dataStart, buffer, checkingRecordTypes: checkingRecordTypes)
        }
    }

    /// One pass: each header is read once, checked, and its record built; nil at the first
    /// thing not handled here (the records built so far are dropped, and `MessageReader`
    /// reads the message again to name the violation). Most messages hold one to four
    /// records, so four slots are reserved up front.
    static func checkedRecords(
        of data: Data, startingAt dataStart: Int, _ buffer: UnsafeRawBufferPointer,
        checkingRecordTypes: Bool
    ) -> [NDEFRecord]? {
        guard let start = buffer.baseAddress else { return nil }
        let count = buffer.count
        var records: [NDEFRecord] = []
        records.reserveCapacity(4)
        var position = 0
        while let record = fields(buffer, at: position) {
            guard isHandled(record, in: buffer, at: position, checkingRecordTypes: checkingRecordTypes) else { return nil }
            let typeLength = record.idStart - record.typeStart
            let idLength = record.payloadStart - record.idStart
            // Built inside the `append` call: with the fields in local constants first, the
            // optimizer copies (retains) each slice and releases the original.
            records.append(
                NDEFRecord(
                    tnf: TypeNameFormat(rawValue: record.flags & HeaderFlag.tnfMask) ?? .unknown,
                    type: typeLength <= 14
                        ? inlineField(start + record.typeStart, count: typeLength)
                        : data[(dataStart + record.typeStart)..<(dataStart + record.idStart)],
                    id: idLength <= 14
                        ? inlineField(start + record.idStart, count: idLength)
                        : data[(dataStart + record.idStart)..<(dataStart + record.payloadStart)],
                    payload: record.end == record.payloadStart
                        ? Data()
                        : data[(dataStart + record.payloadStart)..<(dataStart + record.end)]))
            position = record.end
            if record.flags & HeaderFlag.messageEnd != 0 {
                return position == count ? records : nil
            }
        }
        return nil
    }

    /// True when the record at `position` is strictly valid and handled here (not chunked,
    /// MB only on the first, TNF and type rules, Text and URI payloads, type syntax).
    @inline(__always)
    static func isHandled(
        _ record: Fields, in buffer: UnsafeRawBufferPointer, at position: Int,
        checkingRecordTypes: Bool
    ) -> Bool {
        let flags = record.flags
        guard flags & HeaderFlag.chunk == 0, (flags & HeaderFlag.messageBegin != 0) == (position == 0) else {
            return false
        }
        let typeLength = record.idStart - record.typeStart
        switch flags & HeaderFlag.tnfMask {
        case 0: guard record.end == record.typeStart else { return false }
        case 1, 2, 3, 4: guard typeLength > 0 else { return false }
        case 5: guard typeLength == 0 else { return false }
        default: return false
        }
        guard checkingRecordTypes else { return true }
        let type = UnsafeRawBufferPointer(rebasing: buffer[record.typeStart..<record.idStart])
        switch flags & HeaderFlag.tnfMask {
        case 1:
            let payload = UnsafeRawBufferPointer(rebasing: buffer[record.payloadStart..<record.end])
            if TextRecord.wellKnownType.matches(type) { return TextRecord.isValid(payload) }
            if URIRecord.wellKnownType.matches(type) { return URIRecord.isValid(payload) }
            return !SmartPosterRecord.wellKnownType.matches(type) && ByteChecks.wellKnownTypeProblem(type) == nil
        case 2: return ByteChecks.isMediaType(type)
        case 3: return ByteChecks.absoluteURIProblem(type) == nil
        case 4: return ByteChecks.externalTypeProblem(type) == nil
        default: return true
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
            payloadLength =
                Int(buffer[cursor]) << 24 | Int(buffer[cursor + 1]) << 16
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
}
