import ColdChain
import Foundation
import LoggerFormats
import TempChart

/// Writes a read as a PDF report or CSV data into a temporary file for the share sheet.
///
/// The PDF is TempChart's one-page report drawn with the Core Graphics canvas, so it reads
/// like the command line's reports in the same language.
struct ReportExporter {
    enum Kind { case pdf, csv }

    let read: StoredRead
    let assessment: Assessment
    let language: ReportLanguage

    /// Writes the file and returns its URL (in a fresh temporary folder).
    /// - Throws: file-system errors, or `CoreGraphicsOutputError` when the PDF cannot be made.
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

    private func fileSafe(_ text: String) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
        return String(text.unicodeScalars.map { allowed.contains($0) ? Character($0) : "-" })
    }

    // MARK: CSV

    /// One row per sample, oldest first: UTC time, local time in the assessment's zone,
    /// temperature and humidity as recorded, flags, and the position against the band.
    /// Flagged samples keep their row. Column names are fixed English identifiers so that
    /// spreadsheets and scripts read every export the same way.
    func csv() -> String {
        let utc = ISO8601DateFormatter()
        utc.formatOptions = [.withInternetDateTime]
        let local = ISO8601DateFormatter()
        local.formatOptions = [.withInternetDateTime]
        local.timeZone = assessment.timeZone
        var lines = ["time_utc,time_local,temperature_c,humidity_percent,flags,position"]
        lines.reserveCapacity(read.log.samples.count + 1)
        for sample in read.log.samples {
            let temperature = sample.temperature.map { String(format: "%.2f", $0) } ?? ""
            let humidity = sample.humidity.map { String(format: "%.1f", $0) } ?? ""
            let flags = sample.flags.map(\.rawValue).joined(separator: ";")
            let position: String
            if sample.isValid, let value = sample.temperature {
                position = assessment.band.position(of: value).rawValue
            } else {
                position = "unknown"
            }
            lines.append([utc.string(from: sample.time), local.string(from: sample.time), temperature, humidity, flags, position]
                .joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    // MARK: PDF

    /// The report's content from the log and its assessment.
    func reportContent() -> ReportContent {
        let stats = assessment.statistics
        let verdict: ReportContent.Verdict
        switch assessment.verdict {
        case .ok: verdict = .pass
        case .alarm: verdict = .fail
        case .inconclusive: verdict = .inconclusive
        }
        return ReportContent(
            log: read.log,
            profile: "\(assessment.profile.name) (\(assessment.band.description))",
            lowerLimit: assessment.band.low?.limit, upperLimit: assessment.band.high?.limit,
            verdict: verdict, reasons: assessment.reasons,
            statistics: ReportContent.Statistics(
                sampleCount: stats.sampleCount, invalidCount: stats.sampleCount - stats.validCount,
                minimum: stats.min, maximum: stats.max, mean: stats.mean,
                meanKineticTemperature: stats.meanKineticTemperature,
                timeAbove: stats.secondsAbove, timeBelow: stats.secondsBelow),
            excursions: assessment.excursions.map {
                ReportContent.Excursion(start: $0.start, end: $0.end, peak: $0.peak,
                                        direction: $0.direction == .high ? .above : .below)
            })
    }

    /// The one-page A4 report of TempChart (the same layout as `coldtap report --pdf`),
    /// drawn with Core Graphics.
    func pdf() throws -> Data {
        let page = ReportPage(content: reportContent(), timeZone: assessment.timeZone, language: language, theme: .light)
        return try CoreGraphicsCanvas.pdf(width: ReportPage.a4.width, height: ReportPage.a4.height, pageCount: 1) { canvas, _ in
            page.draw(on: canvas)
        }
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
