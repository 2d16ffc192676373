import Foundation
import NDEF
import Testing

@testable import LoggerFormats

// The worked examples of docs/nhs31xx.md, byte for byte.

func nhsBytes(_ hex: String) -> [UInt8] {
    let digits = hex.filter(\.isHexDigit)
    var out: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        out.append(UInt8(digits[index..<next], radix: 16)!)
        index = next
    }
    return out
}

func nhsFrame(_ hex: String) throws -> NHSFrame { try NHSFrame(bytes: nhsBytes(hex)) }

/// A response record as the tag writes it: MIME `n/p`, long form (SR = 0).
func nhsResponseRecord(_ hex: String) -> NDEFRecord {
    NDEFRecord(tnf: .media, type: "n/p", payload: Data(nhsBytes(hex)))
}

/// docs/nhs31xx.md §3.3: the GETCONFIG answer of the 5-sample example tag.
let nhsExampleConfig = "48 01 00 00 00 00 00 F1 53 65 58 02 00 00 00 00 00 00 00 00 14 00 50 00 2D 00 55 00 05 00 2F 00 00 00 01 F1 53 65 C5 FA 53 65"
let nhsExampleVersion = "02 01 00 00 DC 07 13 00 06 00 01 00 20 52 31 4E"
let nhsExampleMeasurements = "46 01 00 00 00 00 00 00 05 00 00 00 2D 00 2F 00 33 00 55 00 3C 00"
let nhsExampleExcursions = "5B 01 00 00 60 00 00 00 0F 01 00 04 00 09 F8 53 65 05 61 FA 53 65"
let nhsExampleStateEvents = "5B 01 00 00 9F FF 7F 00 07 04 00 00 00 00 F1 53 65 00 01 00 00 F1 53 65 01 02 00 00 F1 53 65 02 03 00 01 F1 53 65 03"
let nhsPhantom = "46 01 0D 00 01 00"
let nhsNoResponse = "01 01 0B 00 01 00"

/// docs/nhs31xx.md §4.1: the initial message of the example tag (272 bytes); the text
/// records' wording is not part of the facts, so ASCII filler of the right lengths.
func nhsExampleInitialMessage() -> NDEFMessage {
    func text(_ body: String, length: Int) -> NDEFRecord {
        var bytes = Array(body.utf8.prefix(length))
        bytes += [UInt8](repeating: 0, count: length - bytes.count)
        return NDEFRecord(tnf: .wellKnown, type: "T", payload: Data([0x02] + Array("en".utf8) + bytes))
    }
    return NDEFMessage(records: [
        NDEFRecord(tnf: .media, type: "t/demo.nhs.nxp", payload: Data(nhsBytes(nhsExampleVersion))),
        text("Logging 41 min, 5 samples", length: 46),
        text("Too high after 30 min", length: 46),
        text("Now 6.0 C\nMin 4.5 C\nMax 8.5 C", length: 59),
        NDEFRecord(tnf: .media, type: "n/p", payload: Data(nhsBytes("0A 01 04 AB 12 35 A1 B2 C3 D4"))),
        nhsResponseRecord(nhsExampleConfig),
    ])
}

/// The serialized initial message as the tag lays it out: records 5 and 6 keep the tag's
/// header bytes (12 = SR, 42 = ME long).
func nhsExampleInitialMessageBytes() -> Data {
    let message = nhsExampleInitialMessage()
    var out = Data()
    for (index, record) in message.records.enumerated() {
        let payload = [UInt8](record.payload)
        let type = [UInt8](record.type)
        switch index {
        case 0: out += [0x92, UInt8(type.count), UInt8(payload.count)] + type + payload
        case 1, 2, 3: out += [0x11, 0x01, UInt8(payload.count)] + type + payload
        case 4: out += [0x12, 0x03, UInt8(payload.count)] + type + payload
        default: out += [0x42, 0x03, 0, 0, 0, UInt8(payload.count)] + type + payload
        }
    }
    return out
}

@Suite struct NHS31xxFrameTests {
    @Test func getVersionExample() throws {
        guard case .version(let version) = try NHSResponse.parse(try nhsFrame(nhsExampleVersion)) else {
            Issue.record("not a version"); return
        }
        #expect(version.softwareMajor == 2012 && version.softwareMinor == 19)
        #expect(version.apiMajor == 6 && version.apiMinor == 1)
        #expect(version.model == "NHS3152")
        #expect(version.payload == Array(nhsBytes(nhsExampleVersion).dropFirst(2)))
    }

    @Test func setConfigRequestExample() throws {
        // 2023-11-14T22:13:20Z, 10 min, start now, no end, 2.0–8.0 °C.
        let command = NHSCommand.setConfig(NHSConfiguration(currentTime: 1_700_000_000, interval: 600, validMinimum: 20, validMaximum: 80))
        let message = NDEFMessage(records: [NDEFRecord(tnf: .media, type: "n/p", payload: Data(command.frame.bytes))])
        let serialized = [UInt8](message.serialized())
        let tlv = [0x03, UInt8(serialized.count)] + serialized + [0xFE]
        #expect(tlv == nhsBytes("03 1A D2 03 14 6E 2F 70 49 00 00 F1 53 65 58 02 00 00 00 00 00 00 00 00 14 00 50 00 FE"))
        // The firmware reads it back to the same values.
        #expect(try NHSCommand.parse(command.frame) == command)
    }

    @Test func setConfigAnswerExample() throws {
        // The tag's pages 6–10 after the command: TLV 03 0F, record C2 (long), payload 49 01 OK.
        let pages = nhsBytes("03 0F C2 03 00 00 00 06 6E 2F 70 49 01 00 00 00 00 FE")
        let message = try NDEFParser.message(from: Data(pages[2..<17]))
        #expect(message.records.count == 1)
        let frame = try NHSFrame(bytes: message.records[0].payload)
        #expect(try NHSResponse.parse(frame) == .result(id: 0x49, .ok))
    }

    @Test func getConfigExample() throws {
        guard case .config(let config) = try NHSResponse.parse(try nhsFrame(nhsExampleConfig)) else {
            Issue.record("not a config"); return
        }
        #expect(config.layout == .current)
        #expect(config.result == .ok)
        #expect(config.configTime == 1_700_000_000)
        #expect(config.interval == 600)
        #expect(config.startDelay == 0 && config.runningTime == 0)
        #expect(config.validMinimum == 20 && config.validMaximum == 80)
        #expect(config.attainedMinimum == 45 && config.attainedMaximum == 85)
        #expect(config.count == 5)
        #expect(config.status == [.pristine, .configured, .starting, .logging, .temperatureTooHigh])
        #expect(config.status?.state == "logging")
        #expect(config.startTime == 1_700_000_001)
        #expect(config.currentTime == 1_700_002_501)
        #expect(config.payload == Array(nhsBytes(nhsExampleConfig).dropFirst(2)))
    }

    @Test func legacyGetConfigIsToldApartByLength() throws {
        // API 5: result, configTime, interval, maxCount, min, max, count, valid, currentTime.
        var writer = NHSFieldWriter()
        writer.u32(0); writer.u32(1_500_000_000); writer.u16(300); writer.u16(0xFFFF)
        writer.i16(-50); writer.i16(250); writer.u16(12); writer.u8(1); writer.u32(1_500_003_700)
        #expect(writer.bytes.count == 23)
        guard case .config(let config) = try NHSResponse.parse(NHSFrame(id: 0x48, direction: 1, payload: writer.bytes)) else {
            Issue.record("not a config"); return
        }
        #expect(config.layout == .legacy)
        #expect(config.interval == 300 && config.count == 12 && config.maxCount == 0xFFFF && config.legacyValid == 1)
        #expect(config.validMinimum == -50 && config.validMaximum == 250 && config.currentTime == 1_500_003_700)
        #expect(config.status == nil && config.startTime == nil)
    }

    @Test func getMeasurementsExampleAndPhantom() throws {
        #expect(NHSCommand.getMeasurements(offset: 0).frame.bytes == nhsBytes("46 00 00 00"))
        guard case .measurements(let chunk) = try NHSResponse.parse(try nhsFrame(nhsExampleMeasurements)) else {
            Issue.record("not measurements"); return
        }
        #expect(chunk.offset == 0)
        #expect(chunk.samples == [45, 47, 51, 85, 60])
        #expect(chunk.payload == Array(nhsBytes(nhsExampleMeasurements).dropFirst(2)))
        #expect(try NHSResponse.parse(try nhsFrame(nhsPhantom)) == .result(id: 0x46, .badLength))
    }

    @Test func getPeriodicDataExample() throws {
        #expect(NHSCommand.getPeriodicData(which: 1, format: 0, offset: 3).frame.bytes == nhsBytes("5E 00 01 00 03 00"))
        guard case .periodicData(let data) = try NHSResponse.parse(try nhsFrame("5E 01 00 00 00 00 01 00 03 00 55 00 3C 00")) else {
            Issue.record("not periodic data"); return
        }
        #expect(data.offset == 3 && data.temperatures == [85, 60] && data.humidities.isEmpty)
    }

    @Test func getEventsExamples() throws {
        #expect(NHSCommand.getEvents(index: 0, mask: 0x60, info: .all).frame.bytes == nhsBytes("5B 00 00 00 60 00 00 00 0F"))
        guard case .events(let excursions) = try NHSResponse.parse(try nhsFrame(nhsExampleExcursions)) else {
            Issue.record("not events"); return
        }
        #expect(excursions.blocks == [NHSEventBlock(index: 4, timestamp: 1_700_001_801, number: 5, endTime: 1_700_002_401)])
        #expect(excursions.payload == Array(nhsBytes(nhsExampleExcursions).dropFirst(2)))
        guard case .events(let states) = try NHSResponse.parse(try nhsFrame(nhsExampleStateEvents)) else {
            Issue.record("not events"); return
        }
        #expect(states.mask == 0x7F_FF9F)
        #expect(states.blocks.map(\.number) == [0, 1, 2, 3])
        #expect(states.blocks.map(\.timestamp) == [1_700_000_000, 1_700_000_000, 1_700_000_000, 1_700_000_001])
        #expect(states.blocks.map(\.index) == [0, 1, 2, 3])
        #expect(states.blocks.allSatisfy { $0.endTime == nil })
    }

    @Test func everyResultCodeIsNamed() throws {
        let codes: [(String, NHSResult, String)] = [
            ("00 00 00 00", .ok, "OK"), ("07 00 01 00", .unknownCommand, "unknown command"),
            ("0B 00 01 00", .noResponse, "nothing queued"), ("0D 00 01 00", .badLength, "wrong payload length"),
            ("0E 00 01 00", .badParameter, "bad parameter value (or sensor error)"),
            ("0F 00 01 00", .notAllowed, "not allowed in the logger's current state"),
            ("10 00 01 00", .notImplemented, "not implemented"), ("FF FF FF FF", .sensorBusy, "temperature sensor busy"),
        ]
        for (hex, code, meaning) in codes {
            #expect(try NHSResponse.parse(try nhsFrame("5A 01 " + hex)) == .result(id: 0x5A, code))
            #expect(code.explanation == meaning)
        }
        // A GETEVENTS refusal is told from a success by its length (6 against ≥ 11 bytes).
        #expect(try NHSResponse.parse(try nhsFrame("5B 01 0D 00 01 00")) == .result(id: 0x5B, .badLength))
        #expect(try NHSResponse.parse(try nhsFrame(nhsNoResponse)) == .result(id: 0x01, .noResponse))
    }

    @Test func queuedAnswersOfCheckBatteryAndMeasureTemperature() throws {
        #expect(NHSCommand.measureTemperature(resolution: 5).frame.bytes == nhsBytes("50 00 05"))
        #expect(try NHSResponse.parse(try nhsFrame("50 01 00 00 00 00 CB FF")) == .temperature(.ok, -53))
        #expect(try NHSResponse.parse(try nhsFrame("0B 01 00 00 00 00 FF FF FF FF")) == .battery(.ok, threshold: -1))
        #expect(try NHSResponse.parse(try nhsFrame("0B 01 0F 00 01 00")) == .result(id: 0x0B, .notAllowed))
        #expect(try NHSResponse.parse(try nhsFrame("0C 01 00 00 00 00 00 F1 53 65")) == .calibrationTimestamp(.ok, 1_700_000_000))
        #expect(try NHSResponse.parse(try nhsFrame("0A 01 04 AB 12 35 A1 B2 C3 D4")) == .nfcUID(nhsBytes("04 AB 12 35 A1 B2 C3 D4")))
    }

    @Test func commandsAreParsedAsTheFirmwareDoes() throws {
        #expect(throws: NHSCommand.Refusal(result: .badLength)) { try NHSCommand.parse(try nhsFrame("46 00 00")) }
        #expect(throws: NHSCommand.Refusal(result: .unknownCommand)) { try NHSCommand.parse(try nhsFrame("77 00")) }
        #expect(throws: NHSCommand.Refusal(result: .unknownCommand)) { try NHSCommand.parse(try nhsFrame("3E 00")) }
        // Messages that do not check the length ignore any payload.
        #expect(try NHSCommand.parse(try nhsFrame("48 00 01 02 03")) == .getConfig)
        #expect(try NHSCommand.parse(try nhsFrame("5B 00 00 00 60 00 00 00 0F")) == .getEvents(index: 0, mask: 0x60, info: .all))
    }

    @Test func malformedFramesFailWithOffsets() throws {
        // GETCONFIG cut to 30 payload bytes.
        let short = NHSFrame(id: 0x48, direction: 1, payload: Array(nhsBytes(nhsExampleConfig).dropFirst(2).prefix(30)))
        let error = try #require(throws: LoggerFormatError.self) { try NHSResponse.parse(short) }
        #expect(error.offset == 32)
        #expect(error.description.contains("40 bytes"))
        // GETMEASUREMENTS saying 5 samples but carrying 3.
        let cut = try nhsFrame("46 01 00 00 00 00 00 00 05 00 00 00 2D 00 2F 00 33 00")
        let cutError = try #require(throws: LoggerFormatError.self) { try NHSResponse.parse(cut) }
        #expect(cutError.offset == 12)
        #expect(cutError.kind == .truncated(needed: 20, available: 16))
        // GETEVENTS with a block cut in its timestamp.
        let events = try nhsFrame("5B 01 00 00 60 00 00 00 0F 01 00 04 00 09 F8")
        let eventsError = try #require(throws: LoggerFormatError.self) { try NHSResponse.parse(events) }
        #expect(eventsError.offset == 13)
        // One byte is no frame.
        #expect(throws: LoggerFormatError.self) { try NHSFrame(bytes: [0x48]) }
    }
}

@Suite struct NHS31xxLogTests {
    let readTime = Date(timeIntervalSince1970: 1_700_002_501)

    @Test func initialMessageIsDetectedAndDecoded() throws {
        let bytes = nhsExampleInitialMessageBytes()
        #expect(bytes.count == 272)
        let message = try NDEFParser.message(from: bytes)
        let log = try LoggerDecoder.decode(message, options: DecodeOptions(readTime: readTime, readTimeSource: .tagRead))
        #expect(log.format == "nhs31xx")
        #expect(log.detection?.text.hasPrefix("auto-detected nhs31xx") == true)
        #expect(log.logger.model == "NHS3152" && log.logger.tagUID == "04AB12A1B2C3D4")
        #expect(log.samples.isEmpty)
        #expect(log.interval == 600)
        #expect(log.metadata["loggerValidMinimum"] == "2.0" && log.metadata["loggerValidMaximum"] == "8.0")
        #expect(log.metadata["attainedMinimum"] == "4.5" && log.metadata["attainedMaximum"] == "8.5")
        #expect(log.metadata["status"] == "0x02F")
        #expect(log.metadata["statusBits"] == "pristine,configured,starting,logging,temperatureTooHigh")
        #expect(log.metadata["state"] == "logging")
        #expect(log.metadata["clockDrift"] == "+0 s")
        #expect(log.metadata["softwareVersion"] == "2012.19" && log.metadata["messageAPI"] == "6.1")
        #expect(log.metadata["statusText"]?.text.contains("Min 4.5 C / Max 8.5 C") == true)
        #expect(log.warnings.contains { $0.text.contains("5 stored sample(s) were not read") })
    }

    /// The automatic-mode reads of docs/nhs31xx.md §4.2 for the example tag.
    func automaticModeTranscript(readAt time: Date) -> NHSTranscript {
        let initial = nhsExampleInitialMessageBytes()
        let single = { (hex: String) in NDEFMessage(records: [nhsResponseRecord(hex)]).serialized() }
        let reads = [
            initial, initial, single(nhsExampleStateEvents), single(nhsExampleExcursions), single(nhsExampleMeasurements),
            single(nhsPhantom), single(nhsNoResponse),
        ]
        return NHSTranscript(steps: reads.map { NHSTranscript.Step(write: nil, read: $0, time: time) })
    }

    @Test func automaticModeScriptRebuildsTheLog() throws {
        let transcript = automaticModeTranscript(readAt: readTime)
        let log = try LoggerDecoder.decode(transcript: transcript, options: DecodeOptions(readTime: .distantPast, readTimeSource: .now))
        #expect(log.readTime == readTime && log.readTimeSource == .tagRead)
        #expect(log.samples.map(\.temperature) == [4.5, 4.7, 5.1, 8.5, 6.0])
        #expect(log.samples.map { $0.time.timeIntervalSince1970 } == [1_700_000_001, 1_700_000_601, 1_700_001_201, 1_700_001_801, 1_700_002_401])
        #expect(log.timeBase == .loggerClock)
        #expect(log.timeBaseDetail?.contains("drift +0 s") == true)
        #expect(log.events.map(\.name) == ["pristine", "configured", "starting", "logging", "temperatureTooHigh"])
        #expect(log.events[3].time == Date(timeIntervalSince1970: 1_700_000_001))
        #expect(log.events[4].time == Date(timeIntervalSince1970: 1_700_001_801))
        #expect(log.events[4].end == Date(timeIntervalSince1970: 1_700_002_401))
        #expect(!log.warnings.contains { $0.text.contains("refused") || $0.text.contains("not read") })
        // The transcript survives JSON Lines.
        let again = try NHSTranscript.parse(Data(transcript.jsonLines.utf8))
        #expect(again == transcript)
        #expect(try LoggerDecoder.decode(transcript: again, options: DecodeOptions(readTime: .distantPast, readTimeSource: .now)) == log)
    }

    @Test func driftIsShownAndCorrectedLinearly() throws {
        // The reader's clock is 10 s ahead of the tag's after 2 500 s of logging.
        let transcript = automaticModeTranscript(readAt: readTime.addingTimeInterval(10))
        let log = try LoggerDecoder.decode(transcript: transcript, options: DecodeOptions(readTime: .distantPast, readTimeSource: .now))
        #expect(log.metadata["clockDrift"] == "+10 s")
        #expect(log.timeBaseDetail?.contains("rescaled linearly by 1.004000") == true)
        // corrected = start + (t − start) × 2510 / 2500, to the second: +2409.6 s → +2410 s
        #expect(log.samples[4].time.timeIntervalSince1970 == 1_700_000_001 + 2410)
        #expect(log.samples[1].time.timeIntervalSince1970 == 1_700_000_001 + 602)
        #expect(log.events[4].end == Date(timeIntervalSince1970: 1_700_002_411))
        // A read time days away from the tag's clock is the reader's error: not corrected, and said.
        let wrong = try LoggerDecoder.decode(
            transcript: automaticModeTranscript(readAt: readTime.addingTimeInterval(86_400)),
            options: DecodeOptions(readTime: .distantPast, readTimeSource: .now))
        #expect(wrong.samples[4].time.timeIntervalSince1970 == 1_700_002_401)
        #expect(wrong.warnings.contains { $0.text.contains("too much to be the tag's drift") })
        // With no trustworthy read time, nothing is corrected and the detail says so.
        let plain = try LoggerDecoder.decode(nhsExampleInitialMessage(), options: DecodeOptions(readTime: readTime, readTimeSource: .now))
        #expect(plain.metadata["clockDrift"] == nil)
        #expect(plain.timeBaseDetail?.contains("not corrected for drift") == true)
    }

    @Test func placeholderIsAMissingSampleNeverATemperature() throws {
        var readout = NHSReadout()
        readout.add(try NHSResponse.parse(try nhsFrame(nhsExampleConfig)))
        readout.add(.measurements(NHSMeasurements(offset: 0, samples: [45, 851, 51, 900, 60])))
        let log = try NHS31xxLog.build(readout, options: DecodeOptions(readTime: readTime, readTimeSource: .tagRead))
        #expect(log.samples[1].temperature == nil && log.samples[1].flags == [.missing])
        #expect(log.samples[1].time.timeIntervalSince1970 == 1_700_000_601)
        #expect(log.samples[3].temperature == 90 && log.samples[3].flags == [.outOfRange])
        #expect(log.warnings.contains { $0.text.contains("85.1 °C placeholder") })
    }

    @Test func lostClockMakesTheTimeBaseUnreliable() throws {
        var config = try #require(
            { () -> NHSConfig? in
                if case .config(let c) = try? NHSResponse.parse(try nhsFrame(nhsExampleConfig)) { return c }
                return nil
            }())
        config.currentTime = 1234  // counts from a reboot
        config.status = [.pristine, .configured, .starting, .logging, .stopped, .brownOut]
        var readout = NHSReadout()
        readout.add(.config(config))
        readout.add(.measurements(NHSMeasurements(offset: 0, samples: [45, 47])))
        readout.add(
            .events(
                NHSEvents(
                    index: 0, mask: 0x7F_FFFF, info: [.index, .timestamp, .eventNumber],
                    blocks: [
                        NHSEventBlock(index: 0, timestamp: 1_700_000_000, number: 0),
                        NHSEventBlock(index: 1, timestamp: 1200, number: 7),
                    ])))
        let log = try NHS31xxLog.build(readout, options: DecodeOptions(readTime: readTime, readTimeSource: .tagRead))
        #expect(log.timeBaseDetail?.contains("UNRELIABLE") == true)
        #expect(log.metadata["clockDrift"] == nil)
        #expect(log.warnings.contains { $0.text.contains("clock was lost") })
        #expect(log.warnings.contains { $0.text.contains("brown-out") })
        #expect(log.samples.map { $0.time.timeIntervalSince1970 } == [1_700_000_001, 1_700_000_601])
        #expect(log.events[1].name == "brownOut" && log.events[1].time == nil)
        #expect(log.events[1].detail?.text.contains("no date") == true)
    }

    @Test func chunksArePlacedByOffsetAndGapsAreSaid() throws {
        var config = NHSConfig(
            configTime: 1_700_000_000, interval: 60, startDelay: 0, runningTime: 0, validMinimum: 0, validMaximum: 0,
            attainedMinimum: 40, attainedMaximum: 60, count: 500, status: [.pristine, .configured, .starting, .logging],
            startTime: 1_700_000_001, currentTime: 1_700_030_000)
        config.result = .ok
        var readout = NHSReadout()
        readout.add(.config(config))
        // Automatic mode, newest first and overlapping: offsets 268, 36, 0.
        for offset in [268, 36, 0] {
            readout.add(.measurements(NHSMeasurements(offset: UInt16(offset), samples: (0..<232).map { Int16(40 + (offset + $0) % 20) })))
        }
        let log = try NHS31xxLog.build(readout, options: DecodeOptions(readTime: Date(timeIntervalSince1970: 1_700_030_000), readTimeSource: .tagRead))
        #expect(log.samples.count == 500)
        #expect(log.samples[499].temperature == Double(40 + 499 % 20) / 10)
        #expect(log.metadata["loggerLimits"]?.text.hasPrefix("off") == true)
        // Only the first chunk: the rest is said to be unread.
        var partial = NHSReadout()
        partial.add(.config(config))
        partial.add(.measurements(NHSMeasurements(offset: 0, samples: [40, 41])))
        let cut = try NHS31xxLog.build(partial, options: DecodeOptions(readTime: Date(timeIntervalSince1970: 1_700_030_000), readTimeSource: .tagRead))
        #expect(cut.warnings.map(\.text).contains("498 of the 500 stored sample(s) were not read (numbers 2–499, 0 = oldest)"))
    }

    @Test func transcriptErrorsNameTheLine() throws {
        let bad = Data("{\"write\":null,\"read\":\"D1\"}\n{\"write\":null,\"read\":\"zz\"}\n".utf8)
        let error = try #require(throws: LoggerFormatError.self) { try NHSTranscript.parse(bad) }
        #expect(error.field == "transcript line 2" && error.offset == 0)
        let notNDEF = try NHSTranscript.parse(Data("{\"write\":null,\"read\":\"D1\"}\n".utf8))
        let readError = try #require(throws: LoggerFormatError.self) { try notNDEF.readout() }
        #expect(readError.field == "transcript line 1")
        #expect(NHSTranscript.looks(like: Data("{\"write\":null,\"read\":\"\"}\n".utf8)))
        #expect(!NHSTranscript.looks(like: Data("03 1A D2".utf8)))
    }
}
