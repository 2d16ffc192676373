import Foundation
import Testing

@testable import NDEF

/// One malformed input, the error a strict parse must throw, and what lenient parsing keeps.
struct MalformedCase: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var kind: NDEFError.Kind
    var offset: Int
    /// Records a lenient parse must return (nil: lenient parsing throws the same error too).
    var lenientRecords: [NDEFRecord]?

    var testDescription: String { name }
}

let text = Array("text/plain".utf8)
let validURI: [UInt8] = [0x55, 0x00]  // type 'U', empty URI (code 0)
let uriRecord = NDEFRecord(tnf: .wellKnown, type: "U", payload: Data([0x00]))

let malformedCases: [MalformedCase] = [
    MalformedCase(name: "empty input", bytes: [], kind: .emptyInput, offset: 0, lenientRecords: nil),
    MalformedCase(
        name: "header cut short", bytes: [0xD1, 0x01], kind: .truncated(needed: 3, available: 2), offset: 0,
        lenientRecords: nil),
    MalformedCase(
        name: "payload cut short", bytes: [0xD1, 0x01, 0x05, 0x54, 0x02],
        kind: .truncated(needed: 6, available: 2), offset: 3, lenientRecords: nil),
    MalformedCase(
        name: "0xFFFFFFFF payload in 10 bytes", bytes: [0xC1, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x54, 0x00, 0x00, 0x00],
        kind: .truncated(needed: 0x1_0000_0000, available: 4), offset: 6, lenientRecords: nil),
    MalformedCase(
        name: "missing MB", bytes: [0x51, 0x01, 0x01] + validURI, kind: .missingMessageBegin, offset: 0,
        lenientRecords: [uriRecord]),
    MalformedCase(
        name: "MB on a later record", bytes: [0x91, 0x01, 0x01] + validURI + [0xD1, 0x01, 0x01] + validURI,
        kind: .unexpectedMessageBegin, offset: 5, lenientRecords: [uriRecord, uriRecord]),
    MalformedCase(
        name: "missing ME", bytes: [0x91, 0x01, 0x01] + validURI, kind: .missingMessageEnd, offset: 5,
        lenientRecords: [uriRecord]),
    MalformedCase(
        name: "bytes after ME", bytes: [0xD1, 0x01, 0x01] + validURI + [0x00, 0x00],
        kind: .bytesAfterMessageEnd(count: 2), offset: 5, lenientRecords: [uriRecord]),
    MalformedCase(
        name: "second record cut short", bytes: [0x91, 0x01, 0x01] + validURI + [0x51, 0x01, 0x09, 0x55],
        kind: .truncated(needed: 10, available: 1), offset: 8, lenientRecords: [uriRecord]),
    MalformedCase(
        name: "reserved TNF 7", bytes: [0xD7, 0x01, 0x01, 0x41, 0x42], kind: .reservedTNF, offset: 0,
        lenientRecords: [NDEFRecord(tnf: .unknown, payload: Data([0x42]))]),
    MalformedCase(
        name: "empty record with payload", bytes: [0xD0, 0x00, 0x01, 0xAA],
        kind: .tnfContradiction("an empty record (TNF 0) has a type, ID or payload"), offset: 0,
        lenientRecords: [NDEFRecord(tnf: .empty, payload: Data([0xAA]))]),
    MalformedCase(
        name: "well-known record without type", bytes: [0xD1, 0x00, 0x00],
        kind: .tnfContradiction("a record of TNF 1 has no type"), offset: 0,
        lenientRecords: [NDEFRecord(tnf: .wellKnown)]),
    MalformedCase(
        name: "unknown record with a type", bytes: [0xD5, 0x01, 0x00, 0x41],
        kind: .tnfContradiction("an unknown-type record (TNF 5) has a type"), offset: 0,
        lenientRecords: [NDEFRecord(tnf: .unknown, type: "A")]),
    MalformedCase(
        name: "TNF 6 outside a chunk", bytes: [0xD6, 0x00, 0x01, 0x42],
        kind: .chunkViolation("a record that is not a middle or last chunk has TNF 6 (unchanged)"), offset: 0,
        lenientRecords: [NDEFRecord(tnf: .unknown, payload: Data([0x42]))]),
    MalformedCase(
        name: "first chunk with TNF 6", bytes: [0xB6, 0x00, 0x01, 0x41, 0x56, 0x00, 0x01, 0x42],
        kind: .chunkViolation("the first chunk of a chunked record has TNF 6 (unchanged)"), offset: 0,
        lenientRecords: [NDEFRecord(tnf: .unknown, payload: Data([0x41, 0x42]))]),
    MalformedCase(
        name: "middle chunk with TNF 1", bytes: [0xB2, 0x0A, 0x01] + text + [0x41, 0x51, 0x00, 0x01, 0x42],
        kind: .chunkViolation("a middle or last chunk has TNF 1, not 6 (unchanged)"), offset: 14,
        lenientRecords: [NDEFRecord(tnf: .media, type: "text/plain", payload: Data([0x41, 0x42]))]),
    MalformedCase(
        name: "middle chunk with a type", bytes: [0xB2, 0x0A, 0x01] + text + [0x41, 0x56, 0x01, 0x01, 0x58, 0x42],
        kind: .chunkViolation("a middle or last chunk has a type"), offset: 14,
        lenientRecords: [NDEFRecord(tnf: .media, type: "text/plain", payload: Data([0x41, 0x42]))]),
    MalformedCase(
        name: "middle chunk sets IL", bytes: [0xB2, 0x0A, 0x01] + text + [0x41, 0x5E, 0x00, 0x01, 0x00, 0x42],
        kind: .chunkViolation("a middle or last chunk sets IL (has an ID length field)"), offset: 14,
        lenientRecords: [NDEFRecord(tnf: .media, type: "text/plain", payload: Data([0x41, 0x42]))]),
    MalformedCase(
        name: "middle chunk sets MB", bytes: [0xB2, 0x0A, 0x01] + text + [0x41, 0xD6, 0x00, 0x01, 0x42],
        kind: .unexpectedMessageBegin, offset: 14,
        lenientRecords: [NDEFRecord(tnf: .media, type: "text/plain", payload: Data([0x41, 0x42]))]),
    MalformedCase(
        name: "chunk with CF and ME", bytes: [0xF2, 0x0A, 0x01] + text + [0x41],
        kind: .chunkViolation("a chunk (CF set) also sets ME"), offset: 0,
        lenientRecords: [NDEFRecord(tnf: .media, type: "text/plain", payload: Data([0x41]))]),
    MalformedCase(
        name: "middle chunk with CF and ME",
        bytes: [0xB2, 0x0A, 0x01] + text + [0x41, 0x76, 0x00, 0x01, 0x42],
        kind: .chunkViolation("a chunk (CF set) also sets ME"), offset: 14,
        lenientRecords: [NDEFRecord(tnf: .media, type: "text/plain", payload: Data([0x41, 0x42]))]),
    MalformedCase(
        name: "input ends inside chunks", bytes: [0xB2, 0x0A, 0x01] + text + [0x41],
        kind: .chunkViolation("the input ends before the last chunk of a chunked record"), offset: 14,
        lenientRecords: [NDEFRecord(tnf: .media, type: "text/plain", payload: Data([0x41]))]),
    MalformedCase(
        name: "empty record chunked", bytes: [0xB0, 0x00, 0x00, 0x56, 0x00, 0x00],
        kind: .chunkViolation("an empty record (TNF 0) is chunked"), offset: 0,
        lenientRecords: [NDEFRecord(tnf: .empty)]),
    MalformedCase(
        name: "MIME type without subtype", bytes: [0xD2, 0x04, 0x00] + Array("text".utf8),
        kind: .invalidType("a MIME record's type is not of the form type/subtype"), offset: 3,
        lenientRecords: [NDEFRecord(tnf: .media, type: "text")]),
    MalformedCase(
        name: "external type without colon", bytes: [0xD4, 0x04, 0x00] + Array("temp".utf8),
        kind: .invalidType("an external type is not of the form domain:type"), offset: 3,
        lenientRecords: [NDEFRecord(tnf: .external, type: "temp")]),
    MalformedCase(
        name: "absolute URI without scheme", bytes: [0xD3, 0x04, 0x00] + Array("/a/b".utf8),
        kind: .invalidType("an absolute-URI record's type does not start with a URI scheme"), offset: 3,
        lenientRecords: [NDEFRecord(tnf: .absoluteURI, type: "/a/b")]),
    MalformedCase(
        name: "Text with invalid UTF-8", bytes: [0xD1, 0x01, 0x05, 0x54, 0x02, 0x65, 0x6E, 0xFF, 0xFE],
        kind: .invalidPayload("a Text record's text is not valid UTF-8"), offset: 7,
        lenientRecords: [NDEFRecord(tnf: .wellKnown, type: "T", payload: Data([0x02, 0x65, 0x6E, 0xFF, 0xFE]))]),
    MalformedCase(
        name: "Text with an unpaired UTF-16 surrogate", bytes: [0xD1, 0x01, 0x07, 0x54, 0x82, 0x65, 0x6E, 0x00, 0x41, 0xD8, 0x00],
        kind: .invalidPayload("a Text record's text is not valid UTF-16"), offset: 9,
        lenientRecords: [NDEFRecord(tnf: .wellKnown, type: "T", payload: Data([0x82, 0x65, 0x6E, 0x00, 0x41, 0xD8, 0x00]))]),
    MalformedCase(
        name: "Text with odd UTF-16 length", bytes: [0xD1, 0x01, 0x06, 0x54, 0x82, 0x65, 0x6E, 0xFF, 0xFE, 0x41],
        kind: .invalidPayload("a Text record's text is not valid UTF-16"), offset: 9,
        lenientRecords: [NDEFRecord(tnf: .wellKnown, type: "T", payload: Data([0x82, 0x65, 0x6E, 0xFF, 0xFE, 0x41]))]),
    MalformedCase(
        name: "Text without a language code", bytes: [0xD1, 0x01, 0x03, 0x54, 0x00, 0x68, 0x69],
        kind: .invalidPayload("a Text record has no language code (its length is 0)"), offset: 4,
        lenientRecords: [NDEFRecord(tnf: .wellKnown, type: "T", payload: Data([0x00, 0x68, 0x69]))]),
    MalformedCase(
        name: "URI with a line feed", bytes: [0xD1, 0x01, 0x05, 0x55, 0x04, 0x61, 0x0A, 0x62, 0x63],
        kind: .invalidPayload("a URI record's URI field holds the control character U+000A"), offset: 6,
        lenientRecords: [NDEFRecord(tnf: .wellKnown, type: "U", payload: Data([0x04, 0x61, 0x0A, 0x62, 0x63]))]),
    MalformedCase(
        name: "URI with DEL after eight clean bytes",
        bytes: [0xD1, 0x01, 0x0F, 0x55, 0x04] + Array("example.com/".utf8) + [0x7F, 0x78],
        kind: .invalidPayload("a URI record's URI field holds the control character U+007F"), offset: 17,
        lenientRecords: [
            NDEFRecord(
                tnf: .wellKnown, type: "U",
                payload: Data([0x04] + Array("example.com/".utf8) + [0x7F, 0x78]))
        ]),
    MalformedCase(
        name: "URI with NUL before invalid UTF-8", bytes: [0xD1, 0x01, 0x04, 0x55, 0x00, 0x00, 0x61, 0xC0],
        kind: .invalidPayload("a URI record's URI field holds the control character U+0000"), offset: 5,
        lenientRecords: [NDEFRecord(tnf: .wellKnown, type: "U", payload: Data([0x00, 0x00, 0x61, 0xC0]))]),
    MalformedCase(
        name: "Smart Poster URI with a tab",
        bytes: [0xD1, 0x02, 0x07, 0x53, 0x70, 0xD1, 0x01, 0x03, 0x55, 0x04, 0x61, 0x09],
        kind: .invalidPayload("a URI record's URI field holds the control character U+0009"), offset: 11,
        lenientRecords: [
            NDEFRecord(
                tnf: .wellKnown, type: "Sp",
                payload: Data([0xD1, 0x01, 0x03, 0x55, 0x04, 0x61, 0x09]))
        ]),
    MalformedCase(
        name: "Text language past the payload", bytes: [0xD1, 0x01, 0x02, 0x54, 0x05, 0x65],
        kind: .invalidPayload("a Text record's language code (5 bytes) runs past its payload (2 bytes)"), offset: 4,
        lenientRecords: [NDEFRecord(tnf: .wellKnown, type: "T", payload: Data([0x05, 0x65]))]),
    MalformedCase(
        name: "Text with an empty payload", bytes: [0xD1, 0x01, 0x00, 0x54],
        kind: .invalidPayload("a Text record has an empty payload (no status byte)"), offset: 4,
        lenientRecords: [NDEFRecord(tnf: .wellKnown, type: "T")]),
    MalformedCase(
        name: "URI with invalid UTF-8", bytes: [0xD1, 0x01, 0x03, 0x55, 0x04, 0x61, 0xC0],
        kind: .invalidPayload("a URI record's URI field is not valid UTF-8"), offset: 6,
        lenientRecords: [NDEFRecord(tnf: .wellKnown, type: "U", payload: Data([0x04, 0x61, 0xC0]))]),
    MalformedCase(
        name: "URI with an empty payload", bytes: [0xD1, 0x01, 0x00, 0x55],
        kind: .invalidPayload("a URI record has an empty payload (no identifier code)"), offset: 4,
        lenientRecords: [NDEFRecord(tnf: .wellKnown, type: "U")]),
]

@Suite struct MalformedTests {
    @Test(arguments: malformedCases)
    func strictParsingThrowsTheKindAtTheOffset(_ testCase: MalformedCase) {
        let error = #expect(throws: NDEFError.self) { try NDEFParser.parse(Data(testCase.bytes)) }
        #expect(error?.kind == testCase.kind)
        #expect(error?.offset == testCase.offset)
    }

    @Test(arguments: malformedCases)
    func lenientParsingRecoversAndWarns(_ testCase: MalformedCase) throws {
        guard let expected = testCase.lenientRecords else {
            let error = #expect(throws: NDEFError.self) { try NDEFParser.parse(Data(testCase.bytes), mode: .lenient) }
            #expect(error?.kind == testCase.kind)
            return
        }
        let result = try NDEFParser.parse(Data(testCase.bytes), mode: .lenient)
        #expect(result.message.records == expected)
        #expect(result.warnings.first?.kind == testCase.kind)
        #expect(result.warnings.first?.offset == testCase.offset)
        for record in result.message.records { #expect(record.content != nil) }
    }

    @Test func lenientTextShowsReplacementCharacters() throws {
        let result = try NDEFParser.parse(Data([0xD1, 0x01, 0x05, 0x54, 0x02, 0x65, 0x6E, 0x41, 0xFF]), mode: .lenient)
        #expect(result.message.records[0].content == .text(TextRecord(text: "A\u{FFFD}", language: "en")))
        #expect(result.message.records[0].textRecord == nil)
    }

    @Test func errorInASecondChunkNamesItsInputOffset() {
        // Text record in two chunks; the invalid byte 0xFF is the first payload byte of the second chunk.
        let bytes: [UInt8] = [0xB1, 0x01, 0x03, 0x54, 0x02, 0x65, 0x6E, 0x56, 0x00, 0x02, 0xFF, 0x41]
        let error = #expect(throws: NDEFError.self) { try NDEFParser.parse(Data(bytes)) }
        #expect(error?.kind == .invalidPayload("a Text record's text is not valid UTF-8"))
        #expect(error?.offset == 10)
    }

    @Test func hugeDeclaredLengthsFailBeforeAllocating() {
        // Long-form records declaring up to 4 GiB; each must fail on the length check, which
        // reports the declared size (the parser never sizes a buffer from a header).
        for length: UInt32 in [0xFFFF_FFFF, 0x8000_0000, 0x0100_0000, 300] {
            let header: [UInt8] = [0xC5, 0x00, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            let error = #expect(throws: NDEFError.self) { try NDEFParser.parse(Data(header + [0, 0, 0, 0])) }
            #expect(error?.kind == .truncated(needed: Int(length), available: 4))
            // A chunked record whose second chunk declares the huge size: the chunks present
            // are all that is joined.
            let chunked: [UInt8] = [0xB5, 0x00, 0x01, 0x41, 0x46, 0x00] + Array(header.dropFirst(2)) + [0x42]
            let lenient = try? NDEFParser.parse(Data(chunked), mode: .lenient)
            #expect(lenient?.message.records == [NDEFRecord(tnf: .unknown, payload: Data([0x41]))])
        }
    }

    @Test func reservedURICodeMeansNoPrefix() throws {
        let record = try NDEFParser.message(from: Data([0xD1, 0x01, 0x04, 0x55, 0x24, 0x61, 0x3A, 0x62])).records[0]
        #expect(record.uriRecord?.uri == "a:b")
        #expect(record.uriRecord?.usesReservedCode == true)
        let lenient = try NDEFParser.parse(Data([0xD1, 0x01, 0x02, 0x55, 0xFF, 0x61]), mode: .lenient)
        #expect(lenient.warnings.map(\.offset) == [4])
    }
}
