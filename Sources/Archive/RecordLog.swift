import ColdTapBase
import Digest
import Foundation
import TransparencyLog

// The archive as a transparency log (docs/archive-record.md): every fact kept is a leaf
// appended, in the order it was kept, to one Merkle tree hashed as RFC 9162 §2.1; a
// checkpoint is the tree's size and root signed as a C2SP signed note. The leaves are a
// table of their own (`record_leaves`), written in the same transaction as the rows they
// stand for, so a row and its leaf are kept or lost together.

extension Archive {
    /// Appends `leaf` inside `transaction`. Every write transaction holds the chain head's
    /// lock from its start (both engines), so writers append one after another and the next
    /// index is the count so far.
    static func appendLeaf(_ leaf: RecordLeaf, in transaction: WriteTransaction) throws {
        try transaction.engine.executeDeferred(
            """
            INSERT INTO record_leaves (leaf_index, kind, leaf_key, leaf, leaf_hash)
            VALUES ((SELECT COALESCE(MAX(leaf_index), -1) + 1 FROM record_leaves), $1, $2, $3, $4)
            """, [.text(leaf.kind.rawValue), .text(leaf.key), .blob(Data(leaf.bytes)), .text(leaf.hash.hexString(uppercase: false))])
    }

    /// The name of this archive's log, on the first line of its checkpoints (made once, when
    /// the record's tables are made).
    public func recordOrigin() throws -> String {
        guard let origin = try engine.scalarText("SELECT origin FROM record_origin WHERE id = 1") else {
            throw ArchiveError(.corrupt, "the archive \(engine.location) has no record origin: its record table was emptied.", hint: .verify)
        }
        return origin
    }

    /// How many leaves the record holds (by the newest index: a seek, not a count).
    public func recordSize() throws -> Int { try Archive.recordSize(engine) }

    static func recordSize(_ engine: any ArchiveEngine) throws -> Int {
        Int(try engine.scalarInt("SELECT MAX(leaf_index) FROM record_leaves").map { $0 + 1 } ?? 0)
    }

    /// The kept leaf hashes, as the tree is built from them, and the kept hashes of whole
    /// subtrees (`keepSubtrees`).
    struct KeptLeafHashes: LeafHashSource {
        let engine: any ArchiveEngine

        func leafCount() throws -> Int { try Archive.recordSize(engine) }

        func subtreeHash(_ range: Range<Int>) throws -> [UInt8]? {
            let level = range.count.trailingZeroBitCount
            guard level >= Archive.smallestKeptSubtree else { return nil }
            return try engine.scalarText(
                "SELECT subtree_hash FROM record_subtrees WHERE level = $1 AND position = $2",
                [.int(Int64(level)), .int(Int64(range.lowerBound >> level))]
            ).flatMap { Hex.decode($0) }
        }

        func leafHashes(in range: Range<Int>) throws -> [[UInt8]] {
            var hashes: [[UInt8]] = []
            hashes.reserveCapacity(range.count)
            try engine.query(
                "SELECT leaf_hash FROM record_leaves WHERE leaf_index >= $1 AND leaf_index < $2 ORDER BY leaf_index",
                [.int(Int64(range.lowerBound)), .int(Int64(range.upperBound))]
            ) { row in hashes.append(Hex.decode(row.text(0)) ?? []) }
            return hashes
        }
    }

    // MARK: Kept subtrees (docs/archive-record.md, "Kept subtrees")

    /// The level of the smallest subtree kept: 2^8 = 256 leaves, the block of leaves a proof
    /// reads together (`MerkleProofs.leafBlock`).
    public static let smallestKeptSubtree = MerkleProofs.leafBlock.trailingZeroBitCount

    /// Keeps the hash of every whole subtree of 256 leaves or more that the record holds and
    /// that is not kept yet (a write transaction, only when there is one to keep). A record
    /// that cannot be written to (a read-only file or user) is left as it is: its proofs are
    /// then computed from the leaves.
    public func keepSubtrees() {
        do {
            let size = try recordSize()
            let level = Archive.smallestKeptSubtree
            guard try Archive.keptSubtreeCount(engine, level: level) < size >> level else { return }
            try engine.writeTransaction { transaction in try Archive.keepSubtrees(size: try recordSize(), in: transaction) }
        } catch {}
    }

    /// Keeps the whole subtrees of the first `size` leaves not kept yet: the smallest from
    /// their leaves, each larger one from the two below it.
    static func keepSubtrees(size: Int, in transaction: WriteTransaction) throws {
        let engine = transaction.engine
        let insert = "INSERT INTO record_subtrees (level, position, subtree_hash) VALUES ($1, $2, $3)"
        let smallest = smallestKeptSubtree
        let blockSize = 1 << smallest
        var position = try keptSubtreeCount(engine, level: smallest)
        while position < size >> smallest {
            // 64 blocks of leaves at a time.
            let end = min(size >> smallest, position + 64)
            let hashes = try KeptLeafHashes(engine: engine).leafHashes(in: (position * blockSize)..<(end * blockSize))
            for block in position..<end {
                let offset = (block - position) * blockSize
                let hash = MerkleHash.root(ofLeafHashes: Array(hashes[offset..<(offset + blockSize)]))
                try engine.executeDeferred(insert, [.int(Int64(smallest)), .int(Int64(block)), .text(hash.hexString(uppercase: false))])
            }
            try engine.flushWrites()
            position = end
        }
        var level = smallest + 1
        while size >> level > 0 {
            let kept = try keptSubtreeCount(engine, level: level), whole = size >> level
            if kept < whole {
                var below: [[UInt8]] = []
                try engine.query(
                    "SELECT subtree_hash FROM record_subtrees WHERE level = $1 AND position >= $2 AND position < $3 ORDER BY position",
                    [.int(Int64(level - 1)), .int(Int64(2 * kept)), .int(Int64(2 * whole))]
                ) { below.append(Hex.decode($0.text(0)) ?? []) }
                guard below.count == 2 * (whole - kept) else {
                    throw ArchiveError(.corrupt, "the record's kept subtrees of level \(level - 1) have gaps.", hint: .verify)
                }
                for index in 0..<(whole - kept) {
                    let hash = MerkleHash.node(below[2 * index], below[2 * index + 1])
                    try engine.executeDeferred(insert, [.int(Int64(level)), .int(Int64(kept + index)), .text(hash.hexString(uppercase: false))])
                }
                try engine.flushWrites()
            }
            level += 1
        }
    }

    /// How many subtrees of `level` are kept (they are kept from the first on, without gaps:
    /// the newest position's seek, not a count).
    static func keptSubtreeCount(_ engine: any ArchiveEngine, level: Int) throws -> Int {
        Int(try engine.scalarInt("SELECT MAX(position) FROM record_subtrees WHERE level = $1", [.int(Int64(level))]).map { $0 + 1 } ?? 0)
    }

    /// Every kept subtree against the leaf hashes (as recomputed from the leaves).
    func subtreeProblems(leafHashes hashes: [[UInt8]]) throws -> [String] {
        enum Column: Int, ArchiveColumns {
            case level, position, hash
            var sqlName: String { ["level", "position", "subtree_hash"][rawValue] }
        }
        var problems: [String] = []
        var levels: [Int: [Int: [UInt8]]] = [:]
        try engine.query("SELECT \(Column.selectList) FROM record_subtrees ORDER BY level, position", []) { row in
            levels[Int(row.int(Column.level)), default: [:]][Int(row.int(Column.position))] = Hex.decode(row.text(Column.hash)) ?? []
        }
        func beyond(_ level: Int, _ position: Int) -> String {
            "the record's kept subtree of leaves \(position << level)..<\((position + 1) << level) is beyond its \(hashes.count) leaves: it was added outside ColdTap, or leaves were removed"
        }
        // Recomputed level by level from the leaves: each whole subtree once.
        var current = hashes
        var level = 0
        while !current.isEmpty, let highest = levels.keys.max(), level <= highest {
            for (position, kept) in levels[level] ?? [:] {
                let first = position << level, count = 1 << level
                guard position < current.count else {
                    problems.append(beyond(level, position))
                    continue
                }
                if kept != current[position] {
                    problems.append(
                        "the record's kept subtree of leaves \(first)..<\(first + count) does not hold their hash: it was changed outside ColdTap (ColdTap keeps it again once the row is removed)"
                    )
                }
            }
            current = stride(from: 0, to: current.count - 1, by: 2).map { MerkleHash.node(current[$0], current[$0 + 1]) }
            level += 1
        }
        for (higher, kept) in levels where higher >= level {
            for position in kept.keys.sorted() { problems.append(beyond(higher, position)) }
        }
        return problems
    }

    /// The record's tree head now: its size and root.
    public func recordHead() throws -> (size: Int, root: [UInt8]) {
        keepSubtrees()
        return try engine.readTransaction {
            let size = try recordSize()
            return (size, try MerkleProofs.root(treeSize: size, from: KeptLeafHashes(engine: engine)))
        }
    }

    /// Signs the record's tree head now as a checkpoint, keeps it, and returns it.
    /// - Throws: `ArchiveError(.invalidRead)` when `signer` is not this archive's key (its
    ///   name is not the record's origin).
    public func signCheckpoint(with signer: NoteSigner, now: Date = Date()) throws -> SignedNote {
        keepSubtrees()
        return try engine.writeTransaction { _ in
            let origin = try recordOrigin()
            guard signer.name == origin else {
                throw ArchiveError(
                    .invalidRead,
                    "the signing key is named \(signer.name), but this archive's record is \(origin): it is another archive's key.",
                    hint: .useAnotherArchive)
            }
            let size = try recordSize()
            // Signed at this size before: that one (it is `verify` that holds kept
            // checkpoints to the leaves; a station asked often need not hash them all again).
            if let note = try engine.scalarText("SELECT note FROM record_checkpoints WHERE tree_size = $1", [.int(Int64(size))]),
                let kept = try? SignedNote(parsing: Array(note.utf8)), kept.signatures.contains(where: { $0.keyID == signer.verifier.keyID })
            {
                return kept
            }
            let root = try MerkleProofs.root(treeSize: size, from: KeptLeafHashes(engine: engine))
            let rootText = root.hexString(uppercase: false)
            let note = try Checkpoint(origin: origin, treeSize: size, rootHash: root).signed(by: [signer])
            try engine.execute(
                "INSERT INTO record_checkpoints (tree_size, root_hash, note, signed_ms) VALUES ($1, $2, $3, $4)",
                [.int(Int64(size)), .text(rootText), .text(note.formatted), .int(now.milliseconds)])
            return note
        }
    }

    /// The hashes of the leaves from index `start` on, in order (a station keeping up).
    public func leafHashes(from start: Int) throws -> [[UInt8]] {
        var hashes: [[UInt8]] = []
        try engine.query("SELECT leaf_hash FROM record_leaves WHERE leaf_index >= $1 ORDER BY leaf_index", [.int(Int64(start))]) { row in
            hashes.append(Hex.decode(row.text(0)) ?? [])
        }
        return hashes
    }

    /// Keeps a checkpoint signed elsewhere (a station's, kept up leaf by leaf) unless one of
    /// its size is kept already.
    /// - Throws: `ArchiveError(.verificationFailed)` when a kept one of that size has another root.
    public func keepCheckpoint(_ note: SignedNote, now: Date = Date()) throws {
        let checkpoint = try Checkpoint(text: note.text)
        let root = checkpoint.rootHash.hexString(uppercase: false)
        try engine.writeTransaction { _ in
            if let kept = try engine.scalarText("SELECT root_hash FROM record_checkpoints WHERE tree_size = $1", [.int(Int64(checkpoint.treeSize))]) {
                guard kept == root else {
                    throw ArchiveError(
                        .verificationFailed, "a checkpoint of \(checkpoint.treeSize) leaves with another root is kept: the record changed under it.",
                        hint: .verify)
                }
                return
            }
            try engine.execute(
                "INSERT INTO record_checkpoints (tree_size, root_hash, note, signed_ms) VALUES ($1, $2, $3, $4)",
                [.int(Int64(checkpoint.treeSize)), .text(root), .text(note.formatted), .int(now.milliseconds)])
        }
    }

    /// The newest checkpoint kept (signed by `signCheckpoint`), as its note text.
    public func newestCheckpoint() throws -> String? {
        try engine.scalarText("SELECT note FROM record_checkpoints ORDER BY tree_size DESC LIMIT 1")
    }

    /// The index and leaf of every leaf of `kind` whose key is `key`, oldest first.
    public func leaves(kind: RecordLeaf.Kind, key: String) throws -> [(index: Int, leaf: RecordLeaf)] {
        enum Column: Int, ArchiveColumns {
            case index, leaf
            var sqlName: String { self == .index ? "leaf_index" : "leaf" }
        }
        var found: [(Int, RecordLeaf)] = []
        try engine.query(
            "SELECT \(Column.selectList) FROM record_leaves WHERE kind = $1 AND leaf_key = $2 ORDER BY leaf_index", [.text(kind.rawValue), .text(key)]
        ) { row in
            if let leaf = RecordLeaf(bytes: row.blob(Column.leaf)) { found.append((Int(row.int(Column.index)), leaf)) }
        }
        return found
    }

    /// The inclusion proof of leaf `index` in the tree of the first `size` leaves.
    public func inclusionProof(leafIndex index: Int, treeSize size: Int) throws -> [[UInt8]] {
        keepSubtrees()
        return try engine.readTransaction { try MerkleProofs.inclusionProof(leafIndex: index, treeSize: size, from: KeptLeafHashes(engine: engine)) }
    }

    /// The inclusion proofs of several leaves in the tree of the first `size` leaves, the leaf
    /// hashes read once for all of them.
    public func inclusionProofs(leafIndices: [Int], treeSize size: Int) throws -> [[[UInt8]]] {
        keepSubtrees()
        return try engine.readTransaction {
            try MerkleProofs.inclusionProofs(leafIndices: leafIndices, treeSize: size, from: KeptLeafHashes(engine: engine))
        }
    }

    /// The consistency proof from the tree of `oldSize` leaves to that of `newSize`.
    public func consistencyProof(from oldSize: Int, to newSize: Int) throws -> [[UInt8]] {
        keepSubtrees()
        return try engine.readTransaction {
            try MerkleProofs.consistencyProof(oldSize: oldSize, newSize: newSize, from: KeptLeafHashes(engine: engine))
        }
    }
}

// MARK: What the rows say the leaves must be

extension Archive {
    /// The leaf every row of the archive's own tables stands for.
    static func expectedArchiveLeaves(_ engine: any ArchiveEngine) throws -> [RecordLeaf] {
        var leaves: [RecordLeaf] = []
        try engine.query("SELECT \(ReadRow.columns) FROM reads ORDER BY chain_seq", []) { leaves.append(.read(ReadRow(row: $0))) }
        try engine.query("SELECT \(AssessmentRow.Column.selectList) FROM assessments ORDER BY logger_id, assessment_id", []) {
            leaves.append(.assessment(AssessmentRow(row: $0)))
        }
        try engine.query("SELECT \(AcknowledgementRow.Column.selectList) FROM acknowledgements ORDER BY chain_seq", []) { row in
            leaves.append(.acknowledgement(AcknowledgementRow(row: row), hash: row.text(AcknowledgementRow.Column.hash)))
        }
        leaves += try loggersWithFirstRead(engine).map { RecordLeaf.logger($0.0, firstReadID: $0.1) }
        leaves += try laterGenerationLeaves(engine)
        // Schema 7's tables: an older archive being migrated has none yet.
        guard try engine.tableExists("products") else { return leaves }
        try engine.query("SELECT \(StoredProduct.Column.selectList) FROM products ORDER BY added_ms, name, version", []) {
            leaves.append(.product(StoredProduct(row: $0)))
        }
        try engine.query("SELECT \(Lot.Column.selectList) FROM lots ORDER BY created_ms, site_id, lot_id", []) { leaves.append(.lot(Lot(row: $0))) }
        try engine.query("SELECT \(LotMoveRecord.Column.selectList) FROM lot_moves ORDER BY recorded_ms, site_id, lot_id, move_seq", []) {
            leaves.append(.lotMove(LotMoveRecord(row: $0)))
        }
        return leaves
    }

    /// The leaf every row of the station's tables stands for (none before they exist).
    static func expectedStationLeaves(_ engine: any ArchiveEngine) throws -> [RecordLeaf] {
        guard try engine.tableExists("sites") else { return [] }
        var leaves: [RecordLeaf] = []
        try engine.query("SELECT \(StationSite.Column.selectList) FROM sites ORDER BY site_id", []) { leaves.append(.site(StationSite(row: $0))) }
        var revoked: [RecordLeaf] = []
        // Before station schema 7 tokens had no user or device (schema 4 lists them then).
        let tokenColumns = try engine.tableExists("users") ? TokenRow.Column.selectList : TokenRow.columnsBeforeUsers
        try engine.query("SELECT \(tokenColumns) FROM tokens ORDER BY token_id", []) { row in
            let token = TokenRow(row: row)
            leaves.append(.token(token))
            if let at = token.revoked { revoked.append(.tokenRevoked(id: token.id, at: at)) }
        }
        leaves += revoked
        enum Owner: Int, ArchiveColumns {
            case loggerID, siteID, joined
            var sqlName: String { ["logger_id", "site_id", "joined_ms"][rawValue] }
        }
        try engine.query("SELECT \(Owner.selectList) FROM site_loggers ORDER BY joined_ms, logger_id", []) { row in
            leaves.append(.siteLogger(loggerID: row.text(Owner.loggerID), siteID: row.int(Owner.siteID), joined: row.int(Owner.joined)))
        }
        try engine.query("SELECT \(SiteProfile.Column.selectList) FROM site_profiles ORDER BY added_ms, site_id, name, version", []) {
            leaves.append(.siteProfile(SiteProfile(row: $0)))
        }
        enum Hook: Int, ArchiveColumns {
            case id, siteID, url, created
            var sqlName: String { ["webhook_id", "site_id", "url", "created_ms"][rawValue] }
        }
        try engine.query("SELECT \(Hook.selectList) FROM webhooks ORDER BY webhook_id", []) { row in
            leaves.append(.webhook(id: row.int(Hook.id), siteID: row.int(Hook.siteID), url: row.text(Hook.url), created: row.int(Hook.created)))
        }
        enum Secret: Int, ArchiveColumns {
            case loggerID, set
            var sqlName: String { self == .loggerID ? "logger_id" : "set_ms" }
        }
        try engine.query("SELECT \(Secret.selectList) FROM logger_secrets ORDER BY set_ms, logger_id", []) { row in
            leaves.append(.loggerSecret(loggerID: row.text(Secret.loggerID), set: row.int(Secret.set)))
        }
        // Station schema 7's tables: older station tables being migrated have none yet.
        guard try engine.tableExists("users") else { return leaves }
        try engine.query("SELECT \(UserRow.Column.selectList) FROM users ORDER BY user_id", []) { leaves.append(.user(UserRow(row: $0).user)) }
        try engine.query("SELECT \(AccountEventRow.Column.selectList) FROM account_events ORDER BY event_id", []) {
            leaves.append(.accountEvent(AccountEventRow(row: $0)))
        }
        try engine.query("SELECT \(SignatureRow.Column.selectList) FROM signatures ORDER BY signature_id", []) {
            leaves.append(.signature(SignatureRow(row: $0)))
        }
        try engine.query("SELECT \(ReadUploadRow.Column.selectList) FROM read_uploads ORDER BY upload_id", []) {
            leaves.append(.readUpload(ReadUploadRow(row: $0)))
        }
        leaves += try StationStore.loggerTimeZoneSettings(engine).map(RecordLeaf.siteLoggerTimeZone)
        // Station schema 8's table.
        guard try engine.tableExists("site_identifiers") else { return leaves }
        try engine.query("SELECT \(SiteIdentifierRow.Column.selectList) FROM site_identifiers ORDER BY site_id, seq", []) {
            leaves.append(.siteIdentifier(SiteIdentifierRow(row: $0).identifier))
        }
        return leaves
    }

    /// A leaf as kept in `record_leaves`.
    struct KeptLeaf {
        enum Column: Int, ArchiveColumns {
            case index, kind, key, leaf, hash
            var sqlName: String { ["leaf_index", "kind", "leaf_key", "leaf", "leaf_hash"][rawValue] }
        }

        var index: Int64
        var kind: String
        var key: String
        var bytes: Data
        var hash: String

        init(row: any ArchiveRow) {
            index = row.int(Column.index)
            kind = row.text(Column.kind)
            key = row.text(Column.key)
            bytes = row.blob(Column.leaf)
            hash = row.text(Column.hash)
        }
    }

    /// Every way the record differs from the rows: a leaf whose hash, kind or key does not
    /// match its bytes, a gap in the leaf numbers, a row whose values are not its leaf's, a
    /// row without a leaf, a leaf without its row. Also returns the leaf hashes as
    /// recomputed from the leaves' bytes, for the tree head.
    func recordProblems() throws -> (problems: [String], leafHashes: [[UInt8]]) {
        var problems: [String] = []
        var hashes: [[UInt8]] = []
        var kept: [String: (index: Int64, leaf: RecordLeaf)] = [:]
        var expectedIndex: Int64 = 0
        try engine.query("SELECT \(KeptLeaf.Column.selectList) FROM record_leaves ORDER BY leaf_index", []) { row in
            let stored = KeptLeaf(row: row)
            if stored.index != expectedIndex {
                problems.append(
                    "record leaf #\(expectedIndex)\(stored.index > expectedIndex + 1 ? "–#\(stored.index - 1)" : "") is missing: the record was cut")
                expectedIndex = stored.index
            }
            expectedIndex += 1
            let hash = MerkleHash.leaf(stored.bytes)
            hashes.append(hash)
            if hash.hexString(uppercase: false) != stored.hash {
                problems.append("record leaf #\(stored.index): its kept hash is not the hash of its bytes (it was edited)")
            }
            guard let leaf = RecordLeaf(bytes: stored.bytes) else {
                problems.append("record leaf #\(stored.index) is not a leaf ColdTap writes")
                return
            }
            if leaf.kind.rawValue != stored.kind || leaf.key != stored.key {
                problems.append("record leaf #\(stored.index) is filed as \(stored.kind) \(stored.key) but holds \(leaf.kind.rawValue) \(leaf.key)")
            }
            let name = "\(leaf.kind.rawValue) \(leaf.key)"
            if let earlier = kept[name], leaf.kind != .loggerSecret {
                problems.append("record leaves #\(earlier.index) and #\(stored.index) both stand for \(name)")
            }
            kept[name] = (stored.index, leaf)
        }
        let expected = try Archive.expectedArchiveLeaves(engine) + Archive.expectedStationLeaves(engine)
        var covered = Set<String>()
        for leaf in expected {
            let name = "\(leaf.kind.rawValue) \(leaf.key)"
            covered.insert(name)
            guard let (index, recorded) = kept[name] else {
                problems.append("\(Archive.describe(leaf)) is in the tables but not in the record: it was added outside ColdTap")
                continue
            }
            if recorded.bytes != leaf.bytes {
                let differing = leaf.differingFields(from: recorded)
                let verb = differing.count == 1 ? "differs" : "differ"
                problems.append(
                    "\(Archive.describe(leaf)) was changed after it was kept: \(differing.joined(separator: ", ")) \(verb) from its record leaf #\(index)")
            }
        }
        for (name, entry) in kept.sorted(by: { $0.value.index < $1.value.index }) where !covered.contains(name) {
            // A secret set again replaces the row: only the newest setting has one.
            if entry.leaf.kind == .loggerSecret { continue }
            problems.append("\(Archive.describe(entry.leaf)) has its record leaf #\(entry.index) but no row: it was removed")
        }
        return (problems, hashes)
    }

    /// A row in words, for `verify`: "read #3 of fridge-1", "token #2".
    static func describe(_ leaf: RecordLeaf) -> String {
        let logger = leaf.value("logger") ?? ""
        switch leaf.kind {
        case .read: return "read #\(leaf.value("read") ?? "") of \(logger)"
        case .assessment: return "assessment #\(leaf.value("assessment") ?? "") of \(logger)"
        case .acknowledgement: return "acknowledgement #\(leaf.value("ack") ?? "") of \(logger)"
        case .logger: return "logger \(logger) (its identity)"
        case .generation: return "generation \(leaf.value("generation") ?? "")"
        case .readGeneration: return "what read #\(leaf.value("read") ?? "") of \(logger) added to generation \(leaf.value("generation") ?? "")"
        case .site: return "site #\(leaf.value("site") ?? "")"
        case .siteLogger: return "the site of logger \(logger)"
        case .token: return "token #\(leaf.value("token") ?? "")"
        case .tokenRevoked: return "the revocation of token #\(leaf.value("token") ?? "")"
        case .siteProfile: return "site profile \(leaf.value("name") ?? "") v\(leaf.value("version") ?? "") of site #\(leaf.value("site") ?? "")"
        case .webhook: return "webhook #\(leaf.value("webhook") ?? "")"
        case .loggerSecret: return "the secret of logger \(logger)"
        case .product: return "product \(leaf.value("product") ?? "") v\(leaf.value("version") ?? "")"
        case .lot: return "lot \(leaf.value("lot") ?? "") of site #\(leaf.value("site") ?? "")"
        case .lotMove: return "move #\(leaf.value("move") ?? "") of lot \(leaf.value("lot") ?? "") of site #\(leaf.value("site") ?? "")"
        case .user: return "user #\(leaf.value("user") ?? "") (\(leaf.value("name") ?? ""))"
        case .accountEvent: return "account event #\(leaf.value("event") ?? "") (\(leaf.value("kind") ?? ""))"
        case .signature: return "signature #\(leaf.value("signature") ?? "") of \(logger)"
        case .siteLoggerTimeZone: return "logger time zone setting #\(leaf.value("setting") ?? "") of site #\(leaf.value("site") ?? "")"
        case .readUpload: return "upload #\(leaf.value("upload") ?? "") of read #\(leaf.value("read") ?? "") of \(logger)"
        case .siteIdentifier: return "identifier #\(leaf.value("seq") ?? "") of site #\(leaf.value("site") ?? "") (\(leaf.value("subject") ?? ""))"
        }
    }
}

// MARK: Checkpoints held against the record

/// What `verify` holds the record to besides its own rows.
public struct RecordCheck: Sendable {
    /// Keys whose signatures count (the archive's public key). Without one the kept
    /// checkpoints' roots are still compared, their signatures are not checked.
    public var keys: [NoteVerifierKey]
    /// An older signed checkpoint (its note's text), kept outside the archive, that the
    /// record must still hold: what catches a removed newest row or a restored old backup.
    public var since: String?

    public init(keys: [NoteVerifierKey] = [], since: String? = nil) {
        self.keys = keys
        self.since = since
    }
}

extension Archive {
    /// The kept checkpoints and `check.since` against the record's leaf hashes (as
    /// recomputed from the leaves): each one's root must be the root of that many leaves,
    /// and its signature one of `check.keys`'.
    /// - Returns: the problems, and a line per checkpoint that holds.
    func checkpointProblems(leafHashes hashes: [[UInt8]], check: RecordCheck) throws -> (problems: [String], notes: [String]) {
        var problems: [String] = []
        var notes: [String] = []
        let origin = try recordOrigin()
        enum Column: Int, ArchiveColumns {
            case size, root, note
            var sqlName: String { ["tree_size", "root_hash", "note"][rawValue] }
        }
        var kept: [(size: Int, root: String, note: String)] = []
        try engine.query("SELECT \(Column.selectList) FROM record_checkpoints ORDER BY tree_size", []) { row in
            kept.append((Int(row.int(Column.size)), row.text(Column.root), row.text(Column.note)))
        }
        var roots = MerkleFrontier()
        var leaves = hashes.makeIterator()
        var signedChecked = 0
        for checkpoint in kept {
            while roots.count < checkpoint.size, let next = leaves.next() { roots.append(next) }
            guard roots.count == checkpoint.size else {
                problems.append(
                    "the record holds \(hashes.count) leaves, fewer than the \(checkpoint.size) its checkpoint covers: leaves were removed after it was signed")
                continue
            }
            let root = roots.root.hexString(uppercase: false)
            if root != checkpoint.root || (try? Checkpoint(text: SignedNote(parsing: Array(checkpoint.note.utf8)).text))?.rootHash != roots.root {
                problems.append(
                    "the checkpoint of \(checkpoint.size) leaves no longer matches the record (its root is not the root of the first \(checkpoint.size) leaves): the record was changed after it was signed"
                )
                continue
            }
            if !check.keys.isEmpty {
                do {
                    _ = try Checkpoint.verified(Array(checkpoint.note.utf8), keys: check.keys)
                    signedChecked += 1
                } catch {
                    problems.append("the checkpoint of \(checkpoint.size) leaves is not signed by the archive's key (\(error))")
                }
            }
        }
        if let newest = kept.last {
            notes.append(
                "\(kept.count) kept checkpoint(s) match the record, the newest of \(newest.size) leaves"
                    + (check.keys.isEmpty
                        ? " (their signatures not checked: no public key given)"
                        : "; \(signedChecked) checkpoint signature(s) checked (the archive's key on its checkpoints, not people's electronic signatures)"))
        }
        if let since = check.since {
            problems += sinceProblems(since, origin: origin, hashes: hashes, keys: check.keys, notes: &notes)
        }
        return (problems, notes)
    }

    /// An older checkpoint held outside: signed by one of `keys`, of this record, and a
    /// prefix of it (a consistency proof from its size to now, made and checked).
    private func sinceProblems(_ text: String, origin: String, hashes: [[UInt8]], keys: [NoteVerifierKey], notes: inout [String]) -> [String] {
        let checkpoint: Checkpoint
        do {
            checkpoint = try Checkpoint.verified(Array(text.utf8), keys: keys)
        } catch {
            return ["the older checkpoint cannot be trusted: \(error)"]
        }
        guard checkpoint.origin == origin else {
            return ["the older checkpoint is of the record \(checkpoint.origin), not of this archive's (\(origin))"]
        }
        guard checkpoint.treeSize <= hashes.count else {
            return [
                "the record holds \(hashes.count) leaves, fewer than the \(checkpoint.treeSize) the older checkpoint covers: leaves were removed (a newest row deleted, a head rolled back, a table cut or an old backup restored)"
            ]
        }
        let source = InMemoryLeafHashes(leafHashes: hashes)
        do {
            let proof = try MerkleProofs.consistencyProof(oldSize: checkpoint.treeSize, newSize: hashes.count, from: source)
            let root = try MerkleProofs.root(treeSize: hashes.count, from: source)
            guard MerkleProofs.verifyConsistency(oldSize: checkpoint.treeSize, newSize: hashes.count, oldRoot: checkpoint.rootHash, newRoot: root, proof: proof)
            else {
                return [
                    "the record no longer holds what the older checkpoint of \(checkpoint.treeSize) leaves covered (no consistency proof from it to the \(hashes.count) leaves now): a kept fact was changed or removed"
                ]
            }
            notes.append(
                "the older checkpoint of \(checkpoint.treeSize) leaves is a prefix of the record now (consistency proof of \(proof.count) hash(es) checked)")
            return []
        } catch {
            return ["no consistency proof could be made from the older checkpoint: \(error)"]
        }
    }
}
