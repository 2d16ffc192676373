import Archive
import ArchiveKit
import ColdChain
import ColdTapKit
import Foundation
import LoggerFormats

/// `coldtap archive add|verify|redecode`: keep reads, check the record, decode it again.
public enum ArchiveCommand: Command {
    public static let name = "archive"
    public static let abstract = "the record: keep reads, check it, decode it again, sign and prove checkpoints, witness a station's"
    public static let forms = [
        CommandForm(
            verb: "add", positionals: "FILE...",
            positionalHelp: [("FILE", "dumps, NDEF messages, Flipper files or cuplTag URLs, as 'decode' takes them; - for standard input")],
            summary: "keep reads in the archive and stitch their samples into each logger's record",
            options: [ArchiveAccess.archiveOption, ArchiveAccess.loggerIDOption]
                + [ReportCommand.profileOption, ReportCommand.tzOption.spec]
                + LogInput.optionSpecs),
        CommandForm(
            verb: "verify",
            summary: "recompute the hash chain, every raw read's SHA-256 and the record's leaves, decode every read again, check the checkpoints",
            options: [
                ArchiveAccess.archiveOption, ArchiveRecordCommands.sinceOption, ArchiveRecordCommands.publicKeyOption,
                ArchiveRecordCommands.signingKeyOption,
            ]),
        CommandForm(
            verb: "redecode", summary: "decode every kept read again with this ColdTap into a new samples generation",
            options: [ArchiveAccess.archiveOption]),
        CommandForm(
            verb: "key", summary: "print the public key that checks the record's checkpoints (making the signing key on first use)",
            options: [ArchiveAccess.archiveOption, ArchiveRecordCommands.signingKeyOption]),
        CommandForm(
            verb: "checkpoint", summary: "sign the record's checkpoint now and print it (keep a copy outside the archive)",
            options: [ArchiveAccess.archiveOption, ArchiveRecordCommands.signingKeyOption, ArchiveRecordCommands.outOption]),
        CommandForm(
            verb: "prove", positionals: "READ-ID", positionalHelp: [("READ-ID", "a read's number, as 'history' shows it")],
            summary: "print the proof that a read is in the record, against a checkpoint signed now",
            options: [ArchiveAccess.archiveOption, ArchiveRecordCommands.signingKeyOption, ArchiveRecordCommands.jsonOption]),
        CommandForm(
            verb: "witness", positionals: "URL", positionalHelp: [("URL", "a station, e.g. https://station.example:8080")],
            summary: "check that a station's record still holds what it showed this machine before, and hold its new checkpoint",
            options: ArchiveRecordCommands.witnessOptions),
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        switch arguments.verb {
        case "add": try await add(arguments, console: console)
        case "verify": try await verify(arguments, console: console)
        case "key": try ArchiveRecordCommands.key(arguments, console: console)
        case "checkpoint": try ArchiveRecordCommands.checkpoint(arguments, console: console)
        case "prove": try ArchiveRecordCommands.prove(arguments, console: console)
        case "witness": try await ArchiveRecordCommands.witness(arguments, console: console)
        default: try await redecode(arguments, console: console)
        }
    }

    // MARK: add

    static func add(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let loggerID = arguments.value(ArchiveAccess.loggerIDOption)
        let profile = try ReportCommand.resolveProfile(arguments.value(ReportCommand.profileOption))
        let timeZone = try arguments.value(ReportCommand.tzOption) ?? .current
        let loggerArgument = ArchiveAccess.peekLogger(arguments)
        let options = try LogInput.Options.parse(&arguments)
        let paths = try arguments.positionals(min: 1)
        try arguments.finish()
        if paths.filter({ $0 == "-" }).count > 1 { throw CommandError.usage("standard input (-) can be given once.") }
        let parts = ArchiveAccess.loggerParts(loggerArgument)

        let archive = try ArchiveAccess.open(location, create: true, console: console)
        defer { archive.close() }
        var failures: [CommandError] = []
        for path in paths {
            do {
                let content: Data
                let modified: Date?
                let name: String
                if LogInput.isURLArgument(path) {
                    (content, modified, name) = (Data(path.utf8), nil, "the URL")
                } else {
                    content = try InputBytes.read(path, console: console, format: .raw)
                    modified = path == "-" ? nil : (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
                    name = path == "-" ? "standard input" : "'\(path)'"
                }
                let loaded = try await LogInput.load(commandLineContent: content, name: name, modificationTime: modified, options: options)
                let origin =
                    LogInput.isURLArgument(path)
                    ? "URL given to coldtap archive add"
                    : path == "-" ? "standard input of coldtap archive add" : "file \(URL(fileURLWithPath: path).path)"
                let decoding = ReadDecoding(
                    input: options.input, loggerName: parts.name, descriptorText: parts.descriptor, interval: options.interval,
                    loggerTimeZone: options.loggerTimeZone, loggerTimeZoneSource: .given)
                guard
                    let read = try await RuleBook.newRead(
                        from: .file(content: content, loaded: loaded, origin: origin, decoding: decoding, loggerID: loggerID), profile: profile,
                        timeZone: timeZone)
                else { continue }
                let result: AddResult
                do {
                    result = try archive.add(read)
                } catch let error as ArchiveError where error.kind != .invalidRead {
                    // An archive that cannot be written stops here; the reads before this one are kept.
                    let mapped = ArchiveAccess.commandError(error)
                    console.error("coldtap archive add: \(path): \(mapped.message)")
                    throw Stop(error: CommandError(mapped.status, "stopped at '\(path)'" + (path == paths.first ? "." : "; the files before it were kept.")))
                } catch let error as ArchiveError {
                    throw ArchiveAccess.commandError(error)
                }
                let shown = path.count > 60 ? String(path.prefix(57)) + "…" : path
                if result.alreadyKept {
                    console.print("\(shown): \(result.loggerID) — already kept as read #\(result.readID); nothing added")
                } else {
                    console.print(
                        "\(shown): \(result.loggerID) — read #\(result.readID): \(ArchiveAccess.addLine(result))"
                            + ArchiveAccess.zoneNote(read.decodeOptions) + (result.verdict.map { "; \(profile.name): \($0.rawValue)" } ?? ""))
                }
            } catch let stop as Stop {
                throw stop.error
            } catch let error as CommandError {
                // A file that cannot be read or decoded does not stop the others.
                console.error("coldtap archive add: \(path): \(error.message)")
                failures.append(error)
            }
        }
        if let first = failures.first {
            throw CommandError(first.status, "\(failures.count) of \(paths.count) file(s) were not added (see above).")
        }
    }

    /// Ends `archive add` when the archive itself fails (not one file).
    private struct Stop: Error {
        var error: CommandError
    }

    // MARK: verify

    static func verify(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let check = try ArchiveRecordCommands.recordCheck(&arguments, location: location)
        try arguments.finish()
        let archive = try ArchiveAccess.open(location, create: false)
        defer { archive.close() }
        let report = try await ArchiveAccess.mapping { try await archive.verify(decoder: ArchivedReads.decoder, record: check) }
        guard let first = report.problems.first else {
            console.print(
                "The archive \(archive.engine.location) holds: \(report.reads) read(s) and \(report.acknowledgements) acknowledgement(s); the hash chain, every raw read's SHA-256 and every read decoded again agree with what is kept."
            )
            console.print("Chain head: \(report.chainHead)")
            console.print("Record: \(report.recordLeaves) leaves, each the row it stands for; root \(report.recordRoot)")
            for note in report.recordNotes { console.print("  ✓ \(note)") }
            return
        }
        for problem in report.problems { console.print("  ✗ \(problem)") }
        throw CommandError(
            .dataError, "the archive does not hold: \(first)" + (report.problems.count > 1 ? " (and \(report.problems.count - 1) more problem(s) above)." : ".")
        )
    }

    // MARK: redecode

    static func redecode(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        try arguments.finish()
        let archive = try ArchiveAccess.open(location, create: false)
        defer { archive.close() }
        let report = try await ArchiveAccess.mapping { try await archive.redecode(decoder: ArchivedReads.decoder) }
        console.print(
            "Decoded \(report.reads) kept read(s) again into samples generation \(report.generation) (\(report.samples) samples); generation \(report.generation - 1) stays for the audit trail."
        )
        if report.changes.isEmpty {
            console.print("Nothing changed: every read gives the samples it gave before.")
        } else {
            for change in report.changes { console.print("  changed: \(change)") }
        }
    }
}
