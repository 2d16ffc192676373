import ArchiveKit
import ColdChain
import ColdTapKit
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
    /// `--fail-on`: the verdicts that make `read` exit 2.
    var failOn: Set<Verdict>

    /// Takes `--json --csv --profile --tz` and the report file options (`--out --png --pdf
    /// --svg --html --theme --size --lang`). `--csv` prints the samples, as in `decode`.
    /// - Throws: `CommandError.usage` for both `--json` and `--csv`, an unknown profile,
    ///   time zone, theme or size.
    static func parse(_ arguments: inout Arguments) throws -> LoggerOutput {
        let json = arguments.isSet(ReportCommand.jsonOption)
        let csv = arguments.isSet(ReadCommand.csvOption)
        if json && csv { throw CommandError.usage("Give --json or --csv, not both.") }
        let profile = try ReportCommand.resolveProfile(arguments.value(ReportCommand.profileOption))
        let zoneText = arguments.value(ReportCommand.tzOption)
        let timeZone = try ReportCommand.resolveTimeZone(zoneText)
        let failOn = try ReportCommand.parseFailOn(arguments.value(ReportCommand.failOnOption))
        var artifacts = try ReportArtifacts.parseOptions(&arguments)
        // `read --csv` prints the samples; it is not also a file kind.
        if csv { artifacts.kinds.remove(.csv) }
        if zoneText != nil { artifacts.csvTimeZone = timeZone }
        return LoggerOutput(json: json, csv: csv, profile: profile, timeZone: timeZone, artifacts: artifacts, failOn: failOn)
    }

    /// Prints the log and writes the report files (named after the logger).
    /// - Returns: the verdict, for `--fail-on`.
    @discardableResult
    func emit(_ outcome: LoggerRead, source: String, console: Console) throws -> Verdict {
        let log = outcome.log
        let assessment = RuleBook.judge(log, profile: profile, timeZone: timeZone)
        if json {
            console.print(LogExport.json(log, wording: HintWording.logWording).serialized())
        } else if csv {
            console.write(Data(LogExport.csv(log, timeZone: artifacts.csvTimeZone).utf8))
        } else {
            console.print(ReportCommand.text(log, assessment: assessment, input: source, colour: console.outputIsTerminal))
            ReportArtifacts.drawTerminalChart(log: log, assessment: assessment, console: console)
        }
        if artifacts.writesFiles {
            // A tag has no file: its NDEF message (a SmarTag: its memory) is what was read.
            let input =
                outcome.memory.map {
                    ReportRendering.inputFile(name: "tag memory read from the \(source) (Flipper file)", content: Data($0.flipperText().utf8))
                } ?? outcome.result.ndefMessageBytes.map { ReportRendering.inputFile(name: "NDEF message read from the \(source)", content: $0) }
            try ReportArtifacts.write(
                log: log, assessment: assessment, options: artifacts, input: input,
                console: console, pathsToStandardError: json || csv)
        }
        return assessment.verdict
    }
}
