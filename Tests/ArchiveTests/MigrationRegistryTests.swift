import ArchiveTestSupport
import Foundation
import Testing

@testable import Archive

/// The record's and the station's schemas are two migration registries over one database,
/// each with its own table of applied versions; an archive that only the command line opened
/// carries none of the station's tables, and station tables of a newer ColdTap are refused
/// untouched.
@Suite struct MigrationRegistryTests {
    @Test(arguments: [Migrations.record, StationMigrations.registry])
    func versionsRunOneByOneAndEachIsNamedOnce(registry: MigrationRegistry) {
        #expect(registry.migrations.map(\.version) == Array(1...registry.latestVersion))
        #expect(Set(registry.migrations.map(\.name)).count == registry.migrations.count)
        #expect(registry.migrations.allSatisfy { !$0.name.isEmpty && (!$0.sql.isEmpty || $0.transform != nil) })
        // The first migration makes the table that records the applied ones.
        #expect(registry.migrations.first?.sql.contains("CREATE TABLE \(registry.table) (") == true)
    }

    @Test(arguments: Engine.allCases)
    func eachRegistryRecordsItsOwnVersions(engine: Engine) async throws {
        try await withArchive(engine) { test in
            let archive = try test.open()
            defer { archive.close() }
            #expect(try Migrations.record.appliedVersion(archive.engine) == Migrations.record.latestVersion)
            // The command line's archive: no station table yet.
            #expect(try StationMigrations.registry.appliedVersion(archive.engine) == nil)
            #expect(try !archive.engine.tableExists("sites"))
            _ = try StationStore(archive: archive)
            #expect(try StationMigrations.registry.appliedVersion(archive.engine) == StationMigrations.registry.latestVersion)
            #expect(try archive.engine.scalarInt("SELECT COUNT(*) FROM station_migrations") == Int64(StationMigrations.registry.latestVersion))
            #expect(try archive.engine.scalarInt("SELECT COUNT(*) FROM schema_migrations") == Int64(Migrations.record.latestVersion))
            // Opened again: nothing more is applied.
            _ = try StationStore(archive: archive)
            #expect(try archive.engine.scalarInt("SELECT COUNT(*) FROM station_migrations") == Int64(StationMigrations.registry.latestVersion))
        }
    }

    @Test(arguments: Engine.allCases)
    func stationTablesOfANewerColdTapAreRefusedUntouched(engine: Engine) async throws {
        try await withArchive(engine) { test in
            let archive = try test.open()
            defer { archive.close() }
            _ = try StationStore(archive: archive)
            let newer = Int64(StationMigrations.registry.latestVersion + 1)
            try archive.engine.execute(
                "INSERT INTO station_migrations (version, name, applied_ms) VALUES ($1, 'from the future', 0)", [.int(newer)])
            let error = #expect(throws: ArchiveError.self) { _ = try StationStore(archive: archive) }
            #expect(error?.kind == .newerVersion)
            #expect(error?.message.contains("station schema \(newer)") == true)
            #expect(try StationMigrations.registry.appliedVersion(archive.engine) == Int(newer))
        }
    }
}
