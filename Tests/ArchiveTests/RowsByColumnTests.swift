import Foundation
import Testing

/// The archive reads rows by column, not by position: every query of more than one column
/// names its columns in a `Column` enum (Sources/Archive/ArchiveRows.swift says why), so a
/// read at a position other than 0 is a slip this test names by file and line.
@Suite struct RowsByColumnTests {
    static var archiveSources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Archive")
    }

    @Test func noRowIsReadAtAPositionOtherThanZero() throws {
        let pattern = try NSRegularExpression(pattern: #"\.(text|int|double|blob|optionalText|optionalInt|optionalDouble|isNull)\([1-9][0-9]*\)"#)
        var found: [String] = []
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.archiveSources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10, "the archive's sources were not found at \(Self.archiveSources.path)")
        for file in files.sorted() {
            let text = try String(contentsOf: Self.archiveSources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line)
                if pattern.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil {
                    found.append("\(file):\(number + 1): \(code.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(found.isEmpty, "rows read by position:\n\(found.joined(separator: "\n"))")
    }
}
