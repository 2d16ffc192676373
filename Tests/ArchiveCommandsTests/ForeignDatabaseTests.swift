import Archive
import ArchiveTestSupport
import CSQLite
import CommandTestSupport
import Foundation
import Testing

/// Issue 43 item 7: a write command given another program's database (an SQLite file, or a
/// PostgreSQL database holding other tables) refuses it with exit 65 and changes nothing —
/// the SQLite file stays byte for byte what it was, the PostgreSQL database keeps only its
/// own tables.
@Suite struct ForeignDatabaseTests {
    @Test(arguments: Engine.allCases) func anotherProgramsDatabaseIsRefusedAndLeftAsItWas(engine: Engine) async throws {
        let archive = try TestArchive(engine)
        defer { archive.remove() }
        let location: String
        switch engine {
        case .sqlite:
            location = archive.path("other.sqlite")
            var handle: OpaquePointer?
            #expect(sqlite3_open(location, &handle) == SQLITE_OK)
            #expect(
                sqlite3_exec(handle, "CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5);", nil, nil, nil)
                    == SQLITE_OK)
            sqlite3_close(handle)
        case .postgresql:
            location = archive.location
            let other = try PostgreSQLEngine(uri: location)
            try other.execute("CREATE TABLE invoices (id BIGINT PRIMARY KEY, total DOUBLE PRECISION)")
            other.close()
        }
        let before = engine == .sqlite ? try Data(contentsOf: URL(fileURLWithPath: location)) : nil
        let file = try LoggerFiles.writeGeneric(archive, "r.ndef", 0..<6)
        for command in [["archive", "add", file, "--logger-id", "f"], ["site", "add", "north"], ["loggers"]] {
            let run = await coldtap(command + ["--archive", location])
            #expect(run.status == 65, "\(command): \(run.err)")
            #expect(run.err.contains("invoices") && run.err.contains("not a ColdTap archive") && run.err.contains("nothing was changed"), "\(run.err)")
        }
        switch engine {
        case .sqlite:
            #expect(try Data(contentsOf: URL(fileURLWithPath: location)) == before, "the file is byte for byte as it was")
            #expect(!FileManager.default.fileExists(atPath: location + "-wal"))
        case .postgresql:
            let other = try PostgreSQLEngine(uri: location)
            defer { other.close() }
            #expect(try other.tableNames() == ["invoices"])
        }
    }
}

/// Issue 43 item 8: a command that only lists (or changes what must already be there) on a
/// path with no archive names the path with exit 66 and creates nothing — a forgotten
/// `COLDTAP_ARCHIVE` no longer shows an empty table as if the users were gone.
@Suite struct ReadOnlyCommandsCreateNothingTests {
    @Test func listingOnAMissingArchiveNamesItAndCreatesNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-missing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("archive.sqlite").path
        for command in [
            ["user", "list"], ["site", "list"], ["token", "list"], ["profile", "list"], ["webhook", "list"], ["lot", "list"], ["product", "list"],
            ["lot", "status", "L-1"], ["user", "disable", "pat"], ["token", "revoke", "1"],
        ] {
            let run = await coldtap(command + ["--archive", missing])
            #expect(run.status == 66, "\(command): \(run.status) \(run.err)")
            #expect(run.err.contains(missing), "\(command): \(run.err)")
            #expect(!FileManager.default.fileExists(atPath: folder.path), "\(command) created \(folder.path)")
        }
        // Adding is what makes an archive, and it says so.
        let added = await coldtap(["site", "add", "north", "--archive", missing])
        #expect(added.status == 0, "\(added.err)")
        #expect(added.err.contains("Created a new archive"), "\(added.err)")
    }
}
