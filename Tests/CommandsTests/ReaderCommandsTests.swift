import ColdTapBase
import ColdTapKit
import Foundation
import LoggerFormats
import NFCTags
import NFCTagsEmulation
import PCSC
import Testing

@testable import ColdTapCommands

private func run(_ arguments: [String]) async -> (status: Int32, out: String, err: String) {
    let console = Console.capturing()
    let status = await ColdTap.main(arguments, console: console)
    return (status, console.output, console.errorOutput)
}

@Suite struct ReaderCommandUsageTests {
    @Test func emulateRefusesBadArguments() async {
        #expect(await run(["emulate"]).status == 64)
        #expect(await run(["emulate", "--logger", "cupltag", "x.bin"]).status == 64)
        #expect(await run(["emulate", "--logger", "thermo9000"]).status == 64)
        #expect(await run(["emulate", "--logger", "dtn1", "--chip", "mifare-classic"]).status == 64)
        #expect(await run(["emulate", "--logger", "dtn1", "--fault", "vanish=2"]).status == 64)
        #expect(await run(["emulate", "--logger", "dtn1", "--vpcd", "localhost:notaport"]).status == 64)
    }

    @Test func emulateWithNobodyListeningSaysSo() async throws {
        // Port 9 (discard) on loopback: nothing listens there on a test machine.
        let result = await run(["emulate", "--logger", "generic16", "--vpcd", "127.0.0.1:9"])
        #expect(result.status == 69)
        #expect(result.err.contains("is pcscd running"))
    }

    @Test func theVirtualNHS3100TakesFaultsOfTheOneFaultModel() async {
        let bad = await run(["emulate", "--logger", "nhs3100", "--fault", "vanish=2"])
        #expect(bad.status == 64 && bad.err.contains("unanswered-command=N"), "\(bad.err)")
        let faulty = await run([
            "emulate", "--logger", "nhs3100", "--fault", "unanswered-command=1,removed-after=40",
            "--vpcd", "127.0.0.1:9",
        ])
        #expect(faulty.status == 69, "\(faulty.err)")
        #expect(faulty.err.contains("with faults unanswered-command=1,removed-after=40"), "\(faulty.err)")
    }

    @Test func readAndWriteRefuseBadArguments() async {
        #expect(await run(["read", "--json", "--csv"]).status == 64)
        #expect(await run(["read", "--timeout", "soon"]).status == 64)
        #expect(await run(["read", "--profile", "no-such-profile"]).status == 64)
        #expect(await run(["write"]).status == 64)
        #expect(await run(["write", "--text", "a", "--uri", "https://example.com"]).status == 64)
    }

    @Test func chipNamesAreForgiving() throws {
        #expect(try VirtualTags.chip(named: "ICODE-SLIX2") == .icodeSLIX2)
        #expect(try VirtualTags.chip(named: "st25dv64k") == .st25dv64k)
        #expect(try VirtualTags.chip(named: "NTAG 216") == .ntag216)
    }
}

/// The whole read path without pcscd: reader emulator → ReaderTransport → TagReader → decode.
@Suite struct ReaderPipelineTests {
    private func readThroughReader(_ logger: DemoLogger, chip: TagChip, reader: String, storageOnly: Bool = false)
        async throws -> (LoggerRead, TemperatureLog)
    {
        let readTime = Date(timeIntervalSince1970: 1_764_680_000)
        let made = try VirtualTags.make(.logger(logger), chip: chip, readTime: readTime, console: .capturing())
        let emulator = ContactlessReaderEmulator(tag: made.tag)
        let channel: any APDUChannel =
            storageOnly
            ? StorageOnlyReader(base: EmulatedReaderChannel(emulator)) : EmulatedReaderChannel(emulator)
        let transport = try await ReaderTransport.open(channel: channel, readerName: reader, atr: emulator.atr.bytes)
        #expect(transport.path == (storageOnly ? .storageCommands : ReaderProfile(readerName: reader).preferredPath))
        let outcome = try await CommandLineRead.read(transport, options: LogInput.Options(), saveDump: nil, console: .capturing())
        let message = try logger.message(readTime: readTime)
        let direct = try LogInput.decode(
            message, options: LogInput.Options(), readTime: outcome.readTime,
            readTimeSource: .tagRead, tagUID: outcome.result.uid.map { $0.hexString() })
        return (outcome, direct)
    }

    @Test(arguments: DemoLogger.allCases.filter { !$0.isSmarTag })
    func everyLoggerReadsThroughATransparentSessionOnType2AndType5(_ logger: DemoLogger) async throws {
        for chip in [TagChip.ntag216, .st25dv64k] {
            let (outcome, direct) = try await readThroughReader(logger, chip: chip, reader: "Virtual PCD 00 00")
            #expect(outcome.result.chip == chip)
            #expect(outcome.log == direct)
            #expect(outcome.log.samples.count == DemoLogger.sampleCount)
        }
    }

    /// A SmarTag's read takes the whole ST25DV64K memory (its NDEF lengths lag the data,
    /// docs/smartag.md §4.5) and gives the log the memory image decodes to.
    @Test(arguments: [DemoLogger.smarTag1, .smarTag2])
    func smarTagsReadThroughTheReaderAsTheirMemoryDecodes(_ logger: DemoLogger) async throws {
        let readTime = Date(timeIntervalSince1970: 1_764_680_000)
        let made = try VirtualTags.make(.logger(logger), chip: nil, readTime: readTime, console: .capturing())
        #expect(made.tag.chip == .st25dv64k)
        let emulator = ContactlessReaderEmulator(tag: made.tag)
        let transport = try await ReaderTransport.open(
            channel: EmulatedReaderChannel(emulator), readerName: "Virtual PCD 00 00",
            atr: emulator.atr.bytes)
        let outcome = try await CommandLineRead.read(transport, options: LogInput.Options(), saveDump: nil, console: .capturing())
        #expect(outcome.log.format.name == logger.rawValue)
        #expect(outcome.log.samples.count == DemoLogger.sampleCount)
        // The newest record on the 10-minute grid, at least 3 minutes before the read.
        #expect(outcome.log.samples.last?.time == Date(timeIntervalSince1970: 1_764_679_800))
        #expect(outcome.log.logger.tagUID == outcome.result.uid?.hexString())
        let options = DecodeOptions(readTime: outcome.readTime, readTimeSource: .tagRead, tagUID: outcome.result.uid?.hexString())
        let memory = await made.tag.memory
        let direct = try LoggerDecoder.decode(smarTag: try #require(SmarTagImage(tagMemory: memory)), options: options)
        #expect(outcome.log.samples == direct.samples)
        #expect(outcome.log.metadata == direct.metadata)
        #expect(outcome.log.logger == direct.logger)
        // SmarTag1 keeps whole degrees; SmarTag2 steps of 0.2 °C, truncated (docs/smartag.md §4.3).
        let expected = DemoLogger.temperatures.map { value -> Double in
            logger == .smarTag1 ? value.rounded() : Double(Int(SmarTagEncoder.SmarTag2.temperatureCode(value)) * 2 - 100) / 10
        }
        #expect(outcome.log.samples.map(\.temperature) == expected)
        #expect(await run(["emulate", "--logger", logger.rawValue, "--chip", "ntag216"]).status == 64)
    }

    /// The memory read after the NDEF message reads no block twice: a full SmarTag2 costs at
    /// most two commands more than a plain dump (the NDEF read reads the capability container
    /// on its own before the TLVs; reading it all again would double the count).
    @Test func smarTagMemoryReadReadsNoBlockTwice() async throws {
        let encoder = SmarTagEncoder.SmarTag2(sampleTime: 60, start: 1_700_000_000, sensors: [.init(id: 0, mode: 3, threshold1: 0)])
        let memory = Data(encoder.memory(after: (1...1014).map { SmarTagEncoder.SmarTag2.Reading(seconds: UInt32($0) * 60, value: 5) }))
        let once = try VirtualTag(chip: .st25dv64k, memory: memory)
        let (_, dump) = try await TagReader.readNDEFThenMemory(from: once) { _ in true }
        #expect(dump?.memory == memory)
        let plain = try VirtualTag(chip: .st25dv64k, memory: memory)
        _ = try await TagReader.dump(plain)
        let (onceCount, plainCount) = (await once.commandCount, await plain.commandCount)
        #expect(onceCount <= plainCount + 2, "\(onceCount) against \(plainCount)")
    }

    /// Fault injection works on the virtual SmarTag as on the others: a tag that leaves
    /// mid-read is exit 74, never a short log.
    @Test func smarTagLeavingDuringTheMemoryReadIsExit74() async throws {
        let made = try VirtualTags.make(
            .logger(.smarTag2), chip: nil, readTime: Date(), faults: TagFaults([.removedAfter(12)]),
            console: .capturing())
        let emulator = ContactlessReaderEmulator(tag: made.tag)
        let transport = try await ReaderTransport.open(
            channel: EmulatedReaderChannel(emulator), readerName: "Virtual PCD 00 00",
            atr: emulator.atr.bytes)
        let error = await #expect(throws: CommandError.self) {
            try await CommandLineRead.read(transport, options: LogInput.Options(), saveDump: nil, console: .capturing())
        }
        #expect(error?.status == .ioError)
    }

    @Test func type2LoggerReadsThroughACR122UDirectTransmit() async throws {
        let (outcome, direct) = try await readThroughReader(.generic16, chip: .ntag216, reader: "ACS ACR122U PICC Interface 00 00")
        #expect(outcome.log == direct)
    }

    @Test func readersWithOnlyReadBinaryStillReadLoggers() async throws {
        for chip in [TagChip.ntag216, .st25dv64k] {
            let (outcome, direct) = try await readThroughReader(
                .generic16Unix, chip: chip, reader: "Generic CL Reader 00 00",
                storageOnly: true)
            #expect(outcome.log == direct)
        }
    }

    @Test func removedMidReadIsExit74SayingHowFar() async throws {
        let made = try VirtualTags.make(
            .logger(.dtn1), chip: .st25dv64k, readTime: Date(), faults: TagFaults([.removedAfter(4)]),
            console: .capturing())
        let emulator = ContactlessReaderEmulator(tag: made.tag)
        let transport = try await ReaderTransport.open(
            channel: EmulatedReaderChannel(emulator), readerName: "Virtual PCD 00 00",
            atr: emulator.atr.bytes)
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-\(UUID().uuidString).nfc").path
        do {
            _ = try await CommandLineRead.read(transport, options: LogInput.Options(), saveDump: dump, console: .capturing())
            Issue.record("the read should have failed")
        } catch let error as CommandError {
            #expect(error.status == .ioError)
            #expect(error.message.contains("bytes"))
        }
        #expect(!FileManager.default.fileExists(atPath: dump))
    }

    @Test func smarTag2DemoInProcessReadsTheWholeMemoryAndStitches() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = await run(["demo", "--logger", "smartag2", "--in-process", "--out", directory.path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("holding a smartag2 log of \(DemoLogger.sampleCount) samples"))
        #expect(result.out.contains("Verdict"))
        // The two reads (the evening before and now) stitch by the tag UID.
        #expect(result.out.contains("stitched: 264 samples of smartag2:"))
        let again = await run(["decode", directory.appendingPathComponent("logger.nfc").path, "--json"])
        #expect(again.status == 0, "\(again.err)")
        #expect(again.out.contains("\"format\": \"smartag2\"") || again.out.contains("\"format\":\"smartag2\""))
        // The archive keeps each read as the tag memory (a Flipper file), which decodes again
        // to the same log; its NDEF message alone would not.
        let verify = await run(["archive", "verify", "--archive", directory.appendingPathComponent("archive.sqlite").path])
        #expect(verify.status == 0, "\(verify.out)\(verify.err)")
    }

    @Test func demoInProcessWritesTheReportAndAVerdict() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = await run(["demo", "--in-process", "--out", directory.path])
        #expect(result.status == 0)
        #expect(result.out.contains("Verdict"))
        #expect(result.out.contains("in-process virtual tag"))
        for name in ["report.pdf", "report.html", "report.png", "samples.csv", "logger.nfc"] {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path), "\(name)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.sorted() == ["archive.sqlite", "logger.nfc", "report.html", "report.pdf", "report.png", "samples.csv"])

        // The command the demo suggests reports the kept dump again, with the same samples.
        let lines = result.out.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let suggestion = try #require(lines.last { $0.contains(" report ") && $0.contains("logger.nfc") })
        var words = suggestion.split(separator: " ").map(String.init)
        // It ends with the one command that serves the demo archive, and where to sign in.
        #expect(lines.contains { $0.contains(" serve --archive ") && $0.contains("archive.sqlite") })
        #expect(lines.contains { $0.contains("http://127.0.0.1:") && $0.contains("/login") })
        // The program as started (`coldtap` here: the test runner is not it).
        #expect(words.first == DemoCommand.invocationName())
        words.removeFirst()
        let again = await run(words + ["--json"])
        #expect(again.status == 0, "\(again.err)")
        let csv = try String(contentsOf: directory.appendingPathComponent("samples.csv"), encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(again.out.utf8)) as? [String: Any])
        let log = try #require(object["log"] as? [String: Any])
        let samples = try #require(log["samples"] as? [[String: Any]])
        // The CSV has a header row; both hold every sample of the log.
        #expect(samples.count == csv.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }.count - 1)
        #expect(object["profile"] as? String == "vaccine-freezer")
    }
}

/// A reader that answers neither the Part 3 transparent session nor direct transmit.
private struct StorageOnlyReader: APDUChannel {
    let base: any APDUChannel

    func transmit(_ apdu: Data, timeout: Duration) async throws -> Data {
        if apdu.count >= 2, apdu[apdu.startIndex + 1] == 0xC2 || apdu[apdu.startIndex + 1] == 0x00 {
            return Data([0x6D, 0x00])
        }
        return try await base.transmit(apdu, timeout: timeout)
    }
}

@Suite struct EmulateSourceTests {
    private func temporaryFile(_ data: Data, _ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-\(UUID().uuidString)-\(name)")
        try data.write(to: url)
        return url
    }

    @Test func servesAnNDEFMessageFileOnAnNTAG216ByDefault() async throws {
        let message = try DemoLogger.generic16.message(readTime: Date(timeIntervalSince1970: 1_764_680_000)).encoded()
        let file = try temporaryFile(message, "message.ndef")
        defer { try? FileManager.default.removeItem(at: file) }
        let made = try VirtualTags.make(.file(file.path), chip: nil, readTime: Date(), console: .capturing())
        #expect(made.tag.chip == .ntag216)
        let result = try await TagReader.read(from: made.tag)
        #expect(result.ndefMessageBytes == message)
    }

    @Test func servesAFlipperDumpWithItsChipMemoryAndUID() async throws {
        let original = try VirtualTags.make(.logger(.dtn1), chip: .st25dv64k, readTime: Date(), console: .capturing())
        let dump = try await TagReader.dump(original.tag)
        let file = try temporaryFile(Data(dump.flipperText().utf8), "logger.nfc")
        defer { try? FileManager.default.removeItem(at: file) }
        let made = try VirtualTags.make(.file(file.path), chip: nil, readTime: Date(), console: .capturing())
        #expect(made.tag.chip == .st25dv64k)
        #expect(made.tag.uid == original.tag.uid)
        #expect(await made.tag.memory == original.tag.memory)
    }

    @Test func refusesAFileThatIsNeitherMessageNorDump() throws {
        let file = try temporaryFile(Data("just some words\n".utf8), "notes.txt")
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: CommandError.self) {
            _ = try VirtualTags.make(.file(file.path), chip: nil, readTime: Date(), console: .capturing())
        }
        do {
            _ = try VirtualTags.make(.file(file.path), chip: nil, readTime: Date(), console: .capturing())
        } catch let error as CommandError {
            #expect(error.status == .dataError)
        }
    }

    @Test func aLoggerTooLargeForTheChipIsAUsageError() {
        #expect(throws: CommandError.self) {
            _ = try VirtualTags.make(.logger(.dtn1), chip: .ntag213, readTime: Date(), console: .capturing())
        }
    }
}
