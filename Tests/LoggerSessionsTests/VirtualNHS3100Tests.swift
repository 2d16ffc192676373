import Foundation
import NDEF
import NFCTags
import Testing

@testable import LoggerFormats
@testable import LoggerSessions
@testable import NFCTagsEmulation

func hexBytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.filter(\.isHexDigit))
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0..<$0 + 2]), radix: 16)! }
}

/// The response frames of a serialized message, as hex.
func frames(_ message: Data) throws -> [String] {
    try NHSReadout.frames(in: NDEFParser.message(from: message)).frames.map(\.frame.description)
}

let noDelay = NDEFExchangeOptions(maxPolls: 3, pollDelay: .zero)

/// The worked example of docs/nhs31xx.md §3.2–§4.2: configured at 1700000000 for 600 s and
/// 2.0–8.0 °C, five samples 4.5, 4.7, 5.1, 8.5, 6.0 °C, read at 1700002501.
func exampleTag() async -> VirtualNHS3100 {
    let values = [4.5, 4.7, 5.1, 8.5, 6.0]
    let logger = NHS3100Logger(now: 1_700_000_000) { time in
        let index = Int(((time - 1_700_000_001) / 600).rounded())
        return values[max(0, min(values.count - 1, index))]
    }
    let tag = VirtualNHS3100(
        logger: logger,
        version: NHSVersion(
            softwareMajor: 2012, softwareMinor: 19, apiMajor: 6, apiMinor: 1,
            deviceID: NHSVersion.nhs3152DeviceID))
    await tag.remove()
    await tag.update {
        $0.configure(NHSConfiguration(currentTime: 1_700_000_000, interval: 600, validMinimum: 20, validMaximum: 80))
        $0.advance(to: 1_700_002_501)
    }
    await tag.tap()
    return tag
}

@Suite struct VirtualNHS3100Tests {
    @Test func automaticModeShowsTheWorkedExamplesByteForByte() async throws {
        let tag = await exampleTag()
        let session = NDEFExchangeSession(transport: tag, options: noDelay)
        var reads: [Data] = []
        for _ in 0..<8 { reads.append(try await session.read()) }
        // Reads 1–2: the initial message (§4.1), 272 bytes with one failure record.
        #expect(reads[0].count == 272 && reads[1] == reads[0])
        let initial = try NDEFParser.message(from: reads[0])
        #expect(initial.records.count == 6)
        #expect(Array(reads[0].prefix(3)) == [0x92, 0x0E, 0x10])
        #expect(
            try frames(reads[0]) == [
                "02 01 00 00 DC 07 13 00 06 00 01 00 20 52 31 4E",
                "0A 01 04 AB 12 35 A1 B2 C3 D4",
                "48 01 00 00 00 00 00 F1 53 65 58 02 00 00 00 00 00 00 00 00 14 00 50 00 2D 00 55 00 05 00 2F 00 00 00 01 F1 53 65 C5 FA 53 65",
            ])
        #expect(Array(reads[0].suffix(67).prefix(16)) == hexBytes("12 03 0A 6E 2F 70 0A 01 04 AB 12 35 A1 B2 C3 D4"))
        #expect(Array(reads[0].suffix(51).prefix(11)) == hexBytes("42 03 00 00 00 2A 6E 2F 70 48 01"))
        // Reads 3–7 (§4.2).
        #expect(
            try frames(reads[2]) == ["5B 01 00 00 9F FF 7F 00 07 04 00 00 00 00 F1 53 65 00 01 00 00 F1 53 65 01 02 00 00 F1 53 65 02 03 00 01 F1 53 65 03"])
        #expect(try frames(reads[3]) == ["5B 01 00 00 60 00 00 00 0F 01 00 04 00 09 F8 53 65 05 61 FA 53 65"])
        #expect(try frames(reads[4]) == ["46 01 00 00 00 00 00 00 05 00 00 00 2D 00 2F 00 33 00 55 00 3C 00"])
        #expect(try frames(reads[5]) == ["46 01 0D 00 01 00"])
        #expect(try frames(reads[6]) == ["01 01 0B 00 01 00"])
        #expect(reads[7] == reads[6])
        // The §4.2 reads decode to the logger's log.
        let transcript = NHSTranscript(steps: reads.map { NHSTranscript.Step(write: nil, read: $0, time: Date(timeIntervalSince1970: 1_700_002_501)) })
        let log = try LoggerDecoder.decode(transcript: transcript, options: DecodeOptions(readTime: .now, readTimeSource: .now))
        #expect(log.samples.map(\.temperature) == [4.5, 4.7, 5.1, 8.5, 6.0])
        #expect(log.events.count == 5 && log.metadata["clockDrift"] == "+0 s")
    }

    @Test func setConfigAnswerSitsInMemoryAsTheNoteShows() async throws {
        let tag = VirtualNHS3100(logger: NHS3100Logger(now: 1_700_000_000))
        let session = NHSLoggerSession(transport: tag, options: noDelay)
        try await session.readInitialMessage()
        try await session.configure(NHSConfiguration(currentTime: 1_700_000_000, interval: 600, validMinimum: 20, validMaximum: 80))
        // §3.2: pages 4–10 after the command.
        let memory = [UInt8](await tag.sharedMemory)
        #expect(Array(memory[16..<42]) == hexBytes("01 03 E8 0E 46 FD 01 00 03 0F C2 03 00 00 00 06 6E 2F 70 49 01 00 00 00 00 FE"))
        // What was written is the note's TLV (written length last).
        #expect(
            session.transcript.steps.last?.write.map { [UInt8]($0) }
                == hexBytes("D2 03 14 6E 2F 70 49 00 00 F1 53 65 58 02 00 00 00 00 00 00 00 00 14 00 50 00"))
        #expect(await tag.automaticModeRunning == false)
        #expect(await tag.logger.status == [.pristine, .configured, .starting])
    }

    @Test func configureLetDaysPassAndReadThousandsOfSamples() async throws {
        let start = 1_700_000_000.0
        // A slow sine around 5 °C, and a tag clock 50 ppm fast.
        let logger = NHS3100Logger(now: start, driftPPM: 50, capacity: 10_000) { time in
            5 + 3.5 * sin((time - start) / 86_400 * 2 * .pi)
        }
        let tag = VirtualNHS3100(logger: logger)
        let setup = NHSLoggerSession(transport: tag, options: noDelay, clock: { Date(timeIntervalSince1970: start) })
        try await setup.readInitialMessage()
        try await setup.configure(NHSConfiguration(currentTime: UInt32(start), interval: 60, startDelay: 120, validMinimum: 20, validMaximum: 80))
        await tag.remove()
        await tag.update { $0.advance(by: 3 * 86_400) }
        await tag.tap()
        let readTime = Date(timeIntervalSince1970: start + 3 * 86_400)
        let session = NHSLoggerSession(transport: tag, options: noDelay, clock: { readTime })
        let phases = LockedPhases()
        let readout = try await session.readOut { phases.append($0) }
        let total = Int(readout.config?.count ?? 0)
        #expect(total >= 4300 && total <= 4320)
        #expect(readout.samples.count == total)
        #expect(phases.values.last?.phase == "done" && phases.values.last?.samplesRead == total)
        // One initial read, two GETEVENTS, ceil(total / 232) GETMEASUREMENTS.
        #expect(session.exchange.exchangeCount == 1 + 2 + (total + 231) / 232)
        let log = try NHS31xxLog.build(readout, options: DecodeOptions(readTime: readTime, readTimeSource: .tagRead))
        #expect(log.samples.count == total)
        #expect(!log.warnings.contains { if case .nhsUnread = $0 { return true } else { return false } })
        // The drift (tag 50 ppm fast: about −13 s after 3 days) is measured and corrected:
        // the newest sample then lies within a second of its world time.
        let drift = Int(log.metadata["clockDrift"]?.text.split(separator: " ").first ?? "") ?? 0
        #expect(drift <= -12 && drift >= -14)
        let lastWorld = start + (120 + Double(total - 1) * 60) / (1 + 50e-6)
        #expect(abs(log.samples[total - 1].time.timeIntervalSince1970 - lastWorld) < 1.5)
        #expect(log.events.map(\.name).prefix(4) == ["pristine", "configured", "starting", "logging"])
        #expect(log.events.contains { $0.name == "temperatureTooLow" })
        // The transcript rebuilds the same log.
        let again = try LoggerDecoder.decode(
            transcript: NHSTranscript.parse(Data(session.transcript.jsonLines.utf8)),
            options: DecodeOptions(readTime: readTime, readTimeSource: .given))
        #expect(again.samples == log.samples)
    }

    @Test func refusalsQueueAndLiveTemperature() async throws {
        let logger = NHS3100Logger(now: 1_700_000_000) { _ in -5.3 }
        let tag = VirtualNHS3100(logger: logger)
        let session = NHSLoggerSession(transport: tag, options: noDelay)
        try await session.readInitialMessage()
        #expect(try await session.send(.start) == .result(id: 0x5A, .notAllowed))
        #expect(try await session.send(.getResponse) == .result(id: 0x01, .noResponse))
        #expect(try await session.send(.getPeriodicData(which: 2, format: 0, offset: 0)) == .result(id: 0x5E, .badParameter))
        #expect(try await session.send(.getPeriodicData(which: 1, format: 1, offset: 0)) == .result(id: 0x5E, .notImplemented))
        #expect(try await session.measureTemperature() == -53)
        // After GETMEASUREMENTS the phantom is queued first (§1.6): GETRESPONSE skips it.
        _ = try await session.send(.getMeasurements(offset: 0))
        #expect(try await session.measureTemperature() == -53)
        // Three queued frames do not fit the 20-byte FIFO: the third pushes the others out.
        _ = try await session.send(.getMeasurements(offset: 0))
        _ = try await session.send(.checkBattery)
        _ = try await session.send(.getMeasurements(offset: 0))
        #expect(try await session.send(.getResponse) == .result(id: 0x46, .badLength))
        #expect(try await session.send(.getResponse) == .result(id: 0x01, .noResponse))
        // Wrong length and unknown id, sent as raw frames.
        let raw = session.exchange
        let badLength = NDEFMessage(records: [NDEFRecord(tnf: .media, type: "n/p", payload: Data([0x46, 0x00, 0x00]))]).serialized()
        #expect(try frames(try await raw.exchange(badLength)) == ["46 01 0D 00 01 00"])
        let unknown = NDEFMessage(records: [NDEFRecord(tnf: .media, type: "n/p", payload: Data([0x77, 0x00]))]).serialized()
        #expect(try frames(try await raw.exchange(unknown)) == ["77 01 07 00 01 00"])
        // Waiting for START, then START.
        try await session.configure(NHSConfiguration(currentTime: 1_700_000_000, interval: 60, startDelay: NHSConfiguration.waitForStart))
        #expect(await tag.logger.status == [.pristine, .configured])
        try await session.start()
        #expect(await tag.logger.status == [.pristine, .configured, .starting])
        #expect(try await session.send(.checkBattery) == .result(id: 0x0B, .notAllowed))
    }

    @Test func faultsRemovedMidExchangeAndNeverAnswered() async throws {
        let tag = VirtualNHS3100(logger: NHS3100Logger(now: 1_700_000_000), faults: TagFaults([.unansweredCommand(at: 1)]))
        let session = NHSLoggerSession(transport: tag, options: noDelay)
        try await session.readInitialMessage()
        await #expect(throws: NHSSessionError.exchange(.noAnswer(polls: 3, afterExchanges: 1))) { try await session.send(.getConfig) }
        await tag.setFaults(TagFaults([.removedAfter(15)]))
        await tag.tap()
        let second = NHSLoggerSession(transport: tag, options: noDelay)
        await #expect(throws: NHSSessionError.self) { _ = try await second.readOut() }
        do {
            _ = try await NHSLoggerSession(transport: tag, options: noDelay).readOut()
            Issue.record("read a removed tag")
        } catch NHSSessionError.exchange(.tagRemoved(let count)) {
            #expect(count == 0)
        }
    }

    @Test func linkFaultsOfTheOneFaultModelCountCommandsFromTheTap() async throws {
        let read = Data([0x30, 0x00])
        let clean = try await VirtualNHS3100(logger: NHS3100Logger(now: 1_700_000_000)).send(read, timeout: .seconds(1))
        let tag = VirtualNHS3100(
            logger: NHS3100Logger(now: 1_700_000_000),
            faults: TagFaults([.flippedBit(at: 1), .silent(from: 2, count: 1)]))
        let flipped = try await tag.send(read, timeout: .seconds(1))
        #expect(zip(flipped, clean).map { ($0 ^ $1).nonzeroBitCount }.reduce(0, +) == 1)
        await #expect(throws: TransportError.timeout) { try await tag.send(read, timeout: .seconds(1)) }
        #expect(try await tag.send(read, timeout: .seconds(1)) == clean)
        await tag.tap()  // a new tap counts from 1 again
        #expect(try await tag.send(read, timeout: .seconds(1)) == flipped)

        let torn = VirtualNHS3100(logger: NHS3100Logger(now: 1_700_000_000), faults: TagFaults([.tornWrite(at: 1)]))
        await #expect(throws: TransportError.tagRemoved) { try await torn.send(Data([0xA2, 0x80, 1, 2, 3, 4]), timeout: .seconds(1)) }
        #expect(await torn.isRemoved)
        #expect(Array(await torn.sharedMemory[512..<516]) == [1, 2, 0, 0])
    }

    @Test func automaticScriptChunksNewestFirstAndLoopsOnMultiplesOf232() {
        var five = AutomaticScript(count: 500)
        #expect([five.nextChunk(), five.nextChunk(), five.nextChunk(), five.nextChunk()] == [268, 36, 0, nil])
        var exact = AutomaticScript(count: 464)
        #expect([exact.nextChunk(), exact.nextChunk(), exact.nextChunk()] == [232, 0, 232])
        var none = AutomaticScript(count: 0)
        #expect(none.nextChunk() == nil)
    }

    @Test func placeholderWhileTheFieldIsPresent() async throws {
        let tag = VirtualNHS3100(logger: NHS3100Logger(now: 1_700_000_000))
        let session = NHSLoggerSession(transport: tag, options: noDelay)
        try await session.readInitialMessage()
        try await session.configure(NHSConfiguration(currentTime: 1_700_000_000, interval: 60))
        await tag.update { $0.advance(by: 200) }  // still in the field: nothing measured
        #expect(await tag.logger.samples == [851, 851, 851, 851])
    }
}

final class LockedPhases: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [NHSReadProgress] = []
    func append(_ value: NHSReadProgress) { lock.lock(); stored.append(value); lock.unlock() }
    var values: [NHSReadProgress] { lock.lock(); defer { lock.unlock() }; return stored }
}

@Suite struct NHSEventPagingTests {
    /// 60 excursions do not fit one 475-byte GETEVENTS answer: the tag ORs "more" into the
    /// mask echo (§3.7), and the session asks for each side apart.
    @Test func manyExcursionsAreAllRead() async throws {
        let start = 1_700_000_000.0
        // Alternating 9.0 °C and 5.0 °C (then 1.0 °C): out of 2.0–8.0 every other sample.
        let logger = NHS3100Logger(now: start) { time in
            let index = Int(((time - start - 1) / 60).rounded())
            return index % 2 == 1 ? 5.0 : (index % 4 == 0 ? 9.0 : 1.0)
        }
        let tag = VirtualNHS3100(logger: logger)
        await tag.remove()
        await tag.update {
            $0.configure(NHSConfiguration(currentTime: UInt32(start), interval: 60, validMinimum: 20, validMaximum: 80))
            $0.advance(by: 120 * 60)
        }
        await tag.tap()
        let session = NHSLoggerSession(transport: tag, options: noDelay, clock: { Date(timeIntervalSince1970: start + 7200) })
        let readout = try await session.readOut()
        let all = await tag.logger.events
        let excursions = all.filter { $0.number == 5 || $0.number == 6 }
        #expect(excursions.count > 42)
        // The cut-short answer showed the misplaced "more" bit.
        let plain = await tag.logger.eventsAnswer(index: 0, mask: 0x60, info: .all)
        #expect(plain.truncated(requestedMask: 0x60) && plain.blocks.count < excursions.count)
        #expect(readout.mergedEvents.count == all.count)
        #expect(readout.mergedEvents.filter { $0.number == 5 || $0.number == 6 }.allSatisfy { $0.endTime != nil })
        let log = try LoggerDecoder.decode(transcript: session.transcript, options: DecodeOptions(readTime: .now, readTimeSource: .now))
        #expect(log.events.count == all.count)
        #expect(!log.warnings.contains(.nhsEventsCutShort))
    }
}
