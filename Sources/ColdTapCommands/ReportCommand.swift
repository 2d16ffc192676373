import ArchiveKit
import ColdChain
import ColdTapBase
import ColdTapKit
import Foundation
import LoggerFormats

/// `coldtap report`: decode a log, judge it against a cold-chain profile and print the
/// verdict, statistics and excursions.
public enum ReportCommand: Command {
    static let profileOption = OptionSpec.value(
        "--profile", placeholder: "NAME|FILE",
        help: "the cold-chain rules to judge by: a built-in profile ('coldtap profiles'), a profile .json, or logger (the logger's own limits)",
        default: ReportCommand.defaultProfile.name, choices: { Profile.builtIn.map(\.name) + ["logger"] }, path: true)
    static let tzOption = OptionSpec.value(
        "--tz", placeholder: "ZONE", help: "time zone of times, days and the CSV: Europe/Berlin, UTC, +02:00",
        default: "the system's zone (the CSV: UTC)"
    ).typed(.zone)
    static let jsonOption = OptionSpec.flag("--json", help: "print the verdict, statistics, excursions and the log as JSON")
    static let failOnOption = OptionSpec.value(
        "--fail-on", placeholder: "VERDICT", help: "exit 2 after printing when the verdict is ALARM (alarm) or not OK (inconclusive)",
        default: "exit 0 whatever the verdict", choices: { ["alarm", "inconclusive"] })

    public static let name = "report"
    public static let forms = [
        CommandForm(
            positionals: "FILE",
            positionalHelp: [
                (
                    "FILE",
                    "a tag memory dump (raw, hex text or Flipper .nfc), an NDEF message, a cuplTag URL (as a file or given itself), or - for standard input"
                )
            ],
            summary: "decode a log, judge it against a cold-chain profile (OK / ALARM / INCONCLUSIVE), print the verdict and write the report files",
            options: ReportCommand.reportOptionSpecs + LogInput.optionSpecs + ReportArtifacts.optionSpecs + ArchiveReport.optionSpecs)
    ]

    /// The verdict options `report` and `read` share.
    public static let reportOptionSpecs: [OptionSpec] = [
        profileOption,
        tzOption.spec,
        jsonOption,
        failOnOption,
    ]

    /// Everything `coldtap report` takes from its command line.
    public struct Options: Sendable {
        /// FILE (`-` = standard input).
        public var path: String
        /// The decode options, exactly as `coldtap decode` takes them.
        public var input: LogInput.Options
        public var profile: Profile
        public var timeZone: TimeZone
        /// True when `--tz` was given (the CSV then writes its times in that zone).
        public var timeZoneGiven = false
        public var json: Bool
        /// `--fail-on`: the verdicts that make the command exit 2.
        public var failOn: Set<Verdict> = []
    }

    /// `--fail-on alarm|inconclusive`: `alarm` fails on ALARM, `inconclusive` on anything but OK.
    /// - Throws: `CommandError.usage` for another word.
    static func parseFailOn(_ text: String?) throws -> Set<Verdict> {
        switch text?.lowercased() {
        case nil: return []
        case "alarm"?: return [.alarm]
        case "inconclusive"?: return [.alarm, .inconclusive]
        case let other?: throw CommandError.usage("--fail-on takes alarm or inconclusive, not '\(other)'.")
        }
    }

    /// Exit status 2 when `failOn` holds the verdict; called after everything is printed and written.
    static func checkFailOn(_ failOn: Set<Verdict>, verdict: Verdict) throws {
        guard failOn.contains(verdict) else { return }
        let word = failOn.contains(.inconclusive) ? "inconclusive" : "alarm"
        throw CommandError(.verdict, "the verdict is \(verdict.rawValue) (--fail-on \(word)).")
    }

    /// The profile when `--profile` is not given.
    public static let defaultProfile = Profile.vaccineFridge

    /// Takes the options of `coldtap report` (and of `coldtap decode`) and FILE from
    /// `arguments`; other commands' options are left for `finish()` or a caller that adds its own.
    /// - Throws: `CommandError`: usage for an unknown profile or time zone; data error for a
    ///   profile file that is not valid, naming the field.
    public static func parseOptions(_ arguments: inout Arguments) throws -> Options {
        let json = arguments.isSet(jsonOption)
        let profile = try resolveProfile(arguments.value(profileOption))
        let zone = try arguments.value(tzOption)
        let failOn = try parseFailOn(arguments.value(failOnOption))
        let input = try LogInput.Options.parse(&arguments)
        let path = try arguments.positionals(min: 1, max: 1)[0]
        return Options(
            path: path, input: input, profile: profile, timeZone: zone ?? .current, timeZoneGiven: zone != nil,
            json: json, failOn: failOn)
    }

    public static func run(_ arguments: Arguments, console: Console) async throws {
        if ArchiveReport.isRequested(arguments) { return try await ArchiveReport.run(arguments, console: console) }
        var arguments = arguments
        var artifacts = try ReportArtifacts.parseOptions(&arguments)
        let options = try parseOptions(&arguments)
        try arguments.finish()
        if options.timeZoneGiven { artifacts.csvTimeZone = options.timeZone }
        // --csv alone prints the samples, as in `decode`; with --out or -o it is a file.
        let printsCSV = artifacts.kinds == [.csv] && artifacts.outDirectory == nil && artifacts.outputFile == nil
        if printsCSV {
            if options.json { throw CommandError.usage("Give --json or --csv, not both (or --csv with --out DIR or -o FILE to write the CSV).") }
            artifacts.kinds = []
        }
        try artifacts.validate()
        let loaded = try await LogInput.load(path: options.path, options: options.input, console: console)
        let assessment = RuleBook.judge(loaded.log, profile: options.profile, timeZone: options.timeZone)
        if options.json {
            console.print(
                json(log: LogExport.json(loaded.log, wording: HintWording.logWording), period: ReportPeriod(log: loaded.log), assessment: assessment)
                    .serialized())
        } else if printsCSV {
            console.write(Data(LogExport.csv(loaded.log, timeZone: artifacts.csvTimeZone).utf8))
        } else {
            console.print(
                text(
                    loaded.log, assessment: assessment, input: loaded.inputDescription,
                    colour: console.outputIsTerminal))
            ReportArtifacts.drawTerminalChart(log: loaded.log, assessment: assessment, console: console)
        }
        if artifacts.writesFiles {
            try ReportArtifacts.write(
                log: loaded.log, assessment: assessment, options: artifacts,
                input: ReportRendering.inputFile(name: loaded.sourceName, content: loaded.sourceBytes),
                console: console, pathsToStandardError: options.json)
        }
        try checkFailOn(options.failOn, verdict: assessment.verdict)
    }

    // MARK: Options

    /// A built-in profile name or a profile JSON file; `nil` gives `defaultProfile`.
    /// - Throws: `CommandError` (usage) for a name that is neither; (data error) for an
    ///   invalid profile file; (failure) for a file that cannot be read.
    public static func resolveProfile(_ text: String?) throws -> Profile {
        guard let text else { return defaultProfile }
        if let profile = Profile.builtIn(named: text.lowercased()) { return profile }
        if text.lowercased() == Profile.loggerLimitsName { return .loggerLimits }
        let names = Profile.builtIn.map(\.name).joined(separator: ", ")
        guard text.hasSuffix(".json") || FileManager.default.fileExists(atPath: text) else {
            throw CommandError.usage("--profile '\(text)' is neither a built-in profile (\(names)) nor a profile file.")
        }
        // Read like FILE, so that a missing file, a directory or no permission each say so.
        let data = try InputBytes.readFile(text)
        do {
            return try Profile.fromJSON(data)
        } catch {
            // Each ProfileError names the field and ends with what to write there.
            throw CommandError.data("The profile file '\(text)' is not valid: \(error)")
        }
    }

    // MARK: JSON

    /// The `--json` document: `log` (the `coldtap decode --json` document), `profile`,
    /// `verdict`, `headline`, `period` (`start`, `end`: ColdChain's `ReportPeriod`, `null`
    /// for a log without samples), `statistics`, `excursions`, `alarms`, `reasons`. Times
    /// are UTC with `Z`, temperatures °C, durations seconds; figures that do not exist are `null`.
    public static func json(log: JSONValue, period: ReportPeriod?, assessment: Assessment) -> JSONValue {
        let statistics = assessment.statistics
        return .object([
            ("log", log),
            ("profile", .string(assessment.profile.name)),
            ("verdict", .string(assessment.verdict.rawValue)),
            ("headline", .string(assessment.headline(in: assessment.timeZone))),
            (
                "period",
                period.map { .object([("start", .string($0.start.isoUTC)), ("end", .string($0.end.isoUTC))]) } ?? .null
            ),
            (
                "statistics",
                .object([
                    ("min", .optional(statistics.min)),
                    ("minTime", .optional(statistics.minTime?.isoUTC)),
                    ("max", .optional(statistics.max)),
                    ("maxTime", .optional(statistics.maxTime?.isoUTC)),
                    ("mean", .optional(statistics.mean)),
                    ("stddev", .optional(statistics.standardDeviation)),
                    ("mkt", .optional(statistics.meanKineticTemperature)),
                    ("validSamples", .int(statistics.validCount)),
                    ("unknownSeconds", .number(statistics.unknownSeconds)),
                ])
            ),
            (
                "excursions",
                .array(
                    assessment.excursions.map { excursion in
                        .object([
                            ("direction", .string(excursion.direction.rawValue)),
                            ("start", .string(excursion.start.isoUTC)),
                            ("end", .string(excursion.end.isoUTC)),
                            ("durationSeconds", .number(excursion.duration)),
                            ("peak", .number(excursion.peak)),
                            ("peakTime", .string(excursion.peakTime.isoUTC)),
                            ("degreeMinutes", .number(excursion.degreeMinutes)),
                        ])
                    })
            ),
            (
                "alarms",
                .array(
                    assessment.alarms.map { alarm in
                        .object([
                            ("rule", .string(alarm.rule.description)),
                            ("firedAt", .string(alarm.firedAt.isoUTC)),
                            ("exposureSeconds", .number(alarm.exposure)),
                        ])
                    })
            ),
            ("reasons", .array(assessment.reasons.map { .string($0) })),
        ])
    }

    // MARK: Text

    /// The human report (`ReportText`): the verdict and its reasons first, then the rules,
    /// the log, the statistics, the excursion table and the per-day table. `colour` adds ANSI
    /// colours (for a terminal only).
    public static func text(
        _ log: TemperatureLog, assessment: Assessment, input: String? = nil,
        colour: Bool
    ) -> String {
        ReportText(log: log, assessment: assessment, input: input, colour: colour).text
    }

    /// Rows padded into columns, indented by two spaces. ANSI colour codes do not count
    /// towards a cell's width.
    static func table(_ rows: [[String]], header: [String]?, rightAligned: Set<Int>) -> [String] {
        let all = (header.map { [$0] } ?? []) + rows
        let columns = all.map(\.count).max() ?? 0
        func width(_ cell: String) -> Int {
            var count = 0
            var inEscape = false
            for character in cell {
                if character == "\u{1B}" { inEscape = true; continue }
                if inEscape { if character == "m" { inEscape = false }; continue }
                count += 1
            }
            return count
        }
        let widths = (0..<columns).map { column in
            all.map { column < $0.count ? width($0[column]) : 0 }.max() ?? 0
        }
        return all.map { row in
            let cells = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - width(cell))
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }
            return ("  " + cells.joined(separator: "  ")).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }
}
