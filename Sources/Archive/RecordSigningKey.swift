import ColdTapBase
import Digest
import Foundation
import TransparencyLog

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The key that signs an archive's checkpoints: Ed25519, named after the record's origin.
///
/// Kept as one line of text, `PRIVATE+KEY+NAME+KEYID+BASE64`, where KEYID is the note key
/// ID in hex and BASE64 is 0x01 (Ed25519) followed by the 32-byte seed: the form Go's
/// `golang.org/x/mod/sumdb/note` writes, so other tools can read it. A SQLite archive's key
/// sits next to it (`archive.sqlite.signing-key`), made on first use with mode 0600; for a
/// PostgreSQL archive, or a key kept elsewhere, its file is named by the caller.
public enum RecordSigningKey {
    private static let prefix = "PRIVATE+KEY+"

    /// `PATH.signing-key` for a SQLite archive at PATH; `nil` for a PostgreSQL URI.
    public static func defaultFile(forArchive location: String) -> String? {
        location.hasPrefix("postgresql://") || location.hasPrefix("postgres://") ? nil : location + ".signing-key"
    }

    /// The key's text.
    public static func text(_ signer: NoteSigner) -> String {
        let keyID = signer.verifier.keyID.hexString(uppercase: false)
        return prefix + signer.name + "+" + keyID + "+" + Data([NoteVerifierKey.ed25519Algorithm] + signer.privateKey.seed).base64EncodedString()
    }

    /// Reads a key from its text.
    /// - Throws: `ArchiveError(.invalidRead)` naming what is wrong with it.
    public static func signer(fromText text: String, source: String) throws -> NoteSigner {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // The base64 key may itself hold "+": it is everything after the fourth.
        let parts = line.split(separator: "+", maxSplits: 4, omittingEmptySubsequences: false)
        guard line.hasPrefix(prefix), parts.count == 5 else {
            throw ArchiveError(.invalidRead, "\(source) is not a signing key (PRIVATE+KEY+NAME+KEYID+KEY).")
        }
        guard let raw = Data(base64Encoded: String(parts[4])), raw.count == 33, raw.first == NoteVerifierKey.ed25519Algorithm else {
            throw ArchiveError(.invalidRead, "\(source) does not hold an Ed25519 key.")
        }
        do {
            let signer = try NoteSigner(name: String(parts[2]), privateKey: try Ed25519PrivateKey(seed: raw.dropFirst()))
            guard signer.verifier.keyID.hexString(uppercase: false) == parts[3].lowercased() else {
                throw ArchiveError(.invalidRead, "\(source): the key ID does not belong to the key (the file was changed).")
            }
            return signer
        } catch let error as ArchiveError {
            throw error
        } catch {
            throw ArchiveError(.invalidRead, "\(source) does not hold a usable signing key (\(error)).")
        }
    }

    /// The key in `file`.
    public static func load(file: String) throws -> NoteSigner {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ArchiveError(.notFound, "there is no signing key at \(file).")
        }
        return try signer(fromText: String(decoding: data, as: UTF8.self), source: file)
    }

    /// The key in `file`, or a new one for `origin` written there (mode 0600, never over an
    /// existing file).
    /// - Returns: the key and whether it was made now.
    public static func loadOrCreate(file: String, origin: String) throws -> (signer: NoteSigner, created: Bool) {
        if FileManager.default.fileExists(atPath: file) { return (try load(file: file), false) }
        let signer = try NoteSigner(name: origin, privateKey: Ed25519PrivateKey.generate())
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            // Another process made it first: use theirs.
            if errno == EEXIST { return (try load(file: file), false) }
            throw ArchiveError(.readOnly, "could not write the signing key \(file): \(String(cString: strerror(errno))).")
        }
        defer { close(descriptor) }
        let bytes = Array((text(signer) + "\n").utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count, fsync(descriptor) == 0 else {
            throw ArchiveError(.readOnly, "could not write the signing key \(file): \(String(cString: strerror(errno))).")
        }
        return (signer, true)
    }
}
