import Archive
import ArchiveTestSupport
import ColdTapCommands
import CommandTestSupport
import Foundation
import Testing

/// `archive verify` recomputes the chain, the raw-byte hashes and decodes every read again:
/// an edited sample, an edited raw read, a removed read each fail with exit 65 naming it.
@Suite(.serialized) struct ArchiveIntegrityTests {
    /// Three reads of one logger and an acknowledgement; returns nothing, the archive is ready.
    private func fill(_ archive: TestArchive) async throws {
        let files = try [(0..<40), (30..<70), (60..<100)].enumerated().map { index, range in
            try LoggerFiles.writeGeneric(archive, "r\(index).ndef", range, changes: index == 0 ? [10: 12, 11: 12] : [:])
        }
        let run = await coldtap(["archive", "add"] + files + ["--archive", archive.location, "--logger-id", "V"])
        #expect(run.status == 0, "\(run.err)")
        let ack = await coldtap(["ack", "V", "--excursion", "2026-01-01T01:40:00Z", "--by", "QA", "--comment", "checked", "--archive", archive.location])
        #expect(ack.status == 0, "\(ack.err)")
        let verify = await coldtap(["archive", "verify", "--archive", archive.location])
        #expect(verify.status == 0, "\(verify.out)\(verify.err)")
        #expect(verify.out.contains("3 read(s) and 1 acknowledgement(s)"))
    }

    private func tamper(_ archive: TestArchive, _ sql: String) throws {
        let opened = try archive.open()
        defer { opened.close() }
        try opened.engine.execute(sql)
    }

    @Test(arguments: Engine.allCases)
    func anEditedSampleIsCaught(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            try await fill(archive)
            // Sample 45 (first seen by read #2) set to 4.5 °C inside its block, the block otherwise intact.
            let opened = try archive.open()
            let time = Int64(LoggerFiles.start.timeIntervalSince1970 * 1000) + 45 * 600_000
            var block = Data()
            try opened.engine.query("SELECT samples FROM sample_blocks WHERE read_id = 2", []) { block = $0.blob(0) }
            var samples = try SampleBlock.decode(block, readID: 2)
            let index = try #require(samples.firstIndex { $0.time == time })
            #expect(samples[index].temperature != 4.5)
            samples[index].temperature = 4.5
            try opened.engine.execute("UPDATE sample_blocks SET samples = $1 WHERE read_id = 2", [.blob(SampleBlock.encode(samples))])
            opened.close()
            let run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 65)
            #expect(run.err.contains("read #2 of V: the samples it added were changed"), "\(run.err)")
        }
    }

    @Test(arguments: Engine.allCases)
    func anEditedRawReadIsCaught(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            try await fill(archive)
            let opened = try archive.open()
            var raw = Data()
            try opened.engine.query("SELECT raw FROM reads WHERE read_id = 3", []) { raw = $0.blob(0) }
            raw[raw.count - 1] ^= 0x01
            try opened.engine.execute("UPDATE reads SET raw = $1 WHERE read_id = 3", [.blob(raw)])
            opened.close()
            let run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 65)
            #expect(run.err.contains("read #3 of V: its raw bytes were changed"), "\(run.err)")
        }
    }

    @Test(arguments: Engine.allCases)
    func aRemovedReadIsCaught(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            try await fill(archive)
            try tamper(archive, "DELETE FROM reads WHERE read_id = 2")
            let run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 65)
            #expect(run.err.contains("chain row 2 before read #3 of V (chain row 3) is missing"), "\(run.err)")
        }
    }

    @Test(arguments: Engine.allCases)
    func aRemovedNewestRowAndAnEditedAcknowledgementAreCaught(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            try await fill(archive)
            try tamper(archive, "UPDATE acknowledgements SET comment = 'nothing happened'")
            var run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 65)
            #expect(run.err.contains("acknowledgement #1 of V (chain row 4) was changed"), "\(run.err)")
            try tamper(archive, "DELETE FROM acknowledgements")
            run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 65)
            #expect(run.err.contains("the chain head (row 4) is not the newest row kept (row 3)"), "\(run.err)")
        }
    }

    /// An assessment's verdict edited in either direction (OK → ALARM, ALARM → OK) is caught,
    /// naming the read and the assessment; what `loggers` showed from it is thus checked too.
    @Test(arguments: Engine.allCases)
    func anEditedAssessmentVerdictIsCaught(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            try await fill(archive)
            var verdicts: [Int64: String] = [:]
            let opened = try archive.open()
            try opened.engine.query("SELECT read_id, verdict FROM assessments", []) { verdicts[$0.int(0)] = $0.text(1) }
            opened.close()
            let (readID, verdict) = try #require(verdicts.min { $0.key < $1.key })
            let flipped = verdict == "ALARM" ? "OK" : "ALARM"
            try tamper(archive, "UPDATE assessments SET verdict = '\(flipped)' WHERE read_id = \(readID)")
            let run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 65, "\(run.out)\(run.err)")
            #expect(run.err.contains("read #\(readID) of V: its assessment #") && run.err.contains("says \(flipped)"), "\(run.err)")
            #expect(run.err.contains("gives \(verdict)"), "\(run.err)")
        }
    }

    @Test(arguments: Engine.allCases)
    func anArchiveOfANewerColdTapIsRefusedUnchanged(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            try await fill(archive)
            try tamper(archive, "INSERT INTO schema_migrations (version, name, applied_ms) VALUES (99, 'from the future', 0)")
            let file = try LoggerFiles.writeGeneric(archive, "later.ndef", 100..<120)
            let run = await coldtap(["archive", "add", file, "--archive", archive.location, "--logger-id", "V"])
            #expect(run.status == 65)
            #expect(run.err.contains("written by a newer ColdTap (schema version 99; this ColdTap knows up to 8); it was left unchanged"), "\(run.err)")
            let opened = try? archive.open()
            #expect(opened == nil)
        }
    }
}
