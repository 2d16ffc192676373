import Foundation
import NDEF
import TestSupport
import Testing

@testable import LoggerFormats

/// The SmarTag decoders (docs/smartag.md) against the worked examples of §3.8, §3.9, §4.7
/// and §4.8, and against images the encoder builds by the writer's rules.
@Suite struct SmarTagTests {
    static let read = Date(timeIntervalSince1970: 1_709_380_800)  // 2024-03-02T12:00:00Z
    static let options = DecodeOptions(readTime: read)
    /// 2024-03-01T12:00:00Z, the start of every worked example.
    static let start = Date(timeIntervalSince1970: 1_709_294_400)

    static func memory(_ rows: String, size: Int = 8192, terminatorAt: Int? = 0x10B) -> [UInt8] {
        var memory = [UInt8](repeating: 0, count: size)
        for line in rows.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            let address = Int(parts[0].trimmingCharacters(in: .whitespaces), radix: 16)!
            let bytes = parts[1].split(separator: " ").map { UInt8($0, radix: 16)! }
            memory.replaceSubrange(address..<address + bytes.count, with: bytes)
        }
        if let terminatorAt { memory[terminatorAt] = 0xFE }
        return memory
    }

    static func at(_ seconds: TimeInterval) -> Date { start.addingTimeInterval(seconds) }

    // MARK: SmarTag1 (§3.8, §3.9)

    static let smarTag1A = memory(
        """
        0000: E2 40 00 01 00 00 03 FF 03 FF 00 FF C4 0E 00 00
        0010: 00 EB 73 74 2E 63 6F 6D 3A 73 6D 61 72 74 61 67
        0020: 01 01 00 02 3C 00 01 01 00 C0 26 18 00 7D 00 64
        0030: A0 0F 00 00 00 00 00 FF 40 C0 26 18 80 C0 26 18
        0040: 00 00 00 00 00 00 00 00 3D 23 00 64 00 00 00 00
        0050: 00 00 00 00 00 00 00 00 00 00 FA 00 03 00 78 00
        0060: 40 C0 26 18 FF BF F7 FF 80 C0 26 18 FF 7F F4 FF
        0070: C0 C0 26 18 FF FF FF FF 00 00 00 00 00 00 00 00
        """)

    static let smarTag1B: [UInt8] = {
        var memory = smarTag1A
        let rows = SmarTagTests.memory(
            """
            0020: 01 01 00 02 3C 00 03 11 00 C0 26 18 30 2A 00 64
            0030: A0 0F 00 00 00 00 00 FF 80 C0 26 18 C0 C0 26 18
            0040: 00 00 00 00 00 00 00 00 31 29 00 64 00 00 00 00
            0050: 00 00 00 00 00 00 00 00 00 00 FA 00 03 00 78 00
            0060: 5E C0 26 98 12 7E 00 00 80 C0 26 18 FF 3F F6 FF
            0070: C0 C0 26 18 FF 3F F5 FF 00 00 00 00 00 00 00 00
            """, terminatorAt: nil)
        memory.replaceSubrange(0x20..<0x80, with: rows[0x20..<0x80])
        return memory
    }()

    @Test func smarTag1WorkedExampleA() throws {
        let image = try #require(SmarTagImage(tagMemory: Data(Self.smarTag1A)))
        let log = try LoggerDecoder.decode(smarTag: image, options: Self.options)
        #expect(log.format == .smarTag1)
        #expect(log.interval == 60)
        #expect(log.samples.map(\.time) == [Self.at(60), Self.at(120), Self.at(180)])
        #expect(log.samples.map(\.temperature) == [21, -5, nil])
        #expect(log.samples[2].flags == [.missing])
        #expect(log.warnings.contains(.smarTag(.invalidValues(count: 1))))
        #expect(log.samples.allSatisfy { $0.humidity == nil })
        #expect(log.metadata["startTime"] == .time(Self.start))
        #expect(log.metadata["temperatureMaximum"]?.number == 21)
        #expect(log.metadata["temperatureMaximumTime"] == .time(Self.at(60)))
        #expect(log.metadata["temperatureMinimum"]?.number == -5)
        #expect(log.metadata["temperatureMinimumTime"] == .time(Self.at(120)))
        #expect(log.metadata["firmwareVersion"] == "1.0.2")
        #expect(log.metadata["mode"] == "sampling")
        #expect(log.metadata["enabledSensors"] == "temperature")
        // The apps' default thresholds (max −40, min 85) are no band.
        #expect(log.metadata["loggerValidMinimum"] == nil)
        #expect(log.timeBase == .loggerHeader)
        #expect(log.timeBaseDetail?.contains("taken as UTC") == true)
        #expect(log.warnings.allSatisfy { if case .readTimeBeforeNewest = $0 { false } else { true } })
    }

    @Test func smarTag1WorkedExampleBEventAndThresholds() throws {
        let image = try #require(SmarTagImage(tagMemory: Data(Self.smarTag1B)))
        let log = try LoggerDecoder.decode(smarTag: image, options: Self.options)
        #expect(log.samples.map(\.time) == [Self.at(120), Self.at(180)])
        #expect(log.samples.map(\.temperature) == [9, 1])
        #expect(log.events.count == 1)
        #expect(log.events.first?.name == "orientation")
        #expect(log.events.first?.time == Self.at(90))
        #expect(log.events.first?.detail == .smarTag(SmarTagMotion(orientation: 2)))
        #expect(log.events.first?.detail?.text == "position 2 (TOP)")
        #expect(log.metadata["mode"] == "sampling with threshold")
        #expect(log.metadata["thresholdTemperatureMaximum"]?.number == 8)
        #expect(log.metadata["thresholdTemperatureMinimum"]?.number == 2)
        #expect(log.metadata["loggerValidMinimum"]?.number == 2)
        #expect(log.metadata["loggerValidMaximum"]?.number == 8)
        #expect(log.metadata["temperatureMaximum"]?.number == 9)
        #expect(log.metadata["temperatureMaximumTime"] == .time(Self.at(120)))
        #expect(log.metadata["temperatureMinimumTime"] == .time(Self.at(180)))
    }

    @Test func smarTag1EncoderReproducesTheWorkedExamples() throws {
        var encoder = SmarTagEncoder.SmarTag1(interval: 60, start: Self.start)
        let a = encoder.memory(after: [
            .reading(time: Self.at(60), temperature: 21), .reading(time: Self.at(120), temperature: -5),
            .reading(time: Self.at(180), temperature: nil),
        ])
        #expect(a == Self.smarTag1A)
        encoder.mode = 3
        encoder.sensors = 0x11
        encoder.temperatureMaximum = 8
        encoder.temperatureMinimum = 2
        let b = encoder.memory(after: [
            .reading(time: Self.at(60), temperature: 4), .event(time: Self.at(90), orientation: 2, mask: 0x02),
            .reading(time: Self.at(120), temperature: 9), .reading(time: Self.at(180), temperature: 1),
        ])
        #expect(b == Self.smarTag1B)
    }

    /// §3.7's example: 1,500 records in 1,011 slots; the pointer names the oldest.
    @Test func smarTag1WrappedRingIsWalkedFromThePointer() throws {
        let encoder = SmarTagEncoder.SmarTag1(interval: 60, start: Self.start)
        let inputs = (1...1500).map { SmarTagEncoder.SmarTag1.Input.reading(time: Self.at(Double($0) * 60), temperature: Double($0 % 50) - 20) }
        let memory = encoder.memory(after: inputs)
        #expect(Array(memory[0x5C..<0x60]) == [0xF3, 0x03, 0xA8, 0x0F])
        #expect(Array(memory[10..<12]) == [0x1F, 0xEC])
        #expect(memory[8184] == 0xFE)
        let log = try LoggerDecoder.decode(
            smarTag: try #require(SmarTagImage(tagMemory: Data(memory))),
            options: DecodeOptions(readTime: Self.at(1501 * 60)))
        #expect(log.samples.count == 1011)
        #expect(log.samples.first?.time == Self.at(490 * 60))
        #expect(log.samples.last?.time == Self.at(1500 * 60))
        #expect(log.samples.map(\.temperature) == (490...1500).map { Double($0 % 50) - 20 })
    }

    @Test func smarTag1HumidityPressureAndNegativeTemperatures() throws {
        var encoder = SmarTagEncoder.SmarTag1(interval: 600, start: Self.start)
        encoder.sensors = 0x07
        let log = try LoggerDecoder.decode(
            smarTag: try #require(
                SmarTagImage(
                    tagMemory: Data(
                        encoder.memory(after: [
                            .reading(time: Self.at(600), temperature: -40, humidity: 55, pressure: 1013.2),
                            .reading(time: Self.at(1200), temperature: -18.4, humidity: nil, pressure: nil),
                        ])))), options: Self.options)
        #expect(log.samples.map(\.temperature) == [-40, -18])
        #expect(log.samples.map(\.humidity) == [55, nil])
        #expect(log.series?.first?.name == "pressure")
        #expect(log.series?.first?.points.map(\.value) == [1013.2, nil])
        #expect(log.metadata["temperatureMinimum"]?.number == -40)
    }

    @Test func smarTag1TimeZoneIsUTCUnlessGiven() throws {
        var options = Self.options
        options.loggerTimeZone = TimeZone(identifier: "Europe/Paris")
        let log = try LoggerDecoder.decode(smarTag: try #require(SmarTagImage(tagMemory: Data(Self.smarTag1A))), options: options)
        // 12:01 on a Paris wall clock in March is 11:01 UTC.
        #expect(log.samples.first?.time == Self.at(60 - 3600))
        #expect(log.timeBaseDetail?.contains("Europe/Paris") == true)
    }

    @Test func newestRecordAfterTheReadTimeWarns() throws {
        let log = try LoggerDecoder.decode(
            smarTag: try #require(SmarTagImage(tagMemory: Data(Self.smarTag1A))),
            options: DecodeOptions(readTime: Self.at(90)))
        #expect(log.warnings.contains { if case .readTimeBeforeNewest = $0 { true } else { false } })
    }

    // MARK: SmarTag2 (§4.7, §4.8)

    static let smarTag2A = memory(
        """
        0000: E2 40 00 01 00 00 03 FF 03 FF 00 FF 4C 0E 00 00
        0010: 00 DF 0B 73 74 2E 63 6F 6D 3A 73 6D 61 72 74 61
        0020: 67 00 00 00 E0 02 26 00 12 34 56 78 02 01 01 04
        0030: 00 01 3C 00 40 C3 E1 65 30 00 00 00 02 00 80 02
        0040: 03 00 60 0A 03 00 00 00 64 00 00 00 C0 03 00 00
        0050: 9D 00 00 00 80 07 00 00 28 00 00 00 90 0B 00 00
        0060: A6 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        """)

    static let smarTag2B: [UInt8] = {
        var memory = smarTag2A
        memory.replaceSubrange(0x2C..<0x70, with: [UInt8](repeating: 0, count: 0x44))
        let rows = SmarTagTests.memory(
            """
            002C: 02 01 01 04 00 01 2C 01 40 C3 E1 65 00 0F 2D 00
            003C: 0A 00 B0 03 0F 00 A0 05 02 00 00 00 5C 00 00 00
            004C: 80 25 00 00 3B 00 00 00 40 38 00 00 5A 00 00 00
            """, terminatorAt: nil)
        memory.replaceSubrange(0x2C..<0x5C, with: rows[0x2C..<0x5C])
        return memory
    }()

    @Test func smarTag2WorkedExampleA() throws {
        let image = try #require(SmarTagImage(tagMemory: Data(Self.smarTag2A)))
        #expect(image.messageBegin == false)
        let log = try LoggerDecoder.decode(smarTag: image, options: Self.options)
        #expect(log.format == .smarTag2)
        #expect(log.samples.map(\.time) == [Self.at(60), Self.at(120), Self.at(185)])
        let temperatures = log.samples.compactMap(\.temperature)
        for (value, expected) in zip(temperatures, [21.4, -2.0, 23.2]) { #expect(abs(value - expected) < 1e-9) }
        #expect(log.metadata["temperatureMinimum"] == .celsius(-2))
        #expect(log.metadata["temperatureMinimumTime"] == .time(Self.at(120)))
        #expect(log.metadata["temperatureMaximum"] == .celsius(23.2))
        #expect(log.metadata["temperatureMaximumTime"] == .time(Self.at(180)))
        #expect(log.metadata["temperatureMode"] == "greater (log if ≥ Th1)")
        #expect(log.logger.tagUID == "E002260012345678")
        #expect(log.detection?.text.contains("message-begin bit cleared") == true)
    }

    @Test func smarTag2WorkedExampleBThresholdsAndUnloggedExtremes() throws {
        let log = try LoggerDecoder.decode(smarTag: try #require(SmarTagImage(tagMemory: Data(Self.smarTag2B))), options: Self.options)
        #expect(log.interval == 300)
        #expect(log.samples.map(\.time) == [Self.at(600), Self.at(900)])
        let temperatures = log.samples.compactMap(\.temperature)
        #expect(temperatures.count == 2 && abs(temperatures[0] - 1.8) < 1e-9 && abs(temperatures[1] - 8.0) < 1e-9)
        #expect(log.metadata["loggerValidMinimum"] == .celsius(2))
        #expect(log.metadata["loggerValidMaximum"] == .celsius(8))
        #expect(log.metadata["temperatureMinimumTime"] == .time(Self.at(600)))
        #expect(log.metadata["temperatureMaximumTime"] == .time(Self.at(900)))
    }

    @Test func smarTag2EncoderReproducesTheWorkedExamples() throws {
        let a = SmarTagEncoder.SmarTag2(sampleTime: 60, start: 1_709_294_400, sensors: [.init(id: 0, mode: 3, threshold1: 0)])
            .memory(after: [.init(seconds: 60, value: 21.4), .init(seconds: 120, value: -2.0), .init(seconds: 185, value: 23.37)])
        #expect(a == Self.smarTag2A)
        let b = SmarTagEncoder.SmarTag2(sampleTime: 300, start: 1_709_294_400, sensors: [.temperature(mode: 0, 2.0, 8.0)])
            .memory(after: [300, 600, 900, 1200].enumerated().map { .init(seconds: $0.element, value: [5.0, 1.8, 8.0, 4.4][$0.offset]) })
        #expect(b == Self.smarTag2B)
    }

    /// §4.5's example: one sensor, 1,200 records in 1,014 slots.
    @Test func smarTag2WrappedRingIsWalkedFromThePointer() throws {
        let encoder = SmarTagEncoder.SmarTag2(sampleTime: 60, start: 1_709_294_400, sensors: [.init(id: 0, mode: 3, threshold1: 0)])
        let memory = encoder.memory(after: (1...1200).map { .init(seconds: UInt32($0) * 60, value: Double($0 % 70) - 10) })
        #expect(Array(memory[0x44..<0x4C]) == [0xF6, 0x03, 0, 0, 0x1C, 0x06, 0, 0])
        #expect(Array(memory[10..<12]) == [0x1F, 0xF0] && Array(memory[16..<18]) == [0x1F, 0xD0] && memory[0x1FFC] == 0xFE)
        let log = try LoggerDecoder.decode(
            smarTag: try #require(SmarTagImage(tagMemory: Data(memory))),
            options: DecodeOptions(readTime: Self.at(1201 * 60)))
        #expect(log.samples.count == 1014)
        #expect(log.samples.first?.time == Self.at(187 * 60))
        #expect(log.samples.last?.time == Self.at(1200 * 60))
        #expect(zip(log.samples, log.samples.dropFirst()).allSatisfy { $0.time < $1.time })
    }

    /// With two sensors the ring ends 4 bytes short of a slot, so the firmware also writes
    /// the slot at 0x1FF8 (§4.5): ST's apps never show it; ColdTap does.
    @Test func smarTag2ExtraSlotWithAnEvenSensorCount() throws {
        let encoder = SmarTagEncoder.SmarTag2(
            sampleTime: 60, start: 1_709_294_400,
            sensors: [.init(id: 0, mode: 3, threshold1: 0), .init(id: 5, mode: 3, threshold1: 0)])
        // B = 0x38 + 8 + 8 (min/max of id 0) + 8 = 0x58: 1013 counted slots and the extra one.
        let unwrapped = encoder.memory(after: (1...1013).map { .init(seconds: UInt32($0) * 60, value: 5) })
        let full = try LoggerDecoder.decode(
            smarTag: try #require(SmarTagImage(tagMemory: Data(unwrapped))),
            options: DecodeOptions(readTime: Self.at(2000 * 60)))
        #expect(full.samples.count == 1013)
        var readings: [SmarTagEncoder.SmarTag2.Reading] = (1...1100).map { index in
            SmarTagEncoder.SmarTag2.Reading(seconds: UInt32(index) * 60, value: Double(index % 40))
        }
        readings.append(SmarTagEncoder.SmarTag2.Reading(id: 5, seconds: 1100 * 60 + 5, value: 3))
        let wrapped = encoder.memory(after: readings)
        let log = try LoggerDecoder.decode(
            smarTag: try #require(SmarTagImage(tagMemory: Data(wrapped))),
            options: DecodeOptions(readTime: Self.at(2000 * 60)))
        #expect(log.samples.count + log.events.count == 1014)
        #expect(log.samples.last?.time == Self.at(1100 * 60))
        #expect(log.events.map(\.name) == ["orientation"])
        #expect(log.events.first?.detail == .smarTag(SmarTagMotion(orientation: 3)))
        #expect(zip(log.samples, log.samples.dropFirst()).allSatisfy { $0.time < $1.time })
    }

    @Test func smarTag2TemperatureCodingClampsAndTruncates() {
        #expect(SmarTagEncoder.SmarTag2.temperatureCode(23.37) == 166)
        // The firmware codes a reading of −9.8 °C as 1 (−49 + 50 exactly in single
        // precision); only the app's threshold coding truncates it to 0 (§4.2).
        #expect(SmarTagEncoder.SmarTag2.temperatureCode(-9.8) == 1)
        #expect(SmarTagEncoder.SmarTag2.temperatureCode(21.4) == 157)
        #expect(SmarTagEncoder.SmarTag2.temperatureCode(-25) == 0)
        #expect(SmarTagEncoder.SmarTag2.temperatureCode(75) == 350)
    }

    /// Records more than 24.86 days after the start (where an app's 32-bit milliseconds overflow) keep their dates.
    @Test func smarTag2LongDeltasKeepTheirDates() throws {
        let encoder = SmarTagEncoder.SmarTag2(sampleTime: 3600, start: 1_709_294_400, sensors: [.init(id: 0, mode: 3, threshold1: 0)])
        let seconds: UInt32 = 40 * 86_400
        let log = try LoggerDecoder.decode(
            smarTag: try #require(SmarTagImage(tagMemory: Data(encoder.memory(after: [.init(seconds: seconds, value: 4)])))),
            options: DecodeOptions(readTime: Self.at(50 * 86_400)))
        #expect(log.samples.first?.time == Self.at(TimeInterval(seconds)))
    }

    @Test func smarTag2PressureAndLightAreExtraSeries() throws {
        let encoder = SmarTagEncoder.SmarTag2(
            sampleTime: 60, start: 1_709_294_400,
            sensors: [
                .init(id: 1, mode: 3, threshold1: 0), .init(id: 0, mode: 3, threshold1: 0), .init(id: 2, mode: 3, threshold1: 0),
            ])
        let memory = encoder.memory(after: [
            .init(id: 1, seconds: 60, value: 1013.5), .init(id: 0, seconds: 60, value: 4),
            .init(id: 2, seconds: 60, value: 250.125),
        ])
        let log = try LoggerDecoder.decode(smarTag: try #require(SmarTagImage(tagMemory: Data(memory))), options: Self.options)
        #expect(log.samples.count == 1)
        #expect(log.series?.map(\.name) == ["pressure", "light"])
        #expect(log.series?[0].points.first?.value == 1013.5)
        #expect(log.series?[1].points.first?.value == 250.125)
        #expect(log.metadata["pressureMaximum"]?.number == 1013.5)
    }

    // MARK: NDEF messages and the strict parser

    @Test func smarTag2MessageWithMessageBeginClearedIsRefusedByTheStrictParser() throws {
        let tlvValue = Data(Self.smarTag2A[12..<(12 + 255)])
        #expect(throws: NDEFError.self) { try NDEFParser.message(from: tlvValue) }
        let image = try #require(SmarTagImage(ndefMessageBytes: tlvValue))
        #expect(image.source == .ndefMessage)
        let log = try LoggerDecoder.decode(smarTag: image, options: Self.options)
        #expect(log.samples.count == 3)
    }

    @Test func recordsPastAnUnderstatedMessageAreCountedNotInvented() throws {
        // 30 records: the header still says 0xDF (223 bytes) though the data runs further.
        let encoder = SmarTagEncoder.SmarTag2(sampleTime: 60, start: 1_709_294_400, sensors: [.init(id: 0, mode: 3, threshold1: 0)])
        let memory = encoder.memory(after: (1...25).map { .init(seconds: UInt32($0) * 60, value: 4) })
        #expect(Array(memory[16..<18]) == [0x00, 0xDF])
        let declared = Int(memory[10]) << 8 | Int(memory[11])
        let message = Data(memory[12..<12 + min(declared, 7 + 14 + 11 + 0xDF)])
        let log = try LoggerDecoder.decode(smarTag: try #require(SmarTagImage(ndefMessageBytes: message)), options: Self.options)
        #expect(log.samples.count < 25)
        #expect(log.warnings.contains(.smarTag(.recordsNotInMessage(count: 25 - log.samples.count))))
        let whole = try LoggerDecoder.decode(smarTag: try #require(SmarTagImage(tagMemory: Data(memory))), options: Self.options)
        #expect(whole.samples.count == 25)
    }

    @Test func smarTag1MessageAutoDetects() throws {
        let message = try NDEFParser.message(from: Data(Self.smarTag1A[12..<(12 + 255)]))
        let log = try LoggerDecoder.decode(message, options: Self.options)
        #expect(log.format == .smarTag1)
        #expect(log.samples.count == 3)
        #expect(log.detection?.text.hasPrefix("auto-detected smartag1") == true)
    }

    @Test func forcingAnotherFormatOnASmarTagIsRefused() throws {
        let image = try #require(SmarTagImage(tagMemory: Data(Self.smarTag1A)))
        #expect(throws: LoggerFormatError.self) {
            try LoggerDecoder.decode(smarTag: image, options: DecodeOptions(readTime: Self.read, logger: .named("smartag2")))
        }
    }

    // MARK: Untrusted bytes

    @Test func damagedCountersAndPointersAreTypedErrorsNamingTheAddress() throws {
        var memory = Self.smarTag2A
        memory[0x48] = 0x65  // pointer not on a slot
        let error = try #require(throws: LoggerFormatError.self) {
            try LoggerDecoder.decode(smarTag: try #require(SmarTagImage(tagMemory: Data(memory))), options: Self.options)
        }
        #expect(error.offset == 0x48)
        var smarTag1 = Self.smarTag1A
        smarTag1[0x5C] = 0xFF
        smarTag1[0x5D] = 0xFF
        let counterError = try #require(throws: LoggerFormatError.self) {
            try LoggerDecoder.decode(smarTag: try #require(SmarTagImage(tagMemory: Data(smarTag1))), options: Self.options)
        }
        #expect(counterError.offset == 0x5C)
        var badDate = Self.smarTag1A
        badDate[0x60] = 0x3F  // second 63
        let dateError = try #require(throws: LoggerFormatError.self) {
            try LoggerDecoder.decode(smarTag: try #require(SmarTagImage(tagMemory: Data(badDate))), options: Self.options)
        }
        #expect(dateError.offset == 0x60)
    }

    @Test func shortImagesAreTruncationErrors() throws {
        for length in [40, 0x30, 0x5E, 0x62] {
            let image = try #require(SmarTagImage(tagMemory: Data(Self.smarTag1A.prefix(length))))
            let error = try #require(throws: LoggerFormatError.self) { try LoggerDecoder.decode(smarTag: image, options: Self.options) }
            if case .truncated = error.kind {} else { Issue.record("\(error)") }
        }
    }

    /// Random damage to both worked examples decodes or throws a typed error, never crashes.
    @Test func mutatedImagesNeverCrash() {
        var random = SeededGenerator(seed: 0x5A_4A_7A6)
        for round in 0..<3000 {
            var memory = round % 2 == 0 ? Self.smarTag1A : Self.smarTag2A
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                memory[Int.random(in: 0..<0x80, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if round % 5 == 0 { memory = Array(memory.prefix(Int.random(in: 0...0x90, using: &random))) }
            guard let image = SmarTagImage(tagMemory: Data(memory)) ?? SmarTagImage(ndefMessageBytes: Data(memory.dropFirst(12))) else { continue }
            do {
                let log = try LoggerDecoder.decode(smarTag: image, options: Self.options)
                #expect(zip(log.samples, log.samples.dropFirst()).allSatisfy { $0.time <= $1.time })
            } catch is LoggerFormatError {
                continue
            } catch {
                Issue.record("untyped error \(error)")
            }
        }
    }
}
