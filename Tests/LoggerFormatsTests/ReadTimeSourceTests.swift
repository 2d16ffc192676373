import Foundation
import Testing

@testable import LoggerFormats

/// A log's read-time source is a value, stored as a code and worded at the edge; what
/// earlier versions stored (the English phrases, "given with --read-time") still reads back.
@Suite struct ReadTimeSourceTests {
    @Test func eachSourceIsStoredAsItsCodeAndReadBack() throws {
        for source in DecodeOptions.ReadTimeSource.known + [.other("generated")] {
            let data = try JSONEncoder().encode([source])
            #expect(String(decoding: data, as: UTF8.self) == "[\"\(source.code)\"]")
            #expect(try JSONDecoder().decode([DecodeOptions.ReadTimeSource].self, from: data) == [source])
            #expect(DecodeOptions.ReadTimeSource(stored: source.code) == source)
            // The phrases earlier versions stored.
            #expect(DecodeOptions.ReadTimeSource(stored: source.description) == source)
        }
        #expect(DecodeOptions.ReadTimeSource(stored: "given with --read-time") == .given)
        #expect(DecodeOptions.ReadTimeSource(stored: "file modification time") == .fileModificationTime)
        #expect(DecodeOptions.ReadTimeSource(stored: "tag-read") == .tagRead)
        #expect(!DecodeOptions.ReadTimeSource.given.description.contains("--"))
    }

    @Test func aDecodedLogCarriesTheSourceItWasGiven() throws {
        let log = try LoggerDecoder.decode(
            G16.message(G16.workedPayload),
            options: DecodeOptions(readTime: G16.read, readTimeSource: .fileModificationTime))
        #expect(log.readTimeSource == .fileModificationTime)
        let stored = try JSONDecoder().decode(TemperatureLog.self, from: JSONEncoder().encode(log))
        #expect(stored.readTimeSource == .fileModificationTime)
    }
}
