import Archive
import ArchiveKit
import ArchiveTestSupport
import ColdTapBase
import ColdTapKit
import Digest
import Foundation
import LoggerFormats
import Testing
import TransparencyLog

/// The archive as a transparency log (docs/archive-record.md): every fact kept is a leaf in
/// the order it was kept, checkpoints are signed tree heads, and `verify` holds every row to
/// its leaf and the record to its checkpoints.
@Suite struct RecordTests {
    func newRead(_ logger: String, first: Int, count: Int = 40, values: [Double]? = nil) async throws -> NewRead {
        let temperatures = values ?? LoggerFiles.series(first..<(first + count))
        let bytes = try LoggerFiles.generic(first: first, temperatures: temperatures)
        let log = try await LogInput.load(content: bytes, name: logger, modificationTime: nil, options: LogInput.Options()).log
        return NewRead(
            raw: bytes, inputKind: "ndef", origin: "test", decodeOptions: "{}", log: log, loggerID: logger, profile: .vaccineFridge,
            timeZone: .gmt)
    }

    /// Reads of two loggers (one overlapping), an acknowledgement, and the station's rows:
    /// two sites, tokens (one revoked), an ownership, a profile, a webhook, a secret.
    func fill(_ test: TestArchive, stationRows: Bool = true) async throws {
        let archive = try test.open()
        defer { archive.close() }
        _ = try archive.add(try await newRead("A", first: 0))
        _ = try archive.add(try await newRead("A", first: 30))
        _ = try archive.add(try await newRead("B", first: 0))
        _ = try archive.acknowledge(loggerID: "A", excursionStart: LoggerFiles.start, by: "QA", comment: "checked")
        guard stationRows else { return }
        let store = try StationStore(archive: archive)
        let north = try store.addSite("north")
        _ = try store.addSite("south")
        _ = try store.createToken(site: north, scope: .upload)
        let revoked = try store.createToken(site: north, scope: .read)
        try store.revokeToken(id: revoked.record.id)
        _ = try store.claim(loggerID: "A", siteID: north.id)
        let profile = #"{"name": "ward", "summary": "Ward: 2–6 °C", "band": {"min": 2, "max": 6}, "rules": []}"#
        try store.addSiteProfile(siteID: north.id, name: "ward", json: profile, addedBy: "test")
        try store.addWebhook(siteID: north.id, url: "https://hooks.example/a", secret: "s")
        try store.setSecret("k3y", loggerID: "B")
    }

    /// The archive's signing key, made next to it in the test's folder.
    func signingKey(_ test: TestArchive, _ archive: Archive) throws -> NoteSigner {
        try RecordSigningKey.loadOrCreate(file: test.path("key"), origin: try archive.recordOrigin()).signer
    }

    func keptLeaves(_ test: TestArchive) throws -> [RecordLeaf] {
        let archive = try test.open()
        defer { archive.close() }
        var leaves: [RecordLeaf] = []
        try archive.engine.query("SELECT leaf FROM record_leaves ORDER BY leaf_index", []) { row in
            if let leaf = RecordLeaf(bytes: row.blob(0)) { leaves.append(leaf) }
        }
        return leaves
    }

    func tamper(_ test: TestArchive, _ sql: String) throws {
        let archive = try test.open()
        defer { archive.close() }
        try archive.engine.execute(sql)
    }

    @Test(arguments: Engine.allCases)
    func everyFactIsALeafInTheOrderItWasKept(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try await fill(test)
            let leaves = try keptLeaves(test)
            #expect(
                leaves.map(\.kind.rawValue) == [
                    "logger", "read", "assessment", "read", "assessment", "logger", "read", "assessment", "acknowledgement", "site", "site",
                    "token", "token", "token_revoked", "site_logger", "site_profile", "webhook", "logger_secret",
                ])
            // A read's leaf, written out by hand from its row as docs/archive-record.md says.
            let archive = try test.open()
            defer { archive.close() }
            var expected = ""
            try archive.engine.query(
                """
                SELECT logger_id, read_id, raw_sha256, samples_sha256, read_time_ms, read_time_source, input_kind, decoder, decode_options,
                       coldtap_version, origin, added_ms, hash FROM reads WHERE logger_id = 'B'
                """, []
            ) { row in
                let names = [
                    "logger", "read", "raw_sha256", "samples_sha256", "read_time_ms", "read_time_source", "input_kind", "decoder", "decode_options",
                    "coldtap_version", "origin", "added_ms", "chain_hash",
                ]
                let values = [
                    row.text(0), String(row.int(1)), row.text(2), row.text(3), String(row.int(4)), row.text(5), row.text(6), row.text(7),
                    row.text(8), row.text(9), row.text(10), String(row.int(11)), row.text(12),
                ]
                expected = "coldtap-leaf/1\nread\n" + zip(names, values).map { "\($0)=\($1)\n" }.joined()
            }
            #expect(leaves[6].bytes == Array(expected.utf8))
            #expect(leaves[6].hash == SHA256Digest.hash([0x00] + Array(expected.utf8)))
            // The token's leaf holds its SHA-256, never the token; a secret's leaf never the secret.
            #expect(leaves.allSatisfy { !String(decoding: $0.bytes, as: UTF8.self).contains("k3y") })
            #expect(leaves[11].value("token_sha256")?.count == 64)
            let report = try await test.verify()
            #expect(report.problems.isEmpty, "\(report.problems)")
            #expect(report.recordLeaves == leaves.count)
        }
    }

    @Test(arguments: Engine.allCases)
    func aSignedCheckpointHoldsAndEveryReadProvesItsInclusion(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try await fill(test)
            let archive = try test.open()
            defer { archive.close() }
            let (signer, created) = try RecordSigningKey.loadOrCreate(file: test.path("key"), origin: try archive.recordOrigin())
            #expect(created)
            let mode = try FileManager.default.attributesOfItem(atPath: test.path("key"))[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(try RecordSigningKey.loadOrCreate(file: test.path("key"), origin: "other").signer.verifier == signer.verifier)
            let note = try archive.signCheckpoint(with: signer)
            let checkpoint = try Checkpoint.verified(Array(note.formatted.utf8), keys: [signer.verifier])
            let origin = try archive.recordOrigin()
            let size = try archive.recordSize()
            #expect(checkpoint.origin == origin && checkpoint.treeSize == size)
            // Signing again at the same size gives the same checkpoint.
            #expect(try archive.signCheckpoint(with: signer).formatted == note.formatted)
            for read in ["A/1", "A/2", "B/3"] {
                let (index, leaf) = try #require(try archive.leaves(kind: .read, key: read).first)
                let proof = try archive.inclusionProof(leafIndex: index, treeSize: checkpoint.treeSize)
                #expect(
                    MerkleProofs.verifyInclusion(
                        leafHash: leaf.hash, leafIndex: index, treeSize: checkpoint.treeSize, proof: proof, root: checkpoint.rootHash))
            }
            let report = try await archive.verify(decoder: ArchivedReads.decoder, record: RecordCheck(keys: [signer.verifier]))
            #expect(report.problems.isEmpty, "\(report.problems)")
            #expect(
                report.recordNotes.contains {
                    $0.contains("1 kept checkpoint(s) match the record")
                        && $0.contains("1 checkpoint signature(s) checked (the archive's key on its checkpoints, not people's electronic signatures)")
                })
            // Another archive's key does not sign this one's checkpoints.
            let stranger = try NoteSigner(name: "coldtap/archive/other", privateKey: Ed25519PrivateKey.generate())
            #expect(throws: ArchiveError.self) { try archive.signCheckpoint(with: stranger) }
        }
    }

    /// Each kind of quiet edit, and what verify names.
    static let edits: [(sql: String, named: String)] = [
        ("UPDATE loggers SET serial = 'SN-FORGED' WHERE logger_id = 'A'", "logger A (its identity) was changed after it was kept: serial"),
        ("UPDATE site_loggers SET site_id = 2 WHERE logger_id = 'A'", "the site of logger A was changed after it was kept: site"),
        ("UPDATE tokens SET scope = 'admin' WHERE token_id = 1", "token #1 was changed after it was kept: scope"),
        ("UPDATE tokens SET revoked_ms = NULL WHERE token_id = 2", "the revocation of token #2 has its record leaf #13 but no row"),
        ("UPDATE assessments SET verdict = 'ALARM' WHERE logger_id = 'B'", "assessment #1 of B was changed after it was kept: verdict"),
        ("UPDATE reads SET origin = 'elsewhere' WHERE logger_id = 'B'", "read #3 of B was changed after it was kept: origin"),
        ("DELETE FROM webhooks", "webhook #1 has its record leaf #16 but no row: it was removed"),
        ("INSERT INTO sites (site_id, name, created_ms) VALUES (9, 'forged', 0)", "site #9 is in the tables but not in the record"),
        ("UPDATE record_leaves SET leaf_hash = '00' WHERE leaf_index = 4", "record leaf #4: its kept hash is not the hash of its bytes"),
        ("DELETE FROM record_leaves WHERE leaf_index = 3", "record leaf #3 is missing: the record was cut"),
        ("DELETE FROM tokens", "token #2 has its record leaf #12 but no row: it was removed"),
    ]

    @Test(arguments: Engine.allCases, 0..<RecordTests.edits.count)
    func eachQuietEditIsNamed(engine: Engine, edit: Int) async throws {
        try await withArchive(engine) { test in
            try await fill(test)
            #expect(try await test.verify().problems.isEmpty)
            try tamper(test, Self.edits[edit].sql)
            let problems = try await test.verify().problems
            #expect(problems.contains { $0.contains(Self.edits[edit].named) }, "\(Self.edits[edit].sql): \(problems)")
        }
    }

    @Test(arguments: Engine.allCases)
    func aRemovedNewestReadIsCaughtOnlyAgainstACheckpointKeptElsewhere(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try await fill(test, stationRows: false)
            let archive = try test.open()
            defer { archive.close() }
            let signer = try signingKey(test, archive)
            let before = try archive.signCheckpoint(with: signer).formatted
            let sizeBefore = try archive.recordSize()
            let head = try archive.chainHead()
            _ = try archive.add(try await newRead("A", first: 60))
            let after = try archive.signCheckpoint(with: signer).formatted
            try test.removeNewestRead(4, keepingLeaves: sizeBefore)
            #expect(try archive.chainHead() == head)
            let keys = [signer.verifier]
            let alone = try await archive.verify(decoder: ArchivedReads.decoder, record: RecordCheck(keys: keys))
            #expect(alone.problems.isEmpty, "what the archive holds is consistent in itself: \(alone.problems)")
            let sinceBefore = try await archive.verify(decoder: ArchivedReads.decoder, record: RecordCheck(keys: keys, since: before))
            #expect(sinceBefore.problems.isEmpty)
            #expect(sinceBefore.recordNotes.contains { $0.contains("is a prefix of the record now") })
            let sinceAfter = try await archive.verify(decoder: ArchivedReads.decoder, record: RecordCheck(keys: keys, since: after))
            #expect(
                sinceAfter.problems.contains { $0.contains("fewer than the \(sizeBefore + 2) the older checkpoint covers: leaves were removed") },
                "\(sinceAfter.problems)")
            // A checkpoint not signed by the archive's key is not trusted.
            let stranger = try NoteSigner(name: try archive.recordOrigin(), privateKey: Ed25519PrivateKey.generate())
            let forged = try Checkpoint(origin: try archive.recordOrigin(), treeSize: 1, rootHash: [UInt8](repeating: 1, count: 32)).signed(by: [stranger])
            let untrusted = try await archive.verify(decoder: ArchivedReads.decoder, record: RecordCheck(keys: keys, since: forged.formatted))
            #expect(untrusted.problems.contains { $0.contains("the older checkpoint cannot be trusted") })
        }
    }

    @Test(arguments: Engine.allCases)
    func aRewrittenLeafBreaksTheCheckpointsSignedBefore(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try await fill(test, stationRows: false)
            let archive = try test.open()
            defer { archive.close() }
            let signer = try signingKey(test, archive)
            let before = try archive.signCheckpoint(with: signer).formatted
            // The row and its leaf rewritten together, hash and all: every row matches its leaf,
            // but the tree is no longer the one signed.
            let (index, leaf) = try #require(try archive.leaves(kind: .logger, key: "A").first)
            var forged = leaf
            forged.fields = leaf.fields.map { $0.name == "format" ? RecordLeaf.Field(name: "format", value: "forged") : $0 }
            try archive.engine.execute("UPDATE loggers SET format = 'forged' WHERE logger_id = 'A'")
            try archive.engine.execute(
                "UPDATE record_leaves SET leaf = $1, leaf_hash = $2 WHERE leaf_index = $3",
                [.blob(Data(forged.bytes)), .text(forged.hash.hexString(uppercase: false)), .int(Int64(index))])
            let report = try await archive.verify(decoder: ArchivedReads.decoder, record: RecordCheck(keys: [signer.verifier], since: before))
            #expect(report.problems.contains { $0.contains("no longer matches the record") }, "\(report.problems)")
            #expect(report.problems.contains { $0.contains("the record no longer holds what the older checkpoint") }, "\(report.problems)")
        }
    }

    @Test(arguments: Engine.allCases)
    func anArchiveKeptBeforeTheRecordGetsTheSameLeaves(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try await fill(test, stationRows: false)
            let live = try keptLeaves(test)
            // Made as schema 4 left it: no record tables.
            for sql in [
                "DROP TABLE record_leaves", "DROP TABLE record_checkpoints", "DROP TABLE record_origin", "DROP TABLE record_subtrees",
                "DROP TABLE products", "DROP TABLE lots", "DROP TABLE lot_moves", "DROP TABLE read_daily_summaries",
                "DELETE FROM schema_migrations WHERE version >= 5",
            ] { try tamper(test, sql) }
            let backfilled = try keptLeaves(test)
            #expect(backfilled == live)
            #expect(try await test.verify().problems.isEmpty)
        }
    }

    @Test("whole subtrees are kept: proofs from them are those of every leaf, verify holds them, a schema 5 archive gets them", arguments: Engine.allCases)
    func keptSubtrees(engine: Engine) async throws {
        try await withArchive(engine) { test in
            let archive = try test.open()
            defer { archive.close() }
            var prepared: [Archive.PreparedRead] = []
            for logger in 0..<120 {
                for first in [0, 30, 60] { prepared.append(try Archive.prepare(try await newRead("L\(logger)", first: first))) }
            }
            try archive.engine.writeTransaction { transaction in for read in prepared { _ = try archive.keep(read, in: transaction) } }
            let size = try archive.recordSize()
            #expect(size == 120 * 7, "a logger's identity, then a read and its assessment three times")
            let note = try archive.signCheckpoint(with: try signingKey(test, archive))
            #expect(try Checkpoint(text: note.text).treeSize == size)
            func keptCount(_ level: Int) throws -> Int64? {
                try archive.engine.scalarInt("SELECT COUNT(*) FROM record_subtrees WHERE level = $1", [.int(Int64(level))])
            }
            #expect(try keptCount(8) == Int64(size / 256) && keptCount(9) == Int64(size / 512) && keptCount(10) == 0)
            var every: [[UInt8]] = []
            try archive.engine.query("SELECT leaf_hash FROM record_leaves ORDER BY leaf_index", []) { every.append(Hex.decode($0.text(0)) ?? []) }
            let plain = InMemoryLeafHashes(leafHashes: every)
            let indices = [0, 255, 256, 511, 600, size - 1]
            #expect(
                try archive.inclusionProofs(leafIndices: indices, treeSize: size)
                    == indices.map { try MerkleProofs.inclusionProof(leafIndex: $0, treeSize: size, from: plain) })
            #expect(try archive.consistencyProof(from: 300, to: size) == MerkleProofs.consistencyProof(oldSize: 300, newSize: size, from: plain))
            #expect(try await test.verify().problems.isEmpty)

            // A kept subtree changed: verify names it; removed, it is kept again.
            try tamper(test, "UPDATE record_subtrees SET subtree_hash = '\(String(repeating: "0", count: 64))' WHERE level = 8 AND position = 1")
            let problems = try await test.verify().problems
            #expect(problems.contains { $0.contains("kept subtree of leaves 256..<512 does not hold their hash") }, "\(problems)")
            try tamper(test, "DELETE FROM record_subtrees")
            archive.keepSubtrees()
            #expect(try keptCount(8) == Int64(size / 256))
            #expect(try await test.verify().problems.isEmpty)

            // An archive of schema 5 gets them when it is opened.
            for sql in [
                "DROP TABLE record_subtrees", "DROP TABLE products", "DROP TABLE lots", "DROP TABLE lot_moves", "DROP TABLE read_daily_summaries",
                "DELETE FROM schema_migrations WHERE version >= 6",
            ] { try tamper(test, sql) }
            let reopened = try test.open()
            defer { reopened.close() }
            #expect(try reopened.engine.scalarInt("SELECT COUNT(*) FROM record_subtrees WHERE level = 9") == Int64(size / 512))
        }
    }
}
