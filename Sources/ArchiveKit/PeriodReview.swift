import Archive
import ColdChain
import Foundation
import TempChart

/// Signing a logger's period or one of its excursions (docs/accounts.md): the one rule the
/// command line's `review`, the station's review form and its acknowledgement share. What
/// is signed is the statement the archive writes: the reads of the period (by their record
/// leaves) and the period's assessment as the signer saw it.
public enum PeriodReview {
    /// The draft of a signature over `[from, to)` of `loggerID`, assessed against `profile`.
    /// - Throws: `ArchiveError(.notFound)` when the period holds no samples of the logger.
    public static func draft(
        store: StationStore, loggerID: String, site: StationSite, signer: StationUser, meaning: SignatureMeaning, comment: String?,
        subject: SignatureSubject = .review, from: Date, to: Date, profile: Profile, timeZone: TimeZone
    ) throws -> SignatureDraft {
        let history = try store.archive.history(loggerID: loggerID, from: from, to: to)
        guard !history.isEmpty else {
            throw ArchiveError(.notFound, "\(loggerID) has no samples from \(from.isoUTC) to \(to.isoUTC), so there is nothing to sign.")
        }
        return SignatureDraft(
            loggerID: loggerID, site: site, signer: signer, meaning: meaning, comment: comment, subject: subject, from: from, to: to,
            timeZone: timeZone.identifier, readIDs: signedReads(of: history, from: from, to: to).map(\.id),
            assessment: assessmentLines(history: history, profile: profile, timeZone: timeZone))
    }

    /// The reads a signature over `[from, to]` lists: every read with a sample in it. The
    /// end is a sample's time (`ReportPeriod`), so a read starting at it counts.
    static func signedReads(of history: History, from: Date, to: Date) -> [ReadSummary] {
        history.reads.filter { read in
            guard let first = read.firstSample, let last = read.lastSample else { return false }
            return last.addingTimeInterval(read.interval) > from && first <= to
        }
    }

    /// The period's assessment in the statement's lines: the profile, the verdict and its
    /// figures, each excursion with its acknowledgement.
    static func assessmentLines(history: History, profile: Profile, timeZone: TimeZone) -> [String] {
        let assessment = Assessor.assess(history.temperatureLog(), profile: profile, timeZone: timeZone, acknowledgements: history.excursionAcknowledgements)
        let statistics = assessment.statistics
        func figure(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "none" }
        var lines = [
            "profile=\(profile.name)", "verdict=\(assessment.verdict.rawValue)",
            "samples=\(statistics.sampleCount) valid=\(statistics.validCount)",
            "min=\(figure(statistics.min)) max=\(figure(statistics.max)) mkt=\(figure(statistics.meanKineticTemperature))",
            "alarms=\(assessment.alarms.count) excursions=\(assessment.excursions.count)",
        ]
        for excursion in assessment.excursions {
            let acknowledged = excursion.acknowledgement.map { " acknowledged_by=\($0.by) at=\($0.at.isoUTC)" } ?? " unacknowledged"
            lines.append(
                "excursion=\(excursion.start.isoUTC) \(excursion.end.isoUTC) \(excursion.direction) peak=\(figure(excursion.peak))\(acknowledged)")
        }
        return lines
    }

    /// The signatures on `[from, to)` of a logger as its report shows them, oldest first.
    /// Each is marked as covering only what it signed when the period now holds reads it did
    /// not sign (they came after it).
    public static func reportSignatures(
        _ signatures: [SignatureRecord], history: History, from: Date?, to: Date?, formatter: ChartFormatter
    ) -> [ReportSignature] {
        signatures.filter { $0.overlaps(from: from, to: to) }.map { signature in
            let subject: String
            switch signature.subject {
            case .review: subject = formatter.dateTime(signature.from) + " – " + formatter.dateTime(signature.to)
            case .acknowledgement: subject = formatter.dateTime(signature.from)
            }
            return ReportSignature(
                printedName: signature.printedName, role: signature.role.rawValue, signed: signature.signed, timeZone: signature.timeZone,
                meaning: ReportSignature.Meaning(rawValue: signature.meaning.rawValue) ?? .reviewed, comment: signature.comment, subject: subject,
                signedSHA256: signature.statementSHA256, coversOnlyUpTo: signature.missesReads(of: history) ? signature.signed : nil)
        }
    }
}
