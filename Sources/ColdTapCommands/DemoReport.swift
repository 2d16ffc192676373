import ColdChain
import Foundation
import LoggerFormats
import NFCTags
import PCSC

#if canImport(Glibc)
    import Glibc
#endif

/// The demo's files: report.pdf, report.html, report.png and samples.csv.
enum DemoReport {
    /// The logger's memory as a Flipper Zero `.nfc` file, readable by `decode`, `report` and `tag`.
    static let dumpName = "logger.nfc"
    /// `coldtap report`'s file kinds and the names the demo gives them.
    private static let names: [(ReportArtifacts.Kind, String)] = [
        (.pdf, "report.pdf"), (.html, "report.html"), (.png, "report.png"), (.csv, "samples.csv"),
    ]

    /// Writes the files through `ReportArtifacts` (as `coldtap report` does) and returns their paths.
    /// - Throws: `CommandError` when the directory or a file cannot be written.
    static func write(_ log: TemperatureLog, assessment: Assessment, directory: String) throws -> [String] {
        let target = URL(fileURLWithPath: directory, isDirectory: true)
        let staging = target.appendingPathComponent(".coldtap-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: staging) }
        let options = ReportArtifacts.Options(outDirectory: staging.path, kinds: Set(names.map(\.0)))
        let written = try ReportArtifacts.write(
            log: log, assessment: assessment, options: options,
            console: Console.capturing())
        var paths: [String] = []
        for (kind, name) in names {
            guard let source = written.first(where: { kindOf($0) == kind }) else { continue }
            let destination = target.appendingPathComponent(name)
            do {
                if FileManager.default.fileExists(atPath: destination.path) {
                    try FileManager.default.removeItem(at: destination)
                }
                try FileManager.default.moveItem(at: source, to: destination)
            } catch {
                throw CommandError(.failure, "cannot write '\(destination.path)': \(error.localizedDescription).")
            }
            paths.append((directory as NSString).appendingPathComponent(name))
        }
        return paths
    }

    private static func kindOf(_ url: URL) -> ReportArtifacts.Kind? {
        switch url.pathExtension {
        case "pdf": return .pdf
        case "html": return .html
        case "png": return .png
        case "csv": return .csv
        default: return nil
        }
    }
}
