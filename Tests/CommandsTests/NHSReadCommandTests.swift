import ColdTapKit
import Digest
import Foundation
import LoggerFormats
import LoggerSessions
import NFCTags
import NFCTagsEmulation
import PCSC
import Testing

@testable import ColdTapCommands

/// `coldtap read` of a virtual NHS3100 through the reader emulator and ReaderTransport (the
/// PC/SC path without pcscd), its saved transcript, and configure / start / measure.
@Suite struct NHSReadCommandTests {
    /// A logger configured two days ago (60 s, 2.0–8.0 °C), read now by the real clock.
    static func loggedTag() async -> VirtualNHS3100 {
        let now = Date().timeIntervalSince1970.rounded(.down)
        let configured = now - 2 * 86_400
        let logger = NHS3100Logger(now: configured) { time in 5 + 4 * sin((time - configured) / 43_200 * .pi) }
        let tag = VirtualNHS3100(logger: logger)
        await tag.remove()
        await tag.update {
            $0.configure(NHSConfiguration(currentTime: UInt32(configured), interval: 60, validMinimum: 20, validMaximum: 80))
            $0.advance(to: now)
        }
        await tag.tap()
        return tag
    }

    static func transport(_ tag: VirtualNHS3100, reader: String = "ACS ACR1252 1S CL Reader PICC 0") async throws -> ReaderTransport {
        let emulator = ContactlessReaderEmulator(tag: tag)
        return try await ReaderTransport.open(channel: EmulatedReaderChannel(emulator), readerName: reader, atr: emulator.atr.bytes)
    }

    /// Transparent session, direct transmit and a generic reader profile all carry the exchange.
    @Test(arguments: ["ACS ACR1252 1S CL Reader PICC 0", "ACS ACR122U PICC Interface 0", "Identiv uTrust 3700 F CL Reader 0"])
    func everyReaderPathCarriesTheExchange(reader: String) async throws {
        let tag = await Self.loggedTag()
        let outcome = try await CommandLineRead.read(
            try await Self.transport(tag, reader: reader), options: LogInput.Options(),
            saveDump: nil, console: .capturing())
        #expect(outcome.log.samples.count == 2880)
    }

    @Test func readRecognisesTheLoggerAndTheSavedTranscriptDecodesToTheSameLog() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let tag = await Self.loggedTag()
        let dump = files.directory.appendingPathComponent("nhs.jsonl").path
        let outcome = try await CommandLineRead.read(
            try await Self.transport(tag), options: LogInput.Options(), saveDump: dump,
            console: .capturing())
        let log = outcome.log
        #expect(log.format == "nhs31xx")
        #expect(log.samples.count == 2880)
        #expect(log.samples.allSatisfy { $0.flags.isEmpty })
        // The virtual tag's clock stood still from the set-up to the read: the drift is that pause.
        let drift = log.metadata["clockDrift"].flatMap { Int($0.text.split(separator: " ")[0]) }
        #expect(drift.map { $0 >= 0 && $0 <= 60 } == true)
        #expect(log.events.contains { $0.name == "temperatureTooHigh" } && log.events.contains { $0.name == "temperatureTooLow" })
        #expect(log.logger.tagUID == "04AB12A1B2C3D4" && log.logger.model == "NHS3100")
        // The transcript: one line per step, the first a read without a write.
        let text = try String(contentsOfFile: dump, encoding: .utf8)
        let lines = text.split(separator: "\n")
        let expectedSteps = 1 + 2 + 13  // the initial read, two GETEVENTS, ceil(2880 / 232) chunks
        #expect(lines.count == expectedSteps)
        #expect(lines[0].hasPrefix("{\"write\":null,\"read\":\"92"))
        // decode FILE rebuilds exactly the log read gave.
        let decoded = await runColdTap(["decode", dump, "--json"])
        #expect(decoded.status == 0, "\(decoded.err)")
        #expect(decoded.out == LogExport.json(log, wording: HintWording.logWording).serialized() + "\n")
        // The report shows the logger's own events.
        let report = await runColdTap(["report", dump])
        #expect(report.status == 0 || report.status == 1)
        #expect(report.out.contains("Logger events"))
    }

    /// The archive keeps an NHS31xx read as its exchange transcript: `archive verify` decodes
    /// it again to the same samples, and the history holds every sample read.
    @Test func theArchiveKeepsTheTranscriptAndVerifiesIt() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let archive = files.directory.appendingPathComponent("archive.sqlite").path
        let outcome = try await CommandLineRead.read(
            try await Self.transport(await Self.loggedTag()), options: LogInput.Options(),
            saveDump: nil, console: .capturing())
        let transcript = try #require(outcome.transcript)
        let kept = try await ArchiveAccess.keep(
            outcome, origin: "test", options: LogInput.Options(), loggerArgument: nil,
            loggerID: nil, profile: ReportCommand.defaultProfile, timeZone: .gmt,
            archive: archive)
        #expect(kept.newSamples == 2880)
        let verify = await runColdTap(["archive", "verify", "--archive", archive])
        #expect(verify.status == 0, "\(verify.out)\(verify.err)")
        let history = await runColdTap(["history", kept.loggerID, "--archive", archive, "--json"])
        #expect(history.status == 0, "\(history.err)")
        #expect(history.out.contains(SHA256Digest.hex(transcript)))
    }

    @Test func tagRemovedMidReadSaysAfterHowManyExchanges() async throws {
        let tag = await Self.loggedTag()
        await tag.setFaults(TagFaults([.removedAfter(100)]))
        await tag.tap()
        do {
            _ = try await CommandLineRead.read(try await Self.transport(tag), options: LogInput.Options(), saveDump: nil, console: .capturing())
            Issue.record("a removed tag was read (\(await tag.commandCount) commands)")
        } catch let error as CommandError {
            #expect(error.status == .ioError)
            #expect(error.message.contains("the tag was removed after"))
            #expect(error.message.contains("nothing was saved"))
        }
    }

    @Test func configureAsksForYesThenStartAndMeasure() async throws {
        let tag = await Self.loggedTag()
        let transport = try await Self.transport(tag)
        let session = try await NHSConnect.session(on: transport)
        var arguments = try Arguments(
            ["--interval", "300", "--valid-min", "2", "--valid-max", "8", "--wait-for-start"], options: ConfigureCommand.forms[0].options)
        let request = try ConfigureCommand.parse(&arguments)
        #expect(request.summary == "a sample every 300 s, waiting for 'coldtap start', no end, valid 2.0 … 8.0 °C")
        do {
            try await ConfigureCommand.configure(session, request: request, clock: Date(), console: .capturing())
            Issue.record("erased a logger without --yes")
        } catch let error as CommandError {
            #expect(error.status == .usage && error.message.contains("add --yes"))
        }
        var confirmed = request
        confirmed.yes = true
        try await ConfigureCommand.configure(session, request: confirmed, clock: Date(), console: .capturing())
        #expect(await tag.logger.status == [.pristine, .configured])
        let configured = await tag.logger
        #expect(configured.interval == 300 && configured.validMaximum == 80)
        try await StartCommand.start(session)
        #expect(await tag.logger.status == [.pristine, .configured, .starting])
        do {
            try await StartCommand.start(session)
            Issue.record("started twice")
        } catch let error as CommandError {
            #expect(error.message.contains("refused START"))
        }
        let value = try await MeasureCommand.measure(session)
        #expect(value == (await tag.logger.currentReading))
        // Usage errors.
        var bad = try Arguments(["--interval", "60", "--valid-min", "8", "--valid-max", "2"], options: ConfigureCommand.forms[0].options)
        #expect(throws: CommandError.self) { try ConfigureCommand.parse(&bad) }
        var both = try Arguments(["--interval", "60", "--start-delay", "5", "--wait-for-start"], options: ConfigureCommand.forms[0].options)
        #expect(throws: CommandError.self) { try ConfigureCommand.parse(&both) }
    }
}

@Suite struct NHSDemoTests {
    @Test func demoConfiguresRunsAndReadsAVirtualNHS3100() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let out = files.directory.appendingPathComponent("demo").path
        let result = await runColdTap(["demo", "--logger", "nhs3100", "--in-process", "--out", out])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("in command mode through the in-process virtual tag"))
        #expect(result.out.contains("The logger itself: excursion"))
        for name in ["report.pdf", "report.html", "report.png", "samples.csv", NHSDemo.transcriptName] {
            #expect(FileManager.default.fileExists(atPath: (out as NSString).appendingPathComponent(name)), "\(name)")
        }
        // The transcript it kept reports again, with the logger's events.
        let again = await runColdTap(["report", (out as NSString).appendingPathComponent(NHSDemo.transcriptName), "--profile", "logger"])
        #expect(again.status == 0)
        // The headline says both that nobody acknowledged the excursion and that the logger saw it.
        #expect(again.out.hasPrefix("ALARM — 1 excursion not yet acknowledged; the logger itself recorded an excursion"), "\(again.out.prefix(200))")
        #expect(again.out.contains("temperatureTooHigh"))
    }
}
