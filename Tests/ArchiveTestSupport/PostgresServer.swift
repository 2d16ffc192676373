import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A private PostgreSQL cluster for the archive and station tests (this support target is
/// shared by both): made with `initdb` in a temporary
/// folder, owned by and run as the `postgres` user (the tests run as root), listening on a
/// Unix socket in that folder only (`listen_addresses=''`). Started once per test process
/// on first use; stopped and removed when the process exits, and by a watchdog that outlives
/// a crashed process. When it cannot start, every PostgreSQL test fails with the reason on Debian, and is skipped
/// with the reason elsewhere.
public final class PostgresServer: @unchecked Sendable {
    public let folder: String
    public let binaries: String

    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    public static let shared: Result<PostgresServer, StartFailure> = {
        do { return .success(try PostgresServer.start(shared: true)) } catch { return .failure(StartFailure(description: "\(error)")) }
    }()

    /// A cluster of the caller's own (a test that stops and starts its server, or damages its
    /// files); the caller ends it with `stop()`, else the watchdog does when the process ends.
    public static func startPrivate(initdbArguments: [String] = []) throws -> PostgresServer {
        do {
            return try start(shared: false, initdbArguments: initdbArguments)
        } catch {
            try skipWhereNotRequired(error)
        }
    }

    /// The running server, or an error saying why there is none.
    public static func running() throws -> PostgresServer {
        switch shared {
        case .success(let server): return server
        case .failure(let failure): try skipWhereNotRequired(failure)
        }
    }

    /// On Debian (where `make test` installs PostgreSQL) a server that cannot start fails the
    /// test, saying why; elsewhere (a Mac without PostgreSQL binaries) the test is skipped,
    /// with the same reason shown.
    private static func skipWhereNotRequired(_ error: any Error) throws -> Never {
        guard FileManager.default.fileExists(atPath: "/etc/debian_version") else {
            try Test.cancel("skipped: no PostgreSQL server here (\(error))")
        }
        throw error
    }

    private init(folder: String, binaries: String) {
        self.folder = folder
        self.binaries = binaries
    }

    var socketFolder: String { folder }

    /// A libpq URI for `database` on this server.
    public func uri(database: String) -> String {
        let host = folder.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? folder
        return "postgresql:///\(database)?host=\(host)&user=postgres"
    }

    private static func start(shared: Bool, initdbArguments: [String] = []) throws -> PostgresServer {
        let server = try makeFolder(shared: shared)
        let initdb = run(
            "/usr/sbin/runuser",
            [
                "-u", "postgres", "--", "\(server.binaries)/initdb", "-D", server.dataFolder, "-A", "trust",
                "-U", "postgres", "-E", "UTF8", "--no-sync", "--no-instructions",
            ] + initdbArguments)
        guard initdb.status == 0 else {
            server.stop()
            throw StartFailure(description: "initdb failed: \(initdb.output)")
        }
        return try server.startFirstTime()
    }

    /// A streaming standby of `primary` (a base backup of it, following its WAL), a cluster
    /// of its own that the caller ends with `stop()`. Synchronous once the primary names it
    /// in `synchronous_standby_names` (its application name is `standby`).
    public static func startStandby(of primary: PostgresServer) throws -> PostgresServer {
        let server = try makeFolder(shared: false)
        let backup = run(
            "/usr/sbin/runuser",
            [
                "-u", "postgres", "--", "\(server.binaries)/pg_basebackup", "-D", server.dataFolder, "-R", "-X", "stream",
                "-c", "fast", "--no-sync", "-d", "host=\(primary.folder) user=postgres application_name=standby",
            ])
        guard backup.status == 0 else {
            server.stop()
            throw StartFailure(description: "pg_basebackup failed: \(backup.output)")
        }
        return try server.startFirstTime()
    }

    /// A temporary folder owned by `postgres` for a cluster, removed with the cluster by a
    /// watchdog once this process is gone (even if it crashes).
    private static func makeFolder(shared: Bool) throws -> PostgresServer {
        guard geteuid() == 0 else {
            throw StartFailure(description: "the PostgreSQL tests start a private cluster as the postgres user, which needs root (run make test as root)")
        }
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
        guard let version = versions.first(where: { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb") }) else {
            throw StartFailure(
                description: "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (install the Debian package postgresql: make test-deps)")
        }
        let binaries = "/usr/lib/postgresql/\(version)/bin"
        guard let account = getpwnam("postgres") else {
            throw StartFailure(description: "there is no postgres user (install the Debian package postgresql)")
        }
        // The system temporary folder (TMPDIR, else /tmp); the cluster's Unix socket lives in it.
        var template = Array((URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("coldtap-pg-XXXXXX").path).utf8CString)
        guard let made = mkdtemp(&template) else {
            throw StartFailure(description: "cannot make a temporary folder for the cluster")
        }
        let folder = String(cString: made)
        chown(folder, account.pointee.pw_uid, account.pointee.pw_gid)
        let server = PostgresServer(folder: folder, binaries: binaries)
        // From here on the folder goes when this process does, even if it crashes: a watchdog
        // in its own session stops the server and removes the folder once this process is gone.
        if shared {
            PostgresServer.stopAtExit = server
            atexit { PostgresServer.stopAtExit?.stop() }
        }
        let watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        watchdog.arguments = [
            "-f", "/bin/sh", "-c",
            """
            while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
            if [ -f '\(folder)/data/postmaster.pid' ]; then /usr/sbin/runuser -u postgres -- '\(binaries)/pg_ctl' -D '\(folder)/data' -m immediate stop >/dev/null 2>&1; fi
            rm -rf '\(folder)'
            """,
        ]
        watchdog.standardInput = FileHandle.nullDevice
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle.nullDevice
        try? watchdog.run()
        return server
    }

    /// Writes the start script (listening on the folder's Unix socket only) and starts.
    private func startFirstTime() throws -> PostgresServer {
        // The server is a daemon: it must not inherit this process's descriptors (Foundation's
        // Process waits for its child's end of a socket to close; `swift test` for our output),
        // so it is started by a shell that closes them all first.
        let script = """
            for fd in /proc/$$/fd/*; do n=${fd##*/}; if [ "$n" -gt 2 ] && [ "$n" -ne 255 ]; then eval "exec $n>&-"; fi; done
            exec /usr/sbin/runuser -u postgres -- '\(binaries)/pg_ctl' -D '\(folder)/data' -l '\(folder)/server.log' -w -t 60 \\
              -o "-c listen_addresses='' -c unix_socket_directories='\(folder)' -c fsync=off -c max_connections=60 -c full_page_writes=off" start
            """
        FileManager.default.createFile(atPath: "\(folder)/start.sh", contents: Data(script.utf8))
        do {
            try resume()
        } catch {
            stop()
            throw error
        }
        return self
    }

    /// Starts the server of this cluster (again).
    public func resume() throws {
        let status = system("/bin/bash '\(folder)/start.sh' </dev/null >'\(folder)/pg_ctl.out' 2>&1")
        guard status == 0 else {
            let output = (try? String(contentsOfFile: "\(folder)/pg_ctl.out", encoding: .utf8)) ?? ""
            let log = (try? String(contentsOfFile: "\(folder)/server.log", encoding: .utf8)) ?? ""
            throw StartFailure(description: "the PostgreSQL server did not start: \(output) \(log)")
        }
    }

    /// Stops the server (a clean shutdown: every buffer written) and keeps the cluster.
    public func pause() throws {
        let result = PostgresServer.run(
            "/usr/sbin/runuser", ["-u", "postgres", "--", "\(binaries)/pg_ctl", "-D", "\(folder)/data", "-m", "fast", "-w", "stop"])
        guard result.status == 0 else { throw StartFailure(description: "the PostgreSQL server did not stop: \(result.output)") }
    }

    /// Ends the server as a crash would (`pg_ctl stop -m immediate`): nothing is flushed or
    /// cleaned up, its clients' connections break mid-transaction.
    public func crash() throws {
        let result = PostgresServer.run(
            "/usr/sbin/runuser", ["-u", "postgres", "--", "\(binaries)/pg_ctl", "-D", dataFolder, "-m", "immediate", "-w", "stop"])
        guard result.status == 0 else { throw StartFailure(description: "the PostgreSQL server did not stop: \(result.output)") }
    }

    /// Makes a standby the primary (`pg_ctl promote`), waiting until it takes writes.
    public func promote() throws {
        let result = PostgresServer.run("/usr/sbin/runuser", ["-u", "postgres", "--", "\(binaries)/pg_ctl", "-D", dataFolder, "-w", "promote"])
        guard result.status == 0 else { throw StartFailure(description: "the standby was not promoted: \(result.output)") }
    }

    /// The cluster's data folder.
    public var dataFolder: String { "\(folder)/data" }

    nonisolated(unsafe) static var stopAtExit: PostgresServer?

    public func stop() {
        if FileManager.default.fileExists(atPath: "\(folder)/data/postmaster.pid") {
            // system(), not Process: this also runs from atexit.
            _ = system("/usr/sbin/runuser -u postgres -- '\(binaries)/pg_ctl' -D '\(folder)/data' -m fast -w stop </dev/null >/dev/null 2>&1")
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs a program to its end: its status and what it wrote.
    @discardableResult
    public static func run(_ program: String, _ arguments: [String], outputFile: String? = nil) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        if let outputFile {
            FileManager.default.createFile(atPath: outputFile, contents: nil)
            guard let handle = FileHandle(forWritingAtPath: outputFile) else { return (-1, "cannot write \(outputFile)") }
            process.standardOutput = handle
            process.standardError = handle
            do { try process.run() } catch { return (-1, "\(program) could not be started: \(error)") }
            process.waitUntilExit()
            try? handle.close()
            let text = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
            return (process.terminationStatus, text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "\(program) could not be started: \(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
