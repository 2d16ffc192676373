import Digest
import Foundation

/// The tamper evidence: reads and acknowledgements form one chain, in the order they were
/// kept. Each row's hash is the SHA-256 of its content, which ends with the previous row's
/// hash, so an edited, removed or reordered row breaks every hash after it.
enum HashChain {
    /// The "previous hash" of the first row.
    static let genesis = String(repeating: "0", count: 64)

    /// The hash of a row whose content fields are `fields` (joined by line feeds, each
    /// escaped so that no field can pose as two).
    static func hash(kind: String, fields: [String], previous: String) -> String {
        var text = kind
        for field in fields + [previous] {
            text += "\n" + field.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
        }
        return SHA256Digest.hex(text: text)
    }

    static func text(_ value: Int64?) -> String { value.map(String.init) ?? "-" }
    static func text(_ value: Double?) -> String { value.map { "\($0)" } ?? "-" }
}

/// The digest over what one read added in one generation: its new samples and its
/// conflicts, oldest first. Kept in the read's chained row, so an edited sample shows.
struct SamplesDigest {
    private var text = ""

    mutating func addSample(timeMilliseconds: Int64, temperature: Double?, humidity: Double?, flags: String) {
        text += "s \(timeMilliseconds) \(HashChain.text(temperature)) \(HashChain.text(humidity)) \(flags)\n"
    }

    mutating func addConflict(timeMilliseconds: Int64, temperature: Double?, humidity: Double?, flags: String) {
        text += "c \(timeMilliseconds) \(HashChain.text(temperature)) \(HashChain.text(humidity)) \(flags)\n"
    }

    var hex: String { SHA256Digest.hex(text: text) }
}
