import Archive
import ArchiveTestSupport
import ColdTapCommands
import CommandTestSupport
import Foundation
import LoggerFormats
import TestSupport
import Testing

/// Berlinger reports into the record (docs/berlinger.md): the zone given is kept with the
/// read so `archive verify` decodes it again the same way, the same report twice keeps
/// nothing new, and a later report that overlaps an earlier one adds only its new rows.
@Suite(.serialized) struct BerlingerArchiveTests {
    typealias Maker = BerlingerReportMaker

    static func fridgeTag2L(rows: Int, report: String) -> Maker {
        var maker = Maker(
            model: .fridgeTag2L, serial: "190000000031", alarms: [.init(type: 1, limit: 2, minutes: 60), .init(type: 2, limit: 8, minutes: 60)],
            activation: "2026-05-04 10:00", reportTime: report)
        maker.days = [.init(date: "2026-05-04", min: 4.0, max: 6.5, mean: 5.0)]
        maker.rows = Maker.rows(from: "2026-05-04 10:00", every: 5, count: rows) { index in index == 4 ? nil : 5 + Double(index % 10) / 10 }
        return maker
    }

    @Test(arguments: Engine.allCases)
    func reportsStitchOncePerSerialAndVerifyWithTheirZone(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            let first = Self.fridgeTag2L(rows: 24, report: "2026-05-04 12:00")
            let second = Self.fridgeTag2L(rows: 36, report: "2026-05-04 13:00")
            let firstPath = archive.path(first.fileName), secondPath = archive.path(second.fileName)
            try first.report().write(to: URL(fileURLWithPath: firstPath))
            try second.report().write(to: URL(fileURLWithPath: secondPath))
            var run = await coldtap(["archive", "add", firstPath, "--archive", archive.location])
            #expect(run.status == 65)
            #expect(run.err.contains("--logger-tz"), "\(run.err)")
            run = await coldtap(["archive", "add", firstPath, "--archive", archive.location, "--logger-tz", "Europe/Zurich"])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("read #1: 24 new samples"), "\(run.out)")
            run = await coldtap(["archive", "add", firstPath, "--archive", archive.location, "--logger-tz", "Europe/Zurich"])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("already kept as read #1; nothing added"), "\(run.out)")
            run = await coldtap(["archive", "add", secondPath, "--archive", archive.location, "--logger-tz", "Europe/Zurich"])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("read #2: 12 new samples, 24 duplicates, 0 conflicts"), "\(run.out)")
            run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 0, "\(run.out)\(run.err)")
            run = await coldtap(["loggers", "--archive", archive.location, "--json"])
            #expect(run.out.contains("190000000031"), "\(run.out)")
        }
    }

    @Test(arguments: Engine.allCases)
    func aWarmFridgeTag2IsKeptWithItsAlarm(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            var maker = Maker(
                model: .fridgeTag2, serial: "190000000032",
                alarms: [.init(type: 1, limit: -0.5, minutes: 60), .init(type: 2, limit: 8, minutes: 600)], activation: "2026-03-02 08:30",
                reportTime: "2026-03-03 17:45")
            maker.days = [
                .init(date: "2026-03-02", min: 16.1, max: 18.9, mean: 17.2, alarms: [(0, nil), (915, "18:30")]),
                .init(date: "2026-03-03", min: 16.0, max: 19.0, mean: 17.5, alarms: [(0, nil), (1065, "00:00")]),
            ]
            let path = archive.path(maker.fileName)
            try maker.report().write(to: URL(fileURLWithPath: path))
            var run = await coldtap([
                "archive", "add", path, "--archive", archive.location, "--logger-tz", "+01:00", "--profile", "vaccine-fridge",
            ])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("vaccine-fridge: ALARM"), "\(run.out)")
            run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 0, "\(run.out)\(run.err)")
        }
    }
}
