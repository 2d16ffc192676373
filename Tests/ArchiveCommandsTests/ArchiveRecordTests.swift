import Archive
import ArchiveTestSupport
import ColdTapBase
import ColdTapCommands
import CommandTestSupport
import Foundation
import LoggerFormats
import NDEF
import Testing

/// Overlapping, duplicated, conflicting and gapped reads give the documented history, on
/// both engines, through the commands a user types.
@Suite(.serialized) struct ArchiveRecordTests {
    @Test(arguments: Engine.allCases)
    func overlappingDuplicatedConflictingAndGappedReads(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            let a = try LoggerFiles.writeGeneric(archive, "a.ndef", 0..<100)
            let b = try LoggerFiles.writeGeneric(archive, "b.ndef", 50..<150)
            // The same times as b and further on, but sample 120 reads differently.
            let c = try LoggerFiles.writeGeneric(archive, "c.ndef", 100..<160, changes: [120: 30])
            // Starts 40 samples after c ends: a gap.
            let d = try LoggerFiles.writeGeneric(archive, "d.ndef", 200..<240)
            let id = "fridge-7"
            var run = await coldtap(["archive", "add", a, b, "--archive", archive.location, "--logger-id", id])
            #expect(run.status == 0, "\(run.err)")
            let lines = run.out.split(separator: "\n").map(String.init)
            #expect(lines.count == 2)
            #expect(lines[0].contains("fridge-7 — read #1: 100 new samples, 0 duplicates, 0 conflicts, no gap before"))
            #expect(lines[1].contains("read #2: 50 new samples, 50 duplicates, 0 conflicts, no gap before"))

            // The same file again adds nothing.
            run = await coldtap(["archive", "add", b, "--archive", archive.location, "--logger-id", id])
            #expect(run.status == 0)
            #expect(run.out.contains("already kept as read #2; nothing added"))

            run = await coldtap(["archive", "add", c, d, "--archive", archive.location, "--logger-id", id])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("read #3: 10 new samples, 49 duplicates, 1 conflict, no gap before"))
            #expect(
                run.out.contains("read #4: 40 new samples, 0 duplicates, 0 conflicts, gap before 2026-01-02T02:40:00Z → 2026-01-02T09:20:00Z (6 h 40 min)"),
                "\(run.out)")

            run = await coldtap(["history", id, "--archive", archive.location, "--json"])
            #expect(run.status == 0, "\(run.err)")
            let history = try jsonObject(run.out)
            let logger = try #require(history["logger"] as? [String: Any])
            #expect(logger["id"] as? String == id)
            #expect(logger["format"] as? String == "generic16-unix")
            let reads = try #require(history["reads"] as? [[String: Any]])
            #expect(reads.map { $0["id"] as? Int } == [1, 2, 3, 4])
            #expect(reads.map { $0["newSamples"] as? Int } == [100, 50, 10, 40])
            #expect(reads.map { $0["duplicates"] as? Int } == [0, 50, 49, 0])
            #expect(reads.map { $0["conflicts"] as? Int } == [0, 0, 1, 0])
            #expect((reads[0]["sha256"] as? String)?.count == 64)
            let samples = try #require(history["samples"] as? [[String: Any]])
            #expect(samples.count == 200)
            let times = samples.compactMap { $0["time"] as? String }
            #expect(times == times.sorted())
            #expect(times.first == "2026-01-01T00:00:00Z")
            #expect(samples[0].keys.sorted() == ["flags", "humidity", "read", "temperature", "time"])
            #expect(samples[120]["read"] as? Int == 2)
            // The first value read stays; the other is shown as a conflict.
            #expect(samples[120]["temperature"] as? Double == LoggerFiles.value(120))
            let conflicts = try #require(history["conflicts"] as? [[String: Any]])
            #expect(conflicts.count == 1)
            #expect(conflicts.first?["time"] as? String == "2026-01-01T20:00:00Z")
            #expect((conflicts.first?["other"] as? [String: Any])?["temperature"] as? Double == 30)
            #expect((conflicts.first?["other"] as? [String: Any])?["read"] as? Int == 3)
            let gaps = try #require(history["gaps"] as? [[String: Any]])
            #expect(gaps.count == 1)
            #expect(gaps.first?["from"] as? String == "2026-01-02T02:40:00Z")
            #expect(gaps.first?["to"] as? String == "2026-01-02T09:20:00Z")

            // A period: only the samples inside it, and the reads that cover it.
            run = await coldtap(["history", id, "--archive", archive.location, "--json", "--from", "2026-01-02T10:00:00Z"])
            let later = try jsonObject(run.out)
            #expect((later["samples"] as? [Any])?.count == 36)
            #expect((later["reads"] as? [[String: Any]])?.map { $0["id"] as? Int } == [4])

            // CSV: one row per stitched sample with its read.
            run = await coldtap(["history", id, "--archive", archive.location, "--csv"])
            let rows = run.out.split(separator: "\r\n")
            #expect(rows.first == "time,temperature_c,humidity_pct,flags,read")
            #expect(rows.count == 201)

            // The report over the whole period: gaps as unknown time, reads and chain head listed.
            run = await coldtap(["report", "--logger-id", id, "--archive", archive.location, "--tz", "UTC"])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("samples    200 every 10 min"))
            #expect(run.out.contains("6 h 40 min without samples"), "\(run.out)")
            #expect(run.out.contains("Conflicts (a re-read gave another value"))
            let head = try archive.open().chainHead().hash
            #expect(run.out.contains("Chain head: \(head)"))
            run = await coldtap(["report", "--logger-id", id, "--archive", archive.location, "--json"])
            let report = try jsonObject(run.out)
            #expect(report["verdict"] as? String != nil)
            let kept = try #require(report["archive"] as? [String: Any])
            #expect(kept["chainHead"] as? String == head)
            #expect((kept["reads"] as? [Any])?.count == 4)
            #expect((kept["gaps"] as? [Any])?.count == 1)

            run = await coldtap(["loggers", "--archive", archive.location, "--json"])
            #expect(run.status == 0, "\(run.err)")
            let list = try #require(try jsonObject(run.out)["loggers"] as? [[String: Any]])
            #expect(list.count == 1)
            #expect(list.first?["reads"] as? Int == 4)
            #expect(list.first?["firstSample"] as? String == "2026-01-01T00:00:00Z")
            #expect(list.first?["lastVerdict"] as? String != nil)
        }
    }

    @Test(arguments: Engine.allCases)
    func estimatedTimesAreMatchedWithinHalfAnInterval(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            // A cuplTag has no clock: its times come from the read time. Read again 10 h
            // 1 min 37 s later, the overlap is 84 samples whose estimated times are 97 s off.
            let encoder = CuplTagEncoder(variant: .temperatureOnly, serial: "CTTEST01", intervalMinutes: 10)
            let all = (0..<204).map { 4 + Double(($0 * 7) % 41) / 10 }
            func url(_ range: Range<Int>) throws -> String {
                try LoggerFiles.writeCuplTag(archive, "cupl-\(range.lowerBound).ndef", encoder, temperatures: all[range], minutesElapsed: 2)
            }
            let first = try url(0..<144)
            let second = try url(60..<204)
            var run = await coldtap(["archive", "add", first, "--read-time", "2026-03-01T08:00:00Z", "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("cupltag:CTTEST01 — read #1: 144 new samples"))
            run = await coldtap(["archive", "add", second, "--read-time", "2026-03-01T18:01:37Z", "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("read #2: 60 new samples, 84 duplicates, 0 conflicts, no gap before; estimated times moved by -97 s"), "\(run.out)")
            run = await coldtap(["history", "cupltag:CTTEST01", "--archive", archive.location, "--json"])
            let samples = try #require(try jsonObject(run.out)["samples"] as? [[String: Any]])
            #expect(samples.count == 204)
            #expect(try jsonObject(run.out)["gaps"] as? [Any] == nil || (try jsonObject(run.out)["gaps"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(arguments: Engine.allCases)
    func aReadWhoseTimeIsAnEstimateIsLaidOnTheKeptSamplesByTheirValues(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            // The second read gives no read time: the time of decoding stands in (an NDEF
            // message has no date of its own), 3 h 17 min after it was really read. By the
            // nearest kept time it would land 200 minutes off and conflict; by its values it
            // lands where it belongs.
            let encoder = CuplTagEncoder(variant: .temperatureOnly, serial: "CTESTM01", intervalMinutes: 10)
            let all = (0..<204).map(LoggerFiles.value)
            let first = try LoggerFiles.writeCuplTag(archive, "first.ndef", encoder, temperatures: all[0..<144], minutesElapsed: 2)
            let second = try LoggerFiles.writeCuplTag(archive, "second.ndef", encoder, temperatures: all[60..<204], minutesElapsed: 2)
            let firstReadTime = Date().addingTimeInterval(-(10 * 3600 + 3 * 3600 + 17 * 60)).isoUTCWholeSeconds
            var run = await coldtap(["archive", "add", first, "--read-time", firstReadTime, "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
            run = await coldtap(["archive", "add", second, "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("read #2: 60 new samples, 84 duplicates, 0 conflicts, no gap before; estimated times moved by -1182"), "\(run.out)")

            // A constant temperature gives no evidence of where it belongs: the read keeps
            // its estimate, laid on the kept samples' grid, and conflicts with nothing.
            let flat = CuplTagEncoder(variant: .temperatureOnly, serial: "CTFLAT01", intervalMinutes: 10)
            let steady = [Double](repeating: 5, count: 204)
            let one = try LoggerFiles.writeCuplTag(archive, "flat-1.ndef", flat, temperatures: steady[0..<144], minutesElapsed: 2)
            let two = try LoggerFiles.writeCuplTag(archive, "flat-2.ndef", flat, temperatures: steady[64..<204], minutesElapsed: 2)
            #expect(await coldtap(["archive", "add", one, "--read-time", firstReadTime, "--archive", archive.location]).status == 0)
            run = await coldtap(["archive", "add", two, "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains(", 0 conflicts"), "\(run.out)")
            #expect(await coldtap(["archive", "verify", "--archive", archive.location]).status == 0)
        }
    }

    @Test(arguments: Engine.allCases)
    func aLoggerNamedOnceKeepsOneRecordWhenReadWithoutItsName(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            let encoder = CuplTagEncoder(variant: .temperatureOnly, serial: "CTNAME01", intervalMinutes: 10)
            let all = (0..<204).map { 4 + Double(($0 * 3) % 29) / 10 }
            func file(_ range: Range<Int>) throws -> String {
                try LoggerFiles.writeCuplTag(archive, "named-\(range.lowerBound).ndef", encoder, temperatures: all[range], minutesElapsed: 0)
            }
            let monday = try file(0..<144), tuesday = try file(60..<204)
            var run = await coldtap(["archive", "add", monday, "--read-time", "2026-03-01T08:00:00Z", "--logger-id", "fridge-1", "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("fridge-1 — read #1: 144 new samples"), "\(run.out)")
            // The same bytes without the name: the read already kept, not a second record.
            run = await coldtap(["archive", "add", monday, "--read-time", "2026-03-01T08:00:00Z", "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("fridge-1") && run.out.contains("already kept"), "\(run.out)")
            // The next read without the name goes on with fridge-1's record.
            run = await coldtap(["archive", "add", tuesday, "--read-time", "2026-03-01T18:00:00Z", "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("fridge-1 — read #2: 60 new samples, 84 duplicates, 0 conflicts"), "\(run.out)")
            run = await coldtap(["loggers", "--json", "--archive", archive.location])
            let loggers = try #require(try jsonObject(run.out)["loggers"] as? [[String: Any]])
            #expect(loggers.compactMap { $0["id"] as? String } == ["fridge-1"], "\(run.out)")
            // Asked for by its serial or by the id it carries, the one logger that has them is found.
            for name in ["CTNAME01", "cupltag:CTNAME01"] {
                run = await coldtap(["history", name, "--json", "--archive", archive.location])
                #expect(run.status == 0, "\(name): \(run.err)")
                #expect((try jsonObject(run.out)["logger"] as? [String: Any])?["id"] as? String == "fridge-1", "\(name): \(run.out.prefix(200))")
            }
            // A second name for the same serial: a read without a name can no longer tell which.
            run = await coldtap(["archive", "add", tuesday, "--read-time", "2026-03-01T18:00:00Z", "--logger-id", "fridge-2", "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
            let wednesday = try file(100..<204)
            run = await coldtap(["archive", "add", wednesday, "--read-time", "2026-03-01T18:00:00Z", "--archive", archive.location])
            #expect(run.status == 64, "\(run.out)\(run.err)")
            #expect(run.err.contains("cupltag:CTNAME01, and the archive keeps that logger under 2 names (fridge-1, fridge-2)"), "\(run.err)")
            // Nor can history: it lists both.
            run = await coldtap(["history", "CTNAME01", "--archive", archive.location])
            #expect(run.status == 64 && run.err.contains("'CTNAME01' names 2 loggers (fridge-1, fridge-2)"), "\(run.err)")
            #expect(try archive.open().engine.scalarInt("SELECT COUNT(*) FROM reads") == 3)
        }
    }

    @Test(arguments: Engine.allCases)
    func aLogWithoutIdentityNeedsLoggerID(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            let file = try LoggerFiles.writeGeneric(archive, "bare.ndef", 0..<10)
            let run = await coldtap(["archive", "add", file, "--archive", archive.location])
            #expect(run.status == 64)
            #expect(run.err.contains("--logger-id ID"))
            #expect(try archive.open().engine.scalarInt("SELECT COUNT(*) FROM reads") == 0)
        }
    }

    @Test(arguments: Engine.allCases)
    func acknowledgementsAreKeptAndShown(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            // Samples 30–35 are at 12 °C: an excursion above 2–8 °C.
            let changes = Dictionary(uniqueKeysWithValues: (30..<36).map { ($0, 12.0) })
            let file = try LoggerFiles.writeGeneric(archive, "warm.ndef", 0..<72, changes: changes)
            var run = await coldtap(["archive", "add", file, "--archive", archive.location, "--logger-id", "F1"])
            #expect(run.status == 0, "\(run.err)")
            run = await coldtap(["loggers", "--archive", archive.location, "--json"])
            #expect((try jsonObject(run.out)["loggers"] as? [[String: Any]])?.first?["openExcursions"] as? Int == 1)

            run = await coldtap([
                "ack", "F1", "--excursion", "2026-01-01T09:00:00Z", "--by", "Dr Ada", "--comment", "door left open; stock checked", "--archive",
                archive.location,
            ])
            #expect(run.status == 64)
            #expect(run.err.contains("its excursions start at 2026-01-01T05:00:00Z"))
            run = await coldtap([
                "ack", "F1", "--excursion", "2026-01-01T05:00:00Z", "--by", "Dr Ada", "--comment", "door left open; stock checked", "--archive",
                archive.location,
            ])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("acknowledgement #1"))
            // The same excursion again is refused with who acknowledged it; --again records a follow-up.
            run = await coldtap(["ack", "F1", "--excursion", "2026-01-01T05:00:00Z", "--by", "Bo", "--comment", "again", "--archive", archive.location])
            #expect(run.status == 64 && run.err.contains("acknowledged already, by Dr Ada"), "\(run.err)")
            run = await coldtap(["ack", "--help"])
            // --by before the archive has users, --user after: neither is always needed.
            #expect(run.out.contains("--excursion START-TIME [--by NAME] [--user NAME]"), "\(run.out)")

            run = await coldtap(["loggers", "--archive", archive.location, "--json"])
            #expect((try jsonObject(run.out)["loggers"] as? [[String: Any]])?.first?["openExcursions"] as? Int == 0)
            run = await coldtap(["history", "F1", "--archive", archive.location, "--json"])
            let acks = try #require(try jsonObject(run.out)["acknowledgements"] as? [[String: Any]])
            #expect(acks.count == 1)
            // A typed name is kept marked unsigned, with the account that typed it (issue 43).
            #expect((acks.first?["by"] as? String)?.hasPrefix("Dr Ada (unsigned, typed by os:") == true, "\(acks)")
            #expect(acks.first?["excursionStart"] as? String == "2026-01-01T05:00:00Z")
            run = await coldtap(["report", "--logger-id", "F1", "--archive", archive.location])
            #expect(run.out.contains("acknowledged by Dr Ada"))
            // The headline says it too, where it said "not yet acknowledged" before.
            #expect(
                run.out.split(separator: "\n").first?.contains("the excursion acknowledged by Dr Ada (unsigned, typed by os:") == true, "\(run.out.prefix(200))"
            )
            // The acknowledgement is in the chain: verify still holds, and it counts it.
            run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 0, "\(run.out)\(run.err)")
            #expect(run.out.contains("1 read(s) and 1 acknowledgement(s)"))
        }
    }

    @Test(arguments: Engine.allCases)
    func assessmentsKeepTheProfileAsItWas(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            let file = try LoggerFiles.writeGeneric(archive, "a.ndef", 0..<20)
            let run = await coldtap(["archive", "add", file, "--archive", archive.location, "--logger-id", "F2", "--profile", "frozen"])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("frozen: ALARM"))
            let opened = try archive.open()
            defer { opened.close() }
            let json = try #require(try opened.engine.scalarText("SELECT profile_json FROM assessments"))
            #expect(json.contains("\"name\":\"frozen\""))
            #expect(try opened.engine.scalarText("SELECT verdict FROM assessments") == "ALARM")
        }
    }

    @Test(arguments: Engine.allCases)
    func redecodeMakesANewGenerationAndKeepsTheOld(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            let a = try LoggerFiles.writeGeneric(archive, "a.ndef", 0..<50)
            let b = try LoggerFiles.writeGeneric(archive, "b.ndef", 40..<90)
            #expect(await coldtap(["archive", "add", a, b, "--archive", archive.location, "--logger-id", "G"]).status == 0)
            var run = await coldtap(["archive", "redecode", "--archive", archive.location])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("samples generation 2 (90 samples)"))
            #expect(run.out.contains("Nothing changed"))
            let opened = try archive.open()
            #expect(try opened.engine.scalarInt("SELECT SUM(sample_count) FROM sample_blocks WHERE generation = 1") == 90)
            #expect(try opened.engine.scalarInt("SELECT SUM(sample_count) FROM sample_blocks WHERE generation = 2") == 90)
            opened.close()
            run = await coldtap(["history", "G", "--archive", archive.location, "--json"])
            #expect(try jsonObject(run.out)["generation"] as? Int == 2)
            #expect((try jsonObject(run.out)["samples"] as? [Any])?.count == 90)
            run = await coldtap(["archive", "verify", "--archive", archive.location])
            #expect(run.status == 0, "\(run.out)\(run.err)")
        }
    }
}
