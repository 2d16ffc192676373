import Archive
import ArchiveKit
import ColdChain
import ColdTapBase
import Foundation

/// `coldtap review LOGGER-ID`: a named user's electronic signature over a logger's period
/// (docs/accounts.md, "What is signed").
public enum ReviewCommand: Command {
    static let fromOption = OptionSpec.value(
        "--from", placeholder: "T", help: "the period's start: an ISO 8601 time, or a day (YYYY-MM-DD: its start in --tz)", required: true)
    static let toOption = OptionSpec.value(
        "--to", placeholder: "T", help: "the period's end, not included: an ISO 8601 time, or a day (its start in --tz)", required: true)
    /// What a review may mean; `acknowledged` is an excursion's (the station's acknowledgement).
    static let meanings = PeriodSignatureRequest.reviewMeanings
    static let meaningOption = OptionSpec.value(
        "--meaning", placeholder: "MEANING", help: "what signing means (rejected says why in --comment)", choices: { meanings.map(\.rawValue) },
        required: true)
    static let userOption = OptionSpec.value(
        "--user", placeholder: "NAME", help: "the signer: a reviewer or admin of the logger's site ('coldtap user list')", required: true)
    static let commentOption = OptionSpec.value(
        "--comment", placeholder: "TEXT", help: "why, or what was found (needed with --meaning rejected; at most 4000 characters)")
    static let passwordStdinOption = OptionSpec.flag(
        "--password-stdin", help: "read the signer's password from the first line of standard input, not at the terminal")
    static let profileOption = OptionSpec.value(
        "--profile", placeholder: "NAME|FILE",
        help: "the cold-chain rules the signed assessment is judged by: a built-in profile, a profile .json, or logger",
        default: "the profile of the logger's newest assessment", choices: ReportCommand.profileOption.choices, path: true)

    public static let name = "review"
    public static let forms = [
        CommandForm(
            positionals: "LOGGER-ID", positionalHelp: [("LOGGER-ID", "a logger as 'coldtap loggers' lists it")],
            summary:
                "sign a logger's period electronically (21 CFR 11): the signer's password is asked again, and the signature covers the period's reads and assessment",
            options: [
                fromOption,
                toOption,
                meaningOption,
                userOption,
                commentOption,
                passwordStdinOption,
                profileOption,
                ReportCommand.tzOption,
                ArchiveAccess.archiveOption,
            ])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let fromText = arguments.value(fromOption)
        let toText = arguments.value(toOption)
        let meaningText = arguments.value(meaningOption)
        let userName = arguments.value(userOption)
        let comment = arguments.value(commentOption)
        let passwordFromStdin = arguments.isSet(passwordStdinOption)
        let profileText = arguments.value(profileOption)
        let timeZone = try ReportCommand.resolveTimeZone(arguments.value(ReportCommand.tzOption))
        let named = try arguments.positionals(min: 1, max: 1, what: "LOGGER-ID")[0]
        try arguments.finish()

        // Everything the command line alone can refuse, before the password is asked.
        let allowed = meanings.map(\.rawValue).joined(separator: ", ")
        guard let meaningText else { throw CommandError.usage("say what the signature means with --meaning (\(allowed)).") }
        guard let meaning = SignatureMeaning(rawValue: meaningText), meanings.contains(meaning) else {
            let why = meaningText == SignatureMeaning.acknowledged.rawValue ? " (acknowledged is an excursion's, not a review's)" : ""
            throw CommandError.usage("--meaning must be one of \(allowed), not '\(meaningText)'\(why).")
        }
        do {
            try PeriodSignatureRequest.check(meaning: meaning, comment: comment)
        } catch let error as PeriodSignatureError {
            throw RuleBookWords.error(error)
        }
        guard let userName else { throw CommandError.usage("say who signs with --user NAME.") }
        guard let fromText, let toText else { throw CommandError.usage("give the period signed with --from T and --to T.") }
        let from = try time(fromText, option: fromOption, in: timeZone)
        let to = try time(toText, option: toOption, in: timeZone)
        do {
            try PeriodSignatureRequest.check(from: from, to: to)
        } catch let error as PeriodSignatureError {
            throw RuleBookWords.error(error)
        }
        let explicitProfile = try profileText.map { try ReportCommand.resolveProfile($0) }

        let archive = try ArchiveAccess.open(location, create: false)
        defer { archive.close() }
        let loggerID = try await ArchiveAccess.loggerID(named, in: archive)
        let record = try await ArchiveAccess.mapping { () async throws -> SignatureRecord in
            let store = try StationStore(archive: archive)
            do {
                // Refused before the password is asked: a logger of no site has nobody to sign.
                _ = try RuleBook.signingSite(of: loggerID, accounts: store)
                let prompt = "Password of \(userName), to sign \(loggerID) as \(meaning.rawValue): "
                let password = passwordFromStdin ? console.readLine() : console.readSecret(prompt: prompt)
                guard let password, !password.isEmpty else {
                    throw CommandError.usage(
                        "no password was given\(passwordFromStdin || !console.inputIsTerminal ? " on standard input" : ""): nothing was signed.")
                }
                let signer: StationUser
                switch try store.checkPassword(name: userName, password: password, purpose: "signature") {
                case .success(let user): signer = user
                case .failure(let refusal): throw refusalError(refusal, name: userName, timeZone: timeZone)
                }
                let request = PeriodSignatureRequest(
                    loggerID: loggerID, meaning: meaning, comment: comment, from: from, to: to, profile: explicitProfile,
                    defaultProfile: ReportCommand.defaultProfile, timeZone: timeZone)
                return try RuleBook.signPeriod(request, signer: signer, accounts: store)
            } catch let error as PeriodSignatureError {
                throw RuleBookWords.error(error)
            }
        }
        console.print(text(record).joined(separator: "\n"))
    }

    /// `T` as an ISO 8601 time, or a day `YYYY-MM-DD` at its start in `zone`.
    static func time(_ text: String, option: OptionSpec, in zone: TimeZone) throws -> Date {
        if let date = ISO8601Time.parse(text) { return date }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd"
        if text.count == 10, let day = formatter.date(from: text) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            return calendar.startOfDay(for: day)
        }
        throw CommandError.usage("\(option.displayName) '\(text)' is not a time; write it like 2026-04-09T08:35:00Z or 2026-04-09 (that day's start in --tz).")
    }

    /// A refused password in the command line's words (an unknown name and a wrong password
    /// are one refusal, as on the station).
    static func refusalError(_ refusal: SignInRefusal, name: String, timeZone: TimeZone) -> CommandError {
        switch refusal {
        case .wrongNameOrPassword:
            return CommandError(
                .noPermission,
                "wrong user name or password: nothing was signed. \(StationStore.failuresBeforeLock) wrong passwords in a row lock the account (\(Int(StationStore.firstLock / 60)) minutes, twice as long each time after)."
            )
        case .locked(let until):
            return CommandError(
                .noPermission,
                "\(name) is locked until \(ISO8601Time.text(until, in: timeZone)) after \(StationStore.failuresBeforeLock) wrong passwords in a row: nothing was signed. Try again then, or an admin sets a new password ('coldtap user reset \(name)')."
            )
        case .disabled:
            return CommandError(.noPermission, "\(name) is disabled: nothing was signed.")
        case .noPasswordYet:
            return CommandError(
                .noPermission,
                "\(name) has no password yet: they choose one with their set-up link ('coldtap user reset \(name)' makes a new one). Nothing was signed.")
        }
    }

    /// A signature in lines: who, when (in the zone it was signed in), what it means, why,
    /// what it covers and the statement's SHA-256.
    static func text(_ record: SignatureRecord) -> [String] {
        let zone = TimeZone(identifier: record.timeZone) ?? .gmt
        let reads = record.signedReadIDs
        var lines = [
            "Signature #\(record.id): \(record.subject == .review ? "review" : "acknowledgement") of \(record.loggerID)",
            "  signed by    \(record.printedName) (\(record.userName), \(record.role.rawValue))",
            "  at           \(ISO8601Time.text(record.signed, in: zone)) (\(record.timeZone))",
            "  meaning      \(record.meaning.rawValue)",
        ]
        if let comment = record.comment { lines.append("  comment      \(comment.replacingOccurrences(of: "\n", with: " "))") }
        lines += [
            "  period       \(ISO8601Time.text(record.from, in: zone)) to \(ISO8601Time.text(record.to, in: zone))",
            "  reads signed \(reads.isEmpty ? "none" : reads.map { "#\($0)" }.joined(separator: ", "))",
            "  statement    SHA-256 \(record.statementSHA256)",
        ]
        return lines
    }
}

/// `coldtap signatures LOGGER-ID`: a logger's electronic signatures, oldest first.
public enum SignaturesCommand: Command {
    static let jsonOption = OptionSpec.flag("--json", help: "print the signatures, each with its statement, as JSON")

    public static let name = "signatures"
    public static let forms = [
        CommandForm(
            positionals: "LOGGER-ID", positionalHelp: [("LOGGER-ID", "a logger as 'coldtap loggers' lists it")],
            summary: "list a logger's electronic signatures (reviews and acknowledgements): who, when, meaning, period, reads, statement SHA-256",
            options: [jsonOption, ArchiveAccess.archiveOption])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let json = arguments.isSet(jsonOption)
        let named = try arguments.positionals(min: 1, max: 1, what: "LOGGER-ID")[0]
        try arguments.finish()
        let archive = try ArchiveAccess.open(location, create: false)
        defer { archive.close() }
        let loggerID = try await ArchiveAccess.loggerID(named, in: archive)
        let records = try await ArchiveAccess.mapping { () -> [SignatureRecord] in
            guard try archive.loggerSummary(loggerID) != nil else {
                throw ArchiveError(.notFound, "the archive holds no logger '\(loggerID)'.", hint: .listLoggers(count: nil))
            }
            return try StationStore(archive: archive).signatures(loggerID: loggerID)
        }
        if json {
            console.print(
                JSONValue.object([("logger", .string(loggerID)), ("signatures", .array(records.map { ArchiveJSON.signature($0, statement: true) }))])
                    .serialized())
            return
        }
        guard !records.isEmpty else {
            console.print("\(loggerID) has no signatures; 'coldtap review \(loggerID)' signs a period.")
            return
        }
        let rows = records.map { record -> [String] in
            let zone = TimeZone(identifier: record.timeZone) ?? .gmt
            let period = "\(record.from.isoUTC) – \(record.to.isoUTC)"
            let statement = String(record.statementSHA256.prefix(16)) + "…"
            let comment = record.comment.map { String($0.replacingOccurrences(of: "\n", with: " ").prefix(60)) } ?? "—"
            return [
                String(record.id), ISO8601Time.text(record.signed, in: zone), record.printedName, record.userName, record.role.rawValue,
                record.meaning.rawValue, period, String(record.signedReadIDs.count), statement, comment,
            ]
        }
        console.print(
            ReportCommand.table(
                rows, header: ["id", "signed", "printed name", "user", "role", "meaning", "period", "reads", "statement", "comment"], rightAligned: [0, 7]
            ).joined(separator: "\n"))
    }
}
