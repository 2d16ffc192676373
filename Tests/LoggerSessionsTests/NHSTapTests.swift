import Foundation
import NDEF
import NFCTags
import NFCTagsEmulation
import Testing

@testable import LoggerFormats
@testable import LoggerSessions

/// Collects the progress fractions a tap reports.
final class FractionLog: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Double] = []
    func add(_ value: Double) { lock.withLock { values.append(value) } }
    var all: [Double] { lock.withLock { values } }
}

@Suite struct NHSTapTests {
    static let start = 1_700_000_000.0

    func loggedTag(samples: Int) async -> VirtualNHS3100 {
        let start = Self.start
        let tag = VirtualNHS3100(logger: NHS3100Logger(now: start) { time in 5 + 4 * sin((time - start) / 7200) })
        await tag.remove()
        await tag.update {
            $0.configure(NHSConfiguration(currentTime: UInt32(start), interval: 60, validMinimum: 20, validMaximum: 80))
            $0.advance(by: Double(samples - 1) * 60 + 30)
        }
        await tag.tap()
        return tag
    }

    /// What the phone's tag session does first with every tag: a plain read of the NDEF message.
    func initialMessage(_ transport: any TagTransport) async throws -> Data {
        let result = try await TagReader.read(from: transport, options: TagReadOptions(scope: .ndefMessage))
        let bytes = try #require(result.ndefMessageBytes)
        #expect(NHSLoggerSession.isInitialMessage(try NDEFParser.message(from: bytes)))
        return bytes
    }

    func options(_ tag: VirtualNHS3100) async -> DecodeOptions {
        DecodeOptions(readTime: await tag.worldTime, readTimeSource: .tagRead)
    }

    @Test func aTapReadsEverySampleInCommandModeWithProgress() async throws {
        let tag = await loggedTag(samples: 600)
        let initial = try await initialMessage(tag)
        let fractions = FractionLog()
        let worldTime = await tag.worldTime
        let read = try await NHSTap.read(
            tag, initialMessage: initial, decodeOptions: await options(tag), options: noDelay,
            clock: { worldTime }
        ) { fractions.add(NHSTap.fraction($0)) }
        #expect(!read.automaticMode)
        #expect(read.log.samples.count == 600)
        let stored = await tag.logger.samples
        #expect(zip(read.log.samples, stored).allSatisfy { abs(($0.temperature ?? .nan) - Double($1) / 10) < 0.001 })
        // The transcript starts with the adopted initial message and holds the commands written.
        #expect(read.transcript.steps.first?.write == nil && read.transcript.steps.first?.read == initial)
        #expect(read.transcript.steps.dropFirst().allSatisfy { $0.write != nil })
        // The transcript decodes to the same log (what the station and the archive keep).
        let again = try LoggerDecoder.decode(
            transcript: try NHSTranscript.parse(Data(read.transcript.jsonLines.utf8)),
            options: await options(tag))
        #expect(again.samples == read.log.samples)
        let seen = fractions.all
        #expect(seen.last == 1)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(seen.contains { $0 > 0.1 && $0 < 1 })
    }

    @Test func aRefusedWriteOnTheTransportFallsBackToAutomaticMode() async throws {
        let tag = await loggedTag(samples: 300)
        let reader = ReadOnlyTransport(tag)
        let initial = try await initialMessage(reader)
        let read = try await NHSTap.read(reader, initialMessage: initial, decodeOptions: await options(tag), options: noDelay)
        #expect(read.automaticMode)
        #expect(read.log.samples.count == 300)
        #expect(read.transcript.steps.allSatisfy { $0.write == nil })
        #expect(await tag.commandWrites == 0)
    }

    @Test func aTagThatIsNoNHS31xxIsRefusedBeforeAnyExchange() async throws {
        let message = NDEFMessage(records: [NDEFRecord(tnf: .wellKnown, type: "T", payload: Data([0x02, 0x65, 0x6E, 0x68, 0x69]))])
        let tag = await loggedTag(samples: 5)
        await #expect(throws: NHSSessionError.self) {
            try await NHSTap.read(tag, initialMessage: message.serialized(), decodeOptions: await options(tag), options: noDelay)
        }
        #expect(await tag.commandWrites == 0)
    }

    @Test func configureWaitsForStartThenStartRuns() async throws {
        let tag = VirtualNHS3100(logger: NHS3100Logger(now: Self.start) { _ in 4.0 })
        let setup = NHSLoggerSetup(interval: 300, validMinimum: 2, validMaximum: 8, start: .onStartCommand, runningTime: 86_400)
        let clock = Date(timeIntervalSince1970: Self.start)
        try await NHSTap.configure(
            tag, initialMessage: try await initialMessage(tag), setup: setup, options: noDelay,
            clock: { clock })
        var logger = await tag.logger
        #expect(logger.interval == 300 && logger.validMinimum == 20 && logger.validMaximum == 80)
        #expect(logger.startDelay == NHSConfiguration.waitForStart && logger.runningTime == 86_400)
        #expect(logger.configTime == UInt32(Self.start))
        #expect(logger.status.contains(.configured) && !logger.status.contains(.logging))
        await tag.remove()
        await tag.tap()
        try await NHSTap.start(tag, initialMessage: try await initialMessage(tag), options: noDelay, clock: { clock })
        await tag.update { $0.advance(by: 3_600) }
        logger = await tag.logger
        #expect(logger.status.contains(.logging))
        #expect(logger.samples.count >= 11)
    }

    @Test func startIsRefusedByALoggerThatDoesNotWaitForIt() async throws {
        let tag = await loggedTag(samples: 3)
        do {
            try await NHSTap.start(tag, initialMessage: try await initialMessage(tag), options: noDelay)
            Issue.record("START was accepted by a logging logger")
        } catch NHSSessionError.refused(let command, _) {
            #expect(command == "START")
        }
    }

    @Test func setupsTheLoggerCannotTakeAreRefusedBeforeSending() throws {
        #expect(NHSLoggerSetup(interval: 0).problem == .intervalOutOfRange(0))
        #expect(NHSLoggerSetup(interval: 70_000).problem == .intervalOutOfRange(70_000))
        #expect(NHSLoggerSetup(interval: 60, validMinimum: 8, validMaximum: 2).problem == .limitsReversed)
        #expect(NHSLoggerSetup(interval: 60, validMinimum: 2).problem == .oneLimitOnly)
        #expect(NHSLoggerSetup(interval: 60, validMinimum: -50, validMaximum: 2).problem == .limitOutOfRange(-50))
        #expect(NHSLoggerSetup(interval: 60, start: .after(seconds: -1)).problem == .delayOutOfRange(-1))
        #expect(NHSLoggerSetup(interval: 60, runningTime: -5).problem == .runningTimeOutOfRange(-5))
        let setup = NHSLoggerSetup(interval: 600, validMinimum: 2.04, validMaximum: 7.96, start: .after(seconds: 120), runningTime: 0)
        #expect(setup.problem == nil)
        let configuration = try setup.configuration(clock: Date(timeIntervalSince1970: 1_700_000_000.9))
        #expect(
            configuration
                == NHSConfiguration(
                    currentTime: 1_700_000_000, interval: 600, startDelay: 120, runningTime: 0,
                    validMinimum: 20, validMaximum: 80))
        #expect(try NHSLoggerSetup(interval: 60).configuration(clock: Date()).validMinimum == 0)
    }

    @Test func theReadOnlyTransportRefusesEveryWriteAndPassesReads() {
        #expect(ReadOnlyTransport.isWrite(Data([0xA2, 0x04, 1, 2, 3, 4]), technology: .iso14443A))
        #expect(ReadOnlyTransport.isWrite(Data([0xA0, 0x04]), technology: .iso14443A))
        #expect(!ReadOnlyTransport.isWrite(Data([0x30, 0x04]), technology: .iso14443A))
        #expect(!ReadOnlyTransport.isWrite(Data([0x3A, 0x04, 0x10]), technology: .iso14443A))
        for code: UInt8 in [0x21, 0x22, 0x24, 0x31, 0x32, 0x34] {
            #expect(ReadOnlyTransport.isWrite(Data([0x02, code, 0x00]), technology: .iso15693))
        }
        #expect(!ReadOnlyTransport.isWrite(Data([0x02, 0x20, 0x00]), technology: .iso15693))
        #expect(!ReadOnlyTransport.isWrite(Data([0x02, 0x23, 0x00, 0x03]), technology: .iso15693))
        #expect(!ReadOnlyTransport.isWrite(Data([0xA2]), technology: .iso15693))
    }

    @Test func progressFractions() {
        #expect(NHSTap.fraction(NHSReadProgress(phase: "events", samplesRead: 0, samplesTotal: 0, exchanges: 1)) == 0.05)
        #expect(NHSTap.fraction(NHSReadProgress(phase: "samples", samplesRead: 0, samplesTotal: 1000, exchanges: 3)) == 0.1)
        #expect(NHSTap.fraction(NHSReadProgress(phase: "samples", samplesRead: 500, samplesTotal: 1000, exchanges: 5)) == 0.55)
        #expect(NHSTap.fraction(NHSReadProgress(phase: "done", samplesRead: 1000, samplesTotal: 1000, exchanges: 8)) == 1)
    }
}
