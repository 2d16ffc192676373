import Archive
import ArchiveKit
import Foundation
import Testing

/// The engines every archive and station test runs on: both, unless `COLDTAP_TEST_ENGINES`
/// names some (`sqlite`, as `make check` does, for the fast tier without PostgreSQL).
public enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgresql
    public var testDescription: String { rawValue }

    public static var allCases: [Engine] {
        guard let chosen = ProcessInfo.processInfo.environment["COLDTAP_TEST_ENGINES"], !chosen.isEmpty else {
            return [.sqlite, .postgresql]
        }
        let engines = chosen.split(separator: ",").compactMap { Engine(rawValue: String($0)) }
        return engines.isEmpty ? [.sqlite, .postgresql] : engines
    }
}

/// A fresh, empty archive on one engine (a SQLite file in a temporary folder, or a database
/// of its own on the private PostgreSQL cluster), and the folder for the files a test writes;
/// `remove()` drops both.
public final class TestArchive: @unchecked Sendable {
    public let engine: Engine
    public let folder: URL
    /// What `--archive` takes: a file path or a `postgresql://` URI.
    public let location: String
    public let database: String?

    public init(_ engine: Engine) throws {
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

    /// Drops the PostgreSQL database (nothing for SQLite).
    public func dropDatabase() {
        if let database, let server = try? PostgresServer.running(),
            let admin = try? PostgreSQLEngine(uri: server.uri(database: "postgres"))
        {
            try? admin.execute("DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
            admin.close()
        }
    }

    /// Removes the folder and the database.
    public func remove() {
        try? FileManager.default.removeItem(at: folder)
        dropDatabase()
    }

    /// A raw connection to the archive, for tampering and for looking behind the commands.
    public func open() throws -> Archive { try Archive.open(location) }

    /// What `coldtap archive verify` checks: the chain, every hash, every read decoded again.
    public func verify() async throws -> VerifyReport {
        let archive = try open()
        defer { archive.close() }
        return try await archive.verify(decoder: ArchivedReads.decoder)
    }

    /// Runs `body` with the station's rows of the archive (sites, tokens, secrets).
    public func withStore<T>(_ body: (StationStore) throws -> T) throws -> T {
        let archive = try open()
        defer { archive.close() }
        return try body(try StationStore(archive: archive))
    }

    /// Removes the newest read as a careful forger with write access would: the read, what it
    /// added, its assessments, every leaf from `keepingLeaves` on and the checkpoints beyond
    /// them, and the chain head rolled back to the row before it. What is left agrees with
    /// itself; only a checkpoint kept elsewhere shows the loss (docs/archive-record.md).
    public func removeNewestRead(_ readID: Int64, keepingLeaves leaves: Int) throws {
        let archive = try open()
        defer { archive.close() }
        let previous = try #require(try archive.engine.scalarText("SELECT prev_hash FROM reads WHERE read_id = $1", [.int(readID)]))
        let seq = try #require(try archive.engine.scalarInt("SELECT chain_seq FROM reads WHERE read_id = $1", [.int(readID)]))
        for table in ["reads", "sample_blocks", "read_generations", "conflicts", "assessments"] {
            try archive.engine.execute("DELETE FROM \(table) WHERE read_id = $1", [.int(readID)])
        }
        try archive.engine.execute("DELETE FROM record_leaves WHERE leaf_index >= $1", [.int(Int64(leaves))])
        try archive.engine.execute("DELETE FROM record_checkpoints WHERE tree_size > $1", [.int(Int64(leaves))])
        try archive.engine.execute(
            "UPDATE chain_head SET seq = $1, hash = $2, next_read_id = $3 WHERE id = 1", [.int(seq - 1), .text(previous), .int(readID)])
    }

    public func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}

/// Runs `body` with a fresh archive and removes it afterwards, even when `body` throws.
public func withArchive(_ engine: Engine, _ body: (TestArchive) async throws -> Void) async throws {
    let archive = try TestArchive(engine)
    defer { archive.remove() }
    try await body(archive)
}
