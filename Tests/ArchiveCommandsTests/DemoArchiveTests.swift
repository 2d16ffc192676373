import Archive
import ArchiveTestSupport
import ColdTapCommands
import CommandTestSupport
import Foundation
import Testing

/// `coldtap demo` keeps two overlapping reads of its logger in coldtap-demo/archive.sqlite
/// and prints the stitched record and the commands that show and report it.
@Suite struct DemoArchiveTests {
    @Test func theDemoKeepsTwoOverlappingReadsAndTheSuggestedCommandsWork() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-demo-archive-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = await coldtap(["demo", "--in-process", "--out", directory.path])
        #expect(demo.status == 0, "\(demo.err)")
        let path = directory.appendingPathComponent("archive.sqlite").path
        #expect(demo.out.contains("both reads kept in \(path)"))
        #expect(demo.out.contains("read #1 at"))
        #expect(demo.out.contains("144 new samples, 0 duplicates, 0 conflicts, no gap before"))
        #expect(demo.out.contains("120 new samples, 24 duplicates, 0 conflicts, no gap before"))
        #expect(demo.out.contains("stitched: 264 samples of cupltag:CTDEMO01"))
        #expect(demo.out.contains("24 duplicates dropped, 0 gap(s), 0 conflict(s)"))
        // The WAL files go when the archive is closed: the folder holds the archive alone.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))

        // The commands it suggests, as printed.
        let lines = demo.out.split(separator: "\n").map(String.init)
        let history = try #require(lines.first { $0.contains(" history cupltag:CTDEMO01 --archive ") })
        var words = history.split(separator: " ").map(String.init)
        words.removeFirst()
        var run = await coldtap(words + ["--json"])
        #expect(run.status == 0, "\(run.err)")
        let document = try jsonObject(run.out)
        #expect((document["reads"] as? [Any])?.count == 2)
        #expect((document["samples"] as? [Any])?.count == 264)
        #expect((document["gaps"] as? [Any])?.isEmpty == true)

        let report = try #require(lines.first { $0.contains(" report --logger-id cupltag:CTDEMO01 ") })
        words = report.split(separator: " ").map(String.init)
        words.removeFirst()
        run = await coldtap(words)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("samples    264 every 10 min"))
        #expect(run.out.contains("Chain head: "))
        run = await coldtap(["archive", "verify", "--archive", path])
        #expect(run.status == 0, "\(run.out)\(run.err)")
    }
}
