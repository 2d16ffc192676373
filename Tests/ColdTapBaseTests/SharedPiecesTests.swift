import Foundation
import Testing

/// What issue 42 made one shared piece stays one: the UTC zone (`TimeZone.utc`) and the day
/// parser (`CalendarDay`) live in ColdTapBase only; a function that must run inside a write
/// takes the `WriteTransaction` instead of carrying a `WithinWrite` name; no archive source
/// file grows past 700 lines.
@Suite struct SharedPiecesTests {
    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
    }

    /// Every Swift file under Sources, as `Module/Path.swift` and its text.
    static func files() throws -> [(path: String, text: String)] {
        guard let paths = FileManager.default.enumerator(atPath: sources.path) else { return [] }
        var result: [(String, String)] = []
        for case let path as String in paths where path.hasSuffix(".swift") {
            result.append((path, try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)))
        }
        return result.sorted { $0.0 < $1.0 }
    }

    @Test func theSharedPiecesAreMadeInOnePlace() throws {
        let files = try Self.files()
        #expect(files.count > 100)
        let zones = files.filter { $0.path != "ColdTapBase/TimeZones.swift" && $0.text.contains(#"TimeZone(identifier: "UTC")"#) }.map(\.path)
        #expect(zones.isEmpty, "make UTC with TimeZone.utc: \(zones)")
        let formatters = files.filter { !$0.path.hasPrefix("ColdTapBase/") && $0.text.contains("DateFormatter()") }.map(\.path)
        #expect(formatters.isEmpty, "parse and print days with CalendarDay: \(formatters)")
        let named = files.filter { $0.text.contains("WithinWrite") }.map(\.path)
        #expect(named.isEmpty, "take the WriteTransaction instead: \(named)")
    }

    @Test func noArchiveSourceFileIsOver700Lines() throws {
        let long = try Self.files().filter { $0.path.hasPrefix("Archive/") }
            .map { ($0.path, $0.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1) }
            .filter { $0.1 > 700 }
        #expect(long.isEmpty, "\(long)")
    }
}
