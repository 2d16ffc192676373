import Foundation
import Testing

@testable import NDEF

/// NFC Forum RTD rules beyond the record layer: what strict parsing refuses, what it
/// ignores, and what lenient parsing recovers with a warning.
@Suite struct StrictnessTests {
    @Test func reservedTextStatusBitIsIgnoredStrictlyAndNotedLeniently() throws {
        let bytes = Data([0xD1, 0x01, 0x04, 0x54, 0x42, 0x65, 0x6E, 0x41])
        let strict = try NDEFParser.parse(bytes)
        #expect(strict.warnings.isEmpty)
        #expect(strict.message.records[0].textRecord == TextRecord(text: "A", language: "en"))
        let lenient = try NDEFParser.parse(bytes, mode: .lenient)
        #expect(lenient.message == strict.message)
        #expect(lenient.warnings.count == 1)
        #expect(lenient.warnings.first?.offset == 4)
        #expect(lenient.warnings.first?.kind == nil)  // a note: strict parsing does not fail on it
        #expect(lenient.warnings.first?.message.contains("reserved bit 6") == true)
        // Decoded on its own, the payload is accepted too.
        #expect(try TextRecord(payload: Data([0x42, 0x65, 0x6E, 0x41])).text == "A")
        // With UTF-16 (bit 7) and the reserved bit both set, bit 7 still decides the encoding.
        let utf16 = try TextRecord(payload: Data([0xC2, 0x65, 0x6E, 0x00, 0x41]))
        #expect(utf16.encoding == .utf16)
        #expect(utf16.text == "A")
    }

    @Test func emptyLanguageCodeIsMalformedAndRecoveredLeniently() throws {
        #expect(throws: NDEFError(.invalidPayload("a Text record has no language code (its length is 0)"), at: 0)) {
            try TextRecord(payload: Data([0x00, 0x68, 0x69]))
        }
        var warnings: [NDEFWarning] = []
        let text = try TextRecord(payload: Data([0x00, 0x68, 0x69]), mode: .lenient, warnings: &warnings)
        #expect(text.text == "hi")
        #expect(text.language == "")
        #expect(warnings.map(\.offset) == [0])
        // The writer refuses to produce one.
        #expect(throws: NDEFEncodingError.self) {
            try NDEFMessage(records: [TextRecord(text: "hi", language: "").record]).encoded()
        }
    }

    @Test func uriControlCharactersAreMalformedAndKeptLeniently() throws {
        for control in Array(UInt8(0x00)...UInt8(0x1F)) + [0x7F] {
            let payload = Data([0x03] + Array("example.com/a".utf8) + [control] + Array("b".utf8))
            #expect(throws: NDEFError.self, "byte \(control)") { try URIRecord(payload: payload) }
            var warnings: [NDEFWarning] = []
            let uri = try URIRecord(payload: payload, mode: .lenient, warnings: &warnings)
            #expect(uri.uri == "http://example.com/a" + String(UnicodeScalar(control)) + "b")
            #expect(warnings.map(\.offset) == [14])
            #expect(warnings.first?.kind == .invalidPayload(String(format: "a URI record's URI field holds the control character U+%04X", control)))
        }
        // Space, '~' and non-ASCII letters are not control characters.
        #expect(try URIRecord(payload: Data([0x00] + Array("a b~ü".utf8))).uri == "a b~ü")
    }

    @Test func controlCharacterInsideASmartPosterNamesItsInputOffset() throws {
        let poster = SmartPosterRecord(uri: "https://example.com/\u{1B}x", titles: [TextRecord(text: "Logger")]).record
        let bytes = NDEFMessage(records: [poster]).serialized()
        let error = #expect(throws: NDEFError.self) { try NDEFParser.parse(bytes) }
        // Outer header 5 bytes, nested URI header 4, identifier code 1, "example.com/" 12.
        #expect(error?.offset == 5 + 4 + 1 + 12)
        let lenient = try NDEFParser.parse(bytes, mode: .lenient)
        #expect(lenient.warnings.map(\.offset) == [22])
        guard case .smartPoster(let decoded)? = lenient.message.records[0].content else {
            Issue.record("not read as a Smart Poster"); return
        }
        #expect(decoded.uri == "https://example.com/\u{1B}x")
        #expect(decoded.title(for: "en") == "Logger")
    }

    @Test func controlCharacterScanAgreesWithAByteLoop() {
        // Every byte value at every position of a 19-byte field (the 8-byte steps and the tail).
        let base = Array("https://example.org".utf8)
        for position in base.indices {
            for byte in UInt8.min...UInt8.max {
                var field = base
                field[position] = byte
                let expected = field.firstIndex { $0 < 0x20 || $0 == 0x7F }
                field.withUnsafeBytes { bytes in
                    #expect(ByteChecks.firstControlCharacter(bytes) == expected, "byte \(byte) at \(position)")
                    let clean = expected == nil && ByteChecks.firstInvalidUTF8(bytes) == nil
                    #expect(ByteChecks.isCleanUTF8WithoutControls(bytes) == clean, "byte \(byte) at \(position)")
                }
            }
        }
    }

    @Test func longMediaTypesAgreeWithTheFullCheck() {
        // Types of 8 bytes and more go through the word-at-a-time test first.
        let templates = [
            "application/?son", "applicat?on/json", "application/vnd.example?json", "image/png?",
            "?pplication/octet-stream", "text/plain;charset=?", "application/x-?",
        ]
        var accepted = 0
        for template in templates {
            for byte in UInt8.min...UInt8.max {
                let bytes = template.utf8.flatMap { $0 == UInt8(ascii: "?") ? [byte] : [$0] }
                bytes.withUnsafeBytes { type in
                    let fast = ByteChecks.isMediaType(type)
                    #expect(fast == (ByteChecks.mediaTypeProblem(type) == nil), "\(template) with byte \(byte)")
                    if fast { accepted += 1 }
                }
            }
        }
        #expect(accepted > 79 * 5)
        for type in ["a/b", "application/json", "APPLICATION/JSON", "application/vnd.ms-excel", "x/y+z.1-2", "/json", "json/", "a//b", "ab"] {
            Array(type.utf8).withUnsafeBytes { bytes in
                #expect(ByteChecks.isMediaType(bytes) == (ByteChecks.mediaTypeProblem(bytes) == nil), "\(type)")
            }
        }
    }

    @Test func typeNamesAreDeclaredOncePerRecordType() throws {
        #expect(TextRecord.wellKnownType.bytes == Data("T".utf8))
        #expect(URIRecord.wellKnownType.bytes == Data("U".utf8))
        #expect(SmartPosterRecord.wellKnownType.bytes == Data("Sp".utf8))
        #expect(SmartPosterRecord.actionType.description == "act")
        #expect(TextRecord(text: "x").record.type == TextRecord.wellKnownType.bytes)
        #expect(URIRecord(uri: "https://a.b").record.isWellKnown(URIRecord.wellKnownType))
        #expect(!URIRecord(uri: "https://a.b").record.isWellKnown(TextRecord.wellKnownType))
        #expect(NDEFRecord(wellKnown: SmartPosterRecord.sizeType, payload: Data([0, 0, 1, 0])).typeName == "s")
        #expect(TextRecord.wellKnownType == WellKnownType("T"))
        #expect(TextRecord.wellKnownType != SmartPosterRecord.targetTypeType)
        // A Smart Poster built from the declarations reads back through the same declarations.
        let poster = SmartPosterRecord(
            uri: "https://example.com", titles: [TextRecord(text: "Hi")], action: .save,
            size: 1024, targetType: "text/html")
        let parsed = try NDEFParser.message(from: NDEFMessage(records: [poster.record]).serialized())
        #expect(parsed.records[0].smartPosterRecord == poster)
        #expect(poster.message.records.map(\.typeName) == ["U", "T", "act", "s", "t"])
    }
}
