import Foundation

/// One schema's migrations, registered once each by version and name, and the table that
/// records which of them a database has applied. The record's tables (`Migrations.record`)
/// and the station's (`StationMigrations.registry`) are two registries over one database,
/// each with its own table, so an archive used only by the command line never carries the
/// station's tables.
///
/// A migration is never edited once released: a change of schema is a new migration with
/// the next version. Its SQL is portable over SQLite and PostgreSQL: `BYTES` is each
/// engine's type for raw bytes; `/*clustered*/` marks tables that SQLite stores in
/// primary-key order (`WITHOUT ROWID`).
struct MigrationRegistry: Sendable {
    struct Migration: Sendable {
        var version: Int
        var name: String
        /// Empty for a migration that only moves data.
        var sql: String
        /// Data moved in Swift after `sql` (what SQL alone cannot pack), in the migration's transaction.
        var transform: (@Sendable (WriteTransaction) throws -> Void)? = nil
    }

    /// The table that records the applied versions (made by each registry's first migration).
    let table: String
    /// In the order they are applied: versions 1, 2, 3, …
    let migrations: [Migration]

    init(table: String, _ migrations: [Migration]) {
        self.table = table
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// The newest schema this ColdTap writes.
    var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The newest version `engine`'s database has applied, or `nil` when it has no table of this registry.
    func appliedVersion(_ engine: any ArchiveEngine) throws -> Int? {
        guard try engine.tableExists(table) else { return nil }
        return Int(try engine.scalarInt("SELECT MAX(version) FROM \(table)") ?? 0)
    }

    /// Applies every migration after `version` up to `target`, in order, each recorded in
    /// `table` with `now`. The caller holds the migration lock (`ArchiveEngine.lockForMigration`)
    /// and has read `version` under it.
    func apply(after version: Int, upTo target: Int, now: Date, in transaction: WriteTransaction) throws {
        let engine = transaction.engine
        for migration in migrations where migration.version > version && migration.version <= target {
            if !migration.sql.isEmpty { try engine.executeScript(Self.adapted(migration.sql, for: engine)) }
            try migration.transform?(transaction)
            try engine.execute(
                "INSERT INTO \(table) (version, name, applied_ms) VALUES ($1, $2, $3)",
                [.int(Int64(migration.version)), .text(migration.name), .int(now.milliseconds)])
        }
    }

    /// `sql` for `engine`: its bytes type and table options.
    static func adapted(_ sql: String, for engine: any ArchiveEngine) -> String {
        sql.replacingOccurrences(of: " BYTES", with: " " + engine.bytesType)
            .replacingOccurrences(of: "/*clustered*/", with: engine.engineName == "sqlite" ? "WITHOUT ROWID" : "")
    }
}
