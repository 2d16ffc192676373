import Archive
import ArchiveTestSupport
import CommandTestSupport
import Foundation
import Testing

/// Nothing that only reads creates an archive: a missing path is status 66, a file that is
/// not a ColdTap archive (empty, an image, another program's SQLite database) 65, both naming
/// the path and leaving it as it was. A command that writes creates a missing archive and says
/// where, so that a mistyped path is seen at once.
@Suite struct ArchiveLocationTests {
    static let readingCommands: [[String]] = [["loggers"], ["archive", "verify"], ["history", "x"], ["report", "--logger-id", "x"]]

    @Test func aMissingArchiveIsNotCreatedByACommandThatReads() async throws {
        try await withArchive(.sqlite) { archive in
            let missing = archive.path("typo.sqlite")
            for arguments in Self.readingCommands {
                let run = await coldtap(arguments + ["--archive", missing])
                #expect(run.status == 66, "\(arguments): \(run.err)")
                #expect(run.err.contains("there is no archive at '\(missing)'"), "\(run.err)")
                #expect(!FileManager.default.fileExists(atPath: missing), "\(arguments) created \(missing)")
            }
        }
    }

    @Test(arguments: ["empty", "png", "other database"])
    func aFileThatIsNotAnArchiveIsRefusedAndLeftAsItWas(kind: String) async throws {
        try await withArchive(.sqlite) { archive in
            let path = archive.path("not-an-archive")
            switch kind {
            case "empty": try Data().write(to: URL(fileURLWithPath: path))
            case "png": try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]).write(to: URL(fileURLWithPath: path))
            default:
                let engine = try SQLiteEngine(path: path)
                try engine.execute("CREATE TABLE notes (body TEXT)")
                engine.close()
            }
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            for arguments in Self.readingCommands {
                let run = await coldtap(arguments + ["--archive", path])
                #expect(run.status == 65, "\(kind) \(arguments): \(run.err)")
                // A file of a kind of its own is named as such (issue 44 item 8); others are the engine's to judge.
                // Another program's database is named as one (issue 43 item 7).
                let said =
                    kind == "png"
                    ? "'\(path)' is a PNG image, not an archive"
                    : kind == "other database" ? "'\(path)' is another program's SQLite database (its tables: notes)" : "'\(path)' is not a ColdTap archive"
                #expect(run.err.contains(said), "\(run.err)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(kind): \(arguments) changed the file")
            }
        }
    }

    @Test func aCommandThatWritesSaysItCreatedTheArchive() async throws {
        try await withArchive(.sqlite) { archive in
            let fresh = archive.path("new/records.sqlite")
            let file = try LoggerFiles.writeGeneric(archive, "a.ndef", 0..<10)
            let added = await coldtap(["archive", "add", file, "--logger-id", "fridge", "--archive", fresh])
            #expect(added.status == 0, "\(added.err)")
            #expect(added.err.contains("Created a new archive at \(fresh)."), "\(added.err)")
            #expect(FileManager.default.fileExists(atPath: fresh))
            // Once it is there, nothing more is said about it.
            let again = await coldtap(["archive", "add", file, "--logger-id", "fridge", "--archive", fresh])
            #expect(!again.err.contains("Created a new archive"), "\(again.err)")
            #expect(await coldtap(["loggers", "--archive", fresh]).status == 0)
        }
    }
}
