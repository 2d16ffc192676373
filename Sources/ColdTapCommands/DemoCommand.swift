import ArchiveKit
import ColdChain
import ColdTapBase
import ColdTapKit
import Foundation
import LoggerFormats
import NFCTags
import NFCTagsEmulation
import PCSC

#if canImport(Glibc)
    import Glibc
#endif

/// `coldtap demo`: a built-in logger with an excursion, read through pcscd and vpcd when they
/// are available (starting a private pcscd when it may), otherwise through the in-process
/// virtual tag; decoded, assessed and reported into ./coldtap-demo/.
public enum DemoCommand: Command {
    static let outOption = OptionSpec.value(
        "--out", placeholder: "DIR", help: "where the report files and the logger's memory go", default: "coldtap-demo", path: true)
    static let loggerOption = OptionSpec.value(
        "--logger", placeholder: "KIND", help: "the built-in logger to emulate (nhs3100: a logger that answers commands)",
        default: DemoLogger.cupltag.rawValue, choices: { DemoLogger.allCases.map(\.rawValue) + [NHSDemo.loggerName] })
    static let inProcessOption = OptionSpec.flag("--in-process", help: "read the virtual tag in-process, without pcscd and vpcd")

    public static let name = "demo"
    public static let forms = [
        CommandForm(
            summary: "emulated logger → read → decode → assess → report → archive, no hardware needed",
            options: [
                outOption,
                loggerOption,
                inProcessOption,
            ])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let outDirectory = arguments.value(outOption) ?? "coldtap-demo"
        let loggerName = arguments.value(loggerOption) ?? DemoLogger.cupltag.rawValue
        let inProcessOnly = arguments.isSet(inProcessOption)
        try arguments.finish()
        if loggerName.lowercased() == NHSDemo.loggerName {
            return try await NHSDemo.run(outDirectory: outDirectory, inProcessOnly: inProcessOnly, console: console)
        }
        let logger = try VirtualTags.logger(named: loggerName)

        let readTime = Date()
        let made = try VirtualTags.make(.logger(logger), chip: nil, readTime: readTime, console: console)
        // The tag's memory is kept beside the report, so the same log can be decoded and
        // reported again (another profile, language or time zone).
        try createDirectory(outDirectory)
        let dumpPath = (outDirectory as NSString).appendingPathComponent(DemoReport.dumpName)
        let path = inProcessOnly ? DemoPath.inProcess("--in-process was given") : DemoPath.choose()
        let outcome: LoggerRead
        let how: String
        switch path {
        case .systemPCSCD:
            how = "through pcscd and vpcd (the running pcscd, reader \(DemoPath.vpcdReader))"
            console.error("Reading the demo logger \(how) …")
            outcome = try await readThroughVPCD(made.tag, saveDump: dumpPath, console: console)
        case .privatePCSCD:
            how = "through pcscd and vpcd (a private pcscd started for the demo in its own network namespace)"
            console.error("Reading the demo logger \(how) …")
            let stack = try PrivatePCSCD.start(logger: logger)
            defer { stack.stop() }
            outcome = try await readPCSC(reader: DemoPath.vpcdReader, saveDump: dumpPath, console: console)
        case .inProcess(let reason):
            how = "through the in-process virtual tag (\(reason))"
            console.error("Reading the demo logger \(how) …")
            outcome = try await CommandLineRead.read(made.tag, options: LogInput.Options(), saveDump: dumpPath, console: console)
        }

        let assessment = RuleBook.judge(outcome.log, profile: ReportCommand.defaultProfile, timeZone: TimeZone(identifier: "UTC") ?? .gmt)
        let files = try DemoReport.write(outcome.log, assessment: assessment, directory: outDirectory)
        console.print("Read the \(outcome.result.chip.displayName) holding a \(outcome.log.format) log of \(outcome.log.samples.count) samples \(how).")
        console.print("Verdict (\(assessment.profile.name)): \(assessment.headline(in: assessment.timeZone))")
        for reason in assessment.reasons { console.print("  " + reason) }
        for file in files + [dumpPath] { console.print("  wrote \(file)") }
        for line in try await DemoArchive.record(
            outcome, logger: logger, origin: "\(outcome.result.chip.displayName) read \(how)",
            directory: outDirectory, invocation: invocationName())
        {
            console.print(line)
        }
        console.print("Report it again, e.g. in Japanese against the freezer profile:")
        console.print(
            "  \(invocationName()) report \(dumpPath) --read-time \(outcome.readTime.isoUTC) --profile vaccine-freezer --lang ja --out \(outDirectory)")
        for line in try DemoStation.prepare(directory: outDirectory, invocation: invocationName()) { console.print(line) }
    }

    /// How to call this program again: the path it was started by when that is `coldtap`
    /// (after `make demo` it is not on PATH), relative to the current directory where it can be.
    static func invocationName() -> String {
        guard let first = CommandLine.arguments.first, (first as NSString).lastPathComponent == "coldtap",
            first.contains("/")
        else { return "coldtap" }
        let here = FileManager.default.currentDirectoryPath + "/"
        return first.hasPrefix(here) ? String(first.dropFirst(here.count)) : first
    }

    private static func createDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CommandError(.failure, "Cannot create the output directory '\(path)': check the path and permissions.")
        }
    }

    /// Serves `tag` to the running pcscd's vpcd from this process and reads it back through PC/SC.
    private static func readThroughVPCD(_ tag: VirtualTag, saveDump: String, console: Console) async throws -> LoggerRead {
        let client = VirtualCardClient(emulator: ContactlessReaderEmulator(tag: tag))
        let serving = Task { try await client.run() }
        defer { client.stop() }
        do {
            let outcome = try await readPCSC(reader: DemoPath.vpcdReader, saveDump: saveDump, console: console)
            client.stop()
            _ = try? await serving.value
            return outcome
        } catch {
            client.stop()
            _ = try? await serving.value
            throw error
        }
    }

    /// Waits for the tag on `reader` and reads it as `coldtap read` does, closing the card either way.
    static func readPCSC(reader: String, saveDump: String, console: Console) async throws -> LoggerRead {
        let context = try ReaderConnection.context()
        let tag = try await ReaderConnection.waitForTag(context: context, reader: reader, timeout: .seconds(10), console: console)
        do {
            let outcome = try await CommandLineRead.read(tag.transport, options: LogInput.Options(), saveDump: saveDump, console: console)
            await tag.close()
            return outcome
        } catch {
            await tag.close()
            throw error
        }
    }
}
