import Foundation
import Testing

/// The libraries speak in types: no string literal in a library names a command-line option
/// (`--archive`), a `coldtap` command or an upload header (`X-ColdTap-Read-Time`). What the
/// user could do is a value (`UserHint`, `ArchiveHint`) that each front end words: the command
/// line (ColdTapCommands), the station (Station) and the app. Comments may name them.
@Suite struct LibraryWordingTests {
    /// Front ends and executables, which word things for their users.
    static let frontEnds: Set<String> = ["ColdTapCommands", "Station", "coldtap", "coldtap-bench", "FuzzNDEF"]

    /// Literals that are not wording, each with why.
    static let allowed: [(file: String, text: String)] = [
        // The protocol's header names, declared once for the station and its clients.
        ("ColdTapBase/UploadHeaders.swift", "X-ColdTap-")
    ]

    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
    }

    /// `file:line: literal` for every string literal of a library that names an option,
    /// a `coldtap` command or an upload header.
    static func findings() throws -> [String] {
        let pattern = try NSRegularExpression(pattern: #"--[a-z][a-z-]+|X-ColdTap-|coldtap [a-z]+ ?[a-z]*'|'coldtap [a-z]"#)
        var found: [String] = []
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !frontEnds.contains($0) }
        for module in modules.sorted() {
            guard let files = FileManager.default.enumerator(atPath: sources.appendingPathComponent(module).path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let relative = "\(module)/\(file)"
                let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    for literal in stringLiterals(in: String(line)) {
                        let range = NSRange(literal.startIndex..., in: literal)
                        guard pattern.firstMatch(in: literal, range: range) != nil else { continue }
                        if allowed.contains(where: { relative == $0.file && literal.contains($0.text) }) { continue }
                        found.append("\(relative):\(index + 1): \(literal)")
                    }
                }
            }
        }
        return found
    }

    /// The string literals of one line of Swift, comments left out (a `//` outside a literal
    /// ends the code; multi-line literals are rare in the libraries and read line by line).
    static func stringLiterals(in line: String) -> [String] {
        var literals: [String] = []
        var current: String?
        var escaped = false
        var previous: Character = " "
        for character in line {
            if var literal = current {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    literals.append(literal)
                    current = nil
                    previous = character
                    continue
                }
                literal.append(character)
                current = literal
            } else if character == "\"" {
                current = ""
            } else if character == "/" && previous == "/" {
                break
            }
            previous = character
        }
        return literals
    }

    @Test func noLibraryLiteralNamesAnOptionCommandOrHeader() throws {
        let found = try Self.findings()
        #expect(found.isEmpty, "library wording that belongs to a front end:\n\(found.joined(separator: "\n"))")
    }

    /// The scan sees what it looks for, and not comments.
    @Test func theScanFindsLiteralsAndSkipsComments() {
        #expect(Self.stringLiterals(in: #"throw E("give --archive a path") // see --help"#) == ["give --archive a path"])
        #expect(Self.stringLiterals(in: #"let a = "x\"y", b = "z""#) == [#"x\"y"#, "z"])
        #expect(Self.stringLiterals(in: "/// Uses --archive.").isEmpty)
        #expect(Self.stringLiterals(in: #"f("a//b")"#) == ["a//b"])
    }
}
