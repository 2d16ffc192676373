import Foundation
import LoggerFormats
import NDEF
import Testing

@testable import ColdTapCommands

/// Issue 17.6 (no verdict from garbage) and 17.7 (descriptors as strict as profiles), as a
/// user meets them on the command line.
@Suite struct GarbageInputTests {
    static let readTime = "2026-08-18T06:00:00Z"

    static func message(type: String, payload: [UInt8]) throws -> Data {
        try NDEFMessage(records: [NDEFRecord(tnf: .media, type: type, payload: Data(payload))]).serialized()
    }

    /// Little-endian 16-bit values.
    static func le16(_ values: [Int]) -> [UInt8] {
        values.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    }

    @Test func garbageInATempRecordIsRefusedWithReasonsAndTheLoggerHint() async throws {
        // Bytes of no logger in a record whose type happens to contain "temp".
        let garbage = (0..<64).map { UInt8(($0 * 37 + 11) & 0xFF) }
        let input = try Self.message(type: "application/x-contemporary-art", payload: garbage)
        for command in ["decode", "report"] {
            let result = await runColdTap([command, "-", "--read-time", Self.readTime], stdin: input)
            #expect(result.status == 65)
            #expect(result.out.isEmpty)
            #expect(result.err.contains("no known logger format matches this message"))
            #expect(
                result.err.contains(
                    "generic16: a 'application/x-contemporary-art' record of 64 bytes matches the generic16 layout, but decoded that way 30 of its 31 samples are outside the sensor range"
                ))
            #expect(result.err.contains("Force one with --logger NAME"))
        }
    }

    @Test func anIntervalOutsideOneSecondToOneDayIsRefusedByAutoDetection() async throws {
        // A DTN1 log whose device information says two days between samples.
        let message = NDEFMessage(records: [
            TextRecord(text: "SERIAL=D0001\nINTERVAL=172800\nSTART=2026-08-10T06:00:00Z", language: "en").record,
            NDEFRecord(tnf: .media, type: "application/octet-stream", payload: Data([0, 3, 0, 2, 0xF0, 0xF2, 0xF4])),
        ])
        let auto = await runColdTap(["decode", "-", "--read-time", Self.readTime], stdin: message.serialized())
        #expect(auto.status == 65)
        #expect(auto.err.contains("but decoded that way its interval of 172800 s is outside 1 s … 1 day"))
        let forced = await runColdTap(["decode", "-", "--read-time", Self.readTime, "--logger", "dtn1"], stdin: message.serialized())
        #expect(forced.status == 0, "\(forced.err)")
    }

    @Test func aLogMostlyOutOfRangeIsInconclusiveNeverAlarm() async throws {
        // 12 h at 90 °C (would fire "> 8 °C for 10 h") among 13 readings no sensor gives.
        let payload = Self.le16([3600] + Array(repeating: 900, count: 12) + Array(repeating: 0x7000, count: 13))
        let input = try Self.message(type: "application/vnd.acme.temp", payload: payload)
        let refused = await runColdTap(["report", "-", "--read-time", Self.readTime], stdin: input)
        #expect(refused.status == 65, "auto-detection refuses it")
        let result = await runColdTap(
            ["report", "-", "--read-time", Self.readTime, "--logger", "generic16", "--tz", "UTC"],
            stdin: input)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("INCONCLUSIVE — 1 excursion not yet acknowledged  vaccine-fridge"))
        #expect(
            result.out.contains(
                "  • 13 of 25 samples are outside the sensor's range, so the log is not a record to judge (are these bytes really this logger's?)."))
        let json = await runColdTap(["report", "-", "--read-time", Self.readTime, "--logger", "generic16", "--json"], stdin: input)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(object["verdict"] as? String == "INCONCLUSIVE")
        for language in ["zh-Hans", "ja"] {
            let files = try TemporaryFiles()
            defer { files.cleanUp() }
            let localized = await runColdTap(
                [
                    "report", "-", "--read-time", Self.readTime, "--logger", "generic16", "--lang", language,
                    "--html", "--out", files.directory.path,
                ], stdin: input)
            #expect(localized.status == 0, "\(localized.err)")
            let names = try FileManager.default.contentsOfDirectory(atPath: files.directory.path)
            let html = try String(contentsOfFile: files.directory.appendingPathComponent(try #require(names.first)).path, encoding: .utf8)
            #expect(html.contains(language == "ja" ? "25 件中 13 件のサンプルがセンサーの測定範囲外" : "25 个样本中有 13 个超出传感器量程"))
        }
    }

    // MARK: 17.7

    static let descriptor = """
        { "name": "my-logger", "record": { "match": [ { "tnf": "media", "typeContains": "temp" } ] },
          "header": [ { "name": "interval", "offset": 0, "width": 2, "endian": "little", "meaning": "interval" } ],
          "samples": { "offset": 2, "width": 2, "signed": true, "endian": "little", "scale": 0.01 },
          "timeBase": ["read-time"] }
        """

    func decodeWith(descriptor: String, payload: [UInt8]) async throws -> (status: Int32, out: String, err: String) {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("my.json", Data(descriptor.utf8))
        return await runColdTap(
            ["decode", "-", "--logger", path, "--read-time", Self.readTime],
            stdin: try Self.message(type: "application/vnd.acme.temp", payload: payload))
    }

    @Test func anUnknownDescriptorKeyIsRefusedNamingItAndTheAllowedOnes() async throws {
        let misspelt = Self.descriptor.replacingOccurrences(of: "\"scale\"", with: "\"scael\"")
        let result = try await decodeWith(descriptor: misspelt, payload: Self.le16([60, 500]))
        #expect(result.status == 65)
        #expect(
            result.err
                == "coldtap decode: logger descriptor my.json: field 'samples.scael' is unknown; 'samples' takes endian, missing, offset, scale, signed, valueOffset, width.\n"
        )
        let top = Self.descriptor.replacingOccurrences(of: "\"timeBase\"", with: "\"timebase\": [], \"timeBase\"")
        let topResult = try await decodeWith(descriptor: top, payload: Self.le16([60, 500]))
        #expect(topResult.status == 65)
        #expect(
            topResult.err.contains(
                "field 'timebase' is unknown; a descriptor takes description, detection, deviceInformation, header, integrityNote, model, name, record, ringBuffer, samples, sensorRange, timeBase, vendor"
            ))
        let inList = Self.descriptor.replacingOccurrences(of: "\"meaning\": \"interval\"", with: "\"meaning\": \"interval\", \"units\": {}, \"scale\": 1")
        #expect(try await decodeWith(descriptor: inList, payload: Self.le16([60, 500])).err.contains("field 'header[0].scale' is unknown"))
    }

    @Test func aSampleAreaPastThePayloadIsAnError() async throws {
        let far = Self.descriptor.replacingOccurrences(of: "\"offset\": 2, \"width\": 2, \"signed\"", with: "\"offset\": 40, \"width\": 2, \"signed\"")
        let result = try await decodeWith(descriptor: far, payload: Self.le16([60, 500, 510]))
        #expect(result.status == 65)
        #expect(result.out.isEmpty)
        #expect(result.err.contains("the sample area starts at byte 40 but the payload has only 6 byte(s)"))
    }

    @Test func aStartTimeFieldOfImpossibleWidthIsAnError() async throws {
        let narrow = Self.descriptor
            .replacingOccurrences(
                of: "\"meaning\": \"interval\" }",
                with: "\"meaning\": \"interval\" }, { \"name\": \"start\", \"offset\": 2, \"width\": 2, \"endian\": \"little\", \"meaning\": \"start-time\" }"
            )
            .replacingOccurrences(of: "\"offset\": 2, \"width\": 2, \"signed\"", with: "\"offset\": 4, \"width\": 2, \"signed\"")
            .replacingOccurrences(of: "[\"read-time\"]", with: "[\"header\", \"read-time\"]")
        let result = try await decodeWith(descriptor: narrow, payload: Self.le16([60, 1, 500]))
        #expect(result.status == 65)
        #expect(result.err.contains("field 'header[1].width' is 2 byte(s), too narrow for a start-time in UNIX seconds; use 4 or 8"))
    }

    @Test func zeroSamplesDecodedIsAnErrorNotAnEmptyLog() async throws {
        let result = try await decodeWith(descriptor: Self.descriptor, payload: Self.le16([60]))
        #expect(result.status == 65)
        #expect(result.out.isEmpty)
        #expect(result.err.contains("no sample was decoded: the sample area at byte 2 holds 0 byte(s), less than one 2-byte sample"))
        let builtIn = await runColdTap(
            ["report", "-", "--logger", "generic16", "--read-time", Self.readTime],
            stdin: try Self.message(type: "application/vnd.acme.temp", payload: Self.le16([60])))
        #expect(builtIn.status == 65)
    }
}
