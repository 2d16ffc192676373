import Archive
import ColdChain
import Foundation
import TempChart

/// The archive part of a report made from the archive, for the command line and the station.
public enum ArchiveReportSection {
    /// The archive part of the report files (PDF, HTML; the chain head in the PNG's and SVG's title).
    public static func make(_ history: History, assessment: Assessment, archive location: String) -> ReportArchiveSection {
        ReportArchiveSection(
            archive: location, loggerID: history.logger.id, generation: history.generation, from: history.from, to: history.to,
            chainHead: history.chainHead,
            reads: history.reads.map { read in
                ReportArchiveSection.Read(
                    id: read.id, readTime: read.readTime, readTimeSource: read.readTimeSource, origin: read.origin,
                    sha256: read.sha256, newSamples: read.newSamples, duplicates: read.duplicates,
                    conflicts: read.conflicts, integrity: read.integrity)
            },
            gaps: history.gaps,
            conflicts: history.conflicts.map {
                ReportArchiveSection.Conflict(
                    time: $0.time, kept: $0.kept.temperature, keptRead: $0.keptReadID,
                    other: $0.other.temperature, otherRead: $0.otherReadID)
            },
            acknowledgements: history.acknowledgements.map {
                ReportArchiveSection.Acknowledgement(excursionStart: $0.excursionStart, by: $0.by, at: $0.at, comment: $0.comment)
            },
            openExcursions: assessment.excursions.filter { $0.acknowledgement == nil }.map(\.start))
    }
}
