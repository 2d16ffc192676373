import ColdChain
import ColdTapBase
import ColdTapKit
import Foundation
import LoggerFormats
import LoggerSessions
import NFCTags
import PCSC

/// `coldtap read`: waits for a logger on a PC/SC reader, reads it, then decodes, assesses and
/// reports like `decode` / `report`.
public enum ReadCommand: Command {
    static let readerOption = OptionSpec.value(
        "--reader", placeholder: "R", help: "the reader to use (a part of its name, as 'coldtap readers' lists it)",
        default: "the first reader with a tag")
    /// `--timeout S` of every command that waits for a tag (30 s when not given).
    static let timeoutOption = OptionSpec.value("--timeout", placeholder: "S", help: "seconds to wait for a tag", default: "30").typed(
        OptionValueParser.number({ $0 > 0 && $0 < 1e9 }) { name, text in "\(name) takes a positive number of seconds, not '\(text)'." }
    )
    static let defaultTimeout = Duration.seconds(30)
    static let watchOption = OptionSpec.flag("--watch", help: "read one tag after another until Ctrl-C; files get one name per tag")
    static let saveDumpOption = OptionSpec.value(
        "--save-dump", placeholder: "FILE", help: "keep the tag's memory as a Flipper .nfc file (written after a complete read)",
        path: true)
    static let csvOption = OptionSpec.flag("--csv", help: "print the samples as CSV instead of the report")

    public static let name = "read"
    public static let forms = [
        CommandForm(
            summary: "wait for a logger on a PC/SC reader, read it, then print and report it as 'report' does",
            options: [
                readerOption,
                timeoutOption.spec,
                watchOption,
                saveDumpOption,
                csvOption,
            ] + ReportCommand.reportOptionSpecs + LogInput.readOptionSpecs
                + ReportArtifacts.optionSpecs.filter { $0.displayName != ReportArtifacts.csvOption.displayName } + ReadArchiving.optionSpecs
                + ReadUploading.optionSpecs)
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let reader = arguments.value(readerOption)
        let timeoutSeconds = try arguments.value(timeoutOption)
        let watch = arguments.isSet(watchOption)
        let saveDump = arguments.value(saveDumpOption)
        var output = try LoggerOutput.parse(&arguments)
        let keeping = try ReadArchiving.parse(&arguments)
        let uploading = try ReadUploading.parse(&arguments)
        let options = try LogInput.Options.parse(&arguments)
        try arguments.finish()
        let timeout = timeoutSeconds.map(ReadCommand.duration) ?? defaultTimeout
        try output.artifacts.validate()

        let context = try ReaderConnection.context()
        var count = 0
        repeat {
            count += 1
            let tag = try await ReaderConnection.waitForTag(
                context: context, reader: reader, timeout: watch ? nil : timeout,
                console: console)
            var verdictOfThisTag: Verdict?
            do {
                let dumpPath = saveDump.map { watch ? numbered($0, count) : $0 }
                let outcome = try await CommandLineRead.read(tag.transport, options: options, saveDump: dumpPath, console: console)
                await tag.close()
                let verdict = try output.emit(
                    outcome, source: "\(outcome.result.chip.displayName) on \(tag.card.reader)",
                    console: console)
                verdictOfThisTag = verdict
                try await keeping.keep(
                    outcome, origin: "\(outcome.result.chip.displayName) on PC/SC reader \(tag.card.reader)",
                    options: options, output: output, console: console)
                try await uploading.upload(
                    outcome, origin: "\(outcome.result.chip.displayName) on PC/SC reader \(tag.card.reader)",
                    loggerID: keeping.loggerID, console: console)
            } catch let error as CommandError where watch && error.status != .unavailable && error.status != .usage {
                // One bad tag (lost mid-read, not a logger) does not end a watch session.
                await tag.close()
                console.error("coldtap read: \(error.message)")
            } catch {
                await tag.close()
                throw error
            }
            if let verdict = verdictOfThisTag {
                do {
                    try ReportCommand.checkFailOn(output.failOn, verdict: verdict)
                } catch let error as CommandError where watch {
                    // In a watch session a failing verdict is said and the session goes on.
                    console.error("coldtap read: \(error.message)")
                }
            }
            if watch {
                console.error("Remove the tag; waiting for the next one (Ctrl-C to stop).")
                do {
                    try await context.waitForRemoval(reader: tag.card.reader, timeout: nil)
                } catch let error as PCSCError {
                    throw ReaderConnection.commandError(error)
                }
            }
        } while watch
    }

    /// How long to wait for a tag: `--timeout`, or 30 s.
    static func timeout(_ arguments: inout Arguments) throws -> Duration {
        try arguments.value(timeoutOption).map(duration) ?? defaultTimeout
    }

    /// `seconds` to the millisecond.
    static func duration(_ seconds: Double) -> Duration { .milliseconds(Int64(seconds * 1000)) }

    /// `dump.nfc` → `dump-3.nfc`.
    private static func numbered(_ path: String, _ number: Int) -> String {
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension
        let base = url.deletingPathExtension().path
        return ext.isEmpty ? "\(base)-\(number)" : "\(base)-\(number).\(ext)"
    }
}

/// `coldtap read`'s reading of a logger over any transport (a PC/SC reader, an in-process
/// virtual tag): ColdTapKit's `LoggerReader` with a progress bar, the file of the read kept
/// when asked (written only after a complete read), and errors in the command line's words.
enum CommandLineRead {
    /// - Throws: `CommandError`: 74 when the tag left or stopped answering (saying how far the
    ///   read got; nothing is written), 69 when the reader cannot send a command the tag
    ///   needs, 65 for malformed tag data or a message that is not a logger's.
    static func read(
        _ transport: any TagTransport, options: LogInput.Options, saveDump: String?,
        console: Console
    ) async throws -> LoggerRead {
        let reader = LoggerReader(options: options, tagOptions: TagReadOptions(commandTimeout: .seconds(1)))
        let bar = ProgressBar(console: console, label: "Reading")
        let keep: ((Data) throws -> Void)? = saveDump.map { path in { try OutputFile.write($0, to: path, what: "the dump") } }
        do {
            var read = try await reader.read(
                from: transport,
                progress: { step in
                    switch step {
                    case .tag(let progress): bar.update(progress)
                    case .commands(let progress):
                        bar.update(done: progress.samplesRead, total: progress.samplesTotal, unit: "samples")
                    }
                }, keep: keep)
            bar.finish()
            read.log = HintWording.worded(read.log)
            if read.automaticMode {
                console.error("The NHS31xx refused to be written, so it was read in automatic mode: its answers one after another, without writing to it.")
            }
            return read
        } catch let error as TagReadError {
            bar.finish()
            throw CommandError(error)
        } catch let error as NHSSessionError {
            bar.finish()
            throw CommandError(error)
        } catch let error as LoggerReadError {
            bar.finish()
            throw CommandError.data("\(error).")
        } catch let error as InputError {
            bar.finish()
            throw CommandError(error)
        }
    }
}

extension CommandError {
    /// A tag read's failure with DESIGN.md's exit statuses: 74 when the tag left (nothing
    /// was saved), 69 when the reader cannot send what the tag needs, 65 for tag data.
    init(_ error: TagReadError) {
        switch error {
        case .tagRemoved, .noAnswer:
            self.init(.ioError, "\(error); nothing was saved or reported.")
        case .unsupportedByLink:
            self.init(.unavailable, "\(error); a reader with the PC/SC Part 3 transparent session (\(ReaderProfile.iso15693Readers)) can.")
        case .refused, .malformed:
            self.init(.dataError, "\(error).")
        case .outOfReach:
            self.init(.failure, "\(error).")
        }
    }
}
