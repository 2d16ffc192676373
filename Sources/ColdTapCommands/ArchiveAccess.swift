import Archive
import ArchiveKit
import ColdChain
import ColdTapBase
import ColdTapKit
import Foundation
import LoggerFormats
import NDEF

/// What the archive commands share: `--archive`, opening it, `--logger` as kept with a read
/// (so that `archive verify` and `redecode` decode it again the same way), and the errors'
/// exit statuses.
enum ArchiveAccess {
    static let fromOption = OptionSpec.value(
        "--from", placeholder: "T", help: "from this time on (ISO 8601, e.g. 2024-04-01T00:00:00Z)", default: "the first sample"
    ).typed(periodEnd)
    static let toOption = OptionSpec.value("--to", placeholder: "T", help: "up to this time (ISO 8601)", default: "the last sample").typed(periodEnd)
    /// A period's end: ISO 8601 with a zone, or a date `YYYY-MM-DD` meaning its UTC midnight.
    static let periodEnd = OptionValueParser.timeOrDay("is not a time; write it like 2024-04-09T08:35:00Z or 2024-04-09.")

    /// The logger a person named on the command line: its id, or a serial, tag UID or
    /// carried id that only one logger has. Unknown text is left for the archive's own
    /// "holds no logger" message.
    /// - Throws: `CommandError` (usage) listing the loggers when several answer to `text`.
    static func loggerID(_ text: String, in archive: Archive) async throws -> String {
        switch try await mapping({ try archive.findLogger(text) }) {
        case .found(let id): return id
        case .none: return text
        case .ambiguous(let ids):
            throw CommandError.usage("'\(text)' names \(ids.count) loggers (\(ids.joined(separator: ", "))); give one of their ids.")
        }
    }

    /// `--archive A`, else `COLDTAP_ARCHIVE`, else the XDG data folder.
    /// `--archive A`, declared by every command that opens the archive.
    static let archiveOption = OptionSpec.value(
        "--archive", placeholder: "A", help: "the archive: a SQLite file, or a postgresql:// connection URI",
        default: "$COLDTAP_ARCHIVE, else $XDG_DATA_HOME/coldtap/archive.sqlite (~/.local/share/coldtap/archive.sqlite)", path: true)
    /// `--logger-id ID`.
    static let loggerIDOption = OptionSpec.value(
        "--logger-id", placeholder: "ID", help: "the logger a read belongs to, for a read that names none (a bare NDEF file)")
    /// `--from T --to T`.
    static let periodOptions: [OptionSpec] = [
        fromOption.spec,
        toOption.spec,
    ]

    static func location(_ arguments: inout Arguments) throws -> String {
        arguments.value(archiveOption) ?? Archive.defaultLocation()
    }

    /// Opens the archive; commands that only read pass `create: false` (a missing path is
    /// status 66, a file that is not an archive 65, and neither is changed). A command that
    /// writes creates a missing SQLite archive and says so on `console`, so that a mistyped
    /// path is seen at once.
    static func open(_ location: String, create: Bool, console: Console? = nil) throws -> Archive {
        let isNew = create && isMissingFile(location)
        if let other = notAnArchive(location) {
            throw CommandError(.dataError, "'\(location)' is \(other), not an archive; give --archive an archive's SQLite file or a postgresql:// URI.")
        }
        do {
            let archive = try Archive.open(location, create: create)
            if isNew { console?.error("Created a new archive at \(location).") }
            return archive
        } catch let error as ArchiveError {
            throw commandError(error)
        }
    }

    /// What `location` is when it is plainly no archive: a folder, or a file of a kind with
    /// a signature of its own (a PNG image, a PDF document), as `report` names them; `nil`
    /// for an SQLite file, a missing one, a URI, or anything the engine must judge.
    static func notAnArchive(_ location: String) -> String? {
        guard !PostgreSQLEngine.isURI(location) else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: location, isDirectory: &isFolder) else { return nil }
        if isFolder.boolValue { return "a folder" }
        guard let handle = FileHandle(forReadingAtPath: location) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        guard !head.isEmpty, let kind = LogInput.otherFileKind(head), kind.hasPrefix("a "), kind != "an SQLite database" else { return nil }
        return kind
    }

    /// A SQLite archive path with no file yet.
    static func isMissingFile(_ location: String) -> Bool {
        !PostgreSQLEngine.isURI(location) && !FileManager.default.fileExists(atPath: location)
    }

    /// Runs `body`, turning an `ArchiveError` into the command error with its exit status.
    static func mapping<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ArchiveError {
            throw commandError(error)
        }
    }

    static func commandError(_ error: ArchiveError) -> CommandError {
        let message = error.message + (error.hint.map { " " + advice($0) } ?? "")
        if error.kind == .notFound, error.hint == .keepAReadFirst { return CommandError(.noInput, message) }
        switch error.kind {
        case .corrupt, .newerVersion, .verificationFailed: return CommandError(.dataError, message)
        case .unavailable, .connectionLost: return CommandError(.unavailable, message)
        case .invalidRead, .conflict: return CommandError(.usage, message)
        case .readOnly, .full, .busy, .notFound, .engine: return CommandError(.failure, message)
        }
    }

    /// The command line's words for what the archive says the user could do.
    static func advice(_ hint: ArchiveHint) -> String {
        switch hint {
        case .listSites: return "'coldtap site list' lists them."
        case .listLoggers(let count?): return "'coldtap loggers' lists the \(count) it holds."
        case .listLoggers(nil): return "'coldtap loggers' lists those it holds."
        case .verify: return "'coldtap archive verify' lists every damaged row."
        case .nameTheLogger: return "Give it with --logger-id ID (e.g. the label on the logger)."
        case .useAnotherArchive: return "Or give --archive another file or database."
        case .keepAReadFirst: return "Add reads with 'coldtap archive add' or 'coldtap read' first, or give --archive."
        case .listProducts: return "'coldtap product list' lists the products it knows."
        case .listLots: return "'coldtap lot list' lists the lots it keeps; 'coldtap lot list --site NAME' a station site's."
        }
    }

    /// `--from T` / `--to T` (ISO 8601 with a zone, or a date `YYYY-MM-DD` meaning its UTC midnight).
    static func period(_ arguments: inout Arguments) throws -> (from: Date?, to: Date?) {
        let period = (try arguments.value(fromOption), try arguments.value(toOption))
        if let from = period.0, let to = period.1, from > to {
            throw CommandError.usage("--from is after --to.")
        }
        return period
    }

    /// The `--logger` selection of the command line as kept with a read.
    static func loggerParts(_ raw: String?) -> (name: String?, descriptor: String?) {
        guard let raw else { return (nil, nil) }
        if let data = FileManager.default.contents(atPath: raw),
            raw.hasSuffix(".json") || !(LoggerDecoder.builtInNames + ["cupltag-rh"]).contains(raw.lowercased())
        {
            return (nil, String(decoding: data, as: UTF8.self))
        }
        return (raw.lowercased(), nil)
    }

    /// The value of `--logger` still in `arguments`, without taking it.
    static func peekLogger(_ arguments: Arguments) -> String? {
        arguments.peek(LogInput.loggerOption)
    }

    // MARK: Printing

    static func time(_ date: Date?) -> String { date?.isoUTC ?? "—" }

    static func duration(_ seconds: TimeInterval) -> String { ColdChainFormat.duration(seconds) }

    /// One line on what a read added: `12 new samples, 132 duplicates, 0 conflicts, no gap before`.
    /// `; times read in ZONE (who gave it)` for a read whose zoneless times needed a zone
    /// (a Berlinger report), from its decode options; empty for any other read.
    static func zoneNote(_ decodeOptions: String) -> String {
        guard let (zone, source) = ArchivedReads.loggerTimeZone(ofDecodeOptions: decodeOptions) else { return "" }
        return "; times read in \(zone) (\(zoneSourceWords(source)))"
    }

    /// Who gave a logger's zone, in the command line's words.
    static func zoneSourceWords(_ source: LoggerTimeZoneSource) -> String {
        switch source {
        case .given: return "given with --logger-tz"
        case .uploader: return "sent with the upload"
        case .site: return "the site's setting"
        }
    }

    static func addLine(_ result: AddResult) -> String {
        var text =
            "\(result.newSamples) new sample\(result.newSamples == 1 ? "" : "s"), \(result.duplicates) duplicate\(result.duplicates == 1 ? "" : "s"), \(result.conflicts) conflict\(result.conflicts == 1 ? "" : "s")"
        if let gap = result.gapBefore {
            text += ", gap before \(gap.start.isoUTC) → \(gap.end.isoUTC) (\(duration(gap.duration)))"
        } else {
            text += ", no gap before"
        }
        if result.timeOffset != 0 {
            text += String(format: "; estimated times moved by %+.0f s to meet the samples kept", result.timeOffset)
        }
        return text
    }

    /// Keeps a read made by `coldtap read` or the demo as the archive keeps reads (ArchiveKit).
    static func keep(
        _ outcome: LoggerRead, origin: String, options: LogInput.Options, loggerArgument: String?,
        loggerID: String?, profile: Profile, timeZone: TimeZone, archive location: String
    ) async throws -> AddResult {
        let parts = loggerParts(loggerArgument)
        let decoding = ReadDecoding(loggerName: parts.name, descriptorText: parts.descriptor, interval: options.interval)
        guard
            let read = try await RuleBook.newRead(
                from: .tag(outcome, origin: origin, decoding: decoding, loggerID: loggerID), profile: profile, timeZone: timeZone)
        else {
            throw CommandError.data("the tag holds no NDEF message to keep.")
        }
        return try await mapping {
            let archive = try Archive.open(location, create: true)
            defer { archive.close() }
            return try archive.add(read)
        }
    }
}
