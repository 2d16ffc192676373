import Archive
import ArchiveKit
import Foundation
import Testing

/// The engines every archive and station test runs on.
public enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgresql
    public var testDescription: String { rawValue }
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

    public func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}

/// Runs `body` with a fresh archive and removes it afterwards, even when `body` throws.
public func withArchive(_ engine: Engine, _ body: (TestArchive) async throws -> Void) async throws {
    let archive = try TestArchive(engine)
    defer { archive.remove() }
    try await body(archive)
}
