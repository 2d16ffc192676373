import Foundation

/// Why a checkpoint's text was refused; `line` counts from 1.
public enum CheckpointError: Error, Equatable, Sendable {
    /// Fewer than the three lines origin, size, root hash.
    case missingLines(found: Int)
    /// The text does not end with a newline.
    case unterminatedLastLine(line: Int)
    /// A line is empty (`line`); a checkpoint has no blank lines.
    case emptyLine(line: Int)
    /// The origin holds a character a note key name may not (space, '+', control).
    case invalidOrigin(line: Int)
    /// The size line is not a decimal number without leading zeros, or is too large.
    case invalidTreeSize(line: Int)
    /// The root line is not canonical base64 of 32 bytes.
    case invalidRootHash(line: Int)
    /// A control character in a line.
    case controlCharacter(line: Int)
}

/// A C2SP tlog-checkpoint: a log's origin (its unique name), the tree size and the root
/// hash at that size, and optional extension lines; the text a signed note carries.
public struct Checkpoint: Sendable, Equatable {
    public let origin: String
    public let treeSize: Int
    /// The 32-byte RFC 9162 root of the first `treeSize` leaves.
    public let rootHash: [UInt8]
    /// Extension lines (without their newline), usually none.
    public let extensionLines: [String]

    public init(origin: String, treeSize: Int, rootHash: [UInt8], extensionLines: [String] = []) throws(CheckpointError) {
        self.origin = origin
        self.treeSize = treeSize
        self.rootHash = rootHash
        self.extensionLines = extensionLines
        // Whatever is made here must parse back as itself.
        _ = try Checkpoint(text: text)
    }

    /// The text: origin, size and base64 root, then the extension lines, each ending with a newline.
    public var text: String {
        ([origin, String(treeSize), Data(rootHash).base64EncodedString()] + extensionLines).map { $0 + "\n" }.joined()
    }

    /// Parses checkpoint text strictly (a signed note's text, after its signature verified).
    public init(text: String) throws(CheckpointError) {
        guard text.hasSuffix("\n") else {
            throw .unterminatedLastLine(line: text.split(separator: "\n", omittingEmptySubsequences: false).count)
        }
        let lines = Array(text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()).map(String.init)
        for (index, line) in lines.enumerated() {
            if line.isEmpty { throw .emptyLine(line: index + 1) }
            if line.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { throw .controlCharacter(line: index + 1) }
        }
        guard lines.count >= 3 else { throw .missingLines(found: lines.count) }
        // The origin doubles as the log's key name, so it follows the key-name rules.
        guard (try? SignedNote.checkKeyName(lines[0])) != nil else { throw .invalidOrigin(line: 1) }
        let sizeText = lines[1]
        guard sizeText.utf8.allSatisfy({ (0x30...0x39).contains($0) }), sizeText == "0" || !sizeText.hasPrefix("0"),
            let size = Int(sizeText)
        else { throw .invalidTreeSize(line: 2) }
        guard let root = SignedNote.strictBase64(lines[2]), root.count == 32 else { throw .invalidRootHash(line: 3) }
        origin = lines[0]
        treeSize = size
        rootHash = root
        extensionLines = Array(lines.dropFirst(3))
    }

    /// This checkpoint signed as a note by `signers` (usually the log's one key, named after the origin).
    public func signed(by signers: [NoteSigner]) throws -> SignedNote {
        try SignedNote.sign(text: text, signers: signers)
    }

    /// Parses a signed checkpoint from untrusted bytes, checks its signature by one of
    /// `keys`, then parses its text: a checkpoint is only read once its signature holds.
    public static func verified(_ bytes: some DataProtocol, keys: [NoteVerifierKey]) throws -> Checkpoint {
        let note = try SignedNote(parsing: bytes)
        try note.verify(with: keys)
        return try Checkpoint(text: note.text)
    }
}
