import ColdTapBase
import Digest
import Foundation

/// Why a signed note, a signature line or a verifier key was refused. `line` counts from 1
/// over the whole note (text lines, the blank line, then signature lines).
public enum NoteError: Error, Equatable, Sendable {
    /// The bytes are not UTF-8.
    case notUTF8
    /// A control character other than newline (`line`).
    case controlCharacter(line: Int)
    /// No blank line separates the text from the signatures.
    case missingSignatureSeparator
    /// The text before the blank line is empty or does not end with a newline.
    case emptyText
    /// The note does not end with a newline after its last signature line.
    case unterminatedLastLine(line: Int)
    /// No signature line at all.
    case noSignatures
    /// A signature line is not "— name base64" (`reason` says which part).
    case malformedSignatureLine(line: Int, reason: String)
    /// A key name is empty or holds a space or '+'.
    case invalidKeyName(String)
    /// A verifier key is not "name+hex key ID+base64(0x01 || 32-byte key)", or its key ID
    /// does not match its name and key.
    case malformedVerifierKey(reason: String)
    /// A signature by a trusted key (name and key ID match) does not verify.
    case invalidSignature(line: Int, name: String)
    /// No signature is by a trusted key.
    case noTrustedSignature
}

/// An Ed25519 key as a signed note names it: the key's name and its key ID, the first four
/// bytes of SHA-256(name || 0x0A || 0x01 || public key).
public struct NoteVerifierKey: Sendable, Equatable {
    /// Algorithm byte for Ed25519 in key IDs and verifier keys.
    public static let ed25519Algorithm: UInt8 = 0x01

    public let name: String
    public let publicKey: Ed25519PublicKey
    /// The 4-byte key ID.
    public let keyID: [UInt8]

    /// The verifier for `publicKey` under `name` (a valid key name: non-empty, no spaces, no '+').
    public init(name: String, publicKey: Ed25519PublicKey) throws(NoteError) {
        try SignedNote.checkKeyName(name)
        self.name = name
        self.publicKey = publicKey
        keyID = Self.keyID(name: name, publicKey: publicKey)
    }

    /// The key ID of `publicKey` under `name`.
    public static func keyID(name: String, publicKey: Ed25519PublicKey) -> [UInt8] {
        var input = Array(name.utf8)
        input.append(0x0A)
        input.append(ed25519Algorithm)
        input.append(contentsOf: publicKey.rawRepresentation)
        return Array(SHA256Digest.hash(input).prefix(4))
    }

    /// The text form "name+hex key ID+base64(0x01 || public key)" (key ID as 8 lower-case hex digits).
    public var text: String {
        name + "+" + keyID.hexString(uppercase: false) + "+" + Data([Self.ed25519Algorithm] + publicKey.rawRepresentation).base64EncodedString()
    }

    /// Parses the text form, strictly: three '+'-separated parts, 8 hex digits, canonical
    /// base64 of 33 bytes starting 0x01, and a key ID that matches the name and key.
    public init(text: String) throws(NoteError) {
        // The name holds no '+' but base64 may: only the first two separate.
        let parts = text.split(separator: "+", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { throw .malformedVerifierKey(reason: "expected name+keyID+key") }
        let (name, idText, keyText) = (parts[0], parts[1], parts[2])
        try SignedNote.checkKeyName(name)
        guard idText.utf8.count == 8, let id = Hex.decode(idText) else {
            throw .malformedVerifierKey(reason: "the key ID is not 8 hex digits")
        }
        guard let keyData = SignedNote.strictBase64(keyText), keyData.count == 33 else {
            throw .malformedVerifierKey(reason: "the key is not base64 of 33 bytes")
        }
        guard keyData[0] == Self.ed25519Algorithm else { throw .malformedVerifierKey(reason: "not an Ed25519 key") }
        guard let key = try? Ed25519PublicKey(rawRepresentation: keyData.dropFirst()) else {
            throw .malformedVerifierKey(reason: "the key is not a valid Ed25519 public key")
        }
        try self.init(name: name, publicKey: key)
        guard keyID == id else { throw .malformedVerifierKey(reason: "the key ID does not match the name and key") }
    }
}

/// A private key that signs notes under a name.
public struct NoteSigner: Sendable {
    public let name: String
    public let privateKey: Ed25519PrivateKey
    public let verifier: NoteVerifierKey

    public init(name: String, privateKey: Ed25519PrivateKey) throws(NoteError) {
        self.name = name
        self.privateKey = privateKey
        verifier = try NoteVerifierKey(name: name, publicKey: privateKey.publicKey)
    }
}

/// One signature line of a note: the signer's name, the 4-byte key ID and the signature.
public struct NoteSignature: Sendable, Equatable {
    public let name: String
    public let keyID: [UInt8]
    public let signature: [UInt8]
    /// The line's number in the note (1-based).
    public let line: Int
}

/// A C2SP signed note: UTF-8 text of one or more newline-terminated lines, a blank line,
/// then one line per signature, "— " (U+2014, space), the key name, a space and
/// base64(key ID || signature), each ending with a newline. The signature covers the text
/// exactly, final newline included.
public struct SignedNote: Sendable, Equatable {
    /// The signed text, ending with a newline.
    public let text: String
    /// The signature lines, in order.
    public let signatures: [NoteSignature]

    /// More than this many signature lines is refused (a witness-cosigned checkpoint needs a handful).
    public static let maximumSignatures = 100

    private static let signaturePrefix = "\u{2014} "

    /// A note from its parts (as `sign` makes it).
    public init(text: String, signatures: [NoteSignature]) {
        self.text = text
        self.signatures = signatures
    }

    /// Signs `text` (non-empty, newline-terminated, no blank line, no control characters
    /// but newline) with each signer.
    public static func sign(text: String, signers: [NoteSigner]) throws -> SignedNote {
        try checkText(text)
        var signatures = [NoteSignature]()
        let textLines = text.split(separator: "\n").count
        for (offset, signer) in signers.enumerated() {
            let signature = try signer.privateKey.signature(for: Array(text.utf8))
            signatures.append(
                NoteSignature(
                    name: signer.name, keyID: signer.verifier.keyID, signature: signature,
                    line: textLines + 2 + offset))
        }
        return SignedNote(text: text, signatures: signatures)
    }

    /// The note's bytes as text: text, blank line, signature lines.
    public var formatted: String {
        var result = text + "\n"
        for signature in signatures {
            result += Self.signaturePrefix + signature.name + " " + Data(signature.keyID + signature.signature).base64EncodedString() + "\n"
        }
        return result
    }

    /// Parses untrusted bytes (a file, a station's answer): strictly, every refusal a typed
    /// error naming the line. Parsing checks the form only; `verify(with:)` checks signatures.
    public init(parsing bytes: some DataProtocol) throws(NoteError) {
        // Decoding replaces invalid UTF-8; unchanged bytes after a round trip mean it was valid
        // (String(validating:) would need iOS 18).
        let raw = Array(bytes)
        let note = String(decoding: raw, as: UTF8.self)
        guard Array(note.utf8) == raw else { throw .notUTF8 }
        let lines = note.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where line.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .controlCharacter(line: index + 1)
        }
        guard note.hasSuffix("\n") else { throw .unterminatedLastLine(line: lines.count) }
        // The separator is the last blank line: signature lines are never blank, and the text
        // cannot hold one, so the first blank line is the same line for a well-formed note.
        let body = lines.dropLast()  // the empty string after the final newline
        guard let blank = body.firstIndex(of: "") else { throw .missingSignatureSeparator }
        guard blank > 0 else { throw .emptyText }
        let textLines = body[..<blank]
        let signatureLines = body[(blank + 1)...]
        guard !signatureLines.isEmpty else { throw .noSignatures }
        guard signatureLines.count <= Self.maximumSignatures else {
            throw .malformedSignatureLine(line: blank + 2 + Self.maximumSignatures, reason: "more than \(Self.maximumSignatures) signatures")
        }
        var signatures = [NoteSignature]()
        for (index, line) in zip(signatureLines.indices, signatureLines) {
            let number = index + 1
            guard line.isEmpty == false else { throw .malformedSignatureLine(line: number, reason: "blank line among the signatures") }
            guard line.hasPrefix(Self.signaturePrefix) else {
                throw .malformedSignatureLine(line: number, reason: "does not start with \"— \"")
            }
            let rest = line.dropFirst(Self.signaturePrefix.count)
            let fields = rest.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 2 else { throw .malformedSignatureLine(line: number, reason: "expected a name and a signature") }
            let name = String(fields[0])
            do { try Self.checkKeyName(name) } catch { throw .malformedSignatureLine(line: number, reason: "invalid key name") }
            guard let blob = Self.strictBase64(String(fields[1])), blob.count >= 5 else {
                throw .malformedSignatureLine(line: number, reason: "the signature is not base64 of a key ID and a signature")
            }
            signatures.append(NoteSignature(name: name, keyID: Array(blob.prefix(4)), signature: Array(blob.dropFirst(4)), line: number))
        }
        text = textLines.map { $0 + "\n" }.joined()
        self.signatures = signatures
    }

    /// The signatures made by `keys` (matched by name and key ID), every one checked. Throws
    /// when a trusted key's signature fails, or when none of `keys` signed the note;
    /// signatures by keys not given are ignored (a witness may add its own).
    @discardableResult
    public func verify(with keys: [NoteVerifierKey]) throws(NoteError) -> [NoteVerifierKey] {
        var verified = [NoteVerifierKey]()
        let message = Array(text.utf8)
        for signature in signatures {
            guard let key = keys.first(where: { $0.name == signature.name && $0.keyID == signature.keyID }) else { continue }
            guard key.publicKey.isValidSignature(signature.signature, for: message) else {
                throw .invalidSignature(line: signature.line, name: signature.name)
            }
            if !verified.contains(key) { verified.append(key) }
        }
        guard !verified.isEmpty else { throw .noTrustedSignature }
        return verified
    }

    // MARK: rules shared with checkpoints and keys

    /// A key name is non-empty UTF-8 with no Unicode white space and no '+'.
    static func checkKeyName(_ name: String) throws(NoteError) {
        guard !name.isEmpty, !name.contains("+"),
            !name.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
        else { throw .invalidKeyName(name) }
    }

    /// The rules on a note's text: non-empty, newline-terminated, no blank line, no control
    /// character other than newline.
    static func checkText(_ text: String) throws(NoteError) {
        guard !text.isEmpty, text.hasSuffix("\n") else { throw .emptyText }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        for (index, line) in lines.enumerated() {
            if line.isEmpty { throw .missingSignatureSeparator }
            if line.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { throw .controlCharacter(line: index + 1) }
        }
    }

    /// Standard base64 with padding, accepted only in its one canonical spelling (so two
    /// different texts never carry the same bytes).
    static func strictBase64(_ text: String) -> [UInt8]? {
        guard let data = Data(base64Encoded: text), data.base64EncodedString() == text else { return nil }
        return Array(data)
    }
}
