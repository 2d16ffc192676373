import Archive
import ArchiveTestSupport
import ColdTapKit
import Foundation
import LoggerFormats
import Testing

/// Several reads kept in one transaction (the station's group commit), each under its own
/// savepoint: one that fails is rolled back alone, the others are kept, the chain holds.
@Suite struct WriteEachTests {
    func read(_ logger: String, first: Int) async throws -> NewRead {
        let bytes = try LoggerFiles.generic(first: first, temperatures: LoggerFiles.series(first..<(first + 40)))
        let log = try await LogInput.load(content: bytes, name: logger, modificationTime: nil, options: LogInput.Options()).log
        return NewRead(
            raw: bytes, inputKind: "ndef", origin: "test", decodeOptions: "{}", log: log, loggerID: logger,
            profile: .vaccineFridge, timeZone: .gmt)
    }

    struct Refused: Error {}

    @Test(arguments: Engine.allCases)
    func aFailingReadIsRolledBackAloneAndTheOthersAreKept(engine: Engine) async throws {
        try await withArchive(engine) { test in
            let archive = try test.open()
            defer { archive.close() }
            let first = try Archive.prepare(try await read("A", first: 0))
            let second = try Archive.prepare(try await read("B", first: 0))
            let third = try Archive.prepare(try await read("A", first: 20))
            let results = archive.engine.writeEach([
                { transaction in try archive.keep(first, in: transaction) },
                // Writes, then fails: its writes must not stay.
                { transaction in
                    _ = try archive.keep(second, in: transaction); throw Refused()
                },
                { transaction in try archive.keep(third, in: transaction) },
                // The same bytes again in the same transaction: the first one's read.
                { transaction in try archive.keep(first, in: transaction) },
            ])
            #expect(results.count == 4)
            let kept = try results[0].get()
            #expect(kept.newSamples == 40 && !kept.alreadyKept)
            #expect(throws: Refused.self) { try results[1].get() }
            let overlapping = try results[2].get()
            #expect(overlapping.newSamples == 20 && overlapping.duplicates == 20)
            #expect(try results[3].get().alreadyKept && (try results[3].get().readID) == kept.readID)
            #expect(try archive.logger("B") == nil)
            #expect(try archive.history(loggerID: "A").samples.count == 60)
            #expect(try archive.chainHead().length == 2)
            let verified = try await test.verify()
            #expect(verified.problems.isEmpty, "\(verified.problems)")
        }
    }

    @Test(arguments: Engine.allCases)
    func aDeferredWriteThatFailsFailsItsOwnReadOnly(engine: Engine) async throws {
        try await withArchive(engine) { test in
            let archive = try test.open()
            defer { archive.close() }
            let first = try Archive.prepare(try await read("A", first: 0))
            let second = try Archive.prepare(try await read("B", first: 0))
            let third = try Archive.prepare(try await read("C", first: 0))
            // On PostgreSQL the writes of a read go out together after it (one pipeline): the
            // failing one is found there, and only its read is rolled back.
            let results = archive.engine.writeEach([
                { transaction in try archive.keep(first, in: transaction) },
                { transaction in
                    let kept = try archive.keep(second, in: transaction)
                    // A second chain head: refused when it runs (the statement itself prepares).
                    try archive.engine.executeDeferred("INSERT INTO chain_head (id, seq, hash, next_read_id) VALUES ($1, 0, $2, 1)", [.int(1), .text("x")])
                    return kept
                },
                { transaction in try archive.keep(third, in: transaction) },
            ])
            #expect((try? results[0].get()) != nil)
            #expect((try? results[1].get()) == nil)
            if case .failure(let error as ArchiveError) = results[1] { #expect(error.message.contains("chain_head")) }
            #expect((try? results[2].get()) != nil)
            #expect(try archive.logger("B") == nil)
            #expect(try archive.logger("A") != nil && archive.logger("C") != nil)
            #expect(try archive.chainHead().length == 2)
            let verified = try await test.verify()
            #expect(verified.problems.isEmpty, "\(verified.problems)")
        }
    }

    @Test(arguments: Engine.allCases)
    func aTransactionThatCannotBeginFailsEveryRead(engine: Engine) async throws {
        try await withArchive(engine) { test in
            let archive = try test.open()
            let prepared = try Archive.prepare(try await read("A", first: 0))
            archive.close()
            // A closed connection: nothing can begin, every work gets the error, nothing is kept.
            let results = archive.engine.writeEach([
                { transaction in try archive.keep(prepared, in: transaction) }, { transaction in try archive.keep(prepared, in: transaction) },
            ])
            #expect(results.count == 2)
            for result in results { #expect(throws: (any Error).self) { try result.get() } }
            let reopened = try test.open()
            defer { reopened.close() }
            #expect(try reopened.chainHead().length == 0)
        }
    }
}
