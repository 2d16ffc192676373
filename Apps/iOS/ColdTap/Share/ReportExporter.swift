import AppViewModels
import ColdChain
import ColdTapKit
import Foundation
import LoggerFormats
import TempChart

/// Writes a read as a PDF report or CSV data into a temporary file for the share sheet: the
/// same files `coldtap report` writes (ColdTapKit's `ReportRendering`), in the app's language.
struct ReportExporter: Sendable {
    enum Kind: Sendable { case pdf, csv }

    /// The files written, and why one could not be (the last failure).
    struct Written: Sendable {
        var files: [Kind: URL] = [:]
        var problem: String?
    }

    let read: StoredRead
    let assessment: Assessment
    let language: ReportLanguage

    /// Writes the file and returns its URL (in a fresh temporary folder).
    /// - Throws: file-system errors, or the renderer's error when the PDF cannot be made.
    func write(_ kind: Kind) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stamp = ISO8601DateFormatter.fileStamp().string(from: read.readAt)
        let base = "ColdTap-\(fileSafe(read.loggerName))-\(stamp)"
        switch kind {
        case .csv:
            let url = folder.appendingPathComponent(base + ".csv")
            try Data(csv().utf8).write(to: url, options: .atomic)
            return url
        case .pdf:
            let url = folder.appendingPathComponent(base + ".pdf")
            try pdf().write(to: url, options: .atomic)
            return url
        }
    }

    /// Writes the PDF and the CSV, keeping whichever could be written.
    func writeAll() -> Written {
        var written = Written()
        for kind in [Kind.pdf, .csv] {
            do {
                written.files[kind] = try write(kind)
            } catch {
                written.problem = error.localizedDescription
            }
        }
        return written
    }

    private func fileSafe(_ text: String) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
        return String(text.unicodeScalars.map { allowed.contains($0) ? Character($0) : "-" })
    }

    // MARK: CSV and PDF, as `coldtap report` writes them (ColdTapKit)

    /// The samples as `coldtap report --csv` writes them (one schema everywhere, ColdTapKit's
    /// `LogExport.csv`), times in the assessment's zone with their offset.
    func csv() -> String {
        LogExport.csv(read.log, timeZone: assessment.timeZone)
    }

    /// The A4 audit report of `coldtap report --pdf`, drawn with Core Graphics.
    func pdf() throws -> Data {
        try ReportRendering(language: language).render(.pdf, of: ReportRendering.Subject(log: read.log, assessment: assessment))
    }
}

extension ISO8601DateFormatter {
    /// `20260305T142000Z`, for file names.
    static func fileStamp() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        return formatter
    }
}
