import Archive
import ColdTapCommands
import Foundation
import LoggerFormats
import NDEF
import Testing

/// The engines every archive test runs on.
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgresql
    var testDescription: String { rawValue }
}

/// A fresh, empty archive on one engine, and a temporary folder for the files a test
/// writes; `remove()` drops both.
final class TestArchive: @unchecked Sendable {
    let engine: Engine
    let folder: URL
    /// What `--archive` takes: a file path or a `postgresql://` URI.
    let location: String
    private let database: String?

    init(_ engine: Engine) throws {
        self.engine = engine
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-archive-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch engine {
        case .sqlite:
            database = nil
            location = folder.appendingPathComponent("archive.sqlite").path
        case .postgresql:
            let server = try PostgresServer.running()
            let name = "coldtap_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            let admin = try PostgreSQLEngine(uri: server.uri(database: "postgres"))
            try admin.execute("CREATE DATABASE \(name)")
            admin.close()
            database = name
            location = server.uri(database: name)
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
        if let database, let server = try? PostgresServer.running(),
           let admin = try? PostgreSQLEngine(uri: server.uri(database: "postgres")) {
            try? admin.execute("DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
            admin.close()
        }
    }

    /// A raw connection to the archive, for tampering and for looking behind the commands.
    func open() throws -> Archive { try Archive.open(location) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}

/// Runs `body` with a fresh archive and removes it afterwards, even when `body` throws.
func withArchive(_ engine: Engine, _ body: (TestArchive) async throws -> Void) async throws {
    let archive = try TestArchive(engine)
    defer { archive.remove() }
    try await body(archive)
}

struct Run {
    var status: Int32
    var out: String
    var err: String
}

/// Runs `coldtap ARGS` in-process, as a user would.
func coldtap(_ arguments: [String]) async -> Run {
    let console = Console.capturing()
    let status = await ColdTap.main(arguments, console: console)
    return Run(status: status, out: console.output, err: console.errorOutput)
}

/// Logger files for the tests.
enum LoggerFiles {
    static let start = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z
    static let interval = 600

    /// A generic16-unix NDEF message (its own clock, no serial) holding `temperatures` from
    /// sample `first` on (sample n is taken at start + n intervals).
    static func generic(first: Int, temperatures: [Double]) throws -> Data {
        let payload = try Generic16Encoder.unixPayload(start: start.addingTimeInterval(Double(first * interval)),
                                                       temperatures: temperatures, intervalSeconds: interval)
        return try NDEFMessage(records: [Generic16Encoder.record(payload: payload)]).encoded()
    }

    /// The reference series: sample n is 5 °C plus a slow wave, in tenths (what generic16 keeps).
    static func value(_ n: Int) -> Double { ((5 + 2 * sin(Double(n) / 10)) * 10).rounded() / 10 }

    static func series(_ range: Range<Int>) -> [Double] { range.map(value) }

    /// Writes a generic16-unix file of samples `range` (with `changes` applied) and returns its path.
    static func writeGeneric(_ archive: TestArchive, _ name: String, _ range: Range<Int>,
                             changes: [Int: Double] = [:]) throws -> String {
        var values = series(range)
        for (index, value) in changes { values[index - range.lowerBound] = value }
        let path = archive.path(name)
        try generic(first: range.lowerBound, temperatures: values).write(to: URL(fileURLWithPath: path))
        return path
    }
}

extension LoggerFiles {
    /// Writes a cuplTag NDEF message of `temperatures` (no clock: its times come from the read
    /// time, the newest `minutesElapsed` before it) and returns its path.
    static func writeCuplTag(_ archive: TestArchive, _ name: String, _ encoder: CuplTagEncoder,
                             temperatures: ArraySlice<Double>, minutesElapsed: Int) throws -> String {
        let pairs = try encoder.pairs(temperatureRaw: temperatures.map(CuplTagEncoder.rawTemperature), humidityRaw: nil)
        let path = archive.path(name)
        try encoder.message(pairs: pairs, minutesElapsed: minutesElapsed).encoded().write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Parses a command's JSON output.
func jsonObject(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

/// Runs blocking work on a thread of its own, off Swift's cooperative pool (a test that
/// waits for a lock must not starve the other tests).
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try body() })
        }
    }
}
