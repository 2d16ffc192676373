import Archive
import ArchiveKit
import ColdChain
import ColdTapBase
import ColdTapKit
import Foundation
import LoggerFormats
import TempChart

/// `coldtap report --logger-id ID`: the full-period report over the stitched record, made by
/// the same pipeline as a report of one read (the record becomes one log whose gaps between
/// reads are unknown time), with the reads, gaps, conflicts, acknowledgements and the chain
/// head it was made from.
enum ArchiveReport {
    static let loggerIDOption = OptionSpec.value(
        "--logger-id", placeholder: "ID", help: "report the whole record of this logger in the archive instead of FILE")

    /// True when the command line asks for a report from the archive.
    /// The options a report from the archive adds to `report`'s own.
    static let optionSpecs: [OptionSpec] =
        [
            loggerIDOption,
            ArchiveAccess.archiveOption, ArchiveRecordCommands.signingKeyOption,
        ] + ArchiveAccess.periodOptions

    static func isRequested(_ arguments: Arguments) -> Bool {
        arguments.isGiven(loggerIDOption)
    }

    static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        // Without --sign-reason the rule book chooses the PDF signature's reason.
        let reasonGiven = arguments.isGiven(ReportSigning.reasonOption)
        var artifacts = try ReportArtifacts.parseOptions(&arguments)
        let location = try ArchiveAccess.location(&arguments)
        guard let loggerID = arguments.value(loggerIDOption) else { throw CommandError.usage("--logger-id needs a value.") }
        let period = try ArchiveAccess.period(&arguments)
        let json = arguments.isSet(ReportCommand.jsonOption)
        let profileText = arguments.value(ReportCommand.profileOption)
        let timeZone = try arguments.value(ReportCommand.tzOption) ?? .current
        let keyFile = try ArchiveRecordCommands.keyFile(&arguments, location: location)
        if !(try arguments.positionals()).isEmpty {
            throw CommandError.usage("give either FILE (a report of that read) or --logger-id ID (the whole record in the archive), not both.")
        }
        try arguments.finish()
        try artifacts.validate()
        let archive = try ArchiveAccess.open(location, create: false)
        defer { archive.close() }
        let found = try await ArchiveAccess.loggerID(loggerID, in: archive)
        let profile = try profileText.map { try ReportCommand.resolveProfile($0) }
        let report = try await ArchiveAccess.mapping {
            try RuleBook.loggerReport(
                loggerID: found, from: period.from, to: period.to, profile: profile, defaultProfile: ReportCommand.defaultProfile, timeZone: timeZone,
                archive: archive)
        }
        let (history, log, assessment) = (report.history, report.log, report.assessment)
        guard !history.isEmpty else {
            throw CommandError(.failure, "\(loggerID) has no samples in the archive" + (period.from != nil || period.to != nil ? " in that period." : "."))
        }
        let record = try recordEvidence(history, archive: archive, keyFile: keyFile, console: console)
        if json {
            var document = ReportCommand.json(log: LogExport.json(log, wording: HintWording.logWording), period: report.period, assessment: assessment)
            if case .object(var members) = document {
                var archiveMembers = archiveJSON(history, assessment: assessment)
                if case .object(let kept) = archiveMembers, let record { archiveMembers = .object(kept + [("record", record.json)]) }
                members.append(("archive", archiveMembers))
                document = .object(members)
            }
            console.print(document.serialized())
        } else {
            console.print(
                ReportCommand.text(
                    log, assessment: assessment, input: "the archive \(archive.engine.location), \(history.reads.count) read(s)",
                    colour: console.outputIsTerminal))
            console.print("")
            console.print(archiveText(history, assessment: assessment))
            ReportArtifacts.drawTerminalChart(log: log, assessment: assessment, console: console)
        }
        if artifacts.writesFiles {
            if !reasonGiven { artifacts.signing?.reason = report.pdfSignatureReason() }
            try ReportArtifacts.write(
                log: log, assessment: assessment, options: artifacts,
                archive: report.archiveSection(archive: archive.engine.location, record: record?.evidence),
                signatures: report.shownSignatures(language: artifacts.language),
                console: console, pathsToStandardError: json)
        }
    }

    /// The record's checkpoint signed now and the proofs of the report's reads and
    /// acknowledgements; `nil`, said on standard error, for a PostgreSQL archive whose key
    /// was not named.
    static func recordEvidence(
        _ history: History, archive: Archive, keyFile: String?, console: Console
    ) throws -> (evidence: ReportArchiveSection.RecordEvidence, json: JSONValue)? {
        guard let keyFile else {
            console.error("The report carries no record checkpoint: name the archive's signing key with --signing-key FILE or COLDTAP_SIGNING_KEY.")
            return nil
        }
        let signer = try ArchiveRecordCommands.signer(file: keyFile, archive: archive, console: console)
        return try ArchiveRecordCommands.mapping { try RecordEvidence.make(for: history, archive: archive, signer: signer) }
    }

    /// The `archive` member of `report --logger-id --json`.
    static func archiveJSON(_ history: History, assessment: Assessment) -> JSONValue {
        guard case .object(let members) = HistoryCommand.json(history) else { return .null }
        let kept = members.filter { $0.0 != "samples" }
        let acknowledged = assessment.excursions.map { excursion -> JSONValue in
            .object([
                ("start", .string(excursion.start.isoUTC)),
                ("acknowledged", .bool(excursion.acknowledgement != nil)),
            ])
        }
        return .object(kept + [("excursionAcknowledgements", .array(acknowledged))])
    }

    static func archiveText(_ history: History, assessment: Assessment) -> String {
        var lines = [HistoryCommand.text(history, samples: false)]
        if !assessment.excursions.isEmpty {
            lines.append("")
            lines.append("Excursions acknowledged")
            for excursion in assessment.excursions {
                let ack = excursion.acknowledgement
                lines.append(
                    "  \(excursion.start.isoUTC): "
                        + (ack.map { "acknowledged by \($0.by) at \($0.at.isoUTC) — \($0.comment)" }
                            ?? "OPEN (coldtap ack \(history.logger.id) --excursion \(excursion.start.isoUTC) --by NAME --comment TEXT)"))
            }
        }
        return lines.joined(separator: "\n")
    }
}
