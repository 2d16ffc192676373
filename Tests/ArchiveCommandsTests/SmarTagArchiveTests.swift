import Archive
import ArchiveTestSupport
import ColdTapCommands
import CommandTestSupport
import Foundation
import LoggerFormats
import Testing

/// SmarTag reads stitch like the others (docs/smartag.md §7): the logger is known by its tag
/// UID (from the SmarTag2 record's ID field even in a raw dump), and a second read of a
/// wrapped ring adds only the records the first did not hold.
@Suite(.serialized) struct SmarTagArchiveTests {
    static let start: UInt32 = 1_767_225_600  // 2026-01-01T00:00:00Z

    static func dump(after count: Int) -> Data {
        let encoder = SmarTagEncoder.SmarTag2(sampleTime: 600, start: start, sensors: [.init(id: 0, mode: 3, threshold1: 0)])
        let readings = (1...count).map { SmarTagEncoder.SmarTag2.Reading(seconds: UInt32($0) * 600, value: 4 + Double($0 % 20) / 5) }
        return Data(encoder.memory(after: readings))
    }

    @Test(arguments: Engine.allCases)
    func wrappedRingReadTwiceAddsOnlyNewRecords(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            let first = archive.path("first.bin"), second = archive.path("second.bin")
            try Self.dump(after: 1200).write(to: URL(fileURLWithPath: first))
            try Self.dump(after: 1500).write(to: URL(fileURLWithPath: second))
            var run = await coldtap([
                "archive", "add", first, "--archive", archive.location,
                "--read-time", "2026-01-09T08:10:00Z",
            ])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("smartag2:tag-E002260012345678 — read #1: 1014 new samples, 0 duplicates"), "\(run.out)")
            run = await coldtap([
                "archive", "add", second, "--archive", archive.location,
                "--read-time", "2026-01-11T10:10:00Z",
            ])
            #expect(run.status == 0, "\(run.err)")
            // The second ring holds records 487…1500: 714 already kept, 300 new.
            #expect(run.out.contains("read #2: 300 new samples, 714 duplicates, 0 conflicts, no gap before"), "\(run.out)")
            run = await coldtap(["history", "smartag2:tag-E002260012345678", "--archive", archive.location, "--json"])
            #expect(run.status == 0, "\(run.err)")
            let history = try jsonObject(run.out)
            #expect((history["samples"] as? [Any])?.count == 1314)
        }
    }
}
