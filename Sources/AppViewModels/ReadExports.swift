import ColdChain
import ColdTapBase
import ColdTapKit
import Foundation
import LoggerFormats
import TempChart

/// The files the result screen shares: a read as the PDF report and the CSV data that
/// `coldtap report` writes (ColdTapKit's `ReportRendering` and `LogExport`), in the app's
/// language, each in a fresh temporary folder. They are made when the share menu opens, not
/// when a read is shown, and off the main thread (`prepare`): a long log's report takes real
/// time to draw. The sample read's files say they are a sample, in their names and inside.
public struct ReadExports: Sendable {
    public enum Kind: Sendable, CaseIterable { case pdf, csv }

    /// The files written, and why one could not be (the last failure).
    public struct Written: Sendable, Equatable {
        public var files: [Kind: URL]
        public var problem: String?

        public init(files: [Kind: URL] = [:], problem: String? = nil) {
            self.files = files
            self.problem = problem
        }
    }

    public let read: StoredRead
    public let assessment: Assessment
    public let language: ReportLanguage
    /// Where the fresh folders go (the temporary folder in the app).
    public let folder: URL

    public init(read: StoredRead, assessment: Assessment, language: ReportLanguage, folder: URL = FileManager.default.temporaryDirectory) {
        self.read = read
        self.assessment = assessment
        self.language = language
        self.folder = folder
    }

    /// Writes both files (`write`, `writeAll` unless a test says otherwise) on a detached task
    /// and returns when they are written; called from the main actor, the main thread stays free.
    public func prepare(writing write: @escaping @Sendable (ReadExports) -> Written = { $0.writeAll() }) async -> Written {
        let exports = self
        return await Task.detached(priority: .userInitiated) { write(exports) }.value
    }

    /// Writes the PDF and the CSV, keeping whichever could be written.
    public func writeAll() -> Written {
        var written = Written()
        for kind in Kind.allCases {
            do {
                written.files[kind] = try write(kind)
            } catch {
                written.problem = error.localizedDescription
            }
        }
        return written
    }

    /// Writes the file and returns its URL (in a fresh folder under `folder`).
    /// - Throws: file-system errors, or the renderer's error when the PDF cannot be made.
    public func write(_ kind: Kind) throws -> URL {
        let fresh = folder.appendingPathComponent(UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
        let url = fresh.appendingPathComponent(fileName(kind))
        switch kind {
        case .csv: try Data(csv().utf8).write(to: url, options: .atomic)
        case .pdf: try pdf().write(to: url, options: .atomic)
        }
        return url
    }

    /// `ColdTap-LOGGER-20260305T142000Z.pdf`; the sample's begins `ColdTap-Sample-`.
    public func fileName(_ kind: Kind) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
        let logger = String(read.loggerName.unicodeScalars.map { allowed.contains($0) ? Character($0) : "-" })
        // ISO 8601's basic form of the UTC time (no separators), safe in any file system.
        let time = read.readAt.isoUTCWholeSeconds.filter { $0 != "-" && $0 != ":" }
        let base = "ColdTap-\(read.isSample ? "Sample-" : "")\(logger)-\(time)"
        return base + (kind == .pdf ? ".pdf" : ".csv")
    }

    /// What the sample's CSV says in its time column's header (the CSV's words are English).
    public static let sampleCSVNote = "sample read bundled with ColdTap, from no logger"

    /// The samples as `coldtap report --csv` writes them (ColdTapKit's `LogExport.csv`), times
    /// in the assessment's zone with their offset.
    public func csv() -> String {
        LogExport.csv(read.log, timeZone: assessment.timeZone, headerNote: read.isSample ? Self.sampleCSVNote : nil)
    }

    /// The A4 audit report of `coldtap report --pdf`; the sample's says so beside its verdict.
    public func pdf() throws -> Data {
        var subject = ReportRendering.Subject(log: read.log, assessment: assessment)
        subject.notice = read.isSample ? ResultScreen.sampleNote : nil
        return try ReportRendering(language: language).render(.pdf, of: subject)
    }
}

/// The share sheet the result screen opens: while the files are made, a note; then one row
/// per file, and why one is missing.
public struct ShareSheetScreen: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        public var title: String
        public var symbol: String
        public var url: URL
    }

    /// Said while the files are being made (nil once they are).
    public var preparingNote: String?
    public var rows: [Row]
    /// Why a file could not be made.
    public var problem: String?

    /// - Parameter written: the files once made (nil while they are being made).
    public init(written: ReadExports.Written?) {
        preparingNote = written == nil ? String(localized: "Making the PDF report and the CSV data…") : nil
        rows = ReadExports.Kind.allCases.compactMap { kind in
            guard let url = written?.files[kind] else { return nil }
            return kind == .pdf
                ? Row(title: String(localized: "PDF report"), symbol: "doc.richtext", url: url)
                : Row(title: String(localized: "CSV data"), symbol: "tablecells", url: url)
        }
        problem = written?.problem.map { String(localized: "Export failed: \($0)") }
    }
}
