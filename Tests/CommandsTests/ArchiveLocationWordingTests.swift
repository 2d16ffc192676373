import Foundation
import Testing

@testable import ColdTapCommands

/// Issue 44 item 8: what `--archive` names is said as it is (a folder, a PNG image) instead
/// of calling it a damaged archive to restore; a command that makes the archive says so.
@Suite struct ArchiveLocationWordingTests {
    @Test func aFolderOrAnImageIsNamedAsSuch() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let image = try files.write("t.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]))
        for (location, what) in [(files.directory.path, "a folder"), (image, "a PNG image")] {
            for words in [["loggers"], ["site", "list"], ["lot", "list"]] {
                let run = await runColdTap(words + ["--archive", location])
                #expect(run.status == 65, "\(words): \(run.err)")
                #expect(
                    run.err.hasSuffix(
                        ": '\(location)' is \(what), not an archive; give --archive an archive's SQLite file or a postgresql:// URI.\n"),
                    "\(words): \(run.err)")
                #expect(!run.err.contains("restore it from a backup"))
            }
        }
        // A file of no known kind is still the engine's to judge.
        let text = try files.write("notes.sqlite", Data("hello".utf8))
        #expect(await runColdTap(["loggers", "--archive", text]).err.contains("is not a ColdTap archive or is damaged"))
    }

    @Test func siteAddSaysItMadeTheArchive() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let location = files.directory.appendingPathComponent("station.sqlite").path
        let first = await runColdTap(["site", "add", "depot-north", "--archive", location])
        #expect(first.status == 0, "\(first.err)")
        #expect(first.err == "Created a new archive at \(location).\n")
        let second = await runColdTap(["site", "add", "depot-south", "--archive", location])
        #expect(second.status == 0 && second.err.isEmpty, "\(second.err)")
    }
}
