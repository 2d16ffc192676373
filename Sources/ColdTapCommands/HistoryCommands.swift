import Archive
import ArchiveKit
import ColdChain
import ColdTapBase
import ColdTapKit
import Foundation
import LoggerFormats

/// `coldtap loggers`: one line per logger in the archive.
public enum LoggersCommand: Command {
    static let jsonOption = OptionSpec.flag("--json", help: "print the loggers as JSON")

    public static let name = "loggers"
    public static let forms = [
        CommandForm(
            summary: "every logger in the archive: format, first and last sample, reads, last verdict, open excursions",
            options: [ArchiveAccess.archiveOption, jsonOption])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let json = arguments.isSet(jsonOption)
        try arguments.finish()
        let archive = try ArchiveAccess.open(location, create: false)
        defer { archive.close() }
        let rows = try await ArchiveAccess.mapping { () async throws -> [(LoggerSummary, Int)] in
            try archive.loggers().map { summary in (summary, try openExcursions(summary, archive: archive)) }
        }
        let head = try await ArchiveAccess.mapping { try archive.chainHead().hash }
        if json {
            console.print(
                JSONValue.object([
                    (
                        "loggers",
                        .array(
                            rows.map { summary, open in
                                ArchiveJSON.logger(summary, extra: [("openExcursions", .int(open))])
                            })
                    ),
                    ("chainHead", .string(head)),
                ]).serialized())
            return
        }
        guard !rows.isEmpty else {
            console.print("The archive \(archive.engine.location) holds no loggers yet; add reads with 'coldtap archive add FILE' or 'coldtap read'.")
            return
        }
        let table = rows.map { summary, open in
            [
                summary.logger.id, summary.logger.format, ArchiveAccess.time(summary.firstSample), ArchiveAccess.time(summary.lastSample),
                String(summary.readCount), summary.lastVerdict ?? "—", String(open),
            ]
        }
        console.print(
            ReportCommand.table(
                table, header: ["logger", "format", "first sample", "last sample", "reads", "last verdict", "open excursions"],
                rightAligned: [4, 6]
            ).joined(separator: "\n"))
        console.print("Chain head: \(head)")
    }

    /// Excursions of the stitched record, under the profile of the newest assessment, that
    /// no acknowledgement names.
    static func openExcursions(_ summary: LoggerSummary, archive: Archive) throws -> Int {
        try RuleBook.openExcursions(summary, archive: archive, defaultProfile: ReportCommand.defaultProfile)
    }
}

/// `coldtap history`: the stitched record of one logger.
public enum HistoryCommand: Command {
    static let jsonOption = OptionSpec.flag("--json", help: "print the record as JSON")
    static let csvOption = OptionSpec.flag("--csv", help: "print the samples as CSV")

    public static let name = "history"
    public static let forms = [
        CommandForm(
            positionals: "LOGGER-ID", positionalHelp: [("LOGGER-ID", "a logger as 'coldtap loggers' lists it")],
            summary: "the stitched record of one logger: its samples with the read each came from, gaps and conflicts",
            options: [ArchiveAccess.archiveOption] + ArchiveAccess.periodOptions + [
                jsonOption,
                csvOption,
            ])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let json = arguments.isSet(jsonOption)
        let csv = arguments.isSet(csvOption)
        let period = try ArchiveAccess.period(&arguments)
        let loggerID = try arguments.positionals(min: 1, max: 1, what: "LOGGER-ID")[0]
        try arguments.finish()
        if json && csv { throw CommandError.usage("Give --json or --csv, not both.") }
        let archive = try ArchiveAccess.open(location, create: false)
        defer { archive.close() }
        let found = try await ArchiveAccess.loggerID(loggerID, in: archive)
        let history = try await ArchiveAccess.mapping { try archive.history(loggerID: found, from: period.from, to: period.to) }
        if json {
            console.print(self.json(history).serialized())
        } else if csv {
            console.write(Data(ArchiveJSON.samplesCSV(history.samples).utf8))
        } else {
            console.print(text(history, samples: true))
        }
    }

    /// The `--json` document (README, "Archive JSON").
    static func json(_ history: History) -> JSONValue {
        .object([
            (
                "logger",
                .object([
                    ("id", .string(history.logger.id)),
                    ("format", .string(history.logger.format)),
                    ("serial", .optional(history.logger.serial)),
                    ("tagUID", .optional(history.logger.tagUID)),
                    ("interval", .number(history.interval)),
                ])
            ),
            ("from", .optional(history.from?.isoUTC)),
            ("to", .optional(history.to?.isoUTC)),
            ("generation", .int(history.generation)),
            ("chainHead", .string(history.chainHead)),
            ("reads", .array(history.reads.map { ArchiveJSON.read($0, stitching: true, wording: HintWording.logWording) })),
            ("samples", .array(history.samples.map(ArchiveJSON.sample))),
            (
                "gaps",
                .array(
                    history.gaps.map { gap in
                        .object([("from", .string(gap.start.isoUTC)), ("to", .string(gap.end.isoUTC)), ("seconds", .number(gap.duration))])
                    })
            ),
            (
                "conflicts",
                .array(
                    history.conflicts.map { conflict in
                        .object([
                            ("time", .string(conflict.time.isoUTC)),
                            ("kept", .object(ArchiveJSON.values(conflict.kept) + [("read", .int(Int(conflict.keptReadID)))])),
                            ("other", .object(ArchiveJSON.values(conflict.other) + [("read", .int(Int(conflict.otherReadID)))])),
                        ])
                    })
            ),
            ("acknowledgements", .array(history.acknowledgements.map { ArchiveJSON.acknowledgement($0) })),
        ])
    }

    /// The human history: logger, reads, gaps, conflicts, acknowledgements and (when
    /// `samples`) every stitched sample.
    static func text(_ history: History, samples: Bool) -> String {
        var lines: [String] = []
        let first = history.samples.first?.sample.time
        let last = history.samples.last?.sample.time
        lines.append(
            "\(history.logger.id) (\(history.logger.format)): \(history.samples.count) samples every \(ArchiveAccess.duration(history.interval)) from \(history.reads.count) read(s), \(ArchiveAccess.time(first)) → \(ArchiveAccess.time(last))"
        )
        lines.append("")
        lines.append("Reads")
        lines += ReportCommand.table(
            history.reads.map { read in
                [
                    "#\(read.id)", read.readTime.isoUTC, String(read.sampleCount), String(read.newSamples), String(read.duplicates),
                    String(read.conflicts), String(read.sha256.prefix(16)), read.origin,
                ]
            }, header: ["read", "read time", "samples", "new", "duplicates", "conflicts", "sha256", "from"], rightAligned: [2, 3, 4, 5])
        lines.append("")
        if history.gaps.isEmpty {
            lines.append("Gaps: none — the reads meet or overlap")
        } else {
            lines.append("Gaps (unknown time between reads that do not meet)")
            lines += history.gaps.map { "  \($0.start.isoUTC) → \($0.end.isoUTC) (\(ArchiveAccess.duration($0.duration)))" }
        }
        if history.conflicts.isEmpty {
            lines.append("Conflicts: none")
        } else {
            lines.append("Conflicts (a re-read gave another value; the first value read is used)")
            lines += history.conflicts.map { conflict in
                "  \(conflict.time.isoUTC): \(value(conflict.kept)) (read #\(conflict.keptReadID)) against \(value(conflict.other)) (read #\(conflict.otherReadID))"
            }
        }
        if history.acknowledgements.isEmpty {
            lines.append("Acknowledgements: none")
        } else {
            lines.append("Acknowledgements")
            lines += history.acknowledgements.map { "  excursion from \($0.excursionStart.isoUTC): \($0.by) at \($0.at.isoUTC) — \($0.comment)" }
        }
        if samples {
            lines.append("")
            lines.append("Samples")
            lines += ReportCommand.table(
                history.samples.map { item in
                    [
                        item.sample.time.isoUTC, item.sample.temperature.map { String(format: "%.2f °C", $0) } ?? "—",
                        item.sample.humidity.map { String(format: "%.1f %%", $0) } ?? "",
                        item.sample.flags.map(\.rawValue).joined(separator: ","), "#\(item.readID)",
                    ]
                }, header: ["time", "temperature", "humidity", "flags", "read"], rightAligned: [1, 2])
        }
        lines.append("")
        lines.append("Chain head: \(history.chainHead)")
        return lines.joined(separator: "\n")
    }

    private static func value(_ sample: TemperatureLog.Sample) -> String {
        sample.temperature.map { String(format: "%.2f °C", $0) } ?? "no temperature"
    }
}

/// `coldtap ack`: acknowledge an excursion of the stitched record.
public enum AckCommand: Command {
    static let excursionOption = OptionSpec.value(
        "--excursion", placeholder: "START-TIME", help: "the excursion's start, as 'coldtap report --logger-id' lists it (ISO 8601)",
        required: true)
    static let byOption = OptionSpec.value(
        "--by", placeholder: "NAME", help: "who acknowledges, before the archive has users (kept as a typed name, unsigned, with your account)")
    static let userOption = OptionSpec.value(
        "--user", placeholder: "NAME", help: "once the archive has users: the operator, reviewer or admin who signs ('coldtap user list')")
    static let commentOption = OptionSpec.value("--comment", placeholder: "TEXT", help: "what was done about the excursion", required: true)
    static let againOption = OptionSpec.flag("--again", help: "acknowledge an excursion that was acknowledged before (a follow-up)")

    public static let name = "ack"
    public static let forms = [
        CommandForm(
            positionals: "LOGGER-ID", positionalHelp: [("LOGGER-ID", "a logger as 'coldtap loggers' lists it")],
            summary: "acknowledge an excursion of a logger's record: who, and what was done about it",
            options: [
                excursionOption,
                byOption,
                userOption,
                ReviewCommand.passwordStdinOption,
                commentOption,
                againOption,
                ArchiveAccess.archiveOption,
            ] + [ReportCommand.profileOption])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        guard let startText = arguments.value(excursionOption) else {
            throw CommandError.usage("give the excursion to acknowledge with --excursion START-TIME (its start, as 'coldtap report --logger-id' lists it).")
        }
        guard let start = LogInput.Options.parseReadTime(startText) else {
            throw CommandError.usage("--excursion '\(startText)' is not an ISO 8601 time with a zone; write it like 2024-04-09T08:35:00Z.")
        }
        let by = arguments.value(byOption)
        let userName = arguments.value(userOption)
        let passwordFromStdin = arguments.isSet(ReviewCommand.passwordStdinOption)
        let comment = arguments.value(commentOption)
        if by != nil && userName != nil { throw CommandError.usage("give --user NAME (once the archive has users) or --by NAME (before), not both.") }
        do {
            // The signer's printed name stands for --by when a user signs.
            _ = try AcknowledgementRequest.checked(by: userName ?? by, comment: comment)
        } catch let error as AcknowledgementError {
            throw RuleBookWords.error(error)
        }
        let profileText = arguments.value(ReportCommand.profileOption)
        let again = arguments.isSet(againOption)
        let named = try arguments.positionals(min: 1, max: 1, what: "LOGGER-ID")[0]
        try arguments.finish()
        let archive = try ArchiveAccess.open(location, create: false)
        defer { archive.close() }
        let loggerID = try await ArchiveAccess.loggerID(named, in: archive)
        let ack = try await ArchiveAccess.mapping { () async throws -> Acknowledgement in
            var request = AcknowledgementRequest(
                loggerID: loggerID, excursionStart: start, by: by, comment: comment, again: again,
                typedOnAccount: UserCommand.actor, profile: try profileText.map { try ReportCommand.resolveProfile($0) },
                defaultProfile: ReportCommand.defaultProfile, timeZone: TimeZone(identifier: "UTC") ?? .gmt)
            var accounts: StationStore?
            if try RuleBook.acknowledgementsAreSigned(archive: archive) {
                guard let userName, by == nil else {
                    throw CommandError.usage(
                        "this archive has users, so an acknowledgement is a user's signature: give --user NAME (and the password at the prompt or with --password-stdin) instead of --by."
                    )
                }
                let store = try StationStore(archive: archive)
                let prompt = "Password of \(userName), to sign the acknowledgement of \(loggerID): "
                let password = passwordFromStdin ? console.readLine() : console.readSecret(prompt: prompt)
                guard let password, !password.isEmpty else {
                    throw CommandError.usage(
                        "no password was given\(passwordFromStdin || !console.inputIsTerminal ? " on standard input" : ""): nothing was acknowledged.")
                }
                switch try store.checkPassword(name: userName, password: password, purpose: "signature") {
                case .success(let user): request.signer = user
                case .failure(let refusal): throw ReviewCommand.refusalError(refusal, name: userName, timeZone: TimeZone(identifier: "UTC") ?? .gmt)
                }
                accounts = store
            } else if userName != nil {
                throw CommandError.usage("this archive has no users yet, so nobody can sign: say who acknowledges with --by NAME.")
            }
            do {
                return try RuleBook.acknowledgeExcursion(request, archive: archive, accounts: accounts)
            } catch let error as AcknowledgementError {
                throw RuleBookWords.error(error)
            }
        }
        console.print("Acknowledged the excursion of \(loggerID) from \(ack.excursionStart.isoUTC) (acknowledgement #\(ack.id), by \(ack.by)).")
        console.print("Chain head: \(try await ArchiveAccess.mapping { try archive.chainHead().hash })")
    }
}
