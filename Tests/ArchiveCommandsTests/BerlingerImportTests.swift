import Archive
import ArchiveTestSupport
import ColdTapCommands
import CommandTestSupport
import Foundation
import TestSupport
import Testing

/// `coldtap import DIR` (docs/berlinger.md): every report of a folder kept once, a line per
/// file, a failing file named without stopping the others; the daily summaries of a
/// Fridge-tag 2 join the logger's record, so its report judges them, and `archive verify`
/// decodes them again.
@Suite(.serialized) struct BerlingerImportTests {
    typealias Maker = BerlingerReportMaker

    static let serial = "190000000051"

    /// A Fridge-tag 2 in a fridge that stood at 16–19 °C from its activation, reported at `report`.
    static func warmFridge(report: String, days: [Maker.Day]) -> Maker {
        var maker = Maker(
            model: .fridgeTag2, serial: serial, alarms: [.init(type: 1, limit: -0.5, minutes: 60), .init(type: 2, limit: 8, minutes: 600)],
            activation: "2026-03-02 08:30", reportTime: report)
        maker.days = days
        return maker
    }

    static let firstDay = Maker.Day(date: "2026-03-02", min: 16.1, max: 18.9, mean: 17.2, alarms: [(0, nil), (915, "18:30")])

    /// Reported on the second day at 17:45: that day is cut short.
    static let first = warmFridge(
        report: "2026-03-03 17:45", days: [firstDay, .init(date: "2026-03-03", min: 16.0, max: 19.0, mean: 17.5, alarms: [(0, nil), (1065, "00:00")])])

    /// Reported two days later: the second day whole, two more days.
    static let second = warmFridge(
        report: "2026-03-05 09:00",
        days: [
            firstDay, .init(date: "2026-03-03", min: 16.0, max: 19.0, mean: 17.6, alarms: [(0, nil), (1440, "00:00")]),
            .init(date: "2026-03-04", min: 16.2, max: 18.7, mean: 17.4, alarms: [(0, nil), (1440, "00:00")]),
            .init(date: "2026-03-05", min: 16.4, max: 17.9, mean: 17.0, alarms: [(0, nil), (540, "00:00")]),
        ])

    @Test(arguments: Engine.allCases)
    func aFolderIsKeptOnceAndItsDaysAreJudged(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            let drive = archive.path("drive")
            try FileManager.default.createDirectory(atPath: drive, withIntermediateDirectories: true)
            func write(_ data: Data, _ name: String) throws { try data.write(to: URL(fileURLWithPath: drive).appendingPathComponent(name)) }
            try write(Self.first.report(), Self.first.fileName)
            try write(Self.second.report(), Self.second.fileName)
            try write(Data("%PDF-1.4\n".utf8), Self.second.fileName.replacingOccurrences(of: ".txt", with: ".pdf"))
            try write(Data("not ours".utf8), ".hidden")
            // A report cut off before its signature.
            let cut = String(decoding: Self.first.report(), as: UTF8.self).components(separatedBy: "Cert:\r\n")[0]
            try write(Data(cut.utf8), "190000000052_202603031745.txt")

            // Without a zone every report is refused naming the option; nothing is kept.
            var run = await coldtap(["import", drive, "--archive", archive.location])
            #expect(run.status == 65, "\(run.out)\(run.err)")
            #expect(run.err.contains("--logger-tz"), "\(run.err)")
            #expect(run.out.contains("4 files: 0 kept as new reads"), "\(run.out)")

            run = await coldtap(["import", drive, "--archive", archive.location, "--logger-tz", "Europe/Zurich", "--profile", "vaccine-fridge"])
            #expect(run.status == 65, "\(run.out)\(run.err)")
            #expect(run.out.contains("2 kept as new reads, 0 kept before, 1 passed over, 1 failed"), "\(run.out)")
            #expect(run.out.contains("2 daily summaries; times read in Europe/Zurich (given with --logger-tz); vaccine-fridge: ALARM"), "\(run.out)")
            #expect(run.out.contains(".pdf: passed over"), "\(run.out)")
            #expect(run.err.contains("190000000052_202603031745.txt"), "\(run.err)")
            #expect(run.err.contains("1 of 4 file(s)"), "\(run.err)")

            // Again: nothing new.
            run = await coldtap(["import", drive, "--archive", archive.location, "--logger-tz", "Europe/Zurich"])
            #expect(run.out.contains("0 kept as new reads, 2 kept before"), "\(run.out)")
            #expect(run.out.contains("already kept as read #1; nothing added"), "\(run.out)")
            try FileManager.default.removeItem(atPath: URL(fileURLWithPath: drive).appendingPathComponent("190000000052_202603031745.txt").path)
            run = await coldtap(["import", drive, "--archive", archive.location, "--logger-tz", "Europe/Zurich"])
            #expect(run.status == 0, "\(run.out)\(run.err)")

            // The record holds the four days (the second day as the later report saw it whole) and judges them.
            let id = "fridge-tag-2:\(Self.serial)"
            run = await coldtap(["report", "--logger-id", id, "--archive", archive.location, "--profile", "vaccine-fridge", "--json"])
            #expect(run.status == 0, "\(run.err)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            let log = try #require(report["log"] as? [String: Any])
            let days = try #require(log["dailySummaries"] as? [[String: Any]], "\(run.out.prefix(2000))")
            #expect(days.map { $0["date"] as? String } == ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"])
            #expect(days[1]["mean"] as? Double == 17.6)
            #expect(run.out.contains("\"ALARM\""), "\(run.out.prefix(3000))")
            run = await coldtap(["report", "--logger-id", id, "--archive", archive.location, "--profile", "vaccine-fridge", "--tz", "Europe/Zurich"])
            #expect(run.out.contains("ALARM"), "\(run.out)")
            run = await coldtap(["history", id, "--archive", archive.location, "--json"])
            let history = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            let zones = (history["reads"] as? [[String: Any]] ?? []).map { $0["loggerTimeZone"] as? [String: String] }
            #expect(zones == [["zone": "Europe/Zurich", "source": "given"], ["zone": "Europe/Zurich", "source": "given"]], "\(run.out.prefix(3000))")

            run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 0, "\(run.out)\(run.err)")
            // Decoded again into a new generation: the days come along, and still hold.
            run = await coldtap(["archive", "redecode", "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
            run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 0, "\(run.out)\(run.err)")
            run = await coldtap(["report", "--logger-id", id, "--archive", archive.location, "--profile", "vaccine-fridge", "--json"])
            #expect(run.out.contains("\"2026-03-05\"") && run.out.contains("\"ALARM\""), "\(run.out.prefix(2000))")
            // A kept day edited is found by decoding the read again.
            let opened = try archive.open()
            try opened.engine.execute("UPDATE read_daily_summaries SET summaries = REPLACE(summaries, '\"mean\":17.6', '\"mean\":5.6')")
            opened.close()
            run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 65, "\(run.out)\(run.err)")
            #expect(run.out.contains("read #2 of \(id): decoding its raw bytes again gives daily summaries that differ"), "\(run.out)")
            // Days of a read the archive does not hold would join the record: named.
            let again = try archive.open()
            try again.engine.execute(
                "INSERT INTO read_daily_summaries (logger_id, generation, read_id, summaries) SELECT logger_id, generation, 99, summaries FROM read_daily_summaries WHERE read_id = 1"
            )
            again.close()
            run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.out.contains("daily summaries of read #99 of \(id) (generation 1) are kept, but the archive holds no such read"), "\(run.out)")
        }
    }

    /// An archive kept before schema 8 held its reports' bytes but not their days: opening it
    /// decodes them again, so `verify` holds and the report judges the days.
    @Test(arguments: Engine.allCases)
    func reportsKeptBeforeSchema8GetTheirDays(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            let path = archive.path(Self.second.fileName)
            try Self.second.report().write(to: URL(fileURLWithPath: path))
            var run = await coldtap(["archive", "add", path, "--archive", archive.location, "--logger-tz", "+01:00"])
            #expect(run.status == 0, "\(run.err)")
            let opened = try archive.open()
            for sql in ["DROP TABLE read_daily_summaries", "DELETE FROM schema_migrations WHERE version >= 8"] { try opened.engine.execute(sql) }
            opened.close()
            run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 0, "\(run.out)\(run.err)")
            run = await coldtap([
                "report", "--logger-id", "fridge-tag-2:\(Self.serial)", "--archive", archive.location, "--profile", "vaccine-fridge", "--json",
            ])
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any], "\(run.err)")
            #expect(((report["log"] as? [String: Any])?["dailySummaries"] as? [[String: Any]])?.count == 4)
            #expect(run.out.contains("\"ALARM\""))
        }
    }

    /// The public reports in the workspace's shared folder, read in place (SharedFacts); its
    /// SOURCES.md is not a read, so it is the one file that fails.
    @Test(arguments: Engine.allCases)
    func thePublicReportsAreImportedInPlace(engine: Engine) async throws {
        guard let folder = SharedFacts.file("berlinger/SOURCES.md").url?.deletingLastPathComponent() else {
            print("BerlingerImportTests: \(SharedFacts.file("berlinger/SOURCES.md").absent)")
            return
        }
        try await withArchive(engine) { archive in
            var run = await coldtap(["import", folder.path, "--archive", archive.location, "--logger-tz", "UTC"])
            #expect(run.status == 65, "\(run.out)\(run.err)")
            #expect(run.out.contains("7 files: 6 kept as new reads, 0 kept before, 0 passed over, 1 failed"), "\(run.out)")
            #expect(run.err.contains("SOURCES.md"), "\(run.err)")
            run = await coldtap(["import", folder.path, "--archive", archive.location, "--logger-tz", "UTC"])
            #expect(run.out.contains("0 kept as new reads, 6 kept before"), "\(run.out)")
            run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 0, "\(run.out)\(run.err)")
            // Two reports of one Q-tag stitch into one record; each Fridge-tag 2's days are its record.
            run = await coldtap(["loggers", "--archive", archive.location, "--json"])
            let loggers = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            #expect((loggers["loggers"] as? [[String: Any]])?.count == 5, "\(run.out)")
            run = await coldtap(["report", "--logger-id", "fridge-tag-2:130400191542", "--archive", archive.location, "--json"])
            #expect(run.status == 0, "\(run.err)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            #expect(((report["log"] as? [String: Any])?["dailySummaries"] as? [[String: Any]])?.isEmpty == false)
        }
    }

    @Test func aFolderThatIsNotThereIsSaid() async throws {
        let run = await coldtap(["import", "/nonexistent-coldtap-folder", "--archive", "/nonexistent-coldtap-folder/a.sqlite"])
        #expect(run.status == 66, "\(run.err)")
        #expect(run.err.contains("there is no folder"), "\(run.err)")
    }
}
