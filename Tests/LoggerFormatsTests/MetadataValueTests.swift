import Foundation
import Testing

@testable import LoggerFormats

/// Metadata keeps its type (a battery voltage is a number, a count an integer) while output
/// writes the same text as before.
@Suite struct MetadataValueTests {
    @Test func theCuplTagDecoderGivesNumbersAndIntegers() throws {
        let log = try LoggerDecoder.decode(url: try CuplExample.url(), options: CuplExample.options())
        let battery = try #require(log.metadata["batteryMillivolts"])
        guard case .number(let millivolts) = battery else {
            Issue.record("the battery voltage is a number, not \(battery)")
            return
        }
        #expect(battery.text == String(millivolts))
        guard case .integer = try #require(log.metadata["loopCount"]) else {
            Issue.record("the loop count is an integer")
            return
        }
        #expect(log.metadata["baseURL"]?.number == nil)
    }

    @Test func textIsWhatOutputWrites() {
        #expect(MetadataValue.integer(-7).text == "-7")
        #expect(MetadataValue.number(3764.705882352941).text == "3764.705882352941")
        #expect(MetadataValue.celsius(-5.3).text == "-5.3")
        #expect(MetadataValue.celsius(8).text == "8.0")
        #expect(MetadataValue.time(Date(timeIntervalSince1970: 1_700_000_000)).text == "2023-11-14T22:13:20Z")
        #expect(MetadataValue.flag(true).text == "true")
        // Every tenth of a degree the NHS31xx can report reads the same as its old "%.1f" text.
        for deci in Int16(-400)...Int16(850) {
            #expect(MetadataValue.celsius(Double(deci) / 10).text == NHS31xxLog.celsius(deci))
        }
    }

    @Test func aLogStoredWithTextMetadataReadsAndEqualsTheTypedOne() throws {
        let typed = TemperatureLog(
            format: "cupltag", samples: [], interval: 600, timeBase: .loggerHeader,
            integrity: .init(status: .unverified, detail: .noCheck(format: "cupltag")),
            readTime: Date(timeIntervalSince1970: 0),
            metadata: ["loopCount": .integer(3), "batteryMillivolts": .number(3000.5), "ringWrapped": .flag(false)])
        let again = try JSONDecoder().decode(TemperatureLog.self, from: JSONEncoder().encode(typed))
        #expect(again.metadata["batteryMillivolts"]?.number == 3000.5)
        var object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(typed)) as? [String: Any])
        object["metadata"] = ["loopCount": "3", "batteryMillivolts": "3000.5", "ringWrapped": "false"]
        let old = try JSONDecoder().decode(TemperatureLog.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.metadata["loopCount"] == .text("3"))
        #expect(old.metadata["batteryMillivolts"]?.number == 3000.5)
        #expect(old == typed)
    }
}
