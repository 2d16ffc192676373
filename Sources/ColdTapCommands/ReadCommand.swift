import ColdChain
import ColdTapBase
import Foundation
import LoggerFormats
import LoggerSessions
import NFCTags
import PCSC

/// `coldtap read`: waits for a logger on a PC/SC reader, reads it, then decodes, assesses and
/// reports like `decode` / `report`.
public enum ReadCommand: Command {
    public static let name = "read"
    public static let forms = [CommandForm(
        summary: "wait for a logger on a PC/SC reader, read it, then print and report it as 'report' does",
        options: [
            .value("--reader", placeholder: "R", help: "the reader to use (a part of its name, as 'coldtap readers' lists it)",
                   default: "the first reader with a tag"),
            .value("--timeout", placeholder: "S", help: "seconds to wait for a tag", default: "30"),
            .flag("--watch", help: "read one tag after another until Ctrl-C; files get one name per tag"),
            .value("--save-dump", placeholder: "FILE", help: "keep the tag's memory as a Flipper .nfc file (written after a complete read)",
                   path: true),
            .flag("--csv", help: "print the samples as CSV instead of the report"),
        ] + ReportCommand.reportOptionSpecs + LogInput.readOptionSpecs
            + ReportArtifacts.optionSpecs.filter { $0.displayName != "--csv" } + ReadArchiving.optionSpecs + ReadUploading.optionSpecs)]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let reader = try arguments.option("--reader")
        let timeoutText = try arguments.option("--timeout")
        let watch = arguments.flag("--watch")
        let saveDump = try arguments.option("--save-dump")
        var output = try LoggerOutput.parse(&arguments)
        let keeping = try ReadArchiving.parse(&arguments)
        let uploading = try ReadUploading.parse(&arguments)
        let options = try LogInput.Options.parse(&arguments)
        try arguments.finish()
        let timeout = try parseTimeout(timeoutText)
        try output.artifacts.validate()

        let context = try ReaderSupport.context()
        var count = 0
        repeat {
            count += 1
            let tag = try await ReaderSupport.waitForTag(context: context, reader: reader, timeout: watch ? nil : timeout,
                                                         console: console)
            var verdictOfThisTag: Verdict?
            do {
                let dumpPath = saveDump.map { watch ? numbered($0, count) : $0 }
                let outcome = try await LoggerRead.read(tag.transport, options: options, saveDump: dumpPath, console: console)
                await tag.close()
                let verdict = try output.emit(outcome, source: "\(outcome.result.chip.displayName) on \(tag.card.reader)",
                                              console: console)
                verdictOfThisTag = verdict
                try await keeping.keep(outcome, origin: "\(outcome.result.chip.displayName) on PC/SC reader \(tag.card.reader)",
                                       options: options, output: output, console: console)
                try await uploading.upload(outcome, origin: "\(outcome.result.chip.displayName) on PC/SC reader \(tag.card.reader)",
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
                    throw ReaderSupport.commandError(error)
                }
            }
        } while watch
    }

    static func parseTimeout(_ text: String?) throws -> Duration {
        guard let text else { return .seconds(30) }
        guard let seconds = Double(text), seconds > 0, seconds.isFinite, seconds < 1e9 else {
            throw CommandError.usage("--timeout takes a positive number of seconds, not '\(text)'.")
        }
        return .milliseconds(Int64(seconds * 1000))
    }

    /// `dump.nfc` → `dump-3.nfc`.
    private static func numbered(_ path: String, _ number: Int) -> String {
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension
        let base = url.deletingPathExtension().path
        return ext.isEmpty ? "\(base)-\(number)" : "\(base)-\(number).\(ext)"
    }
}

/// What a complete read of a logger gave.
struct LoggerReadOutcome {
    var result: TagReadResult
    var log: TemperatureLog
    var readTime: Date
    /// What the archive keeps as the raw read when it is not the NDEF message read from the
    /// tag: for a logger that answers commands, the exchange transcript (JSON Lines).
    var transcript: Data?
    /// For a logger that writes its tag's memory itself (ST SmarTag, docs/smartag.md): the
    /// memory read, which alone decodes to the log (its NDEF message may not).
    var memory: MemoryDump?

    /// The raw read that decodes to the log, as the archive, the station and the report's
    /// audit keep it: the transcript, the SmarTag memory as a Flipper file (its UID with it),
    /// or the NDEF message; `nil` when the tag held none.
    var rawRead: (bytes: Data, kind: LogInput.Kind)? {
        if let transcript { return (transcript, .nhsTranscript) }
        if let memory { return (Data(memory.flipperText().utf8), .flipper) }
        return result.ndefMessageBytes.map { (Data($0), .ndef) }
    }
}

/// Reads a logger over any transport (a PC/SC reader, an in-process virtual tag) and decodes
/// it through the same code as `coldtap decode`.
enum LoggerRead {
    /// Reads the NDEF message with a progress bar, keeps the memory dump if asked (written only
    /// after a complete read), and decodes the log with the read time of this read.
    /// - Throws: `CommandError`: 74 when the tag left or stopped answering (saying how far the
    ///   read got; nothing is written), 69 when the reader cannot send a command the tag
    ///   needs, 65 for malformed tag data or a message that is not a logger's.
    static func read(_ transport: any TagTransport, options: LogInput.Options, saveDump: String?,
                     console: Console) async throws -> LoggerReadOutcome {
        let bar = ProgressBar(console: console, label: "Reading")
        let readOptions = TagReadOptions(commandTimeout: .seconds(1))
        let result: TagReadResult
        var smarTag: SmarTagImage?
        var smarTagMemory: MemoryDump?
        do {
            // A SmarTag's log is bounded by its memory layout, not by its NDEF lengths
            // (docs/smartag.md §4.5): seeing its record, read the rest of the memory too.
            let (read, memory) = try await TagReader.readNDEFThenMemory(from: transport, options: readOptions,
                                                                        progress: { bar.update($0) }) { result in
                result.ndefMessageBytes.map { SmarTagImage(ndefMessageBytes: $0) != nil } ?? false
            }
            result = read
            bar.finish()
            // A logger that answers commands (NXP NHS31xx) is read by exchanging messages.
            if let message = result.ndefMessage, NHSLoggerSession.isInitialMessage(message) {
                return try await NHSRead.read(transport, initial: result, options: options, saveDump: saveDump, console: console)
            }
            if let memory {
                if let saveDump { try write(Data(memory.flipperText().utf8), to: saveDump) }
                smarTag = SmarTagImage(tagMemory: memory.memory)
                smarTagMemory = memory
            } else if let saveDump {
                let dump = try await TagReader.dump(transport, options: readOptions)
                try write(Data(dump.flipperText().utf8), to: saveDump)
            }
        } catch let error as TagReadError {
            bar.finish()
            throw commandError(error)
        }
        // Whole seconds, so that `coldtap decode --read-time` of the saved dump gives the same log.
        let readTime = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        guard let bytes = result.ndefMessageBytes else {
            throw CommandError.data("the \(result.chip.displayName) holds no NDEF message, so there is no log to decode.")
        }
        if let smarTag {
            var decodeOptions = LogInput.makeDecodeOptions(options, dumpTime: nil, tagUID: result.uid.map { $0.hexString() })
            if options.readTime == nil { (decodeOptions.readTime, decodeOptions.readTimeSource) = (readTime, .tagRead) }
            // No NDEF anomalies: the log was not read through the NDEF view, and `decode` of
            // the saved dump gives the same log.
            let log = try LogInput.decodeSmarTag(smarTag, options: decodeOptions)
            return LoggerReadOutcome(result: result, log: log, readTime: readTime, memory: smarTagMemory)
        }
        guard let message = result.ndefMessage else {
            let detail = result.ndefError.map { "\($0)" } ?? "\(bytes.count) bytes that do not parse"
            throw CommandError.data("the NDEF message on the \(result.chip.displayName) is malformed: \(detail).")
        }
        var log = try LogInput.decode(message, options: options, readTime: readTime, readTimeSource: .tagRead,
                                      tagUID: result.uid.map { $0.hexString() })
        // Worded as `coldtap decode` words them for a dump, so both give the same log.
        log.warnings += result.anomalies.map { .tagImage($0.description) }
        return LoggerReadOutcome(result: result, log: log, readTime: readTime)
    }

    static func commandError(_ error: TagReadError) -> CommandError {
        switch error {
        case .tagRemoved, .noAnswer:
            return CommandError(.ioError, "\(error); nothing was saved or reported.")
        case .unsupportedByLink:
            return CommandError(.unavailable, "\(error); a reader with the PC/SC Part 3 transparent session (\(ReaderProfile.iso15693Readers)) can.")
        case .refused, .malformed:
            return CommandError.data("\(error).")
        case .outOfReach:
            return CommandError(.failure, "\(error).")
        }
    }

    /// Writes all or nothing: a temporary file renamed into place.
    static func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandError(.failure, "cannot write '\(path)': \(error.localizedDescription).")
        }
    }
}
