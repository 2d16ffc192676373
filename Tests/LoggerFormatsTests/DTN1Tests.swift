import Foundation
import NDEF
import Testing

@testable import LoggerFormats

@Suite struct DTN1Tests {
    static let read = Date(timeIntervalSince1970: 1_787_032_800)  // 2026-08-18T06:00:00Z

    static func message(info: String, ledger: [UInt8], tnf: TypeNameFormat = .unknown) -> NDEFMessage {
        NDEFMessage(records: [
            TextRecord(text: info).record,
            NDEFRecord(tnf: tnf, type: tnf == .media ? Data("application/octet-stream".utf8) : Data(), payload: Data(ledger)),
        ])
    }

    static func options(interval: TimeInterval? = nil) -> DecodeOptions {
        DecodeOptions(readTime: read, readTimeSource: .given, interval: interval)
    }

    /// Hand-computed: raw −2 → 22.0, 0 → 23.0, 5 → 25.5, −128 → −41.0 (below the sensor's −40).
    @Test func ledgerWithDeviceInformation() throws {
        let info = "MODEL=DTN1\nSERIAL=PM-0042\nFW=1.4.2\nINTERVAL=600"
        let log = try LoggerDecoder.decode(
            Self.message(info: info, ledger: [0x00, 0x04, 0x00, 0x03, 0xFE, 0x00, 0x05, 0x80]),
            options: Self.options())
        #expect(log.format == "dtn1")
        #expect(log.logger.vendor == "Promods")
        #expect(log.logger.serial == "PM-0042")
        #expect(log.samples.map(\.temperature) == [22.0, 23.0, 25.5, -41.0])
        #expect(log.samples.map(\.flags) == [[], [], [], [.outOfRange]])
        #expect(log.interval == 600)
        #expect(log.metadata["intervalSource"] == "device-information key INTERVAL")
        #expect(log.metadata["FW"] == "1.4.2")
        #expect(log.metadata["MODEL"] == "DTN1")
        #expect(log.timeBase == .readTime)
        #expect(log.samples.last?.time == Self.read)
        #expect(log.samples.first?.time == Self.read.addingTimeInterval(-1800))
        #expect(log.integrity.status == .unverified)
        #expect(log.detection?.text.contains("4 KEY=VALUE device-information pair(s)") == true)
    }

    @Test func intervalFromUserWhenDeviceInformationHasNone() throws {
        let message = Self.message(info: "MODEL=DTN1", ledger: [0x00, 0x01, 0x00, 0x00, 0x04], tnf: .media)
        do {
            _ = try LoggerDecoder.decode(message, options: Self.options())
            Issue.record("decoded without an interval")
        } catch let error as LoggerFormatError {
            #expect(error.kind == .intervalUnknown)
        }
        let log = try LoggerDecoder.decode(message, options: Self.options(interval: 900))
        #expect(log.interval == 900)
        #expect(log.samples.map(\.temperature) == [25.0])
    }

    @Test func intervalKeyInMinutesAndStartKeyGiveTheTimeBase() throws {
        let info = "SENSOR=internal\nSN=A-17\nLOG_INTERVAL_MIN=5\nLOG_START=2026-08-18T04:00:00Z\nSTART_DELAY=600"
        let log = try LoggerDecoder.decode(
            Self.message(info: info, ledger: [0x00, 0x02, 0x00, 0x01, 0x00, 0x02]),
            options: Self.options())
        #expect(log.interval == 300)
        #expect(log.logger.serial == "A-17")
        #expect(log.timeBase == .deviceInformation)
        #expect(log.timeBaseDetail == "device-information key LOG_START (start time)")
        #expect(log.samples.map(\.time) == [Date(timeIntervalSince1970: 1_787_025_600), Date(timeIntervalSince1970: 1_787_025_900)])
    }

    @Test func lastSampleKeyInUnixSeconds() throws {
        let info = "INTERVAL=60s\nLAST_SAMPLE=1787032000"
        let log = try LoggerDecoder.decode(
            Self.message(info: info, ledger: [0x00, 0x03, 0x00, 0x02, 0x00, 0x01, 0x02]),
            options: Self.options())
        #expect(log.timeBase == .deviceInformation)
        #expect(log.samples.last?.time == Date(timeIntervalSince1970: 1_787_032_000))
        #expect(log.samples.first?.time == Date(timeIntervalSince1970: 1_787_031_880))
    }

    /// 4 100 points into a 4 092-point ring: count 4092, newest index 7, oldest = point 8.
    @Test func wrappedRingIsUnrolledOldestFirst() throws {
        let temperatures = (0..<4100).map { Double($0 % 50) * 0.5 }
        let message = try LoggerImageFactory.message(
            kind: "dtn1", temperatures: temperatures, interval: 60,
            newestSampleTime: Self.read)
        let ledger = Array(message.records[1].payload)
        #expect(Array(ledger.prefix(4)) == [0x0F, 0xFC, 0x00, 0x07])
        #expect(ledger.count == 4 + 4092)
        let log = try LoggerDecoder.decode(message, options: Self.options())
        #expect(log.samples.count == 4092)
        #expect(log.samples.map { $0.temperature ?? .nan } == Array(temperatures.suffix(4092)))
        #expect(log.metadata["ringWrapped"] == "true")
        #expect(log.samples.last?.time == Self.read)
    }

    @Test func unwrappedRingIgnoresNewestIndex() throws {
        let log = try LoggerDecoder.decode(
            Self.message(info: "INTERVAL=60", ledger: [0x00, 0x03, 0x00, 0x00, 0x02, 0x04, 0x06, 0x7F]),
            options: Self.options())
        #expect(log.samples.map(\.temperature) == [24.0, 25.0, 26.0])
        #expect(log.metadata["ringWrapped"] == "false")
    }

    @Test func inconsistentLedgersAreErrorsWithOffsets() throws {
        let forced = DecodeOptions(readTime: Self.read, logger: .named("dtn1"), interval: 60)
        let tooMany = Self.message(info: "INTERVAL=60", ledger: [0x10, 0x00, 0x00, 0x00, 0x01])
        #expect(throws: LoggerFormatError.self) { try LoggerDecoder.decode(tooMany, options: forced) }
        let short = Self.message(info: "INTERVAL=60", ledger: [0x00, 0x05, 0x00, 0x00, 0x01])
        do {
            _ = try LoggerDecoder.decode(short, options: forced)
            Issue.record("decoded a short ledger")
        } catch let error as LoggerFormatError {
            #expect(error.offset == 4)
            #expect(error.description.contains("the header says 5 sample(s) (5 bytes) but the sample area holds only 1 byte(s)"))
        }
        var wrapped = [UInt8](repeating: 0, count: 4 + 4092)
        wrapped[0] = 0x0F; wrapped[1] = 0xFC; wrapped[2] = 0x0F; wrapped[3] = 0xFC  // newest index 4092: outside
        do {
            _ = try LoggerDecoder.decode(Self.message(info: "INTERVAL=60", ledger: wrapped), options: forced)
            Issue.record("accepted a newest index outside the ring")
        } catch let error as LoggerFormatError {
            #expect(error.kind == .inconsistent)
            #expect(error.offset == 2)
        }
    }

    @Test func factoryRoundTrip() throws {
        let temperatures = LoggerImageFactory.demoTemperatures(count: 30, excursionStart: 10, excursionLength: 5)
        let message = try LoggerImageFactory.message(
            kind: "dtn1", temperatures: temperatures, interval: 300,
            newestSampleTime: Self.read, serial: "DTN1-777")
        let log = try LoggerDecoder.decode(try NDEFParser.message(from: message.serialized()), options: Self.options())
        #expect(log.format == "dtn1")
        #expect(log.logger.serial == "DTN1-777")
        #expect(log.interval == 300)
        let expected: [Double] = temperatures.map { (value: Double) -> Double in ((value - 23) * 2).rounded() / 2 + 23 }
        let decoded: [Double] = log.samples.map { $0.temperature ?? .nan }
        #expect(decoded == expected)
    }
}
