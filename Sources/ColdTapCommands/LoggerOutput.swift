import ColdChain
import Foundation
import LoggerFormats

/// What `coldtap read` prints and writes for one logger read: the `decode` JSON or CSV, or the
/// `report` text with the verdict; and with `--out` (or file-kind flags) the `report` files.
struct LoggerOutput {
    var json: Bool
    var csv: Bool
    var profile: Profile
    var timeZone: TimeZone
    var artifacts: ReportArtifacts.Options

    /// Takes `--json --csv --profile --tz` and the report file options (`--out --png --pdf
    /// --svg --html --theme --size --lang`). `--csv` prints the samples, as in `decode`.
    /// - Throws: `CommandError.usage` for both `--json` and `--csv`, an unknown profile,
    ///   time zone, theme or size.
    static func parse(_ arguments: inout Arguments) throws -> LoggerOutput {
        let json = arguments.flag("--json")
        let csv = arguments.flag("--csv")
        if json && csv { throw CommandError.usage("Give --json or --csv, not both.") }
        let profile = try ReportCommand.resolveProfile(try arguments.option("--profile"))
        let timeZone = try ReportCommand.resolveTimeZone(try arguments.option("--tz"))
        let artifacts = try ReportArtifacts.parseOptions(&arguments)
        return LoggerOutput(json: json, csv: csv, profile: profile, timeZone: timeZone, artifacts: artifacts)
    }

    /// Prints the log and writes the report files (named `fileStem`-…).
    func emit(_ outcome: LoggerReadOutcome, source: String, fileStem: String, console: Console) throws {
        let log = outcome.log
        let assessment = Assessor.assess(log, profile: profile, timeZone: timeZone)
        if json {
            console.print(LogExport.json(log).serialized())
        } else if csv {
            console.write(Data(LogExport.csv(log).utf8))
        } else {
            console.print(ReportCommand.text(log, assessment: assessment, input: source, colour: console.outputIsTerminal))
            ReportArtifacts.drawTerminalChart(log: log, assessment: assessment, console: console)
        }
        if artifacts.writesFiles {
            try ReportArtifacts.write(log: log, assessment: assessment, inputName: fileStem, options: artifacts,
                                      console: console, pathsToStandardError: json || csv)
        }
    }
}
