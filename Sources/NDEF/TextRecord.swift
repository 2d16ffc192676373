import Foundation

/// NFC Forum Text record (RTD-Text 1.0, well-known type `T`).
public struct TextRecord: Sendable, Equatable {
    public enum Encoding: String, Sendable, Equatable {
        case utf8 = "UTF-8"
        case utf16 = "UTF-16"
    }

    /// IANA language code, e.g. `en`, `zh-Hans`.
    public var language: String
    public var text: String
    public var encoding: Encoding

    public init(text: String, language: String = "en", encoding: Encoding = .utf8) {
        self.text = text
        self.language = language
        self.encoding = encoding
    }

    /// Decodes a Text record payload.
    /// - Throws: `NDEFError` (offsets relative to the payload) when the status byte names
    ///   more language bytes than present, the status byte uses the reserved bit, or the
    ///   text is not valid UTF-8 / UTF-16.
    public init(payload: Data) throws {
        let bytes = Array(payload)
        guard let status = bytes.first else {
            throw NDEFError(.invalidPayload("a Text record has an empty payload (no status byte)"), at: 0)
        }
        if status & 0x40 != 0 {
            throw NDEFError(.invalidPayload("a Text record's status byte sets the reserved bit 6"), at: 0)
        }
        let languageLength = Int(status & 0x3F)
        guard 1 + languageLength <= bytes.count else {
            throw NDEFError(.invalidPayload("a Text record's language code (\(languageLength) bytes) runs past its payload (\(bytes.count) bytes)"), at: 0)
        }
        guard let language = String(bytes: bytes[1..<(1 + languageLength)], encoding: .ascii) else {
            throw NDEFError(.invalidPayload("a Text record's language code is not ASCII"), at: 1)
        }
        let body = bytes[(1 + languageLength)...]
        self.language = language
        if status & 0x80 == 0 {
            guard let text = String(validating: body, as: UTF8.self) else {
                throw NDEFError(.invalidPayload("a Text record's text is not valid UTF-8"), at: 1 + languageLength)
            }
            self.text = text
            self.encoding = .utf8
        } else {
            guard let text = TextRecord.decodeUTF16(body) else {
                throw NDEFError(.invalidPayload("a Text record's text is not valid UTF-16"), at: 1 + languageLength)
            }
            self.text = text
            self.encoding = .utf16
        }
    }

    /// UTF-16 with a BOM in either byte order, or big-endian without one.
    static func decodeUTF16(_ body: ArraySlice<UInt8>) -> String? {
        guard body.count % 2 == 0 else { return nil }
        var bigEndian = true
        var start = body.startIndex
        if body.count >= 2 {
            let first = body[start], second = body[start + 1]
            if first == 0xFE && second == 0xFF { start += 2 } else if first == 0xFF && second == 0xFE {
                bigEndian = false
                start += 2
            }
        }
        var units: [UInt16] = []
        units.reserveCapacity((body.endIndex - start) / 2)
        var index = start
        while index < body.endIndex {
            let high = UInt16(body[index]), low = UInt16(body[index + 1])
            units.append(bigEndian ? high << 8 | low : low << 8 | high)
            index += 2
        }
        return String(validating: units, as: UTF16.self)
    }

    /// The record payload: status byte, language code, text (UTF-16 written big-endian with a BOM).
    public var payload: Data {
        let languageBytes = Array(language.utf8.prefix(0x3F))
        var out = Data([UInt8(languageBytes.count) | (encoding == .utf16 ? 0x80 : 0)])
        out.append(contentsOf: languageBytes)
        switch encoding {
        case .utf8: out.append(contentsOf: Array(text.utf8))
        case .utf16:
            out.append(contentsOf: [0xFE, 0xFF])
            for unit in text.utf16 { out.append(contentsOf: [UInt8(unit >> 8), UInt8(unit & 0xFF)]) }
        }
        return out
    }

    public var record: NDEFRecord { NDEFRecord(tnf: .wellKnown, type: "T", payload: payload) }
}

extension NDEFRecord {
    /// The decoded Text view when this is a well-known `T` record with a valid payload.
    public var textRecord: TextRecord? {
        guard isWellKnown("T") else { return nil }
        return try? TextRecord(payload: payload)
    }
}
