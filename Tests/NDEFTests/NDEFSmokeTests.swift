import Testing
import Foundation
@testable import NDEF

@Test func textRecordRoundTrip() throws {
    let message = NDEFMessage(records: [TextRecord(text: "héllo", language: "fr").record,
                                        URIRecord(uri: "https://example.com/x").record])
    let parsed = try NDEFParser.message(from: message.serialized())
    #expect(parsed == message)
    #expect(parsed.records[0].textRecord?.text == "héllo")
    #expect(parsed.records[1].uriRecord?.identifierCode == 4)
}

@Test func hugeDeclaredLengthFailsAtOnce() {
    let bytes = Data([0xC1, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x54, 0x00, 0x00, 0x00])
    #expect(throws: NDEFError.self) { try NDEFParser.parse(bytes) }
}
