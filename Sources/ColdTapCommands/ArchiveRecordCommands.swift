import Archive
import ArchiveKit
import Foundation
import JSONOutput
import StationClient
import TransparencyLog

/// `coldtap archive key|checkpoint|prove` and the record's part of `archive verify`: the
/// archive as a transparency log (docs/archive-record.md).
enum ArchiveRecordCommands {
    static let signingKeyOption = OptionSpec.value(
        "--signing-key", placeholder: "FILE", help: "the key that signs the record's checkpoints (PRIVATE+KEY+… text, mode 0600)",
        default: "$COLDTAP_SIGNING_KEY, else the archive's path with .signing-key after it (SQLite: made on first use)", path: true)
    static let outOption = OptionSpec.value("--out", placeholder: "FILE", help: "write the signed checkpoint to FILE as well", path: true)
    static let sinceOption = OptionSpec.value(
        "--since", placeholder: "FILE", help: "an older signed checkpoint, kept outside the archive, that the record must still hold", path: true)
    static let publicKeyOption = OptionSpec.value(
        "--public-key", placeholder: "KEY", help: "the archive's public key, as 'archive key' prints it, to check checkpoints' signatures",
        default: "the signing key's, when its file is there")
    static let jsonOption = OptionSpec.flag("--json", help: "print the proof as JSON")

    /// The signing key's file: `--signing-key`, else `COLDTAP_SIGNING_KEY`, else next to a
    /// SQLite archive; `nil` for a PostgreSQL archive without one.
    static func keyFile(_ arguments: inout Arguments, location: String) throws -> String? {
        if let file = arguments.value(signingKeyOption) { return file }
        if let file = ProcessInfo.processInfo.environment["COLDTAP_SIGNING_KEY"], !file.isEmpty { return file }
        return RecordSigningKey.defaultFile(forArchive: location)
    }

    /// The archive's signing key, made when missing (and said on standard error).
    static func signer(file: String?, archive: Archive, console: Console) throws -> NoteSigner {
        guard let file else {
            throw CommandError.usage(
                "a PostgreSQL archive's signing key is kept where its operator chooses: name its file with --signing-key FILE or COLDTAP_SIGNING_KEY.")
        }
        let (signer, created) = try mapping { try RecordSigningKey.loadOrCreate(file: file, origin: try archive.recordOrigin()) }
        if created {
            console.error("Made the archive's signing key at \(file) (mode 0600): keep a copy where the archive's own backups are not.")
        }
        return signer
    }

    static func mapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ArchiveError {
            throw ArchiveAccess.commandError(error)
        }
    }

    // MARK: key

    static func key(_ arguments: Arguments, console: Console) throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let file = try keyFile(&arguments, location: location)
        try arguments.finish()
        let archive = try ArchiveAccess.open(location, create: false)
        defer { archive.close() }
        console.print(try signer(file: file, archive: archive, console: console).verifier.text)
    }

    // MARK: checkpoint

    static func checkpoint(_ arguments: Arguments, console: Console) throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let file = try keyFile(&arguments, location: location)
        let out = arguments.value(outOption)
        try arguments.finish()
        let archive = try ArchiveAccess.open(location, create: false)
        defer { archive.close() }
        let signer = try signer(file: file, archive: archive, console: console)
        let note = try mapping { try archive.signCheckpoint(with: signer) }
        // With --out the file is the whole output (a script may name /dev/stdout or a pipe).
        if let out {
            try OutputFile.write(Data(note.formatted.utf8), to: out, what: "the checkpoint")
        } else {
            console.write(Data(note.formatted.utf8))
        }
    }

    // MARK: prove

    static func prove(_ arguments: Arguments, console: Console) throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let file = try keyFile(&arguments, location: location)
        let json = arguments.isSet(jsonOption)
        let words = try arguments.positionals(min: 1, max: 1, what: "READ-ID")
        try arguments.finish()
        guard let readID = Int64(words[0]), readID > 0 else {
            throw CommandError.usage("READ-ID is a read's number as 'history' shows it (read #3 is 3), not '\(words[0].prefix(40))'.")
        }
        let archive = try ArchiveAccess.open(location, create: false)
        defer { archive.close() }
        guard let loggerID = try mapping({ try archive.engine.scalarText("SELECT logger_id FROM reads WHERE read_id = $1", [.int(readID)]) }) else {
            throw CommandError(.noInput, "the archive \(location) keeps no read #\(readID).")
        }
        guard let (index, leaf) = try mapping({ try archive.leaves(kind: .read, key: "\(loggerID)/\(readID)") }).first else {
            throw CommandError(.dataError, "read #\(readID) of \(loggerID) has no leaf in the record: run 'coldtap archive verify'.")
        }
        let note = try mapping { try archive.signCheckpoint(with: try signer(file: file, archive: archive, console: console)) }
        let checkpoint = try mapping { try Checkpoint(text: note.text) }
        let proof = try mapping { try archive.inclusionProof(leafIndex: index, treeSize: checkpoint.treeSize) }
        guard MerkleProofs.verifyInclusion(leafHash: leaf.hash, leafIndex: index, treeSize: checkpoint.treeSize, proof: proof, root: checkpoint.rootHash)
        else {
            throw CommandError(.dataError, "the inclusion proof of read #\(readID) does not lead to the checkpoint's root: run 'coldtap archive verify'.")
        }
        let hex = { (bytes: [UInt8]) in bytes.hexString(uppercase: false) }
        if json {
            let object = JSONValue.object([
                ("read", .int(Int(readID))), ("logger", .string(loggerID)), ("leafIndex", .int(index)),
                ("leaf", .string(String(decoding: leaf.bytes, as: UTF8.self))), ("leafHash", .string(hex(leaf.hash))),
                ("treeSize", .int(checkpoint.treeSize)), ("rootHash", .string(hex(checkpoint.rootHash))),
                ("proof", .array(proof.map { .string(hex($0)) })), ("checkpoint", .string(note.formatted)),
            ])
            console.print(object.serialized(pretty: true))
            return
        }
        console.print("Read #\(readID) of \(loggerID) is leaf #\(index) of the record of \(checkpoint.treeSize) leaves.")
        console.print("Leaf hash: \(hex(leaf.hash))")
        console.print("Root:      \(hex(checkpoint.rootHash))")
        console.print("Inclusion proof (\(proof.count) hash\(proof.count == 1 ? "" : "es"), from the leaf up):")
        for hash in proof { console.print("  \(hex(hash))") }
        console.print("Checkpoint:")
        console.write(Data(note.formatted.utf8))
    }

    // MARK: verify

    /// What `archive verify` holds the record to: `--since FILE`, and the public key from
    /// `--public-key`, else the signing key's file when it is there.
    static func recordCheck(_ arguments: inout Arguments, location: String) throws -> RecordCheck {
        let sinceFile = arguments.value(sinceOption)
        let publicKey = arguments.value(publicKeyOption)
        let file = try keyFile(&arguments, location: location)
        var keys: [NoteVerifierKey] = []
        if let publicKey {
            do {
                keys = [try NoteVerifierKey(text: publicKey.trimmingCharacters(in: .whitespacesAndNewlines))]
            } catch {
                throw CommandError.usage("--public-key is the key as 'coldtap archive key' prints it (ORIGIN+KEYID+BASE64); '\(publicKey.prefix(40))' is not.")
            }
        } else if let file, FileManager.default.fileExists(atPath: file) {
            keys = [try mapping { try RecordSigningKey.load(file: file) }.verifier]
        }
        let since = try sinceFile.map { String(decoding: try InputBytes.readFile($0), as: UTF8.self) }
        if since != nil, keys.isEmpty {
            throw CommandError.usage("--since needs the archive's public key to trust the older checkpoint: give --public-key KEY or --signing-key FILE.")
        }
        return RecordCheck(keys: keys, since: since)
    }
}

// MARK: witness

extension ArchiveRecordCommands {
    static let tokenOption = OptionSpec.value(
        "--token", placeholder: "T", help: "a read token of the station's site ('coldtap token create')", default: "$COLDTAP_TOKEN")
    static let queueOption = OptionSpec.value(
        "--queue", placeholder: "DIR", help: "where the checkpoint held is kept (shared with 'coldtap push')",
        default: "$XDG_STATE_HOME/coldtap/uploads, else ~/.local/state/coldtap/uploads", path: true)

    static let witnessOptions: [OptionSpec] = [
        tokenOption,
        queueOption,
    ]

    /// `coldtap archive witness URL`: asks the station for its checkpoint and the proof that
    /// its record still holds what the checkpoint held here covered; holds the new one.
    static func witness(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let environment = ProcessInfo.processInfo.environment
        let token = arguments.value(tokenOption) ?? environment["COLDTAP_TOKEN"]
        let queueFolder = arguments.value(queueOption)
        let text = try arguments.positionals(min: 1, max: 1, what: "URL")[0]
        try arguments.finish()
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw CommandError.usage("'\(text.prefix(80))' is not a station URL such as https://station.example:8080.")
        }
        guard let token, !token.isEmpty else { throw CommandError.usage("witnessing \(text) needs a read token: --token T or COLDTAP_TOKEN.") }
        let folder = queueFolder.map { URL(fileURLWithPath: $0) } ?? StationTarget.defaultQueue(environment)
        let queue: UploadQueue
        do {
            queue = try UploadQueue(directory: folder)
        } catch {
            throw CommandError(.failure, "cannot make the folder '\(folder.path)': \(error.localizedDescription).")
        }
        let client = StationClient(baseURL: url, token: token)
        let held = queue.heldCheckpoint(for: client)
        do {
            guard let shown = try await client.witness(held) else {
                throw CommandError(.unavailable, "\(text) signs no checkpoints (an older station, or one without a signing key).")
            }
            do {
                try queue.hold(shown, for: client)
            } catch {
                throw CommandError(.failure, "cannot keep the checkpoint in '\(folder.path)': \(error.localizedDescription).")
            }
            if let held {
                console.print("\(text): \(StationWitness.summary(shown)); it still holds the \(held.treeSize) leaves held before (consistency proof checked).")
            } else {
                console.print("\(text): \(StationWitness.summary(shown)); held from now on, with the key \(shown.publicKey).")
            }
        } catch let error as StationClientError {
            if case .recordInconsistent = error {
                throw CommandError(.dataError, "\(text): \(error.description). The checkpoint held stays in \(folder.path) as evidence.")
            }
            throw CommandError(error.credentialsRefused ? .noPermission : .unavailable, "\(text): \(error.description).")
        }
    }
}
