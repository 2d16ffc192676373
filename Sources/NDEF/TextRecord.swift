import Foundation

/// NFC Forum Text record (RTD-Text 1.0, well-known type `T`).
///
/// Payload: a status byte (bit 7: UTF-16, bit 6: reserved, bits 5–0: length of the language
/// code), the IANA language code in ASCII, then the text. UTF-16 text may start with a
/// byte-order mark in either order; without one it is big-endian.
///
/// Strictness: a language code of length 0 is malformed; the reserved status bit 6 is
/// ignored, as RTD-Text tells readers to (lenient parsing notes it).
public struct TextRecord: Sendable, Equatable, Hashable {
    /// The well-known type name of Text records.
    public static let wellKnownType = WellKnownType("T")

    /// The text encoding named by bit 7 of the status byte.
    public enum Encoding: String, Sendable, Equatable, Hashable {
        case utf8 = "UTF-8"
        case utf16 = "UTF-16"
    }

    /// How UTF-16 text is laid out in the payload (ignored for UTF-8).
    public enum UTF16Layout: Sendable, Equatable, Hashable {
        /// Byte-order mark FE FF, then big-endian code units (what the builder writes by default).
        case bigEndianWithBOM
        /// Byte-order mark FF FE, then little-endian code units.
        case littleEndianWithBOM
        /// No byte-order mark: big-endian, as RTD-Text specifies.
        case bigEndianWithoutBOM
    }

    /// IANA language code, e.g. `en`, `zh-Hans` (at most 63 ASCII characters).
    public var language: String
    public var text: String
    public var encoding: Encoding
    /// The UTF-16 layout read or to write; meaningful only when `encoding` is `.utf16`.
    public var utf16Layout: UTF16Layout

    /// A Text record to build. `language` longer than 63 bytes is cut to 63 when written.
    public init(
        text: String, language: String = "en", encoding: Encoding = .utf8,
        utf16Layout: UTF16Layout = .bigEndianWithBOM
    ) {
        self.text = text
        self.language = language
        self.encoding = encoding
        self.utf16Layout = utf16Layout
    }

    /// Decodes a Text record payload strictly.
    /// - Throws: `NDEFError` (offsets relative to the payload) when the payload is empty, the
    ///   language code is empty, runs past the payload or is not an ASCII language tag, or the
    ///   text is not valid UTF-8 / UTF-16. The reserved status bit 6 is ignored.
    public init(payload: Data) throws {
        var warnings: [NDEFWarning] = []
        try self.init(payload: payload, mode: .strict, warnings: &warnings)
    }

    /// Decodes a Text record payload. In lenient mode ill-formed text is shown with U+FFFD
    /// replacement characters and each problem is appended to `warnings`.
    /// - Throws: `NDEFError` (offsets relative to the payload), strict mode only.
    public init(payload: Data, mode: NDEFParsingMode, warnings: inout [NDEFWarning]) throws {
        var diagnostics = Diagnostics(mode: mode)
        self = try TextRecord.decode(payload, &diagnostics)
        warnings.append(contentsOf: diagnostics.warnings)
    }

    static func decode(_ payload: Data, _ diagnostics: inout Diagnostics) throws -> TextRecord {
        try payload.withUnsafeBytes { try check($0, &diagnostics) }
        return payload.withUnsafeBytes { bytes in
            let status = bytes.first ?? 0
            let languageEnd = min(1 + Int(status & 0x3F), bytes.count)
            let language = String(decoding: bytes[min(1, bytes.count)..<languageEnd], as: UTF8.self)
            let body = UnsafeRawBufferPointer(rebasing: bytes[languageEnd...])
            guard status & 0x80 != 0 else {
                return TextRecord(text: String(decoding: body, as: UTF8.self), language: language)
            }
            let (layout, start) = utf16Layout(of: body)
            let bigEndian = layout != .littleEndianWithBOM
            var units: [UInt16] = []
            units.reserveCapacity(body.count / 2)
            var index = start
            while index + 1 < body.count {
                let first = UInt16(body[index]), second = UInt16(body[index + 1])
                units.append(bigEndian ? first << 8 | second : second << 8 | first)
                index += 2
            }
            return TextRecord(
                text: String(decoding: units, as: UTF16.self), language: language,
                encoding: .utf16, utf16Layout: layout)
        }
    }

    /// The layout a UTF-16 body uses and where its text starts.
    static func utf16Layout(of body: UnsafeRawBufferPointer) -> (UTF16Layout, Int) {
        guard body.count >= 2 else { return (.bigEndianWithoutBOM, 0) }
        if body[0] == 0xFE && body[1] == 0xFF { return (.bigEndianWithBOM, 2) }
        if body[0] == 0xFF && body[1] == 0xFE { return (.littleEndianWithBOM, 2) }
        return (.bigEndianWithoutBOM, 0)
    }

    /// True when `check` would find nothing wrong (the strict fast path's test; it must
    /// agree with `check`).
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let status = bytes.first else { return false }
        let bodyStart = 1 + Int(status & 0x3F)
        guard bodyStart > 1, bodyStart <= bytes.count else { return false }
        var index = 1
        while index < bodyStart {
            let byte = bytes[index]
            guard ByteChecks.isLetter(byte) || ByteChecks.isDigit(byte) || byte == UInt8(ascii: "-") else { return false }
            index += 1
        }
        let body = UnsafeRawBufferPointer(rebasing: bytes[bodyStart...])
        if status & 0x80 == 0 { return ByteChecks.firstInvalidUTF8(body) == nil }
        let (layout, start) = utf16Layout(of: body)
        return ByteChecks.firstInvalidUTF16(
            UnsafeRawBufferPointer(rebasing: body[start...]),
            bigEndian: layout != .littleEndianWithBOM) == nil
    }

    /// Checks a payload against RTD-Text without building strings.
    static func check(_ bytes: UnsafeRawBufferPointer, _ diagnostics: inout Diagnostics) throws {
        guard let status = bytes.first else {
            try diagnostics.violation(
                .invalidPayload("a Text record has an empty payload (no status byte)"), at: 0,
                recovery: "it is shown as empty text")
            return
        }
        if status & 0x40 != 0 && !diagnostics.isStrict {
            // RTD-Text tells readers to ignore the bit: a note, not a violation.
            diagnostics.warnings.append(
                NDEFWarning(
                    offset: diagnostics.map.absolute(0),
                    message: "a Text record's status byte sets the reserved bit 6; the bit is ignored"))
        }
        let languageLength = Int(status & 0x3F)
        if languageLength == 0 {
            try diagnostics.violation(
                .invalidPayload("a Text record has no language code (its length is 0)"), at: 0,
                recovery: "the text is shown without a language")
        }
        guard 1 + languageLength <= bytes.count else {
            try diagnostics.violation(
                .invalidPayload(
                    "a Text record's language code (\(languageLength) bytes) runs past its payload (\(bytes.count) bytes)"),
                at: 0, recovery: "the rest of the payload is read as the language code")
            return
        }
        for index in 1..<(1 + languageLength) {
            let byte = bytes[index]
            guard ByteChecks.isLetter(byte) || ByteChecks.isDigit(byte) || byte == UInt8(ascii: "-") else {
                try diagnostics.violation(
                    .invalidPayload("a Text record's language code is not an IANA language tag (ASCII letters, digits, '-')"),
                    at: index, recovery: "it is shown as is")
                break
            }
        }
        let bodyStart = 1 + languageLength
        let body = UnsafeRawBufferPointer(rebasing: bytes[bodyStart...])
        if status & 0x80 == 0 {
            if let bad = ByteChecks.firstInvalidUTF8(body) {
                try diagnostics.violation(
                    .invalidPayload("a Text record's text is not valid UTF-8"), at: bodyStart + bad,
                    recovery: "invalid bytes are shown as U+FFFD")
            }
        } else {
            let (layout, start) = utf16Layout(of: body)
            let text = UnsafeRawBufferPointer(rebasing: body[start...])
            if let bad = ByteChecks.firstInvalidUTF16(text, bigEndian: layout != .littleEndianWithBOM) {
                try diagnostics.violation(
                    .invalidPayload("a Text record's text is not valid UTF-16"),
                    at: bodyStart + start + bad, recovery: "invalid code units are shown as U+FFFD")
            }
        }
    }

    /// The record payload: status byte, language code, text.
    public var payload: Data {
        let languageBytes = Array(language.utf8.prefix(0x3F))
        var out = Data([UInt8(languageBytes.count) | (encoding == .utf16 ? 0x80 : 0)])
        out.append(contentsOf: languageBytes)
        switch encoding {
        case .utf8:
            out.append(contentsOf: Array(text.utf8))
        case .utf16:
            let littleEndian = utf16Layout == .littleEndianWithBOM
            switch utf16Layout {
            case .bigEndianWithBOM: out.append(contentsOf: [0xFE, 0xFF])
            case .littleEndianWithBOM: out.append(contentsOf: [0xFF, 0xFE])
            case .bigEndianWithoutBOM: break
            }
            var units: [UInt8] = []
            units.reserveCapacity(text.utf16.count * 2)
            for unit in text.utf16 {
                let high = UInt8(unit >> 8), low = UInt8(unit & 0xFF)
                units.append(contentsOf: littleEndian ? [low, high] : [high, low])
            }
            out.append(contentsOf: units)
        }
        return out
    }

    /// The well-known `T` record carrying this text.
    public var record: NDEFRecord { NDEFRecord(wellKnown: Self.wellKnownType, payload: payload) }
}

extension NDEFRecord {
    /// The decoded Text view when this is a well-known `T` record with a valid payload.
    public var textRecord: TextRecord? {
        guard isWellKnown(TextRecord.wellKnownType) else { return nil }
        return try? TextRecord(payload: payload)
    }
}
