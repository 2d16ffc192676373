import Foundation
import TestSupport
import Testing

@testable import NDEF

@Suite struct TextRecordTests {
    @Test func utf16InAllThreeLayouts() throws {
        // "Aé" = U+0041 U+00E9.
        let payloads: [([UInt8], TextRecord.UTF16Layout)] = [
            ([0x82, 0x65, 0x6E, 0xFE, 0xFF, 0x00, 0x41, 0x00, 0xE9], .bigEndianWithBOM),
            ([0x82, 0x65, 0x6E, 0xFF, 0xFE, 0x41, 0x00, 0xE9, 0x00], .littleEndianWithBOM),
            ([0x82, 0x65, 0x6E, 0x00, 0x41, 0x00, 0xE9], .bigEndianWithoutBOM),
        ]
        for (bytes, layout) in payloads {
            let text = try TextRecord(payload: Data(bytes))
            #expect(text == TextRecord(text: "Aé", language: "en", encoding: .utf16, utf16Layout: layout))
            #expect(Array(text.payload) == bytes)
        }
    }

    @Test func surrogatePairsDecode() throws {
        // U+1F9CA (ice cube) = D83E DDCA.
        let text = try TextRecord(payload: Data([0x82, 0x65, 0x6E, 0xD8, 0x3E, 0xDD, 0xCA]))
        #expect(text.text == "🧊")
    }

    @Test func utf8TextAndLanguage() throws {
        let text = try TextRecord(payload: Data([0x05, 0x70, 0x74, 0x2D, 0x42, 0x52, 0x6F, 0x6C, 0xC3, 0xA1]))
        #expect(text.language == "pt-BR")
        #expect(text.text == "olá")
        #expect(text.encoding == .utf8)
    }

    @Test func emptyTextIsValid() throws {
        #expect(try TextRecord(payload: Data([0x02, 0x65, 0x6E])).text == "")
        #expect(try TextRecord(payload: Data([0x82, 0x65, 0x6E])).text == "")
    }

    @Test func languageMustBeALanguageTag() {
        let error = #expect(throws: NDEFError.self) { try TextRecord(payload: Data([0x02, 0x65, 0x20, 0x41])) }
        #expect(error?.offset == 2)
    }
}

@Suite struct URIRecordTests {
    @Test func all36PrefixesExpandAndAreChosenWhenBuilding() throws {
        #expect(URIRecord.prefixes.count == 36)
        for (code, prefix) in URIRecord.prefixes.enumerated() {
            let decoded = try URIRecord(payload: Data([UInt8(code)] + Array("x".utf8)))
            #expect(decoded.uri == prefix + "x")
            let built = URIRecord(uri: prefix + "x")
            #expect(Int(built.identifierCode) == code)
            #expect(built.remainder == "x")
        }
    }

    @Test func handPickedCodes() throws {
        #expect(try URIRecord(payload: Data([0x01, 0x61, 0x2E, 0x62])).uri == "http://www.a.b")
        #expect(try URIRecord(payload: Data([0x23, 0x61])).uri == "urn:nfc:a")
        #expect(try URIRecord(payload: Data([0x06, 0x61, 0x40, 0x62])).uri == "mailto:a@b")
        #expect(URIRecord(uri: "https://www.example.com").identifierCode == 0x02)
        #expect(URIRecord(uri: "urn:epc:id:sgtin").identifierCode == 0x1E)
        #expect(URIRecord(uri: "gopher://x").identifierCode == 0x00)
    }

    @Test func reservedCodesMeanNoPrefix() throws {
        for code in [0x24, 0x80, 0xFF] {
            let uri = try URIRecord(payload: Data([UInt8(code), 0x61, 0x3A, 0x62]))
            #expect(uri.uri == "a:b")
            #expect(uri.usesReservedCode)
        }
    }
}

@Suite struct SmartPosterTests {
    /// A Smart Poster payload from explicit nested records.
    static func posterRecord(_ records: [NDEFRecord]) -> NDEFRecord {
        NDEFRecord(tnf: .wellKnown, type: "Sp", payload: NDEFMessage(records: records).serialized())
    }

    static let uri = URIRecord(uri: "https://example.com/log").record
    static func act(_ value: UInt8) -> NDEFRecord { NDEFRecord(tnf: .wellKnown, type: "act", payload: Data([value])) }

    @Test func decodesEveryPart() throws {
        let icon = NDEFRecord(tnf: .media, type: "image/png", payload: Data([0x89, 0x50]))
        let record = Self.posterRecord([
            TextRecord(text: "Cold chain log", language: "en").record, Self.uri,
            TextRecord(text: "Kühlkette", language: "de", encoding: .utf16).record,
            Self.act(1), NDEFRecord(tnf: .wellKnown, type: "s", payload: Data([0x00, 0x01, 0x00, 0x02])),
            NDEFRecord(tnf: .wellKnown, type: "t", payload: Data("text/csv".utf8)), icon,
            NDEFRecord(tnf: .external, type: "example.com:other", payload: Data([1])),
        ])
        let poster = try #require(try NDEFParser.message(from: NDEFMessage(records: [record]).serialized()).records[0].smartPosterRecord)
        #expect(poster.uri == "https://example.com/log")
        #expect(poster.titles.map(\.language) == ["en", "de"])
        #expect(poster.title(for: "DE") == "Kühlkette")
        #expect(poster.action == .save)
        #expect(poster.size == 65538)
        #expect(poster.targetType == "text/csv")
        #expect(poster.icons == [.init(mimeType: "image/png", data: Data([0x89, 0x50]))])
    }

    @Test func builderRoundTrips() throws {
        let poster = SmartPosterRecord(
            uri: "tel:+4930123", titles: [TextRecord(text: "Call", language: "en")],
            action: .exec, size: 7, targetType: "text/plain",
            icons: [.init(mimeType: "image/gif", data: Data([0x47]))])
        let parsed = try NDEFParser.message(from: NDEFMessage(records: [poster.record]).serialized())
        #expect(parsed.records[0].smartPosterRecord == poster)
        #expect(parsed.records[0].content == .smartPoster(poster))
    }

    @Test func strictViolationsAndLenientRecovery() throws {
        let en1 = TextRecord(text: "one", language: "en").record
        let en2 = TextRecord(text: "two", language: "EN").record
        let cases: [([NDEFRecord], String)] = [
            ([Self.uri, en1, en2], "two Smart Poster titles share the language 'EN'"),
            ([en1], "a Smart Poster has no URI record"),
            ([Self.uri, Self.uri], "a Smart Poster has more than one URI record"),
            ([Self.uri, Self.act(3)], "a Smart Poster action is not one byte of value 0, 1 or 2"),
            ([Self.uri, Self.act(0), Self.act(1)], "a Smart Poster has more than one action record"),
            ([Self.uri, NDEFRecord(tnf: .wellKnown, type: "s", payload: Data([1, 2]))], "a Smart Poster size record is not 4 bytes"),
        ]
        for (records, message) in cases {
            let bytes = NDEFMessage(records: [Self.posterRecord(records)]).serialized()
            let error = #expect(throws: NDEFError.self) { try NDEFParser.parse(bytes) }
            #expect(error?.kind == .invalidPayload(message))
            let lenient = try NDEFParser.parse(bytes, mode: .lenient)
            #expect(lenient.warnings.map(\.kind) == [.invalidPayload(message)])
            #expect(lenient.message.records[0].content != nil)
        }
    }

    @Test func duplicateTitleOffsetPointsAtTheSecondTitle() throws {
        let en1 = TextRecord(text: "one", language: "en").record  // 3 + 1 + 6 = 10 bytes
        let en2 = TextRecord(text: "two", language: "en").record
        let bytes = NDEFMessage(records: [Self.posterRecord([Self.uri, en1, en2])]).serialized()
        // Outer header D1 02 LL 'S' 'p' = 5 bytes; URI record = 3 + 1 + (1 + 15) = 20 bytes.
        let error = #expect(throws: NDEFError.self) { try NDEFParser.parse(bytes) }
        #expect(error?.offset == 5 + 20 + 10)
        let lenient = try NDEFParser.parse(bytes, mode: .lenient)
        #expect(
            lenient.message.records[0].content.flatMap {
                if case .smartPoster(let poster) = $0 { return poster.titles.map(\.text) } else { return nil }
            } == ["one"])
    }

    @Test func invalidTitleTextInsideAPosterIsAnError() {
        let badTitle = NDEFRecord(tnf: .wellKnown, type: "T", payload: Data([0x02, 0x65, 0x6E, 0xFF]))
        let bytes = NDEFMessage(records: [Self.posterRecord([Self.uri, badTitle])]).serialized()
        let error = #expect(throws: NDEFError.self) { try NDEFParser.parse(bytes) }
        #expect(error?.kind == .invalidPayload("a Text record's text is not valid UTF-8"))
        // 5 (outer header) + 20 (URI record) + 4 (title header) + 3 (status, "en").
        #expect(error?.offset == 5 + 20 + 4 + 3)
    }

    @Test func emptyPosterPayloadIsAnError() {
        let error = #expect(throws: NDEFError.self) { try NDEFParser.parse(Data([0xD1, 0x02, 0x00, 0x53, 0x70])) }
        #expect(error?.kind == .emptyInput)
        #expect(error?.offset == 5)
    }
}

@Suite struct OtherRecordTests {
    @Test func mimeRecord() throws {
        let record = try NDEFParser.message(from: Data([0xD2, 0x10, 0x02] + Array("application/json".utf8) + [0x7B, 0x7D])).records[0]
        #expect(record.mimeRecord == MIMERecord(mimeType: "application/json", data: Data([0x7B, 0x7D])))
        #expect(record.mimeRecord?.text == "{}")
        #expect(MIMERecord(mimeType: "image/png", data: Data([0x7B])).text == nil)
        // Textual types with ill-formed UTF-8 have no text (an overlong encoding, a lone continuation byte).
        #expect(MIMERecord(mimeType: "text/plain", data: Data([0xC0, 0xAF])).text == nil)
        #expect(MIMERecord(mimeType: "application/json", data: Data([0x7B, 0x80, 0x7D])).text == nil)
        #expect(MIMERecord(mimeType: "text/plain", data: Data("olá 🧊".utf8)).text == "olá 🧊")
    }

    @Test func externalRecord() throws {
        let record = try NDEFParser.message(from: Data([0xD4, 0x10, 0x01] + Array("example.com:temp".utf8) + [0x2A])).records[0]
        #expect(record.externalRecord == ExternalRecord(domain: "example.com", name: "temp", payload: Data([0x2A])))
        #expect(throws: NDEFError.self) { try ExternalRecord(type: "nocolon", payload: Data()) }
        #expect(try ExternalRecord(type: "a.b:c:d", payload: Data()).name == "c:d")
    }

    @Test func absoluteURIRecord() throws {
        let record = try NDEFParser.message(from: Data([0xD3, 0x0C, 0x00] + Array("urn:x-test:1".utf8))).records[0]
        #expect(record.absoluteURIRecord == AbsoluteURIRecord(uri: "urn:x-test:1"))
        #expect(record.content == .absoluteURI(AbsoluteURIRecord(uri: "urn:x-test:1")))
    }

    @Test func emptyAndUnknownRecords() throws {
        #expect(Array(EmptyRecord.message.serialized()) == [0xD0, 0x00, 0x00])
        #expect(try NDEFParser.message(from: Data([0xD0, 0x00, 0x00])).records[0].content == .empty)
        let unknown = try NDEFParser.message(from: Data([0xD5, 0x00, 0x02, 0x01, 0x02])).records[0]
        #expect(unknown.content == .unknown(UnknownRecord(payload: Data([1, 2]))))
        let handover = try NDEFParser.message(from: Data([0xD1, 0x02, 0x01, 0x48, 0x73, 0x12])).records[0]
        #expect(handover.content == .otherWellKnown("Hs"))
    }

    @Test func encoderRefusesInvalidMessages() {
        let cases: [(NDEFMessage, Int)] = [
            (NDEFMessage(records: []), 0),
            (NDEFMessage(records: [TextRecord(text: "a").record, NDEFRecord(tnf: .wellKnown, type: Data(repeating: 0x41, count: 256))]), 1),
            (NDEFMessage(records: [NDEFRecord(tnf: .unknown, id: Data(repeating: 1, count: 256))]), 0),
            (NDEFMessage(records: [NDEFRecord(tnf: .reserved)]), 0),
            (NDEFMessage(records: [NDEFRecord(tnf: .unchanged)]), 0),
            (NDEFMessage(records: [NDEFRecord(tnf: .empty, payload: Data([1]))]), 0),
            (NDEFMessage(records: [NDEFRecord(tnf: .media, type: "json")]), 0),
            (NDEFMessage(records: [NDEFRecord(tnf: .media)]), 0),
            (NDEFMessage(records: [NDEFRecord(tnf: .wellKnown, type: "T", payload: Data([0x02, 0x65]))]), 0),
        ]
        for (message, index) in cases {
            let error = #expect(throws: NDEFEncodingError.self) { try message.encoded() }
            #expect(error?.recordIndex == index)
        }
    }
}

@Suite struct ByteCheckTests {
    @Test func tokenBitMasksMatchRFC2045() {
        let specials = Set("()<>@,;:\\\"/[]?=".utf8)
        for byte in 0...255 {
            let expected = byte > 0x20 && byte < 0x7F && !specials.contains(UInt8(byte))
            #expect(ByteChecks.isTokenByte(UInt8(byte)) == expected, "byte \(byte)")
        }
    }

    @Test(.tags(.slow)) func utf8ValidatorAgreesWithTheStandardLibrary() {
        var rng = SeededGenerator(seed: 5)
        let pieces: [[UInt8]] = [
            [0x41], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0xA7, 0x8A], [0xC0, 0x80], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xE0, 0x80], [0x80], [0xFF], Array("abcdefghij".utf8),
        ]
        for _ in 0..<5000 {
            let bytes = (0..<Int.random(in: 0...6, using: &rng)).flatMap { _ in pieces.randomElement(using: &rng) ?? [] }
            let valid = bytes.withUnsafeBytes { ByteChecks.firstInvalidUTF8($0) } == nil
            #expect(valid == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
        }
    }
}
