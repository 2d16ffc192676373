import Archive
import ColdTapKit
import Foundation

/// `coldtap read` keeps every read in the archive unless `--no-archive`; what it kept goes
/// to standard error, so that `--json` and `--csv` output stays the log alone.
struct ReadArchiving {
    static let noArchiveOption = OptionSpec.flag("--no-archive", help: "do not keep the read in the archive")

    var enabled: Bool
    var location: String
    var loggerID: String?
    var loggerArgument: String?

    /// The options `read` declares for keeping its reads.
    static let optionSpecs: [OptionSpec] = [
        noArchiveOption,
        ArchiveAccess.archiveOption,
        ArchiveAccess.loggerIDOption,
    ]

    /// Takes `--no-archive`, `--archive A`, `--logger-id ID` (and notes `--logger` without taking it).
    static func parse(_ arguments: inout Arguments) throws -> ReadArchiving {
        let disabled = arguments.isSet(noArchiveOption)
        let location = try ArchiveAccess.location(&arguments)
        let loggerID = arguments.value(ArchiveAccess.loggerIDOption)
        return ReadArchiving(
            enabled: !disabled, location: location, loggerID: loggerID,
            loggerArgument: ArchiveAccess.peekLogger(arguments))
    }

    func keep(
        _ outcome: LoggerRead, origin: String, options: LogInput.Options, output: LoggerOutput,
        console: Console
    ) async throws {
        guard enabled else { return }
        if ArchiveAccess.isMissingFile(location) { console.error("Created a new archive at \(location).") }
        let result = try await ArchiveAccess.keep(
            outcome, origin: origin, options: options, loggerArgument: loggerArgument,
            loggerID: loggerID, profile: output.profile, timeZone: output.timeZone,
            archive: location)
        if result.alreadyKept {
            console.error("Already in the archive \(location) as read #\(result.readID) of \(result.loggerID).")
        } else {
            console.error("Kept in the archive \(location) as read #\(result.readID) of \(result.loggerID): \(ArchiveAccess.addLine(result)).")
        }
    }
}
