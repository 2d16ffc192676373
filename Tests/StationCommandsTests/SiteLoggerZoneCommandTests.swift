import Archive
import ArchiveTestSupport
import CommandTestSupport
import Foundation
import Testing

/// `coldtap site set NAME --logger-tz ZONE` (docs/berlinger.md §7): the zone of a site's
/// loggers' clocks, kept with who set it and when, each setting a leaf of the record; the
/// newest is the site's zone.
@Suite(.serialized) struct SiteLoggerZoneCommandTests {
    @Test(arguments: Engine.allCases)
    func aSiteSetsTheZoneOfItsLoggersClocks(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            #expect(await coldtap(["site", "add", "north", "--archive", archive.location]).status == 0)
            var run = await coldtap(["site", "list", "--archive", archive.location])
            #expect(!run.out.contains("logger zone"), "\(run.out)")
            run = await coldtap(["site", "set", "north", "--archive", archive.location])
            #expect(run.status == 64, "\(run.err)")
            #expect(run.err.contains("--logger-tz"), "\(run.err)")
            run = await coldtap(["site", "list", "--logger-tz", "UTC", "--archive", archive.location])
            #expect(run.status == 64, "\(run.err)")
            run = await coldtap(["site", "set", "north", "--logger-tz", "Mars/Olympus", "--archive", archive.location])
            #expect(run.status == 64, "\(run.err)")
            run = await coldtap(["site", "set", "south", "--logger-tz", "UTC", "--archive", archive.location])
            #expect(run.status == 1, "\(run.err)")
            #expect(run.err.contains("there is no site 'south'"), "\(run.err)")

            run = await coldtap(["site", "set", "north", "--logger-tz", "Europe/Zurich", "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("run in Europe/Zurich (setting #1"), "\(run.out)")
            run = await coldtap(["site", "set", "north", "--logger-tz", "+02:00", "--archive", archive.location])
            #expect(run.out.contains("run in +02:00 (setting #2"), "\(run.out)")
            run = await coldtap(["site", "list", "--archive", archive.location])
            #expect(run.out.contains("logger zone") && run.out.contains("+02:00"), "\(run.out)")
            run = await coldtap(["site", "list", "--json", "--archive", archive.location])
            let document = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            let zone = ((document["sites"] as? [[String: Any]])?.first?["loggerTimeZone"]) as? [String: Any]
            #expect(zone?["zone"] as? String == "+02:00")
            #expect((zone?["setBy"] as? String)?.isEmpty == false)

            // Both settings are leaves; an edited one is found.
            run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 0, "\(run.out)\(run.err)")
            let opened = try archive.open()
            #expect(try opened.engine.scalarInt("SELECT COUNT(*) FROM record_leaves WHERE kind = 'site_logger_time_zone'") == 2)
            try opened.engine.execute("DELETE FROM site_logger_time_zones WHERE setting = 2")
            opened.close()
            run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 65, "\(run.out)")
            #expect(run.out.contains("logger time zone setting #2 of site #1 has its record leaf"), "\(run.out)")
        }
    }
}
