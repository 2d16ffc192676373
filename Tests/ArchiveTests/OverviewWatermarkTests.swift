import ArchiveKit
import ArchiveTestSupport
import ColdTapKit
import Foundation
import LoggerFormats
import Testing

@testable import Archive

/// The overview's watermark reads which loggers changed from the record's leaves' keys
/// (Sources/Archive/StationStorePages.swift): a logger's id may hold `/`, which also joins a
/// key's fields.
@Suite struct OverviewWatermarkTests {
    @Test(arguments: Engine.allCases)
    func theLeavesAfterAWatermarkNameTheLoggersWholeAndANewGenerationNamesAll(engine: Engine) async throws {
        try await withArchive(engine) { test in
            let archive = try test.open()
            defer { archive.close() }
            let store = try StationStore(archive: archive)
            let site = try store.addSite("north")
            let before = Int64(try archive.recordSize())
            for logger in ["ward/3/fridge", "plain"] {
                let bytes = try LoggerFiles.generic(first: 0, temperatures: LoggerFiles.series(0..<20))
                let log = try await LogInput.load(content: bytes, name: logger, modificationTime: nil, options: LogInput.Options()).log
                _ = try archive.add(
                    NewRead(
                        raw: bytes, inputKind: "ndef", origin: "test", decodeOptions: "{}", log: log, loggerID: logger, profile: .vaccineFridge, timeZone: .gmt)
                )
                _ = try store.claim(loggerID: logger, siteID: site.id)
            }
            #expect(try store.loggersNamed(sinceRecordSize: before) == ["ward/3/fridge", "plain"])
            let middle = Int64(try archive.recordSize())
            _ = try archive.acknowledge(loggerID: "ward/3/fridge", excursionStart: LoggerFiles.start, by: "QA", comment: "checked")
            #expect(try store.loggersNamed(sinceRecordSize: middle) == ["ward/3/fridge"])
            #expect(try store.loggersNamed(sinceRecordSize: Int64(try archive.recordSize())) == [])
            _ = try await archive.redecode(decoder: ArchivedReads.decoder)
            #expect(try store.loggersNamed(sinceRecordSize: middle) == nil, "a new generation changes every row")
        }
    }
}
