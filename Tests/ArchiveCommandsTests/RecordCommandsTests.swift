import Archive
import ArchiveTestSupport
import CommandTestSupport
import Digest
import Foundation
import Testing
import TransparencyLog

/// `coldtap archive key|checkpoint|prove` and `archive verify --since`, as a user runs them.
@Suite struct RecordCommandsTests {
    @Test(arguments: Engine.allCases)
    func keyCheckpointProveAndVerifySince(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            let files = try [0..<40, 40..<80].enumerated().map { try LoggerFiles.writeGeneric(archive, "r\($0.offset).ndef", $0.element) }
            #expect(await coldtap(["archive", "add", files[0], "--logger-id", "F", "--archive", archive.location]).status == 0)
            // A PostgreSQL archive's key is named; a SQLite archive's sits next to it.
            let keyArguments = engine == .postgresql ? ["--signing-key", archive.path("pg.signing-key")] : []
            if engine == .postgresql {
                let unnamed = await coldtap(["archive", "key", "--archive", archive.location])
                #expect(unnamed.status == 64 && unnamed.err.contains("--signing-key FILE or COLDTAP_SIGNING_KEY"), "\(unnamed.err)")
            }
            let key = await coldtap(["archive", "key", "--archive", archive.location] + keyArguments)
            #expect(key.status == 0, "\(key.err)")
            #expect(key.err.contains("Made the archive's signing key at") && key.err.contains("mode 0600"))
            let publicKey = key.out.trimmingCharacters(in: .whitespacesAndNewlines)
            let verifier = try NoteVerifierKey(text: publicKey)
            #expect(await coldtap(["archive", "key", "--archive", archive.location] + keyArguments).out == key.out)

            let monday = archive.path("monday.checkpoint")
            let signed = await coldtap(["archive", "checkpoint", "--out", monday, "--archive", archive.location] + keyArguments)
            #expect(signed.status == 0, "\(signed.err)")
            let checkpoint = try Checkpoint.verified(try Data(contentsOf: URL(fileURLWithPath: monday)), keys: [verifier])
            // With --out the file is the whole output (issue 43 item 10).
            #expect(signed.out.isEmpty && signed.err.isEmpty, "out: \(signed.out) err: \(signed.err)")
            #expect(try String(contentsOf: URL(fileURLWithPath: monday), encoding: .utf8).hasPrefix(checkpoint.text))

            #expect(await coldtap(["archive", "add", files[1], "--logger-id", "F", "--archive", archive.location]).status == 0)
            let proved = await coldtap(["archive", "prove", "2", "--json", "--archive", archive.location] + keyArguments)
            #expect(proved.status == 0, "\(proved.err)")
            let proof = try jsonObject(proved.out)
            let leafIndex = try #require(proof["leafIndex"] as? Int)
            let treeSize = try #require(proof["treeSize"] as? Int)
            let path = try #require(proof["proof"] as? [String]).compactMap { Hex.decode($0) }
            let leafText = try #require(proof["leaf"] as? String)
            let leaf = try #require(RecordLeaf(bytes: Array(leafText.utf8)))
            let noteText = try #require(proof["checkpoint"] as? String)
            let now = try Checkpoint.verified(Array(noteText.utf8), keys: [verifier])
            #expect(leaf.value("read") == "2" && leaf.value("logger") == "F" && treeSize == now.treeSize && treeSize > checkpoint.treeSize)
            #expect(MerkleProofs.verifyInclusion(leafHash: leaf.hash, leafIndex: leafIndex, treeSize: treeSize, proof: path, root: now.rootHash))
            let text = await coldtap(["archive", "prove", "2", "--archive", archive.location] + keyArguments)
            #expect(text.out.hasPrefix("Read #2 of F is leaf #\(leafIndex) of the record of \(treeSize) leaves."), "\(text.out)")
            #expect(await coldtap(["archive", "prove", "99", "--archive", archive.location] + keyArguments).status == 66)

            let since = await coldtap(["archive", "verify", "--since", monday, "--archive", archive.location] + keyArguments)
            #expect(since.status == 0, "\(since.err)")
            #expect(since.out.contains("is a prefix of the record now"), "\(since.out)")
            let tuesday = archive.path("tuesday.checkpoint")
            #expect(await coldtap(["archive", "checkpoint", "--out", tuesday, "--archive", archive.location] + keyArguments).status == 0)

            // Tuesday's read removed with its leaves, its checkpoint and the chain head rolled back.
            try archive.removeNewestRead(2, keepingLeaves: checkpoint.treeSize)
            #expect(await coldtap(["archive", "verify", "--archive", archive.location] + keyArguments).status == 0)
            let caught = await coldtap(["archive", "verify", "--since", tuesday, "--public-key", publicKey, "--archive", archive.location])
            #expect(caught.status == 65)
            #expect(caught.err.contains("fewer than the \(treeSize) the older checkpoint covers: leaves were removed"), "\(caught.err)")
            let badKey = await coldtap(["archive", "verify", "--since", tuesday, "--public-key", "not a key", "--archive", archive.location])
            #expect(badKey.status == 64 && badKey.err.contains("is not."), "\(badKey.err)")
        }
    }

    @Test func aReportCarriesItsProofsAndVerifyReportChecksThemOffline() async throws {
        try await withArchive(.sqlite) { archive in
            let file = try LoggerFiles.writeGeneric(archive, "r.ndef", 0..<40)
            #expect(await coldtap(["archive", "add", file, "--logger-id", "F", "--archive", archive.location]).status == 0)
            let opened = try archive.open()
            _ = try opened.acknowledge(loggerID: "F", excursionStart: LoggerFiles.start, by: "QA", comment: "checked")
            opened.close()
            let report = await coldtap(["report", "--logger-id", "F", "--json", "--archive", archive.location])
            #expect(report.status == 0, "\(report.err)")
            let path = archive.path("report.json")
            try Data(report.out.utf8).write(to: URL(fileURLWithPath: path))
            let key = await coldtap(["archive", "key", "--archive", archive.location]).out.trimmingCharacters(in: .whitespacesAndNewlines)
            let checked = await coldtap(["verify-report", path, "--public-key", key])
            #expect(checked.status == 0, "\(checked.err)")
            #expect(checked.out.contains("is signed by the archive's key, and all 2 read(s) and acknowledgement(s) are in it"), "\(checked.out)")

            // The HTML file carries the same evidence.
            let html = await coldtap(["report", "--logger-id", "F", "--html", "--out", archive.path("html"), "--archive", archive.location])
            #expect(html.status == 0, "\(html.err)")
            let written = try #require(try FileManager.default.contentsOfDirectory(atPath: archive.path("html")).first { $0.hasSuffix(".html") })
            #expect(await coldtap(["verify-report", archive.path("html/\(written)"), "--public-key", key]).status == 0)

            // An edited read in the report, or an edited leaf, is named; another key is refused.
            var object = try jsonObject(report.out)
            var archiveMember = try #require(object["archive"] as? [String: Any])
            var reads = try #require(archiveMember["reads"] as? [[String: Any]])
            reads[0]["sha256"] = String(repeating: "0", count: 64)
            archiveMember["reads"] = reads
            object["archive"] = archiveMember
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
            let edited = await coldtap(["verify-report", path, "--public-key", key])
            #expect(edited.status == 65 && edited.err.contains("read #1: the report lists its bytes as 0000"), "\(edited.err)")
            let stranger = try NoteSigner(name: "coldtap/archive/0123", privateKey: .generate()).verifier.text
            let foreign = await coldtap(["verify-report", archive.path("html/\(written)"), "--public-key", stranger])
            #expect(foreign.status == 65 && foreign.err.contains("not signed by the key given"), "\(foreign.err)")
            #expect(await coldtap(["verify-report", file, "--public-key", key]).status == 65)
        }
    }
}
