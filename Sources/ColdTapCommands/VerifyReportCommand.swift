import ArchiveKit
import Foundation
import TransparencyLog

/// `coldtap verify-report FILE --public-key KEY`: checks, offline, the record evidence a
/// report made from the archive carries (docs/archive-record.md): the checkpoint's
/// signature, and that every read and acknowledgement the report rests on is a leaf under
/// its root. Reads JSON (`report --logger-id --json`) and HTML report files.
public enum VerifyReportCommand: Command {
    static let publicKeyOption = OptionSpec.value(
        "--public-key", placeholder: "KEY", help: "the archive's public key, as 'coldtap archive key' prints it (ORIGIN+KEYID+BASE64)",
        required: true)

    public static let name = "verify-report"
    public static let forms = [
        CommandForm(
            positionals: "FILE", positionalHelp: [("FILE", "a report made from the archive: its JSON (report --logger-id --json) or its HTML file")],
            summary: "check a report's record checkpoint and inclusion proofs with only the archive's public key",
            options: [
                publicKeyOption
            ])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        guard let keyText = arguments.value(publicKeyOption) else {
            throw CommandError.usage("give the archive's public key: --public-key KEY (coldtap archive key prints it).")
        }
        let path = try arguments.positionals(min: 1, max: 1)[0]
        try arguments.finish()
        let key: NoteVerifierKey
        do {
            key = try NoteVerifierKey(text: keyText.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            throw CommandError.usage("--public-key is the key as 'coldtap archive key' prints it (ORIGIN+KEYID+BASE64); '\(keyText.prefix(40))' is not.")
        }
        let content = try InputBytes.readFile(path)
        guard let (evidence, reads) = evidence(in: content) else {
            throw CommandError(
                .dataError, "\(path) carries no record evidence: it is not a report made from the archive with its signing key (report --logger-id).")
        }
        let check = RecordEvidence.check(json: evidence, keys: [key], readSHA256: reads)
        for line in check.proved { console.print("  ✓ \(line)") }
        for problem in check.problems { console.print("  ✗ \(problem)") }
        guard let first = check.problems.first else {
            console.print(
                "\(path): the checkpoint of \(check.treeSize) leaves (root \(check.rootHash)) is signed by the archive's key, and all \(check.proved.count) read(s) and acknowledgement(s) are in it."
            )
            return
        }
        throw CommandError(.dataError, "\(path) does not hold: \(first)" + (check.problems.count > 1 ? " (and \(check.problems.count - 1) more above)." : "."))
    }

    /// The evidence's JSON and the reads' SHA-256 listed by the report (by read id), from a
    /// JSON report or the data element of an HTML one.
    static func evidence(in content: Data) -> (Data, [String: String])? {
        if let object = (try? JSONSerialization.jsonObject(with: content)) as? [String: Any],
            let archive = object["archive"] as? [String: Any], let record = archive["record"],
            let data = try? JSONSerialization.data(withJSONObject: record)
        {
            var reads: [String: String] = [:]
            for read in archive["reads"] as? [[String: Any]] ?? [] {
                if let id = read["id"] as? Int, let sha = read["sha256"] as? String { reads[String(id)] = sha }
            }
            return (data, reads)
        }
        let text = String(decoding: content, as: UTF8.self)
        let opening = "<script type=\"application/json\" id=\"coldtap-record\">"
        guard let start = text.range(of: opening), let end = text.range(of: "</script>", range: start.upperBound..<text.endIndex) else { return nil }
        let json = text[start.upperBound..<end.lowerBound].replacingOccurrences(of: "<\\/", with: "</")
        return (Data(json.utf8), [:])
    }
}
