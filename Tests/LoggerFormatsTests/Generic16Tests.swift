import Foundation
import NDEF
import Testing

@testable import LoggerFormats

enum G16 {
    /// 2026-08-18T06:00:00Z, the read time of docs/formats/generic16.md's worked example.
    static let read = Date(timeIntervalSince1970: 1_787_032_800)
    static let workedPayload: [UInt8] = [0x3C, 0x00, 0x02, 0x01, 0xFE, 0xFF, 0x00, 0x80, 0x50, 0x00]

    static func message(
        _ payload: [UInt8], type: String = "application/vnd.acme.temp", tnf: TypeNameFormat = .media,
        extra: [NDEFRecord] = []
    ) -> NDEFMessage {
        NDEFMessage(records: extra + [NDEFRecord(tnf: tnf, type: tnf == .unknown ? Data() : Data(type.utf8), payload: Data(payload))])
    }

    static func options(interval: TimeInterval? = nil, logger: DecodeOptions.LoggerSelection? = nil) -> DecodeOptions {
        DecodeOptions(readTime: read, readTimeSource: .given, logger: logger, interval: interval)
    }

    static func iso(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
}

@Suite struct Generic16Tests {
    /// docs/formats/generic16.md worked example.
    @Test func workedExample() throws {
        let log = try LoggerDecoder.decode(G16.message(G16.workedPayload), options: G16.options())
        #expect(log.format == "generic16")
        #expect(log.interval == 60)
        #expect(log.timeBase == .readTime)
        #expect(log.samples.map(\.time) == ["05:57", "05:58", "05:59", "06:00"].map { G16.iso("2026-08-18T\($0):00Z") })
        #expect(log.samples.map(\.temperature) == [25.8, -0.2, nil, 8.0])
        #expect(log.samples.map(\.flags) == [[], [], [.missing], []])
        #expect(log.integrity.status == .unverified)
        #expect(log.warnings.contains { $0.text.contains("estimated") })
        #expect(log.detection?.text.hasPrefix("auto-detected generic16:") == true)
    }

    @Test func outOfRangeIsFlaggedAndKeptInPlace() throws {
        // 120.0 °C, 5.0 °C, −60.0 °C, 100.0 °C (edge, in range), −50.1 °C
        let payload: [UInt8] = [0x0A, 0x00, 0xB0, 0x04, 0x32, 0x00, 0xA8, 0xFD, 0xE8, 0x03, 0x0B, 0xFE]
        // Most samples out of range: auto-detection refuses (issue 17.6), forcing the format decodes.
        #expect(throws: LoggerFormatError.self) { try LoggerDecoder.decode(G16.message(payload), options: G16.options()) }
        let log = try LoggerDecoder.decode(G16.message(payload), options: G16.options(logger: .named("generic16")))
        #expect(log.samples.count == 5)
        #expect(log.samples.map(\.temperature) == [120.0, 5.0, -60.0, 100.0, -50.1])
        #expect(log.samples.map(\.flags) == [[.outOfRange], [], [.outOfRange], [], [.outOfRange]])
        #expect(log.samples[2].time == G16.read.addingTimeInterval(-20))
        #expect(log.samples.filter(\.isValid).count == 2)
        #expect(log.warnings.contains { $0.text.contains("3 sample(s) outside the sensor range -50…100 °C") })
    }

    @Test func partialTrailingByteDecodesWholeSamplesAndWarns() throws {
        let log = try LoggerDecoder.decode(G16.message(G16.workedPayload + [0x7F]), options: G16.options())
        #expect(log.samples.count == 4)
        #expect(log.warnings.map(\.text).contains("the sample area ends with 1 byte(s) at offset 10 that do not make a whole sample; ignored"))
    }

    @Test func emptySampleAreaIsAnErrorNotAnEmptyLog() throws {
        // Issue 17.7: zero samples decoded is an error, not an empty log.
        do {
            _ = try LoggerDecoder.decode(G16.message([0x3C, 0x00]), options: G16.options(logger: .named("generic16")))
            Issue.record("an empty sample area decoded")
        } catch let error as LoggerFormatError {
            #expect(error.description.contains("no sample was decoded: the sample area at byte 2 holds 0 byte(s)"))
        }
    }

    @Test func zeroIntervalNeedsTheUsersInterval() throws {
        let payload: [UInt8] = [0x00, 0x00, 0x02, 0x01]
        #expect(throws: LoggerFormatError.self) { try LoggerDecoder.decode(G16.message(payload), options: G16.options()) }
        do {
            _ = try LoggerDecoder.decode(G16.message(payload), options: G16.options())
        } catch let error as LoggerFormatError {
            #expect(error.kind == .intervalUnknown)
            #expect(error.hint == .needsInterval)
            #expect(!error.description.contains("--"))
        }
        let log = try LoggerDecoder.decode(G16.message(payload), options: G16.options(interval: 120))
        #expect(log.interval == 120)
        #expect(log.metadata["intervalSource"]?.text == DecodeOptions.givenIntervalSource)
    }

    @Test func startFromTextRecordWithOffset() throws {
        let text = TextRecord(text: "2026-08-18T13:54:35+08:00").record
        let log = try LoggerDecoder.decode(G16.message(G16.workedPayload, extra: [text]), options: G16.options())
        #expect(log.timeBase == .textRecord)
        #expect(log.samples.first?.time == G16.iso("2026-08-18T05:54:35Z"))
        #expect(log.samples.last?.time == G16.iso("2026-08-18T05:57:35Z"))
        #expect(log.timeBaseDetail == "Text record \"2026-08-18T13:54:35+08:00\"")
        #expect(!log.warnings.contains { $0.text.contains("estimated") })
    }

    @Test func startFromTextRecordInStartEqualsForm() throws {
        let records = [URIRecord(uri: "https://vendor.example").record, TextRecord(text: "start=2026-08-18T05:00:00Z").record]
        let log = try LoggerDecoder.decode(G16.message(G16.workedPayload, extra: records), options: G16.options())
        #expect(log.timeBase == .textRecord)
        #expect(log.samples.map(\.time) == (0..<4).map { G16.iso("2026-08-18T05:00:00Z").addingTimeInterval(Double($0) * 60) })
    }

    @Test func nonTimeTextRecordIsIgnored() throws {
        let log = try LoggerDecoder.decode(
            G16.message(G16.workedPayload, extra: [TextRecord(text: "Acme fridge logger").record]),
            options: G16.options())
        #expect(log.timeBase == .readTime)
    }

    @Test func externalAndUnknownTypeRecordsAreRecognised() throws {
        let external = try LoggerDecoder.decode(G16.message(G16.workedPayload, type: "acme.com:TempLog", tnf: .external), options: G16.options())
        #expect(external.format == "generic16")
        let unknown = try LoggerDecoder.decode(G16.message(G16.workedPayload, tnf: .unknown), options: G16.options())
        #expect(unknown.samples.count == 4)
    }

    @Test func unixVariantIsDetectedAndUsesTheHeader() throws {
        let start = G16.iso("2026-08-18T05:00:00Z")
        let payload = try Generic16Encoder.unixPayload(start: start, temperatures: [4.5, nil, 5.1], intervalSeconds: 300)
        #expect(Array(payload.prefix(6)) == [0xD0, 0xE6, 0x83, 0x6A, 0x2C, 0x01])
        let log = try LoggerDecoder.decode(G16.message(payload), options: G16.options())
        #expect(log.format == "generic16-unix")
        #expect(log.timeBase == .loggerHeader)
        #expect(log.samples.map(\.time) == [0, 300, 600].map { start.addingTimeInterval($0) })
        #expect(log.samples.map(\.temperature) == [4.5, nil, 5.1])
        #expect(log.detection?.text.contains("plausible start time 2026-08-18T05:00:00Z") == true)
    }

    @Test func unixHeaderTakesPrecedenceOverTextRecord() throws {
        let start = G16.iso("2026-08-18T05:00:00Z")
        let payload = try Generic16Encoder.unixPayload(start: start, temperatures: [4.5], intervalSeconds: 300)
        let log = try LoggerDecoder.decode(
            G16.message(payload, extra: [TextRecord(text: "start=2020-01-01T00:00:00Z").record]),
            options: G16.options())
        #expect(log.timeBase == .loggerHeader)
        #expect(log.samples.first?.time == start)
    }

    @Test func implausibleStartMeansInterval_first() throws {
        // A start more than a day after the read time is not read as generic16-unix.
        let future = try Generic16Encoder.unixPayload(start: G16.read.addingTimeInterval(2 * 86_400), temperatures: [4.5], intervalSeconds: 60)
        #expect(try LoggerDecoder.decode(G16.message(future), options: G16.options()).format == "generic16")
        // Before 2010: also generic16.
        let old = try Generic16Encoder.unixPayload(start: G16.iso("2009-12-31T00:00:00Z"), temperatures: [4.5], intervalSeconds: 60)
        #expect(try LoggerDecoder.decode(G16.message(old), options: G16.options()).format == "generic16")
        // Plausible start but interval 0: generic16.
        var zeroInterval = try Generic16Encoder.unixPayload(start: G16.read, temperatures: [4.5], intervalSeconds: 60)
        zeroInterval[4] = 0
        #expect(try LoggerDecoder.decode(G16.message(zeroInterval), options: G16.options(interval: 60)).format == "generic16")
    }

    @Test func forcedLoggerOverridesDetection() throws {
        let forced = try LoggerDecoder.decode(G16.message(G16.workedPayload), options: G16.options(logger: .named("generic16-unix")))
        #expect(forced.format == "generic16-unix")
        #expect(forced.detection == .forced(format: "generic16-unix"))
        // 3C 00 02 01 = 0x0102003C s = 1970-07-15T16:45:48Z, interval FEFF = 65534 s.
        #expect(forced.interval == 65534)
        #expect(forced.samples.first?.time == Date(timeIntervalSince1970: 0x0102_003C))
    }

    @Test func forcedUnixOnTooShortPayloadNamesTheField() {
        do {
            _ = try LoggerDecoder.decode(G16.message([0x01, 0x02, 0x03]), options: G16.options(logger: .named("generic16-unix")))
            Issue.record("decoded a 3-byte generic16-unix payload")
        } catch let error as LoggerFormatError {
            #expect(error.kind == .truncated(needed: 4, available: 3))
            #expect(error.offset == 0)
            #expect(error.description == "generic16-unix: start at offset 0: the header field 'start' needs bytes 0…3 but the payload has only 3 byte(s)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func encoderRoundTripWithStartRecord() throws {
        let newest = G16.iso("2026-08-18T05:30:00Z")
        let temperatures = LoggerImageFactory.demoTemperatures(count: 50, excursionStart: 20, excursionLength: 6)
        let message = try LoggerImageFactory.message(
            kind: "generic16", temperatures: temperatures, interval: 600,
            newestSampleTime: newest)
        let parsed = try NDEFParser.message(from: message.serialized())
        let log = try LoggerDecoder.decode(parsed, options: G16.options())
        #expect(log.format == "generic16")
        #expect(log.timeBase == .textRecord)
        #expect(log.samples.count == 50)
        #expect(log.samples.last?.time == newest)
        #expect(log.samples.map { $0.temperature ?? .nan } == temperatures)
        #expect((log.samples.compactMap(\.temperature).max() ?? 0) > 10)
    }
}
