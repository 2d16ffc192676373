import Foundation
import LoggerFormats
import NDEF
import NFCTags
import NFCTagsEmulation
import Testing

@testable import ColdTapCommands

/// `coldtap decode` on tag memory images generated on the virtual tags.
@Suite struct DecodeDumpTests {
    static let read = Date(timeIntervalSince1970: 1_787_032_800)  // 2026-08-18T06:00:00Z

    static func image(kind: String, chip: TagChip, uid: Data? = nil) async throws -> MemoryDump {
        let message = try LoggerImageFactory.message(
            kind: kind, temperatures: [4.0, 5.0, 12.0, 6.0], humidities: [50, 51, 52, 53],
            interval: 600, newestSampleTime: read.addingTimeInterval(-300),
            readTime: read, secret: DecodeFixtures.key)
        let tag = try VirtualTag.make(chip: chip, ndefMessage: message.serialized(), uid: uid)
        return try await TagReader.dump(tag)
    }

    @Test(arguments: [
        ("cupltag", TagChip.nt3h2111, "tag2"), ("cupltag-rh", .nt3h2111, "tag2"), ("generic16", .ntag215, "tag2"),
        ("generic16-unix", .icodeSLIX2, "tag5"), ("dtn1", .st25dv64k, "tag5"),
    ])
    func rawDumpDecodesWithFileTimeAsReadTime(kind: String, chip: TagChip, input: String) async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let dump = try await Self.image(kind: kind, chip: chip)
        let path = try files.write("\(kind).bin", dump.memory)
        try FileManager.default.setAttributes([.modificationDate: Self.read], ofItemAtPath: path)
        let result = await runColdTap(["decode", path, "--secret", DecodeFixtures.key, "--json"])
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(object["format"] as? String == (kind.hasPrefix("cupltag") ? "cupltag" : kind))
        #expect(object["readTime"] as? String == "2026-08-18T06:00:00Z")
        #expect(object["readTimeSource"] as? String == "file modification time")
        let samples = try #require(object["samples"] as? [[String: Any]])
        #expect(samples.count == 4)
        let temperatures = samples.compactMap { $0["temperature"] as? Double }
        #expect(abs((temperatures.max() ?? 0) - 12.0) < 0.05)
        #expect((samples[0]["humidity"] != nil) == (kind == "cupltag-rh"))
        let logger = try #require(object["logger"] as? [String: Any])
        // A raw Type 2 dump holds the UID in pages 0–1; a raw Type 5 dump does not hold it.
        #expect((logger["tagUID"] as? String)?.count == (input == "tag2" ? 14 : nil))
        if kind.hasPrefix("cupltag") {
            #expect((object["integrity"] as? [String: Any])?["status"] as? String == "verified")
            #expect(samples.last?["time"] as? String == "2026-08-18T05:55:00Z")
        }

        let text = await runColdTap(["decode", path, "--secret", DecodeFixtures.key])
        #expect(text.out.contains("Input:       a Type \(input == "tag2" ? "2" : "5") tag memory dump"))
        // A Type 2 dump is identified from its size; a bare Type 5 block dump cannot be.
        #expect(text.out.contains(input == "tag2" ? "(\(chip.displayName), UID 04" : "(Type 5 tag (unidentified))"))
        let forced = await runColdTap(["decode", path, "--input", input, "--read-time", "2026-08-18T07:00:00Z"])
        #expect(forced.status == 0, "\(forced.err)")
        #expect(forced.out.contains("Read time:   2026-08-18T07:00:00Z (given with --read-time)"))
    }

    @Test(arguments: LoggerImageFactory.kinds)
    func ndefMessageFileDecodes(kind: String) async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let message = try LoggerImageFactory.message(
            kind: kind, temperatures: [4.0, -60.0, 6.5], humidities: [30, 31, 32], interval: 1200,
            newestSampleTime: Self.read, readTime: Self.read)
        let path = try files.write("\(kind).ndef", message.serialized())
        let result = await runColdTap(["decode", path, "--read-time", "2026-08-18T06:00:00Z", "--csv"])
        #expect(result.status == 0, "\(result.err)")
        let rows = result.out.split(separator: "\r\n").map(String.init).filter { !$0.hasPrefix("#") }
        #expect(rows.count == 4)
        #expect(rows[3].hasPrefix("2026-08-18T06:00:00Z,"))
        #expect(rows[1].hasPrefix("2026-08-18T05:20:00Z,"))
        switch kind {
        case "generic16", "generic16-unix":
            #expect(rows[1...] == ["2026-08-18T05:20:00Z,4.0,,", "2026-08-18T05:40:00Z,-60.0,,out-of-range", "2026-08-18T06:00:00Z,6.5,,"])
        case "dtn1":
            // −60 °C is below the encoding's −41 °C floor: stored as −41, flagged below the sensor's −40.
            #expect(rows[1...] == ["2026-08-18T05:20:00Z,4.0,,", "2026-08-18T05:40:00Z,-41.0,,out-of-range", "2026-08-18T06:00:00Z,6.5,,"])
        default:
            // HDC2021 codes: 4 °C → raw 1092 → 3.9892578125; −60 °C clamps to raw 0 → −40. The CSV
            // rounds to the sensor's step (0.04 °C: two decimals; humidity to tenths).
            #expect(rows[2].hasPrefix("2026-08-18T05:40:00Z,-40.00,"))
            #expect(rows[1].hasPrefix("2026-08-18T05:20:00Z,3.99,"))
            #expect(rows[1].hasSuffix(kind == "cupltag-rh" ? ",30.0," : ",,"))
        }
    }

    @Test func flipperFileDecodes() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let dump = try await Self.image(kind: "cupltag-rh", chip: .nt3h2111)
        let path = try files.write("tag.nfc", Data(dump.flipperText().utf8))
        let result = await runColdTap(["decode", path, "--secret", DecodeFixtures.key, "--read-time", "2026-08-18T06:00:00Z"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("Input:       a Flipper Zero .nfc file"))
        #expect(result.out.contains("Integrity:   verified (HMAC-MD5)"))
        #expect(result.out.contains("Last:        2026-08-18T05:55:00Z"))
    }

    @Test func forcedFlipperOnOtherContentExits65() async throws {
        let result = await runColdTap(["decode", "-", "--input", "flipper"], stdin: Data("Page 0: 04 00".utf8))
        #expect(result.status == 65)
        #expect(result.err.contains("is not a Flipper .nfc file"))
    }

    @Test func hexTextOfADumpDecodes() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let dump = try await Self.image(kind: "generic16", chip: .ntag213)
        let hex = stride(from: 0, to: dump.memory.count, by: 4).map { start in
            dump.memory[(dump.memory.startIndex + start)..<(dump.memory.startIndex + min(start + 4, dump.memory.count))]
                .map { String(format: "%02x", $0) }.joined(separator: " ")
        }.joined(separator: "\n")
        let path = try files.write("tag.hex", Data(hex.utf8))
        let result = await runColdTap(["decode", path, "--csv", "--read-time", "2026-08-18T06:00:00Z"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("time (UTC),temperature_c,humidity_pct,flags\r\n2026-08-18T05:25:00Z,4.0,,\r\n"))
        let text = await runColdTap(["decode", path])
        #expect(
            text.out.contains(
                "Input:       hex text (\(dump.memory.count) bytes) holding a Type 2 tag memory dump (\(dump.memory.count) bytes, \(dump.memory.count / 4) pages)"
            ))
        #expect(text.out.contains("(file modification time)"))
    }

    @Test func corruptDumpExits65() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        var memory = try await Self.image(kind: "generic16", chip: .ntag213).memory
        // NDEF TLV length far past the data area.
        memory[memory.startIndex + 17] = 0xF0
        let path = try files.write("bad.bin", memory)
        let result = await runColdTap(["decode", path, "--input", "tag2"])
        #expect(result.status == 65)
        #expect(result.err.hasPrefix("coldtap decode: "))
        #expect(result.err.split(separator: "\n").count == 1)
    }
}
