import Archive
import ArchiveTestSupport
import ColdTapCommands
import ColdTapKit
import CommandTestSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Faults: each gets a clear message and loses nothing already kept.
@Suite(.serialized) struct ArchiveFaultTests {
    /// The `coldtap` executable built beside the test bundle.
    static func coldtapExecutable() throws -> String { try ColdTapExecutable.path() }

    /// A copy of `coldtap` (and the resource bundles beside it) in a folder every user can
    /// enter, for running it as another user wherever the clone lives (a 0700 home folder
    /// too); `remove` deletes it.
    static func coldtapForAnotherUser() throws -> (executable: String, remove: () -> Void) {
        let original = URL(fileURLWithPath: try coldtapExecutable())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-other-user-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let remove = { _ = try? FileManager.default.removeItem(at: folder) }
        do {
            let beside = try FileManager.default.contentsOfDirectory(atPath: original.deletingLastPathComponent().path)
            for name in ["coldtap"] + beside.filter({ $0.hasSuffix(".resources") }) {
                try FileManager.default.copyItem(
                    at: original.deletingLastPathComponent().appendingPathComponent(name),
                    to: folder.appendingPathComponent(name))
            }
            return (folder.appendingPathComponent("coldtap").path, remove)
        } catch {
            remove()
            throw error
        }
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    private func readCount(_ archive: TestArchive) throws -> Int64 {
        let opened = try archive.open()
        defer { opened.close() }
        return try opened.engine.scalarInt("SELECT COUNT(*) FROM reads") ?? -1
    }

    @Test func aCorruptedSQLiteFileIsRefusedAndLeftAsItWas() async throws {
        try await withArchive(.sqlite) { archive in
            let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
            try garbage.write(to: URL(fileURLWithPath: archive.location))
            let file = try LoggerFiles.writeGeneric(archive, "a.ndef", 0..<10)
            for arguments in [["archive", "add", file, "--logger-id", "X"], ["loggers"], ["archive", "verify"]] {
                let run = await coldtap(arguments + ["--archive", archive.location])
                #expect(run.status == 65, "\(arguments)")
                #expect(run.err.contains("is not a ColdTap archive or is damaged"), "\(run.err)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: archive.location)) == garbage)

            // A real archive with a damaged page in the middle of its samples.
            try FileManager.default.removeItem(atPath: archive.location)
            let big = try LoggerFiles.writeGeneric(archive, "big.ndef", 0..<3000)
            #expect(await coldtap(["archive", "add", big, "--logger-id", "X", "--archive", archive.location]).status == 0)
            // The page that holds the middle of the samples' block (found by its bytes, so
            // that where SQLite put it does not matter).
            let opened = try archive.open()
            var block = Data()
            try opened.engine.query("SELECT samples FROM sample_blocks", []) { block = $0.blob(0) }
            opened.close()
            var bytes = try Data(contentsOf: URL(fileURLWithPath: archive.location))
            let probe = block[(block.startIndex + block.count / 2)..<(block.startIndex + block.count / 2 + 64)]
            let found = try #require(bytes.range(of: probe), "the block's bytes are not in the file")
            let page = 4096
            let middle = (found.lowerBound / page) * page
            for index in middle..<(middle + page) { bytes[index] = 0xA5 }
            try bytes.write(to: URL(fileURLWithPath: archive.location))
            let run = await coldtap(["history", "X", "--archive", archive.location, "--json"])
            #expect(run.status == 65 || run.status == 1, "\(run.err)")
            #expect(run.err.contains("damaged") || run.err.contains("malformed"), "\(run.err)")
        }
    }

    @Test(arguments: Engine.allCases)
    func aReadOnlyArchiveSaysSoAndKeepsWhatItHolds(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            let first = try LoggerFiles.writeGeneric(archive, "a.ndef", 0..<20)
            let second = try LoggerFiles.writeGeneric(archive, "b.ndef", 20..<40)
            #expect(await coldtap(["archive", "add", first, "--logger-id", "R", "--archive", archive.location]).status == 0)
            switch engine {
            case .sqlite:
                // Root writes any file: another user (nobody) finds root's archive read-only.
                let copy = try Self.coldtapForAnotherUser()
                defer { copy.remove() }
                let result = PostgresServer.run(
                    "/usr/sbin/runuser",
                    [
                        "-u", "nobody", "--", copy.executable, "archive", "add", second,
                        "--logger-id", "R", "--archive", archive.location,
                    ])
                #expect(result.status == 1, "\(result.output)")
                #expect(result.output.contains("read-only") || result.output.contains("cannot be opened for writing"), "\(result.output)")
            case .postgresql:
                let opened = try archive.open()
                let database = try #require(try opened.engine.scalarText("SELECT current_database()"))
                try opened.engine.execute("ALTER DATABASE \(database) SET default_transaction_read_only = on")
                opened.close()
                let run = await coldtap(["archive", "add", second, "--logger-id", "R", "--archive", archive.location])
                #expect(run.status == 1)
                #expect(run.err.contains("is read-only"), "\(run.err)")
                let again = try archive.open()
                try again.engine.execute("SET default_transaction_read_only = off")
                try again.engine.execute("ALTER DATABASE \(database) SET default_transaction_read_only = off")
                again.close()
            }
            #expect(try readCount(archive) == 1)
            let run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
        }
    }

    @Test(arguments: Engine.allCases)
    func aFullDiskLosesOnlyTheReadBeingAdded(engine: Engine) async throws {
        // PostgreSQL: the archive's tables live in a tablespace on a small tmpfs of their own
        // (the server's WAL stays on the ordinary disk). Removed after the database is dropped.
        let tablespace = try engine == .postgresql ? SmallTablespace(megabytes: 4) : nil
        defer { tablespace?.remove() }
        try await withArchive(engine) { archive in
            if let tablespace {
                let admin = try PostgreSQLEngine(uri: archive.location)
                let database = try #require(try admin.scalarText("SELECT current_database()"))
                try admin.execute("ALTER DATABASE \(database) SET default_tablespace = \(tablespace.name)")
                admin.close()
            }
            let small = try LoggerFiles.writeGeneric(archive, "small.ndef", 0..<50)
            #expect(await coldtap(["archive", "add", small, "--logger-id", "D", "--archive", archive.location]).status == 0)
            let full: Archive
            switch engine {
            case .sqlite:
                // SQLite's page limit stands for the disk: the next read does not fit.
                let engine = try SQLiteEngine(path: archive.location)
                var pages: Int64 = 0
                try engine.query("PRAGMA page_count", []) { pages = $0.int(0) }
                try engine.query("PRAGMA max_page_count = \(pages + 2)", []) { _ in }
                full = try Archive(engine: engine)
            case .postgresql:
                let tablespace = try #require(tablespace)
                let opened = try archive.open()
                #expect(
                    try opened.engine.scalarInt(
                        "SELECT COUNT(*) FROM pg_class WHERE relname = 'sample_blocks' AND reltablespace = (SELECT oid FROM pg_tablespace WHERE spcname = $1)",
                        [.text(tablespace.name)]) == 1, "the archive's tables are not in the small tablespace")
                opened.close()
                // The disk fills up: 16 kB are left, the next read needs some 70 kB.
                try tablespace.fill(leaving: 16 * 1024)
                full = try archive.open()
            }
            let bigRange = 50..<4050
            let big = try LoggerFiles.generic(first: bigRange.lowerBound, temperatures: LoggerFiles.series(bigRange))
            let log = try await LogInput.load(content: big, name: "big", modificationTime: nil, options: LogInput.Options()).log
            #expect {
                try full.add(
                    NewRead(
                        raw: big, inputKind: "ndef", origin: "test", decodeOptions: "{}", log: log, loggerID: "D",
                        profile: nil, timeZone: .gmt))
            } throws: { error in
                let failure = error as? ArchiveError
                return failure?.kind == .full && failure?.message.contains("this read was not kept and nothing kept before was lost") == true
            }
            full.close()
            let bigFile = try LoggerFiles.writeGeneric(archive, "big.ndef", bigRange)
            if engine == .postgresql {
                // The command says so too, and exits 1.
                let run = await coldtap(["archive", "add", bigFile, "--logger-id", "D", "--archive", archive.location])
                #expect(run.status == 1, "\(run.out)\(run.err)")
                #expect(run.err.contains("is full") && run.err.contains("this read was not kept and nothing kept before was lost"), "\(run.err)")
            }
            #expect(try readCount(archive) == 1)
            var run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
            // With space again the same read goes in, and the archive still holds.
            tablespace?.free()
            run = await coldtap(["archive", "add", bigFile, "--logger-id", "D", "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
            #expect(try readCount(archive) == 2)
            run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
        }
        if let tablespace {
            // The shared cluster is as it was: the tablespace dropped, the tmpfs gone.
            #expect(tablespace.remove() == [])
            let admin = try PostgreSQLEngine(uri: try PostgresServer.running().uri(database: "postgres"))
            #expect(try admin.scalarInt("SELECT COUNT(*) FROM pg_tablespace WHERE spcname = $1", [.text(tablespace.name)]) == 0)
            admin.close()
        }
    }

    @Test func aDamagedPostgreSQLPageIsRefusedAndLeftAsItWas() async throws {
        // A cluster of this test's own: its server is stopped, so that it writes out its buffers and
        // reads the damaged page from disk when started again. Data checksums on, as a careful site runs it.
        let server = try PostgresServer.startPrivate(initdbArguments: ["--data-checksums"])
        defer { server.stop() }
        let admin = try PostgreSQLEngine(uri: server.uri(database: "postgres"))
        try admin.execute("CREATE DATABASE coldtap_damaged")
        admin.close()
        let location = server.uri(database: "coldtap_damaged")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = folder.appendingPathComponent("big.ndef").path
        try LoggerFiles.generic(first: 0, temperatures: LoggerFiles.series(0..<3000)).write(to: URL(fileURLWithPath: big))
        let later = folder.appendingPathComponent("later.ndef").path
        try LoggerFiles.generic(first: 3000, temperatures: LoggerFiles.series(3000..<3100)).write(to: URL(fileURLWithPath: later))
        let other = folder.appendingPathComponent("other.ndef").path
        try LoggerFiles.generic(first: 0, temperatures: LoggerFiles.series(0..<100)).write(to: URL(fileURLWithPath: other))
        var run = await coldtap(["archive", "add", big, "--logger-id", "X", "--archive", location])
        #expect(run.status == 0, "\(run.err)")
        // Another logger's short read: its block (1.6 kB) stays in the table's own page.
        run = await coldtap(["archive", "add", other, "--logger-id", "Y", "--archive", location])
        #expect(run.status == 0, "\(run.err)")

        // The samples (48 kB) are in the TOAST table of sample_blocks: damage the page in its middle.
        var engine = try PostgreSQLEngine(uri: location)
        let relation = try #require(try engine.scalarText("SELECT pg_relation_filepath(reltoastrelid) FROM pg_class WHERE oid = 'sample_blocks'::regclass"))
        engine.close()
        try server.pause()
        let file = URL(fileURLWithPath: "\(server.dataFolder)/\(relation)")
        var bytes = try Data(contentsOf: file)
        let page = 8192
        let pages = bytes.count / page
        #expect(pages >= 3, "the samples take \(pages) page(s) of \(relation)")
        let middle = (pages / 2) * page
        for index in middle..<(middle + page) { bytes[index] = 0xA5 }
        try bytes.write(to: file)
        try server.resume()

        for arguments in [["history", "X", "--json"], ["archive", "verify"], ["archive", "add", later, "--logger-id", "X"]] {
            run = await coldtap(arguments + ["--archive", location])
            #expect(run.status == 65, "\(arguments): \(run.out)\(run.err)")
            #expect(run.err.contains("holds damaged data in table sample_blocks (its TOAST table"), "\(arguments): \(run.err)")
            #expect(run.err.contains("invalid page in block \(pages / 2) of relation \(relation)"), "\(arguments): \(run.err)")
            #expect(run.err.contains("nothing was changed"), "\(arguments): \(run.err)")
        }
        // Verify went on past the damage: the other logger's read was checked and holds.
        run = await coldtap(["archive", "verify", "--archive", location])
        #expect(run.out.contains("✗ read #1 of X: the PostgreSQL archive") && !run.out.contains("of Y"), "\(run.out)")
        #expect(run.out.components(separatedBy: "✗ ").count == 2, "\(run.out)")
        // What the damage does not touch is still read.
        run = await coldtap(["history", "Y", "--json", "--archive", location])
        #expect(run.status == 0, "\(run.err)")
        #expect(try (jsonObject(run.out)["samples"] as? [Any])?.count == 100, "\(run.out.prefix(300))")
        // Nothing was written: the reads are as they were, the damaged file as it was once the server has written out its buffers.
        engine = try PostgreSQLEngine(uri: location)
        #expect(try engine.scalarInt("SELECT COUNT(*) FROM reads") == 2)
        try engine.execute("CHECKPOINT")
        engine.close()
        #expect(try Data(contentsOf: file) == bytes)
    }

    @Test(.tags(.slow), arguments: Engine.allCases)
    func aKilledAddLeavesEachReadWhollyInOrWhollyOut(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            let files = try (0..<30).map { index in
                try LoggerFiles.writeGeneric(archive, "k\(index).ndef", (index * 2000)..<(index * 2000 + 4000))
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try Self.coldtapExecutable())
            process.arguments = ["archive", "add"] + files + ["--logger-id", "K", "--archive", archive.location]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Kill it once a few reads are in, while it is in the middle of another.
            var kept: Int64 = 0
            for _ in 0..<3000 {
                usleep(5_000)
                kept = (try? readCount(archive)) ?? 0
                if kept >= 3 || !process.isRunning { break }
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let before = try readCount(archive)
            #expect(before >= 1)
            #expect(before < 30, "the add ended before it could be killed")
            // Every read that is in is whole: verify re-decodes each and checks its samples.
            var run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 0, "\(run.out)\(run.err)")
            let opened = try archive.open()
            let samples = try opened.engine.scalarInt("SELECT SUM(sample_count) FROM sample_blocks") ?? 0
            opened.close()
            #expect(samples == 4000 + 2000 * (before - 1))
            // Adding all again completes the record: what was in is not added twice.
            run = await coldtap(["archive", "add"] + files + ["--logger-id", "K", "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.components(separatedBy: "already kept").count - 1 == Int(before))
            #expect(try readCount(archive) == 30)
        }
    }

    @Test(.tags(.slow), arguments: Engine.allCases)
    func twoWritersAtOnceBothKeepEverything(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            let left = try (0..<6).map { try LoggerFiles.writeGeneric(archive, "l\($0).ndef", ($0 * 500)..<($0 * 500 + 1000)) }
            let right = try (0..<6).map { try LoggerFiles.writeGeneric(archive, "r\($0).ndef", ($0 * 500 + 250)..<($0 * 500 + 1250)) }
            let location = archive.location
            async let first = onThread {
                PostgresServer.run(try Self.coldtapExecutable(), ["archive", "add"] + left + ["--logger-id", "W", "--archive", location])
            }
            async let second = onThread {
                PostgresServer.run(try Self.coldtapExecutable(), ["archive", "add"] + right + ["--logger-id", "W", "--archive", location])
            }
            let results = try await [first, second]
            for result in results { #expect(result.status == 0, "\(result.output)") }
            #expect(try readCount(archive) == 12)
            let opened = try archive.open()
            // Every sample once: 0 ..< 3750 at 10-minute steps.
            #expect(try opened.engine.scalarInt("SELECT SUM(sample_count) FROM sample_blocks") == 3750)
            #expect(try opened.engine.scalarInt("SELECT COUNT(*) FROM conflicts") == 0)
            opened.close()
            let run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 0, "\(run.out)\(run.err)")
        }
    }

    @Test(.tags(.slow)) func aPostgreSQLServerThatGoesAwayMidAddLosesNothingKept() async throws {
        try await withArchive(.postgresql) { archive in
            let first = try LoggerFiles.writeGeneric(archive, "a.ndef", 0..<100)
            let second = try LoggerFiles.writeGeneric(archive, "b.ndef", 100..<200)
            #expect(await coldtap(["archive", "add", first, "--logger-id", "P", "--archive", archive.location]).status == 0)
            // Hold the sample blocks so that the next add waits inside its transaction,
            // then end its server process: what the server does when it goes away.
            let holder = try PostgreSQLEngine(uri: archive.location)
            try holder.execute("BEGIN")
            try holder.execute("LOCK TABLE sample_blocks IN EXCLUSIVE MODE")
            let location = archive.location
            async let adding = onThread {
                PostgresServer.run(try Self.coldtapExecutable(), ["archive", "add", second, "--logger-id", "P", "--archive", location])
            }
            // A connection outside the holder's transaction, whose view of pg_stat_activity is fresh.
            let watcher = try PostgreSQLEngine(uri: archive.location)
            var terminated = false
            // Up to two minutes: under a full parallel test run the add's process can take
            // long to start and reach the lock.
            for _ in 0..<12_000 where !terminated {
                usleep(10_000)
                var waiting: Int64?
                try watcher.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'", []) {
                    waiting = $0.int(0)
                }
                if let waiting {
                    try watcher.execute("SELECT pg_terminate_backend($1::integer)", [.int(waiting)])
                    terminated = true
                }
            }
            watcher.close()
            try holder.execute("COMMIT")
            holder.close()
            let result = try await adding
            #expect(terminated)
            #expect(result.status == 69, "\(result.output)")
            #expect(result.output.contains("went away mid-transaction"), "\(result.output)")
            #expect(result.output.contains("this read was not kept and nothing kept before was lost"))
            #expect(try readCount(archive) == 1)
            let opened = try archive.open()
            #expect(try opened.engine.scalarInt("SELECT SUM(sample_count) FROM sample_blocks") == 100)
            opened.close()
            // Back: the same add goes through.
            let again = await coldtap(["archive", "add", second, "--logger-id", "P", "--archive", archive.location])
            #expect(again.status == 0, "\(again.err)")
            #expect(try readCount(archive) == 2)
        }
    }
}

/// A PostgreSQL tablespace of the shared test cluster on a tmpfs of its own, as small as asked:
/// a disk that fills up for real. `remove()` drops it, unmounts and removes the folder.
final class SmallTablespace {
    let name = "coldtap_full_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    let mountPoint: String
    private let server: PostgresServer
    private var mounted = false
    private var created = false

    var filler: String { "\(mountPoint)/filler" }

    init(megabytes: Int) throws {
        server = try PostgresServer.running()
        var template = Array(URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("coldtap-tablespace-XXXXXX").path.utf8CString)
        guard let made = mkdtemp(&template) else { throw ArchiveFaultTests.TestFailure("cannot make a folder for the tablespace") }
        mountPoint = String(cString: made)
        guard let account = getpwnam("postgres") else { throw ArchiveFaultTests.TestFailure("there is no postgres user") }
        let mount = PostgresServer.run(
            "/usr/bin/mount",
            [
                "-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0700,uid=\(account.pointee.pw_uid),gid=\(account.pointee.pw_gid)",
                "tmpfs", mountPoint,
            ])
        guard mount.status == 0 else {
            remove()
            throw ArchiveFaultTests.TestFailure(
                "cannot mount a tmpfs on \(mountPoint) for the full-disk test (it needs root and the right to mount): \(mount.output)")
        }
        mounted = true
        do {
            let admin = try PostgreSQLEngine(uri: server.uri(database: "postgres"))
            defer { admin.close() }
            try admin.execute("CREATE TABLESPACE \(name) LOCATION '\(mountPoint)'")
            created = true
        } catch {
            remove()
            throw error
        }
    }

    /// Fills the tmpfs with a file of root's until `bytes` are left.
    func fill(leaving bytes: Int) throws {
        var status = statvfs()
        guard statvfs(mountPoint, &status) == 0 else { throw ArchiveFaultTests.TestFailure("cannot read the free space of \(mountPoint)") }
        let free = Int(status.f_bavail) * Int(status.f_frsize)
        guard free > bytes else { throw ArchiveFaultTests.TestFailure("only \(free) bytes are free on \(mountPoint), fewer than the \(bytes) to leave") }
        try Data(count: free - bytes).write(to: URL(fileURLWithPath: filler))
    }

    func free() {
        try? FileManager.default.removeItem(atPath: filler)
    }

    /// Undoes what `init` did (again: nothing); returns what could not be undone.
    @discardableResult
    func remove() -> [String] {
        var problems: [String] = []
        free()
        if created {
            do {
                let admin = try PostgreSQLEngine(uri: server.uri(database: "postgres"))
                defer { admin.close() }
                try admin.execute("DROP TABLESPACE IF EXISTS \(name)")
                created = false
            } catch {
                problems.append("DROP TABLESPACE \(name): \(error)")
            }
        }
        if mounted {
            let result = PostgresServer.run("/usr/bin/umount", [mountPoint])
            if result.status != 0 {
                problems.append("umount \(mountPoint): \(result.output)")
                PostgresServer.run("/usr/bin/umount", ["-l", mountPoint])
            }
            mounted = false
        }
        if FileManager.default.fileExists(atPath: mountPoint) {
            if rmdir(mountPoint) != 0 { problems.append("rmdir \(mountPoint): errno \(errno)") }
        }
        return problems
    }
}
