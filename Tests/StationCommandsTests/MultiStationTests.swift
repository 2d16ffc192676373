import Archive
import ArchiveTestSupport
import ColdTapBase
import CommandTestSupport
import Digest
import Foundation
import StationTestSupport
import Testing
import TransparencyLog

/// Several stations on one PostgreSQL archive (docs/station-fleet.md): two `coldtap serve`
/// processes take uploads at once, the same logger's reads through both at the same moment
/// and the same bytes twice through different stations, and keep one record.
@Suite(.serialized) struct MultiStationTests {
    /// One upload of the run: which logger, which of its reads, through which station.
    struct Upload: Sendable {
        var logger: Int
        var read: Int
        var station: Int
    }

    /// 40 loggers × 40 uploads: 37 distinct reads each (a day of 10-minute samples, every
    /// read six hours after the one before, so that consecutive reads overlap by 18 hours)
    /// and 3 resends of reads already sent. Uploads go out in pairs, the two of a pair to
    /// different stations: the pair (36, 36) is the same bytes through both stations at the
    /// same moment; the other pairs are two reads of one logger at the same moment.
    static func uploads() -> [Upload] {
        // The resends: the 37th upload repeats the 36th (at the same moment), the last two
        // repeat reads that went through the other station earlier.
        let reads = Array(0..<37) + [36, 1, 12]
        var all: [Upload] = []
        for pair in stride(from: 0, to: reads.count, by: 2) {
            for logger in 0..<40 {
                all.append(Upload(logger: logger, read: reads[pair], station: 0))
                all.append(Upload(logger: logger, read: reads[pair + 1], station: 1))
            }
        }
        return all
    }

    static func body(_ upload: Upload) throws -> Data { try Reads.cold(first: upload.read * 36, count: 144) }

    @Test("two coldtap serve processes on one PostgreSQL keep one record: 1,600 uploads from 16 clients")
    func twoStationsOneRecord() async throws {
        let archive = try TestArchive(.postgresql)
        defer { archive.remove() }
        #expect(await coldtap(["site", "add", "north", "--archive", archive.location]).status == 0)
        let created = await coldtap(["token", "create", "--site", "north", "--scope", "upload", "--archive", archive.location])
        let token = try #require(created.out.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) })
        let key = archive.path("signing-key")
        let origin = try {
            let opened = try archive.open(); defer { opened.close() }; return try opened.recordOrigin()
        }()
        _ = try RecordSigningKey.loadOrCreate(file: key, origin: origin)
        let stations = try (0..<2).map {
            try ServeProcess(["--archive", archive.location, "--signing-key", key], folder: archive.folder, name: "station-\($0)")
        }
        defer { for station in stations { station.stop() } }

        let uploads = Self.uploads()
        #expect(uploads.count == 1600)
        let next = LockedValue(0)
        let answers = try await withThrowingTaskGroup(of: [(Int, Answer)].self) { group in
            for _ in 0..<16 {
                group.addTask {
                    var mine: [(Int, Answer)] = []
                    while true {
                        let index = next.withLock { value -> Int in
                            defer { value += 1 }
                            return value
                        }
                        guard index < uploads.count else { return mine }
                        let upload = uploads[index]
                        let answer = try await request(
                            stations[upload.station].base.appendingPathComponent("api/v1/reads"), method: "POST", token: token,
                            headers: [
                                "Content-Type": "application/octet-stream", UploadHeader.readTime: Reads.readTime(first: upload.read * 36, count: 144),
                                UploadHeader.loggerID: "fleet-\(upload.logger)",
                            ], body: try Self.body(upload))
                        mine.append((index, answer))
                    }
                }
            }
            var all: [(Int, Answer)] = []
            for try await part in group { all += part }
            return all
        }
        #expect(answers.count == 1600)

        // Every upload answered: 201 for the first of each distinct read, 200 for its resends.
        var firstKept: [String: Int] = [:]
        var readIDs: [String: Set<Int>] = [:]
        for (index, answer) in answers {
            #expect(answer.status == 201 || answer.status == 200, "upload \(index): \(answer.status) \(answer.text.prefix(300))")
            guard answer.status == 201 || answer.status == 200 else { continue }
            let read = try #require(try answer.json()["read"] as? [String: Any])
            let sha = try #require(read["sha256"] as? String)
            #expect(sha == SHA256Digest.hex(try Self.body(uploads[index])))
            if answer.status == 201 { firstKept["fleet-\(uploads[index].logger) \(sha)", default: 0] += 1 }
            readIDs["fleet-\(uploads[index].logger) \(sha)", default: []].insert(try #require(read["id"] as? Int))
        }
        #expect(firstKept.count == 40 * 37, "distinct reads answered 201")
        #expect(firstKept.values.allSatisfy { $0 == 1 }, "a read answered 201 twice")
        #expect(readIDs.values.allSatisfy { $0.count == 1 }, "the same bytes were given two read ids")

        // One record per logger, one read per distinct upload, each answered read kept.
        let opened = try archive.open()
        defer { opened.close() }
        #expect(try opened.engine.scalarInt("SELECT COUNT(*) FROM loggers") == 40)
        #expect(try opened.engine.scalarInt("SELECT COUNT(*) FROM site_loggers") == 40)
        #expect(try opened.engine.scalarInt("SELECT COUNT(*) FROM reads") == 40 * 37)
        var kept = Set<String>()
        try opened.engine.query("SELECT logger_id, raw_sha256, read_id FROM reads", []) { kept.insert("\($0.text(0)) \($0.text(1))") }
        #expect(kept == Set(readIDs.keys))
        // Each logger's stitched record: 36 reads six hours apart and a last day, 1,440 samples.
        let store = try StationStore(archive: opened)
        #expect(try store.counts().samples == 40 * (36 * 36 + 144))
        for logger in 0..<40 {
            let summary = try #require(try store.summary(loggerID: "fleet-\(logger)"))
            #expect(summary.readCount == 37)
            #expect(summary.firstSample == Reads.start)
            #expect(summary.lastSample == Reads.start.addingTimeInterval(Double((36 * 36 + 143) * Reads.interval)))
        }

        // The record is one sequence, and both stations sign the same checkpoint of it.
        let size = try opened.recordSize()
        #expect(try opened.engine.scalarInt("SELECT COUNT(*) FROM record_leaves") == Int64(size))
        var notes: [String] = []
        for station in stations {
            let answer = try await request(station.base.appendingPathComponent("api/v1/checkpoint"), token: token)
            #expect(answer.status == 200, "\(answer.text)")
            notes.append(try #require(try answer.json()["checkpoint"] as? String))
        }
        #expect(notes[0] == notes[1], "the two stations sign different checkpoints")
        let checkpoint = try Checkpoint(text: try SignedNote(parsing: Data(notes[0].utf8)).text)
        #expect(checkpoint.treeSize == size)
        let verify = await coldtap(["archive", "verify", "--archive", archive.location, "--signing-key", key])
        #expect(verify.status == 0, "\(verify.out)\(verify.err)")
        for station in stations {
            #expect(!station.log.contains("\"status\":5"), "a station answered 5xx: \(station.log.suffix(2000))")
        }
    }
}
