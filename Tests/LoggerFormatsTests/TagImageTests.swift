import Foundation
import NDEF
import NFCTags
import NFCTagsEmulation
import Testing

@testable import LoggerFormats

/// End to end: logger message → tag image on a virtual tag → NFCTags read → NDEF → log.
@Suite struct TagImageTests {
    static let read = Date(timeIntervalSince1970: 1_787_032_800)  // 2026-08-18T06:00:00Z

    static func readBack(_ message: NDEFMessage, chip: TagChip, uid: Data? = nil) async throws -> (NDEFMessage, TagReadResult, Data) {
        let tag = try VirtualTag.make(chip: chip, ndefMessage: message.serialized(), uid: uid)
        let result = try await TagReader.read(from: tag)
        let parsed = try #require(result.ndefMessage)
        return (parsed, result, await tag.memory)
    }

    @Test(arguments: LoggerImageFactory.kinds)
    func everyKindFitsItsChip(kind: String) async throws {
        let chip = try #require(LoggerImageFactory.chipName(kind: kind).flatMap(TagChip.init(rawValue:)))
        let counts = ["cupltag": 200, "cupltag-rh": 200, "generic16": 200, "generic16-unix": 120, "dtn1": 4092]
        let temperatures = LoggerImageFactory.demoTemperatures(count: counts[kind] ?? 0, excursionStart: 50, excursionLength: 8)
        let message = try LoggerImageFactory.message(
            kind: kind, temperatures: temperatures, interval: 600,
            newestSampleTime: Self.read, readTime: Self.read)
        let (parsed, _, _) = try await Self.readBack(message, chip: chip)
        let log = try LoggerDecoder.decode(parsed, options: DecodeOptions(readTime: Self.read))
        // T+RH keeps at most 188 pairs; 200 T-only readings are 100 pairs and all fit.
        #expect(log.samples.count == (kind == "cupltag-rh" ? 188 : temperatures.count))
        #expect(log.samples.last?.time == Self.read)
        #expect((log.samples.compactMap(\.temperature).max() ?? 0) > 11)
    }

    /// docs/formats/cupltag.md §1 worked example: the first 8 pages of the NT3H2111.
    @Test func cupltagWorkedExampleTagMemory() async throws {
        let message = try CuplExample.encoder.message(pairs: CuplExample.pairs, minutesElapsed: 4)
        let uid = Data([0x04, 0xB2, 0xD7, 0x87, 0xF1, 0x7E, 0xEB])
        let (parsed, result, memory) = try await Self.readBack(message, chip: .nt3h2111, uid: uid)
        let pages = Array(memory.prefix(32))
        #expect(Array(pages[0..<8]) == [0x04, 0xB2, 0xD7, 0xE9, 0x87, 0xF1, 0x7E, 0xEB])
        #expect(pages[8] == 0xE3)
        #expect(Array(pages[10..<12]) == [0x00, 0x00])
        #expect(Array(pages[12..<16]) == [0xE1, 0x10, 0x6D, 0x00])
        #expect(
            Array(pages[16..<32]) == [
                0x03, 0xFF, 0x03, 0x4C, 0xC1, 0x01, 0x00, 0x00,
                0x03, 0x45, 0x55, 0x04, 0x74, 0x2E, 0x70, 0x6C,
            ])
        var options = CuplExample.options()
        options.tagUID = result.uid.map { $0.map { String(format: "%02X", $0) }.joined() }
        let log = try LoggerDecoder.decode(parsed, options: options)
        #expect(log.logger.tagUID == "04B2D787F17EEB")
        #expect(log.integrity == .init(status: .verified, detail: .verified(method: "HMAC-MD5")))
        #expect(log.samples.last?.temperature == 17.564697265625)
        #expect(log.samples.last?.humidity == 47.5341796875)
        #expect(log.samples.first?.time == CuplExample.scan.addingTimeInterval(-52 * 60))
    }

    @Test func cupltagTemperatureOnlyWrappedOnNT3H2111() async throws {
        // 500 readings = 250 pairs: wrapped once (loop 1), 187 or 188 valid pairs.
        let temperatures = (0..<500).map { 2.0 + Double($0 % 60) * 0.1 }
        let message = try LoggerImageFactory.message(
            kind: "cupltag", temperatures: temperatures, interval: 300,
            newestSampleTime: Self.read.addingTimeInterval(-60), readTime: Self.read)
        let (parsed, _, _) = try await Self.readBack(message, chip: .nt3h2111)
        let log = try LoggerDecoder.decode(parsed, options: DecodeOptions(readTime: Self.read))
        #expect(log.integrity.status == .verified)
        #expect(log.metadata["loopCount"] == "1")
        #expect(log.metadata["pairCount"] == "188")
        #expect(log.samples.count == 376)
        let expected = temperatures.suffix(376).map { Double(CuplTagEncoder.rawTemperature($0) * 165) / 4096 - 40 }
        #expect(log.samples.map { $0.temperature ?? .nan } == expected)
        #expect(log.samples.last?.time == Self.read.addingTimeInterval(-60))
        #expect(log.samples.first?.time == Self.read.addingTimeInterval(-60 - 375 * 300))
    }

    @Test func generic16OnNTAG213() async throws {
        let message = NDEFMessage(records: [
            TextRecord(text: "start=2026-08-18T05:57:00Z").record,
            NDEFRecord(tnf: .media, type: "application/vnd.acme.temp", payload: Data(G16.workedPayload)),
        ])
        let (parsed, result, _) = try await Self.readBack(message, chip: .ntag213)
        #expect(result.chip == .ntag213)
        let log = try LoggerDecoder.decode(parsed, options: G16.options())
        #expect(log.format == "generic16")
        #expect(log.timeBase == .textRecord)
        #expect(log.samples.map(\.temperature) == [25.8, -0.2, nil, 8.0])
        #expect(log.samples.first?.time == G16.iso("2026-08-18T05:57:00Z"))
    }

    @Test func generic16UnixOnICODESLIX2() async throws {
        let start = G16.iso("2026-08-18T04:00:00Z")
        let payload = try Generic16Encoder.unixPayload(start: start, temperatures: [3.5, 4.0, 120.5, nil, 4.4], intervalSeconds: 900)
        let message = NDEFMessage(records: [URIRecord(uri: "https://vendor.example/t").record, Generic16Encoder.record(payload: payload)])
        let (parsed, result, _) = try await Self.readBack(message, chip: .icodeSLIX2)
        #expect(result.technology == .iso15693)
        let log = try LoggerDecoder.decode(parsed, options: G16.options())
        #expect(log.format == "generic16-unix")
        #expect(log.timeBase == .loggerHeader)
        #expect(log.samples.map(\.temperature) == [3.5, 4.0, 120.5, nil, 4.4])
        #expect(log.samples.map(\.flags) == [[], [], [.outOfRange], [.missing], []])
        #expect(log.samples.last?.time == start.addingTimeInterval(3600))
    }

    @Test func dtn1OnST25DV64KWithWrappedLedger() async throws {
        let temperatures = (0..<4200).map { -5.0 + Double($0 % 40) * 0.5 }
        let message = try LoggerImageFactory.message(
            kind: "dtn1", temperatures: temperatures, interval: 120,
            newestSampleTime: Self.read, serial: "DTN1-0099")
        let (parsed, result, _) = try await Self.readBack(message, chip: .st25dv64k)
        #expect(result.chip == .st25dv64k)
        let log = try LoggerDecoder.decode(parsed, options: DecodeOptions(readTime: Self.read))
        #expect(log.format == "dtn1")
        #expect(log.logger.serial == "DTN1-0099")
        #expect(log.samples.count == 4092)
        #expect(log.samples.map { $0.temperature ?? .nan } == Array(temperatures.suffix(4092)))
        #expect(log.metadata["newestIndex"] == .integer(Int64((4200 - 1) % 4092)))
        #expect(log.samples.last?.time == Self.read)
        #expect(log.samples.first?.time == Self.read.addingTimeInterval(-4091 * 120))
    }
}
