import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The `coldtap` executable the tests were built with, for tests that run it as a process of
/// its own (killed mid-write, run as another user, several stations at once).
public enum ColdTapExecutable {
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    public static func path() throws -> String {
        let here = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for folder in [here, here.deletingLastPathComponent()] {
            let candidate = folder.appendingPathComponent("coldtap").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Missing(description: "the coldtap executable is not beside the tests in \(here.path); build it with 'swift build --build-tests'")
    }
}

/// A `coldtap serve` process listening on 127.0.0.1 with an ephemeral port, its standard
/// error (the request log) in a file of `folder`. `stop()` ends it with SIGTERM (SIGKILL
/// after 10 s); a watchdog ends it too if the test process dies first.
public final class ServeProcess: @unchecked Sendable {
    public let port: UInt16
    public let logFile: URL
    private let process: Process

    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts `coldtap serve --listen 127.0.0.1:0 ARGUMENTS` and waits until it listens.
    public init(_ arguments: [String], folder: URL, name: String, environment: [String: String] = [:]) throws {
        logFile = folder.appendingPathComponent("\(name).log")
        FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        defer { try? log.close() }
        process = Process()
        process.executableURL = URL(fileURLWithPath: try ColdTapExecutable.path())
        process.arguments = ["serve", "--listen", "127.0.0.1:0"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        try process.run()
        ServeProcess.watch(process.processIdentifier)
        let deadline = Date().addingTimeInterval(120)
        var found: UInt16?
        while found == nil, process.isRunning, Date() < deadline {
            usleep(50_000)
            found = ServeProcess.listeningPort(in: (try? String(contentsOf: logFile, encoding: .utf8)) ?? "")
        }
        guard let found else {
            let said = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw StartFailure(description: "coldtap serve (\(name)) did not start listening: \(said)")
        }
        port = found
    }

    public var base: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// What the station wrote to standard error so far.
    public var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The port of serve's "listening on http://127.0.0.1:PORT" line.
    static func listeningPort(in text: String) -> UInt16? {
        guard let range = text.range(of: "listening on http://127.0.0.1:") else { return nil }
        return UInt16(text[range.upperBound...].prefix { $0.isNumber })
    }

    /// A shell in its own session that kills `pid` once this test process is gone.
    private static func watch(_ pid: Int32) {
        let watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        watchdog.arguments = [
            "-f", "/bin/sh", "-c",
            "while kill -0 \(getpid()) 2>/dev/null && kill -0 \(pid) 2>/dev/null; do sleep 1; done; kill -9 \(pid) 2>/dev/null",
        ]
        watchdog.standardInput = FileHandle.nullDevice
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle.nullDevice
        try? watchdog.run()
    }
}
