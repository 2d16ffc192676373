import Foundation
import LoggerFormats
import NDEF
import NFCTags
import Testing

@testable import ColdTapCommands

/// `coldtap decode` of SmarTag images (docs/smartag.md): raw dumps, bare NDEF messages
/// with the SmarTag2 firmware's cleared message-begin bit, `--logger-tz`.
@Suite struct SmarTagCommandTests {
    static let start: UInt32 = 1_709_294_400  // 2024-03-01T12:00:00Z

    static func smarTag2Memory(records: Int = 30) -> [UInt8] {
        typealias Encoder = SmarTagEncoder.SmarTag2
        let sensors: [Encoder.Sensor] = [Encoder.Sensor(id: 0, mode: 3, threshold1: 0), Encoder.Sensor(id: 1, mode: 3, threshold1: 0)]
        var readings: [Encoder.Reading] = []
        for index in 1...records {
            let seconds = UInt32(index) * 60
            readings.append(Encoder.Reading(id: 0, seconds: seconds, value: Double(index % 9) - 4.5))
            readings.append(Encoder.Reading(id: 1, seconds: seconds, value: 1000 + Double(index)))
        }
        return Encoder(sampleTime: 60, start: start, sensors: sensors).memory(after: readings)
    }

    @Test func rawSmarTag2DumpDecodesPastItsNDEFLengths() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("smartag2.bin", Data(Self.smarTag2Memory()))
        let result = await runColdTap(["decode", path, "--json", "--read-time", "2024-03-02T00:00:00Z"])
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "smartag2")
        #expect((object["samples"] as? [Any])?.count == 30)
        let series = try #require(object["series"] as? [[String: Any]])
        #expect(series.first?["name"] as? String == "pressure")
        #expect((series.first?["points"] as? [Any])?.count == 30)
        #expect((object["detection"] as? String)?.contains("message-begin bit cleared") == true)
    }

    @Test func bareSmarTag2MessageDecodesButOtherMessagesWithMessageBeginClearedAreStillRefused() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let memory = Self.smarTag2Memory(records: 3)
        let tlvLength = Int(memory[10]) << 8 | Int(memory[11])
        let path = try files.write("smartag2.ndef", Data(memory[12..<12 + tlvLength]))
        let result = await runColdTap(["decode", path, "--json", "--read-time", "2024-03-02T00:00:00Z"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("\"format\": \"smartag2\"") || result.out.contains("\"format\":\"smartag2\""))
        // The same cleared bit on any other record is still a malformed message.
        var other = try NDEFMessage(records: [ExternalRecord(type: "example.com:temp", payload: Data([1, 2, 3])).record]).serialized()
        other[0] &= 0x7F
        let otherPath = try files.write("other.ndef", other)
        let refused = await runColdTap(["decode", otherPath, "--input", "ndef"])
        #expect(refused.status == 65)
        #expect(refused.err.contains("not a valid NDEF message"))
    }

    @Test func loggerTimeZoneMovesSmarTag1Dates() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let start = Date(timeIntervalSince1970: TimeInterval(Self.start))
        let memory = SmarTagEncoder.SmarTag1(interval: 60, start: start)
            .memory(after: [.reading(time: start.addingTimeInterval(60), temperature: 5)])
        let path = try files.write("smartag1.bin", Data(memory))
        let utc = await runColdTap(["decode", path, "--json", "--read-time", "2024-03-02T00:00:00Z"])
        #expect(utc.status == 0, "\(utc.err)")
        #expect(utc.out.contains("2024-03-01T12:01:00Z"))
        #expect(utc.out.contains("taken as UTC"))
        let zoned = await runColdTap(["decode", path, "--json", "--read-time", "2024-03-02T00:00:00Z", "--logger-tz", "+02:00"])
        #expect(zoned.status == 0, "\(zoned.err)")
        #expect(zoned.out.contains("2024-03-01T10:01:00Z"))
        let bad = await runColdTap(["decode", path, "--logger-tz", "Mars/Olympus"])
        #expect(bad.status == 64)
        #expect(bad.err.contains("--logger-tz 'Mars/Olympus' is not a time zone"))
    }

    /// The report shows the pressure series and its extremes (docs/smartag.md §7).
    @Test func reportListsThePressureSeries() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("smartag2.bin", Data(Self.smarTag2Memory()))
        let out = files.directory.appendingPathComponent("report.html").path
        let result = await runColdTap(["report", path, "--read-time", "2024-03-02T00:00:00Z", "-o", out, "--tz", "UTC"])
        #expect(FileManager.default.fileExists(atPath: out), "\(result.err)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(html.contains("Other measurements"))
        #expect(html.contains("pressure (hPa)"))
        #expect(html.contains("1001.0 hPa"))
        #expect(html.contains("1030.0 hPa"))
    }

    /// A threshold-mode log says what the time without records holds, in JSON and in words.
    @Test func thresholdModeIsShown() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let encoder = SmarTagEncoder.SmarTag2(sampleTime: 300, start: Self.start, sensors: [.temperature(mode: 0, 2.0, 8.0)])
        let memory = encoder.memory(after: [.init(seconds: 300, value: 5), .init(seconds: 600, value: 9)])
        let path = try files.write("threshold.bin", Data(memory))
        let json = await runColdTap(["decode", path, "--json", "--read-time", "2024-03-01T13:00:00Z"])
        #expect(json.status == 0, "\(json.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let thresholds = try #require(object["thresholdLogging"] as? [String: Any])
        #expect(thresholds["lowest"] as? Double == 2.2)
        #expect(thresholds["highest"] as? Double == 8.0)
        #expect(thresholds["coverageEnd"] as? String == "2024-03-01T13:00:00Z")
        let text = await runColdTap(["decode", path, "--read-time", "2024-03-01T13:00:00Z"])
        #expect(text.out.contains("Threshold mode: the logger stores only readings ≤ 2.0 °C or ≥ 8.0 °C; what it did not store lay within 2.2…8.0 °C"))
    }

    @Test func damagedSmarTagDumpNamesTheAddress() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        var memory = Self.smarTag2Memory(records: 3)
        memory[0x31] = 0  // no virtual sensor
        let path = try files.write("bad.bin", Data(memory))
        let result = await runColdTap(["decode", path])
        #expect(result.status == 65)
        #expect(result.err.contains("offset 49"))
    }
}
