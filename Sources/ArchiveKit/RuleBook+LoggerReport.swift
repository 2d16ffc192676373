import Archive
import ColdChain
import ColdTapKit
import Foundation
import LoggerFormats
import TempChart

/// The subject of any report of a logger made from the archive — `coldtap report
/// --logger-id`, the station's report files and its logger page show this one value: the
/// stitched record of the period, the profile it is judged by, the assessment, the
/// logger's signatures.
public struct LoggerReport: Sendable {
    public var history: History
    public var profile: Profile
    public var log: TemperatureLog
    public var assessment: Assessment
    /// Every signature of the logger, oldest first (reports show those on the period).
    public var signatures: [SignatureRecord]
    public var from: Date?
    public var to: Date?
    public var timeZone: TimeZone

    /// The period the report states (`ReportPeriod`: its first to its last sample); a
    /// review of the station's logger page signs exactly this period.
    public var period: ReportPeriod? { ReportPeriod(log: log) }

    /// The reason a PDF of the report is signed with when none is given: the meaning of the
    /// newest signature on the period, else "report".
    public static let unsignedPDFReason = "report"

    /// The newest signature on the period, if anyone signed it.
    public var newestSignature: SignatureRecord? { signatures.last { $0.overlaps(from: from, to: to) } }

    /// The reason a PDF of this report is signed with: the one given, else the meaning of
    /// the newest signature on the period, else "report".
    public func pdfSignatureReason(given: String? = nil) -> String {
        given ?? newestSignature?.meaning.rawValue ?? Self.unsignedPDFReason
    }

    /// The archive part of the report files, `location` naming the archive as the reader may
    /// see it, with the record's evidence when the caller has it.
    public func archiveSection(archive location: String, record: ReportArchiveSection.RecordEvidence?) -> ReportArchiveSection {
        var section = ArchiveReportSection.make(history, assessment: assessment, archive: location)
        section.record = record
        return section
    }

    /// The signatures on the period as the report files show them.
    public func shownSignatures(language: ReportLanguage) -> [ReportSignature] {
        PeriodReview.reportSignatures(
            signatures, history: history, from: from, to: to, formatter: ChartFormatter(timeZone: timeZone, language: language))
    }

    /// What ColdTapKit's `ReportRendering` draws for this report.
    public func renderingSubject(
        archive location: String, record: ReportArchiveSection.RecordEvidence?, language: ReportLanguage, generated: Date = Date()
    ) -> ReportRendering.Subject {
        ReportRendering.Subject(
            log: log, assessment: assessment, archive: archiveSection(archive: location, record: record),
            signatures: shownSignatures(language: language), generated: generated)
    }
}

extension RuleBook {
    /// The report of `loggerID` over `[from, to)` (open ends reach the whole record).
    /// - Parameters:
    ///   - profile: the profile asked for; `nil`: the one the logger is judged by.
    ///   - accounts: the archive's accounts when the caller has them open; else they are read
    ///     when the archive has the station's tables (an archive without them has no signatures).
    /// - Throws: `ArchiveError` (`.notFound` for an unknown logger).
    public static func loggerReport(
        loggerID: String, from: Date? = nil, to: Date? = nil, profile: Profile?, defaultProfile: Profile, timeZone: TimeZone, archive: Archive,
        accounts: StationStore? = nil
    ) throws -> LoggerReport {
        let history = try archive.history(loggerID: loggerID, from: from, to: to)
        let profile = try profile ?? self.profile(for: archive.loggerSummary(loggerID), default: defaultProfile)
        let log = history.temperatureLog()
        let assessment = Assessor.assess(log, profile: profile, timeZone: timeZone, acknowledgements: history.excursionAcknowledgements)
        let signatures: [SignatureRecord]
        if let accounts {
            signatures = try accounts.signatures(loggerID: loggerID)
        } else if try archive.engine.tableExists("signatures") {
            signatures = try StationStore(archive: archive).signatures(loggerID: loggerID)
        } else {
            signatures = []
        }
        return LoggerReport(
            history: history, profile: profile, log: log, assessment: assessment, signatures: signatures, from: from, to: to, timeZone: timeZone)
    }
}
