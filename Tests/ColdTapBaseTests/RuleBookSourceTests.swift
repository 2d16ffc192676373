import Foundation
import Testing

/// The front ends never judge, acknowledge or sign the record themselves: those use cases
/// live once in ArchiveKit's `RuleBook`, which the command line and the station call, so the
/// two cannot disagree (docs: DESIGN.md, "The layers"). Comments may name the calls.
@Suite struct RuleBookSourceTests {
    /// The front ends that must go through the rule book.
    static let frontEnds = ["ColdTapCommands", "Station"]
    /// The calls only the rule book makes: judging a log, keeping an acknowledgement,
    /// keeping a signature.
    static let forbidden = ["Assessor.assess", ".acknowledge(", "keepSignature("]

    /// `file:line: call` for every forbidden call in the code (not the comments) of a front end.
    static func findings() throws -> [String] {
        var found: [String] = []
        for module in frontEnds {
            let folder = LibraryWordingTests.sources.appendingPathComponent(module)
            guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = codePart(of: String(line))
                    for call in forbidden where code.contains(call) { found.append("\(module)/\(file):\(index + 1): \(call)") }
                }
            }
        }
        return found.sorted()
    }

    /// A line without its `//` comment (a `//` inside a string literal does not start one).
    static func codePart(of line: String) -> String {
        var inLiteral = false
        var escaped = false
        var previous: Character = " "
        var code = ""
        for character in line {
            if inLiteral {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inLiteral = false
                }
            } else if character == "\"" {
                inLiteral = true
            } else if character == "/" && previous == "/" {
                code.removeLast()
                break
            }
            code.append(character)
            previous = character
        }
        return code
    }

    @Test func frontEndsLeaveJudgingAcknowledgingAndSigningToTheRuleBook() throws {
        let found = try Self.findings()
        #expect(found.isEmpty, "the front ends do what ArchiveKit's RuleBook does:\n\(found.joined(separator: "\n"))")
    }

    /// The scan sees a call in code and not in a comment, so the test above can fail.
    @Test func theScanTellsCodeFromComments() {
        #expect(Self.codePart(of: "let a = Assessor.assess(log) // Assessor.assess") == "let a = Assessor.assess(log) ")
        #expect(!Self.codePart(of: "    /// calls `archive.acknowledge(` once").contains(".acknowledge("))
        #expect(Self.codePart(of: #"let s = "http://x" + store.keepSignature(d)"#).contains("keepSignature("))
    }
}
