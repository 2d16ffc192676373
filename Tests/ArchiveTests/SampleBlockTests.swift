import ArchiveTestSupport
import ColdTapKit
import Digest
import Foundation
import TestSupport
import Testing

@testable import Archive

/// The packing of a read's samples (`SampleBlock`), a damaged block in a kept archive, and
/// the move of a version-1 archive's sample rows into blocks.
@Suite struct SampleBlockTests {
    private func samples(_ count: Int, flagKinds: Int = 1, humidity: Bool = false) -> [StoredSample] {
        (0..<count).map { (index: Int) -> StoredSample in
            let time: Int64 = 1_767_225_600_000 + Int64(index) * 600_000
            let temperature: Double? = index % 7 == 3 ? nil : Double(index % 90) / 10 - 2
            var moisture: Double?
            if humidity, index % 5 != 0 { moisture = 40 + Double(index % 20) }
            let flags = flagKinds == 1 ? "" : "flag\(index % flagKinds)"
            return StoredSample(time: time, temperature: temperature, humidity: moisture, flags: flags, readID: 7)
        }
    }

    /// The samples digest kept in every read's chained row: its bytes may never change, or
    /// `archive verify` would fail every archive kept before. The expected value is SHA-256
    /// over the layout written out by hand (tag, time, presence byte and bits per value,
    /// flag text, NUL), computed outside ColdTap.
    @Test func samplesDigestKeepsItsLayout() {
        var digest = SamplesDigest(capacity: 3)
        digest.addSample(timeMilliseconds: 1_767_225_600_000, temperature: 5.0, humidity: nil, flags: "")
        digest.addSample(timeMilliseconds: 1_767_226_200_000, temperature: -18.25, humidity: 61.5, flags: "sensorError;estimatedTime")
        digest.addConflict(timeMilliseconds: 1_767_226_800_000, temperature: nil, humidity: nil, flags: "")
        #expect(digest.hex == "a27c88a34af26e1c45d854c2914646e8828bfef19ce291ae15b7debc447b9d6e")
        #expect(SamplesDigest().hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test(arguments: [(0, 1, false), (1, 1, false), (4000, 1, false), (500, 3, true), (1000, 300, true)])
    func blocksGiveBackWhatWasPacked(count: Int, flagKinds: Int, humidity: Bool) throws {
        let original = samples(count, flagKinds: flagKinds, humidity: humidity)
        let block = SampleBlock.encode(original)
        #expect(try SampleBlock.decode(block, readID: 7) == original)
    }

    /// Stitching asks a block for a time range only: the same samples as decoding it whole
    /// and filtering, bounds included, for ranges inside, around, between and beyond samples.
    @Test(arguments: [(1, 1, false), (300, 1, false), (300, 3, true), (700, 300, true)])
    func aRangeOfABlockIsTheRangeOfItsSamples(count: Int, flagKinds: Int, humidity: Bool) throws {
        let original = samples(count, flagKinds: flagKinds, humidity: humidity)
        let block = SampleBlock.encode(original)
        var random = SeededGenerator(seed: 0x5A17)
        let first = original[0].time, last = original[count - 1].time
        var ranges: [(Int64, Int64)] = [
            (.min, .max), (first, last), (first, first), (last, last), (last + 1, .max),
            (.min, first - 1), (first + 1, first + 599_999), (last, first),
        ]
        for _ in 0..<200 {
            let a = Int64.random(in: (first - 1_200_000)...(last + 1_200_000), using: &random)
            let b = Int64.random(in: a...(last + 1_800_000), using: &random)
            ranges.append((a, b))
        }
        for (low, high) in ranges {
            let part = try SampleBlock.decode(block, readID: 7, from: low, to: high)
            #expect(part == original.filter { $0.time >= low && $0.time <= high }, "range \(low)...\(high)")
            var kept = KeptSamples()
            try SampleBlock.decode(block, readID: 7, from: low, to: high, appendingTo: &kept)
            #expect(kept.rows == part, "range \(low)...\(high) as columns")
        }
    }

    @Test func keptColumnsOfInterleavedBlocksAreSortedByTime() throws {
        let all = samples(60, flagKinds: 3, humidity: true)
        let even = all.enumerated().filter { $0.offset % 2 == 0 }.map {
            StoredSample(time: $0.element.time, temperature: $0.element.temperature, humidity: $0.element.humidity, flags: $0.element.flags, readID: 2)
        }
        let odd = all.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        var kept = KeptSamples()
        try SampleBlock.decode(SampleBlock.encode(odd), readID: 7, from: .min, to: .max, appendingTo: &kept)
        try SampleBlock.decode(SampleBlock.encode(even), readID: 2, from: .min, to: .max, appendingTo: &kept)
        kept.sortByTime()
        #expect(kept.rows == (even + odd).sorted { $0.time < $1.time })
    }

    /// Each block has flag texts of its own; the kept columns name them from one list, so a
    /// text shared by two blocks, or the only text of a block, reads back as it was.
    @Test func keptColumnsKeepEachBlocksFlagTexts() throws {
        let many = samples(30, flagKinds: 3)
        let one = samples(60, flagKinds: 1).suffix(20).map {
            StoredSample(time: $0.time, temperature: $0.temperature, humidity: $0.humidity, flags: "flag2", readID: 4)
        }
        let none = samples(90).suffix(20).map { StoredSample(time: $0.time, temperature: $0.temperature, humidity: nil, flags: "", readID: 5) }
        var kept = KeptSamples()
        for (block, readID) in [(many, Int64(7)), (Array(one), 4), (Array(none), 5)] {
            try SampleBlock.decode(SampleBlock.encode(block), readID: readID, from: .min, to: .max, appendingTo: &kept)
        }
        #expect(kept.rows == many + one + none)
        #expect(kept.flagTexts.sorted() == ["", "flag0", "flag1", "flag2"])
    }

    @Test func aRangeStillChecksTheWholeBlock() throws {
        var unordered = samples(300)
        unordered.swapAt(250, 251)
        let block = SampleBlock.encode(unordered)
        let error = try #require(throws: SampleBlock.DamagedBlock.self) {
            try SampleBlock.decode(block, readID: 1, from: unordered[0].time, to: unordered[10].time)
        }
        #expect(error.description.contains("sample 251"))
        var badEntry = SampleBlock.encode(samples(40, flagKinds: 3))
        badEntry[badEntry.count - 1] = 9
        #expect(throws: SampleBlock.DamagedBlock.self) { try SampleBlock.decode(badEntry, readID: 1, from: .min, to: .min + 1) }
    }

    /// The gap check answers from the kept samples when one of them is older than the read,
    /// and asks the archive only when none is (older samples are not among them then).
    @Test func theNewestKeptTimeBeforeAReadComesFromTheKeptSamplesOnlyWhenTheyReachBackFarEnough() {
        let kept = samples(10).map(\.time)  // 600 s apart from t0
        let t0 = kept[0]
        #expect(Archive.newestKeptTime(before: t0 + 1_500_000, among: kept, keptFrom: t0 - 600_000) == t0 + 1_200_000)
        #expect(Archive.newestKeptTime(before: t0 + 1_200_000, among: kept, keptFrom: t0 - 600_000) == t0 + 600_000)
        #expect(Archive.newestKeptTime(before: t0, among: kept, keptFrom: t0 - 600_000) == nil)
        #expect(Archive.newestKeptTime(before: t0 + 1, among: [], keptFrom: t0) == nil)
        // A read starting before what was asked for: the kept samples cannot answer.
        #expect(Archive.newestKeptTime(before: t0 + 600_000, among: kept, keptFrom: t0 + 700_000) == nil)
    }

    /// Blocks kept by earlier versions must still read, and a block written now must be the
    /// same bytes: the expected hex was assembled outside ColdTap (Python) from the layout in
    /// docs/archive-engines.md. The flag dictionary starts at the second sample, as stitching
    /// meets it (a sample with flags after one without).
    @Test func blocksKeepTheirLayout() throws {
        let t0: Int64 = 1_767_225_600_000
        let samples = [
            StoredSample(time: t0, temperature: 5.0, humidity: nil, flags: "", readID: 1),
            StoredSample(time: t0 + 600_000, temperature: nil, humidity: 61.5, flags: "sensorError", readID: 1),
            StoredSample(time: t0 + 1_200_000, temperature: -18.25, humidity: nil, flags: "", readID: 1),
        ]
        let expected =
            "010103000000020000000b0073656e736f724572726f7200a8da769b010000c0cfe3769b01000080f7ec769b0100000000000000001440"
            + "907a1dc00000f87f00000000004032c0907a1dc00000f87f0000000000c04e40907a1dc00000f87f000100"
        let block = SampleBlock.encode(samples)
        #expect(block.map { String(format: "%02x", $0) }.joined() == expected)
        var columns = SampleColumns()
        for sample in samples {
            columns.append(time: sample.time, temperature: sample.temperature, humidity: sample.humidity, flags: sample.flags)
        }
        #expect(SampleBlock.encode(columns) == block)
        #expect((0..<3).map { columns.sample(at: $0, readID: 1) } == samples)
        #expect(try SampleBlock.decode(block, readID: 1) == samples)
        // Stitching digests the columns, verify the decoded samples: the same bytes.
        var fromColumns = SamplesDigest(), fromSamples = SamplesDigest()
        fromColumns.addSamples(columns)
        fromSamples.addSamples(samples)
        #expect(fromColumns.hex == fromSamples.hex)
    }

    @Test func aBlockIsSmallerThanRows() {
        // Times and temperatures only: 16 bytes a sample and a small header.
        #expect(SampleBlock.encode(samples(4000)).count == 8 + 2 + 16 * 4000)
    }

    @Test(.tags(.slow)) func everyTruncationAndStrayByteIsADamagedBlockNamingItsOffset() throws {
        let block = SampleBlock.encode(samples(40, flagKinds: 3, humidity: true))
        for length in 0..<block.count {
            #expect(throws: SampleBlock.DamagedBlock.self) { try SampleBlock.decode(block.prefix(length), readID: 1) }
        }
        #expect(throws: SampleBlock.DamagedBlock.self) { try SampleBlock.decode(block + [0], readID: 1) }
        var wrongVersion = block
        wrongVersion[0] = 9
        #expect(throws: SampleBlock.DamagedBlock.self) { try SampleBlock.decode(wrongVersion, readID: 1) }
        // Random damage never crashes: it decodes to something or names where it stops.
        var random = SeededGenerator(seed: 0xB10C)
        for _ in 0..<2000 {
            var damaged = block
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            do {
                _ = try SampleBlock.decode(damaged, readID: 1)
            } catch let damage as SampleBlock.DamagedBlock {
                #expect(damage.offset >= 0 && damage.offset <= damaged.count)
            }
        }
    }

    @Test func timesThatDoNotAscendAreRefused() throws {
        var unordered = samples(3)
        unordered.swapAt(1, 2)
        let error = try #require(throws: SampleBlock.DamagedBlock.self) { try SampleBlock.decode(SampleBlock.encode(unordered), readID: 1) }
        #expect(error.description.contains("byte 26"))
    }

    @Test func chainHashesEscapeFieldsAsArchivesKeptThemBefore() {
        // Rows kept by earlier versions were hashed from this text; the byte-wise escaping must give the same.
        let fields = ["plain", "a\\b", "line\nbreak", "\\n", "", "日本語 °C"]
        var text = "read"
        for field in fields + ["prev"] {
            text += "\n" + field.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
        }
        #expect(HashChain.hash(kind: "read", fields: fields, previous: "prev") == SHA256Digest.hex(text: text))
    }

    @Test(arguments: Engine.allCases)
    func aDamagedBlockIsNamedByVerifyAndHistory(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            let files = try [(0..<40), (30..<70)].enumerated().map { index, range in
                try LoggerFiles.writeGeneric(archive, "r\(index).ndef", range)
            }
            let opened = try archive.open()
            for file in files {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
                let log = try await LogInput.load(content: bytes, name: file, modificationTime: nil, options: LogInput.Options()).log
                _ = try opened.add(
                    NewRead(
                        raw: bytes, inputKind: "ndef", origin: "test", decodeOptions: "{}", log: log, loggerID: "D", profile: .vaccineFridge,
                        timeZone: .gmt))
            }
            var block = Data()
            try opened.engine.query("SELECT samples FROM sample_blocks WHERE read_id = 2", []) { block = $0.blob(0) }
            try opened.engine.execute("UPDATE sample_blocks SET samples = $1 WHERE read_id = 2", [.blob(block.prefix(block.count - 5))])
            opened.close()
            let verify = try await archive.verify()
            #expect(
                verify.problems.contains { $0.contains("read #2 of D: the samples read #2 of D added (generation 1) are damaged at byte ") },
                "\(verify.problems)")
            let reopened = try archive.open()
            defer { reopened.close() }
            #expect {
                _ = try reopened.history(loggerID: "D")
            } throws: { error in
                "\(error)".contains("are damaged at byte")
            }
            // The read before it is untouched and still verifies: only read #2 is named.
            #expect(!verify.problems.contains { $0.contains("read #1 of D") }, "\(verify.problems)")
        }
    }

    @Test(arguments: Engine.allCases)
    func aVersionOneArchiveHasItsSampleRowsMovedIntoBlocks(engine: Engine) async throws {
        try await withArchive(engine) { archive in
            let location = archive.location
            let connection: any ArchiveEngine =
                PostgreSQLEngine.isURI(location)
                ? try PostgreSQLEngine(uri: location) : try SQLiteEngine(path: location, create: true)
            try Migrations.apply(to: connection, upTo: 1)
            try connection.execute(
                "INSERT INTO loggers (logger_id, format, serial, tag_uid, vendor, model, first_read_id) VALUES ('M', 'generic16', NULL, NULL, NULL, NULL, 1)")
            let rows: [(Int64, Double?, Double?, String, Int64)] = [
                (1_000, 4.5, nil, "", 1), (2_000, nil, nil, "sensor-error", 1), (3_000, 5.5, 41, "", 2), (4_000, 6, nil, "out-of-range", 2),
            ]
            for (time, temperature, humidity, flags, read) in rows {
                try connection.execute(
                    "INSERT INTO samples (logger_id, generation, time_ms, temperature, humidity, flags, read_id) VALUES ('M', 1, $1, $2, $3, $4, $5)",
                    [.int(time), .optional(temperature), .optional(humidity), .text(flags), .int(read)])
            }
            connection.close()

            let opened = try Archive.open(location)
            defer { opened.close() }
            #expect(try Migrations.currentVersion(opened.engine) == Migrations.latestVersion)
            #expect(try !opened.engine.tableExists("samples"))
            #expect(try opened.engine.scalarInt("SELECT COUNT(*) FROM sample_blocks") == 2)
            let kept = try opened.storedSamples(loggerID: "M", generation: 1, from: .min, to: .max)
            #expect(kept == rows.map { StoredSample(time: $0.0, temperature: $0.1, humidity: $0.2, flags: $0.3, readID: $0.4) })
        }
    }
}

extension KeptSamples {
    /// The columns as samples, for comparing.
    var rows: [StoredSample] {
        (0..<count).map {
            StoredSample(time: times[$0], temperature: temperature(at: $0), humidity: humidity(at: $0), flags: flags(at: $0), readID: readIDs[$0])
        }
    }
}
