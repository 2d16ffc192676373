import ColdTapKit
import Foundation
import LoggerFormats
import NDEF
import Testing

@testable import ColdTapCommands

/// Files in a fresh temporary directory, removed by `cleanUp()`.
final class TemporaryFiles: @unchecked Sendable {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-decode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ data: Data) throws -> String {
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}

func runColdTap(_ arguments: [String], stdin: Data = Data()) async -> (status: Int32, out: String, err: String) {
    let console = Console.capturing(stdin: stdin)
    let status = await ColdTap.main(arguments, console: console)
    return (status, console.output, console.errorOutput)
}

enum DecodeFixtures {
    static let key = "ZS0Smt8LByrYNFts"
    /// docs/formats/cupltag.md §7 worked example URL (T+RH, HMAC-MD5).
    static func cuplURL() throws -> String {
        let pairs = [(1433, 1942), (1432, 1953), (1432, 1959), (1426, 1948), (1429, 1947)].map { CuplTagEncoder.Pair(rd0: $0.0, rd1: $0.1) }
        let encoder = CuplTagEncoder(
            variant: .temperatureHumidity, serial: "AAAACCCC", intervalMinutes: 12, resetsAllTime: 1,
            resetCause: 0x08, batteryRaw: 102, secret: key)
        return try encoder.url(pairs: pairs, minutesElapsed: 4)
    }

    /// docs/formats/generic16.md worked example as an NDEF message.
    static let generic16Message = NDEFMessage(records: [
        NDEFRecord(
            tnf: .media, type: "application/vnd.acme.temp",
            payload: Data([0x3C, 0x00, 0x02, 0x01, 0xFE, 0xFF, 0x00, 0x80, 0x50, 0x00]))
    ])
}

@Suite struct DecodeCommandTests {
    @Test func bareURLToJSONMatchesTheIssueShape() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("tag.url", Data((try DecodeFixtures.cuplURL() + "\n").utf8))
        let result = await runColdTap(["decode", path, "--read-time", "2024-04-09T08:35:00Z", "--secret", DecodeFixtures.key, "--json"])
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "cupltag")
        #expect(object["readTime"] as? String == "2024-04-09T08:35:00Z")
        #expect(object["timeBase"] as? String == "read-time")
        #expect(object["interval"] as? Int == 720)
        let integrity = try #require(object["integrity"] as? [String: Any])
        #expect(integrity["status"] as? String == "verified")
        #expect(integrity["detail"] as? String == "HMAC-MD5")
        let samples = try #require(object["samples"] as? [[String: Any]])
        #expect(samples.count == 5)
        #expect(samples.last?["time"] as? String == "2024-04-09T08:31:00Z")
        #expect(samples.first?["time"] as? String == "2024-04-09T07:43:00Z")
        #expect((object["warnings"] as? [Any])?.isEmpty == true)
        // Full precision and key order as in the issue.
        #expect(
            result.out.contains(
                """
                {
                      "time": "2024-04-09T08:31:00Z",
                      "temperature": 17.564697265625,
                      "humidity": 47.5341796875,
                      "flags": []
                    }
                """))
        let keys = ["\"format\"", "\"logger\"", "\"readTime\"", "\"timeBase\"", "\"integrity\"", "\"interval\"", "\"samples\"", "\"warnings\""]
        let positions = keys.compactMap { result.out.range(of: $0)?.lowerBound }
        #expect(positions.count == keys.count && positions == positions.sorted())
    }

    @Test func bareURLFromStandardInputWithoutSecretFailsIntegrity() async throws {
        let result = await runColdTap(["decode", "-", "--read-time", "2024-04-09T08:35:00Z"], stdin: Data(try DecodeFixtures.cuplURL().utf8))
        #expect(result.status == 0)
        #expect(result.out.contains("Integrity:   failed (MD5 mismatch"))
        #expect(result.out.contains("Input:       a bare URL (text starting with https://)"))
        #expect(result.out.contains("Samples:     5"))
    }

    @Test func ndefFileToCSV() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("log.ndef", DecodeFixtures.generic16Message.serialized())
        let result = await runColdTap(["decode", path, "--read-time", "2026-08-18T06:00:00Z", "--csv"])
        #expect(result.status == 0)
        #expect(
            result.out == "time (UTC),temperature_c,humidity_pct,flags\r\n2026-08-18T05:57:00Z,25.8,,\r\n2026-08-18T05:58:00Z,-0.2,,\r\n"
                + "2026-08-18T05:59:00Z,,,missing\r\n2026-08-18T06:00:00Z,8.0,,\r\n")
    }

    @Test func csvQuotesAndJoinsFlags() {
        #expect(LogExport.csvField("a,b") == "\"a,b\"")
        #expect(LogExport.csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
        let log = TemperatureLog(
            format: "x",
            samples: [
                .init(
                    time: Date(timeIntervalSince1970: 0), temperature: 120, humidity: 40.5,
                    flags: [.outOfRange, .missing])
            ],
            interval: 60, timeBase: .readTime, integrity: .init(status: .unverified, detail: ""), readTime: Date())
        #expect(LogExport.csv(log).hasSuffix("1970-01-01T00:00:00Z,120.00,40.5,out-of-range;missing\r\n"))
    }

    @Test func hexFileTextSummarySaysWhatItTookAndWhichReadTime() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let hex = DecodeFixtures.generic16Message.serialized().map { String(format: "%02X", $0) }.joined(separator: " ")
        let path = try files.write("log.hex", Data(hex.utf8))
        let result = await runColdTap(["decode", path])
        #expect(result.status == 0)
        #expect(result.out.contains("Input:       hex text (38 bytes) holding an NDEF message (1 record(s), 38 bytes)"))
        #expect(result.out.contains("(not known: the time of decoding stands in; every sample time is estimated from it)"))
        #expect(result.out.contains("Format:      generic16 (auto-detected generic16"))
        #expect(result.out.contains("Samples:     4 (1 flagged)"))
        #expect(result.out.contains("Temperature: min -0.2 °C at"))
        let given = await runColdTap(["decode", path, "--read-time", "2026-08-18T06:00:00Z"])
        #expect(given.out.contains("Read time:   2026-08-18T06:00:00Z (given with --read-time)"))
        #expect(given.out.contains("First:       2026-08-18T05:57:00Z"))
        #expect(given.out.contains("Last:        2026-08-18T06:00:00Z"))
    }

    @Test func malformedCuplTagExits65WithOneLine() async throws {
        let url = try DecodeFixtures.cuplURL().replacingOccurrences(of: "&x=AAABAAhm", with: "&x=AA*BAAhm")
        let result = await runColdTap(["decode", "-", "--input", "url"], stdin: Data(url.utf8))
        #expect(result.status == 65)
        #expect(result.err == "coldtap decode: cupltag: x at offset 2: the status is not valid URL-safe base64: '*' is not a URL-safe base64 character.\n")
    }

    @Test func noMatchingFormatExits65ListingEveryFormat() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("text.ndef", NDEFMessage(records: [TextRecord(text: "hello").record]).serialized())
        let result = await runColdTap(["decode", path])
        #expect(result.status == 65)
        for name in ["cupltag:", "dtn1:", "generic16-unix:", "generic16:"] { #expect(result.err.contains(name)) }
    }

    @Test func loggerOptionTakesANameOrADescriptorFile() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("log.ndef", DecodeFixtures.generic16Message.serialized())
        let forced = await runColdTap(["decode", path, "--logger", "generic16-unix", "--json", "--read-time", "2026-08-18T06:00:00Z"])
        #expect(forced.status == 0)
        #expect(forced.out.contains("\"format\": \"generic16-unix\""))
        #expect(forced.out.contains("forced with --logger generic16-unix"))

        let descriptor = """
            { "name": "my-logger", "record": { "match": [ { "tnf": "media", "typeContains": "temp" } ] },
              "header": [ { "name": "interval", "offset": 0, "width": 2, "endian": "little", "meaning": "interval" } ],
              "samples": { "offset": 2, "width": 2, "signed": true, "endian": "little", "scale": 0.01 },
              "timeBase": ["read-time"] }
            """
        let descriptorPath = try files.write("my.json", Data(descriptor.utf8))
        let custom = await runColdTap(["decode", path, "--logger", descriptorPath, "--csv", "--read-time", "2026-08-18T06:00:00Z"])
        #expect(custom.status == 0, "\(custom.err)")
        #expect(custom.out.contains("2026-08-18T05:57:00Z,2.58,,\r\n"))

        let bad = try files.write("bad.json", Data(descriptor.replacingOccurrences(of: "\"width\": 2, \"signed\"", with: "\"width\": 7, \"signed\"").utf8))
        let refused = await runColdTap(["decode", path, "--logger", bad])
        #expect(refused.status == 65)
        #expect(refused.err.contains("field 'samples.width' must be 1, 2, 3 or 4 bytes"))

        let unknown = await runColdTap(["decode", path, "--logger", "acme"])
        #expect(unknown.status == 64)
    }

    @Test func intervalOptionFillsAZeroInterval() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let message = NDEFMessage(records: [NDEFRecord(tnf: .media, type: "application/vnd.acme.temp", payload: Data([0, 0, 0x32, 0]))])
        let path = try files.write("zero.ndef", message.serialized())
        let missing = await runColdTap(["decode", path])
        #expect(missing.status == 65)
        #expect(missing.err.contains("give it with --interval SECONDS"))
        let given = await runColdTap(["decode", path, "--interval", "30", "--json"])
        #expect(given.status == 0)
        #expect(given.out.contains("\"interval\": 30"))
    }

    @Test func usageErrors() async throws {
        #expect(await runColdTap(["decode"]).status == 64)
        #expect(await runColdTap(["decode", "x", "--json", "--csv"]).status == 64)
        #expect(await runColdTap(["decode", "x", "--read-time", "yesterday"]).status == 64)
        #expect(await runColdTap(["decode", "x", "--input", "floppy"]).status == 64)
        #expect(await runColdTap(["decode", "x", "--interval", "-5"]).status == 64)
        let missing = await runColdTap(["decode", "/nonexistent/coldtap/file"])
        #expect(missing.status == 1)
    }

    @Test func notAnNDEFMessageExits65() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("junk.bin", Data([0xD1, 0x01, 0x40, 0x54, 0x00]))
        let result = await runColdTap(["decode", path, "--input", "ndef"])
        #expect(result.status == 65)
        #expect(result.err.contains("is not a valid NDEF message: offset"))
    }
}

@Test func aCuplTagURLGivenInPlaceOfFileIsDecoded() async throws {
    // The docs/formats/cupltag.md §7 worked example, its buffer filled with the encoder's blank filler.
    let q = "WXmWWXqBWXqHWXksWXlbAAAA1hdJpWG8CgAFBAA~" + String(repeating: "MDAw", count: 182)
    let url = "https://t.plotsensor.com/?t=DAA.&s=AAAAAAAA&v=000000000000AAIB&x=AAABAAhm&q=" + q
    let console = Console.capturing()
    let status = await ColdTap.main(
        [
            "decode", url, "--read-time", "2024-04-09T08:35:00Z",
            "--secret", "ZS0Smt8LByrYNFts", "--csv",
        ], console: console)
    #expect(status == 0, "\(console.errorOutput)")
    let lines = console.output.split(whereSeparator: \.isNewline)
    #expect(lines.count == 6)
    #expect(lines.first == "time (UTC),temperature_c,humidity_pct,flags")
    // Rounded as the sensor resolves (the exact values are in the JSON).
    #expect(lines.last == "2024-04-09T08:31:00Z,17.56,47.5,")
}
