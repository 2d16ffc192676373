import Foundation
import LoggerFormats
import NDEF
import NFCTags
import PCSC

/// `coldtap read`: waits for a logger on a PC/SC reader, reads it, then decodes, assesses and
/// reports like `decode` / `report`.
public enum ReadCommand: Command {
    public static let name = "read"
    public static let synopsis = "  coldtap read [--reader R] [--timeout S] [--out DIR] [--json|--csv] [--profile P] [--tz ZONE] [--secret K] [--logger NAME|FILE] [--interval S] [--save-dump FILE] [--watch] [--no-archive] [--archive A] [--logger-id ID] [--upload URL --token T]\n                 [--png] [--pdf] [--svg] [--html] [--theme light|dark] [--size WxH] [--lang en|zh-Hans|ja]"

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let reader = try arguments.option("--reader")
        let timeoutText = try arguments.option("--timeout")
        let watch = arguments.flag("--watch")
        let saveDump = try arguments.option("--save-dump")
        let output = try LoggerOutput.parse(&arguments)
        let keeping = try ReadArchiving.parse(&arguments)
        let uploading = try ReadUploading.parse(&arguments)
        let options = try LogInput.Options.parse(&arguments)
        try arguments.finish()
        let timeout = try parseTimeout(timeoutText)

        let context = try ReaderSupport.context()
        var count = 0
        repeat {
            count += 1
            let tag = try await ReaderSupport.waitForTag(context: context, reader: reader, timeout: watch ? nil : timeout,
                                                         console: console)
            do {
                let dumpPath = saveDump.map { watch ? numbered($0, count) : $0 }
                let outcome = try await LoggerRead.read(tag.transport, options: options, saveDump: dumpPath, console: console)
                await tag.close()
                try output.emit(outcome, source: "\(outcome.result.chip.displayName) on \(tag.card.reader)",
                                fileStem: fileStem(outcome), console: console)
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

    /// Report files are named after the tag and the read time, so that `--watch` keeps one set per tag.
    private static func fileStem(_ outcome: LoggerReadOutcome) -> String {
        let time = outcome.readTime.isoUTC.replacingOccurrences(of: ":", with: "")
        return "coldtap-" + (outcome.result.uid.map { $0.upperHex + "-" } ?? "") + time
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
        do {
            result = try await TagReader.read(from: transport, options: readOptions) { bar.update($0) }
            bar.finish()
            if let saveDump {
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
        guard let message = result.ndefMessage else {
            let detail = result.ndefError.map { "\($0)" } ?? "\(bytes.count) bytes that do not parse"
            throw CommandError.data("the NDEF message on the \(result.chip.displayName) is malformed: \(detail).")
        }
        var log = try LogInput.decode(message, options: options, readTime: readTime, readTimeSource: .tagRead,
                                      tagUID: result.uid.map { $0.upperHex })
        // Worded as `coldtap decode` words them for a dump, so both give the same log.
        for anomaly in result.anomalies { log.warnings.append("tag image: \(anomaly)") }
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
