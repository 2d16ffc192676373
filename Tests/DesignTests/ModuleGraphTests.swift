import Foundation
import Testing

/// DESIGN.md's module table is Package.swift's graph: every target of the package (test
/// targets and the support and stand-in targets under Tests/ aside) has a row, and the row's
/// "imports" column names exactly the target's dependencies. A target added, removed or
/// given a new dependency without the design saying so fails here.
@Suite struct ModuleGraphTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func designTableIsThePackageGraph() throws {
        let package = try PackageGraph.read(Self.root.appendingPathComponent("Package.swift"))
        let design = try DesignTable.read(Self.root.appendingPathComponent("DESIGN.md"))
        #expect(package.count > 20, "Package.swift's targets were not found: \(package.keys.sorted())")
        for name in package.keys.sorted() {
            guard let imports = design[name] else {
                Issue.record("DESIGN.md's module table has no row for the target \(name)")
                continue
            }
            let declared = package[name] ?? []
            #expect(
                imports == declared,
                "\(name): DESIGN.md says it imports \(imports.sorted()), Package.swift gives \(declared.sorted())")
        }
        for name in design.keys.sorted() where package[name] == nil {
            Issue.record("DESIGN.md's module table has a row for \(name), which Package.swift does not declare")
        }
    }

    @Test func parserReadsNestedDeclarations() throws {
        let text = """
            let package = Package(
                targets: [
                    // A comment with "quotes" and (parens).
                    .target(name: "A"),
                    .target(name: "B", dependencies: ["A", .target(name: "C", condition: .when(platforms: [.linux]))]),
                    .systemLibrary(name: "C", pkgConfig: "c", providers: [.apt(["libc-dev"])]),
                    .target(name: "Helper", dependencies: ["A"], path: "Tests/Helper"),
                    .testTarget(name: "BTests", dependencies: ["B"]),
                ])
            """
        #expect(PackageGraph.parse(text) == ["A": [], "B": ["A", "C"], "C": []])
    }
}

/// The targets of Package.swift and their dependencies, read from its text (the manifest
/// is not run: `swift package dump-package` would wait for the build folder's lock while
/// `swift test` holds it).
enum PackageGraph {
    static func read(_ url: URL) throws -> [String: Set<String>] {
        parse(try String(contentsOf: url, encoding: .utf8))
    }

    static func parse(_ manifest: String) -> [String: Set<String>] {
        let text = Array(withoutComments(manifest))
        var graph: [String: Set<String>] = [:]
        let kinds = [".target(", ".executableTarget(", ".systemLibrary(", ".testTarget("]
        var index = 0
        while index < text.count {
            guard let kind = kinds.first(where: { matches($0, in: text, at: index) }) else {
                index += 1
                continue
            }
            let open = index + kind.count - 1
            let close = matching(text, from: open)
            let body = String(text[(open + 1)..<close])
            index = close
            // A `.target(name:)` inside a dependency list is a reference, not a declaration.
            guard let name = firstString(after: "name:", in: body) else { continue }
            if kind == ".testTarget(" { continue }
            if let path = firstString(after: "path:", in: body), path.hasPrefix("Tests/") { continue }
            graph[name] = dependencies(in: body)
        }
        return graph
    }

    private static func withoutComments(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            guard let range = line.range(of: "//") else { return line }
            let before = line[..<range.lowerBound]
            return before.filter { $0 == "\"" }.count % 2 == 0 ? before : line
        }.joined(separator: "\n")
    }

    private static func matches(_ word: String, in text: [Character], at index: Int) -> Bool {
        let characters = Array(word)
        guard index + characters.count <= text.count else { return false }
        return Array(text[index..<(index + characters.count)]) == characters
    }

    /// The index of the bracket closing the one at `open` (round or square), strings skipped.
    private static func matching(_ text: [Character], from open: Int) -> Int {
        var depth = 0
        var inString = false
        var index = open
        while index < text.count {
            let character = text[index]
            if inString {
                if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "(" || character == "[" {
                depth += 1
            } else if character == ")" || character == "]" {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return text.count - 1
    }

    private static func firstString(after key: String, in body: String) -> String? {
        // Only the declaration's own keys count, not those of a nested `.target(name:)`.
        var depth = 0
        var inString = false
        let characters = Array(body)
        let keyCharacters = Array(key)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if inString {
                if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "(" || character == "[" {
                depth += 1
            } else if character == ")" || character == "]" {
                depth -= 1
            } else if depth == 0, index + keyCharacters.count <= characters.count,
                Array(characters[index..<(index + keyCharacters.count)]) == keyCharacters
            {
                let rest = characters[(index + keyCharacters.count)...]
                guard let start = rest.firstIndex(of: "\"") else { return nil }
                guard let end = characters[(start + 1)...].firstIndex(of: "\"") else { return nil }
                return String(characters[(start + 1)..<end])
            }
            index += 1
        }
        return nil
    }

    private static func dependencies(in body: String) -> Set<String> {
        let characters = Array(body)
        guard let range = body.range(of: "dependencies:") else { return [] }
        let offset = body.distance(from: body.startIndex, to: range.upperBound)
        guard let open = characters[offset...].firstIndex(of: "[") else { return [] }
        let close = matching(characters, from: open)
        let list = String(characters[(open + 1)..<close])
        var names: Set<String> = []
        var pieces = list.split(separator: "\"", omittingEmptySubsequences: false).makeIterator()
        _ = pieces.next()
        while let name = pieces.next() {
            names.insert(String(name))
            _ = pieces.next()
        }
        return names
    }
}

/// DESIGN.md's module table: the rows under "## Modules", each naming its targets in the
/// first column and what they import in the last, every name in backticks.
enum DesignTable {
    static func read(_ url: URL) throws -> [String: Set<String>] {
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let start = text.range(of: "\n## Modules") else { return [:] }
        let section = text[start.upperBound...]
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        var table: [String: Set<String>] = [:]
        for line in section[..<end].split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard cells.count >= 4 else { continue }
            let imports = Set(backticked(cells[cells.count - 2]))
            for name in backticked(cells[1]) { table[name] = imports }
        }
        return table
    }

    private static func backticked(_ cell: String) -> [String] {
        let parts = cell.split(separator: "`", omittingEmptySubsequences: false)
        return stride(from: 1, to: parts.count, by: 2).map { String(parts[$0]) }
    }
}
