import Foundation
import Testing
@testable import LoggerFormats

/// A log's read-time source is a value; stored logs and JSON keep the English phrase.
@Suite struct ReadTimeSourceTests {
    @Test func eachSourceIsStoredAsItsPhraseAndReadBack() throws {
        for source in DecodeOptions.ReadTimeSource.known + [.other("generated")] {
            let data = try JSONEncoder().encode([source])
            #expect(String(decoding: data, as: UTF8.self) == "[\"\(source.description)\"]")
            #expect(try JSONDecoder().decode([DecodeOptions.ReadTimeSource].self, from: data) == [source])
            #expect(DecodeOptions.ReadTimeSource(text: source.description) == source)
        }
        #expect(DecodeOptions.ReadTimeSource(text: "file modification time") == .fileModificationTime)
    }

    @Test func aDecodedLogCarriesTheSourceItWasGiven() throws {
        let log = try LoggerDecoder.decode(G16.message(G16.workedPayload),
                                           options: DecodeOptions(readTime: G16.read, readTimeSource: .fileModificationTime))
        #expect(log.readTimeSource == .fileModificationTime)
        let stored = try JSONDecoder().decode(TemperatureLog.self, from: JSONEncoder().encode(log))
        #expect(stored.readTimeSource == .fileModificationTime)
    }
}
