import Foundation
import TestSupport
import Testing

@testable import NDEF

@Suite struct RoundTripTests {
    @Test func generatedMessagesOfEveryKindRoundTrip() throws {
        var rng = SeededGenerator(seed: 0xC01D_7A9)
        var kindsSeen = Set<String>()
        var sawChunked = false, sawLong = false, sawID = false
        var layoutsSeen = Set<String>()
        for _ in 0..<400 {
            let generated = Generate.message(&rng)
            let message = NDEFMessage(records: generated.map(\.record))
            let chunkSize: Int? = Bool.random(using: &rng) ? Int.random(in: 1...300, using: &rng) : nil
            let bytes = try message.encoded(maxChunkSize: chunkSize)
            let result = try NDEFParser.parse(bytes)
            #expect(result.warnings.isEmpty)
            #expect(result.message == message)
            for (record, expected) in zip(result.message.records, generated) {
                let decoded = try record.decodedContent()
                #expect(decoded.content == expected.content)
                #expect(decoded.warnings.isEmpty)
                kindsSeen.insert(expected.content.kindName)
                if case .text(let text) = expected.content, text.encoding == .utf16 { layoutsSeen.insert("\(text.utf16Layout)") }
                if let chunkSize, record.payload.count > chunkSize { sawChunked = true }
                if record.payload.count > 255 { sawLong = true }
                if !record.id.isEmpty { sawID = true }
            }
        }
        #expect(kindsSeen.count == 9)
        #expect(layoutsSeen.count == 3)
        #expect(sawChunked && sawLong && sawID)
    }

    @Test func lenientParseOfValidInputEqualsStrict() throws {
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<100 {
            let message = NDEFMessage(records: Generate.message(&rng).map(\.record))
            let bytes = message.serialized(maxChunkSize: 50)
            let lenient = try NDEFParser.parse(bytes, mode: .lenient)
            #expect(lenient.message == message)
            #expect(lenient.warnings.isEmpty)
        }
    }

    @Test func shortAndLongHeadersAreHandWritten() throws {
        // Short record: D1 01 08 'T' 02 'e' 'n' 'h' 'e' 'l' 'l' 'o'.
        let text = TextRecord(text: "hello", language: "en")
        #expect(
            Array(NDEFMessage(records: [text.record]).serialized())
                == [0xD1, 0x01, 0x08, 0x54, 0x02, 0x65, 0x6E, 0x68, 0x65, 0x6C, 0x6C, 0x6F])
        // Long record (256-byte payload): SR clear, 4-byte length 00 00 01 00.
        let long = UnknownRecord(payload: Data(repeating: 0xAB, count: 256)).record
        let bytes = Array(NDEFMessage(records: [long]).serialized())
        #expect(Array(bytes.prefix(6)) == [0xC5, 0x00, 0x00, 0x00, 0x01, 0x00])
        #expect(bytes.count == 6 + 256)
        // ID: IL set, ID length after the payload length, ID before the payload.
        var withID = URIRecord(uri: "tel:1").record
        withID.id = Data([0x69])
        #expect(Array(NDEFMessage(records: [withID]).serialized()) == [0xD9, 0x01, 0x02, 0x01, 0x55, 0x69, 0x05, 0x31])
    }

    @Test func chunkedRecordIsWrittenAndReassembled() throws {
        var record = MIMERecord(mimeType: "text/plain", data: Data("abcdefg".utf8)).record
        record.id = Data([0x01])
        let bytes = NDEFMessage(records: [record]).serialized(maxChunkSize: 3)
        // Initial chunk carries type and ID (MB|CF|SR|IL|TNF2); then TNF 6 chunks without type or IL.
        let expected: [UInt8] =
            [0xBA, 0x0A, 0x03, 0x01] + Array("text/plain".utf8) + [0x01] + Array("abc".utf8)
            + [0x36, 0x00, 0x03] + Array("def".utf8)
            + [0x56, 0x00, 0x01] + Array("g".utf8)
        #expect(Array(bytes) == expected)
        let parsed = try NDEFParser.message(from: bytes)
        #expect(parsed.records == [record])
    }

    @Test func unchunkedPayloadsAreSlicesOfTheInput() throws {
        let payload = Data(repeating: 0x5A, count: 1 << 20)
        let input = NDEFMessage(records: [MIMERecord(mimeType: "application/octet-stream", data: payload).record]).serialized()
        let record = try NDEFParser.message(from: input).records[0]
        let headerLength = 6 + "application/octet-stream".utf8.count
        #expect(record.payload.startIndex == input.startIndex + headerLength)
        let inputBase = input.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        let payloadBase = record.payload.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        #expect(payloadBase == inputBase + UInt(headerLength))
    }

    @Test func parsingASliceUsesSliceRelativeOffsets() throws {
        let message = NDEFMessage(records: [TextRecord(text: "x").record])
        var buffer = Data([0xEE, 0xEE, 0xEE])
        buffer.append(message.serialized())
        let slice = buffer[3...]
        #expect(try NDEFParser.message(from: slice) == message)
        var broken = Data([0xEE, 0xEE])
        broken.append(contentsOf: [0xD1, 0x01, 0x09])
        let error = #expect(throws: NDEFError.self) { try NDEFParser.parse(broken[2...]) }
        #expect(error?.offset == 3)
    }
}
