import Archive
import ArchiveTestSupport
import ColdChain
import ColdTapKit
import Foundation
import LoggerFormats
import TestSupport
import Testing

/// Products, lots and their moves in the archive (docs/stability.md): the worked example
/// through real reads on both engines, kept as leaves and held by `verify`.
@Suite struct LotTests {
    /// Keeps the example's loggers' reads, its product and lot, and its moves as recorded.
    static func keepExample(_ archive: Archive, _ example: StabilityExample) async throws {
        for leg in example.legs {
            guard let logger = leg.logger else { continue }
            let bytes = try LoggerFiles.hourly(leg.samples)
            let log = try await LogInput.load(content: bytes, name: logger, modificationTime: nil, options: LogInput.Options()).log
            _ = try archive.add(
                NewRead(
                    raw: bytes, inputKind: "ndef", origin: "test", decodeOptions: "{}", log: log, loggerID: logger, profile: .vaccineFridge,
                    timeZone: .gmt))
        }
        try archive.addProduct(json: example.productJSON, addedBy: "QA")
        try archive.addLot(example.lot, productName: example.productName, quantity: 200, note: "MMR, 200 vials", by: "QA")
        for leg in example.legs {
            try archive.recordMove(
                lot: example.lot, kind: leg.logger == nil ? .none : .logger, loggerID: leg.logger, at: leg.from, place: "dock", by: "driver",
                origin: "test")
        }
    }

    @Test(arguments: Engine.allCases)
    func theWorkedExampleThroughTheArchive(engine: Engine) async throws {
        let example = try StabilityExample.load()
        try await withArchive(engine) { test in
            let archive = try test.open()
            defer { archive.close() }
            try await Self.keepExample(archive, example)
            let journey = try archive.lotJourney(example.lot, at: example.statusTime)
            let status = journey.status
            #expect(abs(status.consumed - (try example.number("consumed"))) < 0.00005)
            #expect(status.unknownSeconds == (try example.number("unknownSeconds")))
            #expect(status.decision.rawValue == example.figures["decision"])
            #expect(status.legs.map(\.logger) == example.legs.map(\.logger))
            for (leg, figures) in zip(status.legs, example.legFigures) {
                #expect(abs(leg.consumed - figures.consumed) < 0.00005)
                #expect(leg.unknownSeconds == figures.unknownHours * 3600)
            }
            #expect(journey.histories.map { $0 == nil } == [false, true, false, false])
            #expect(journey.lot.quantity == 200 && journey.lot.productVersion == 1)
            // Closing the lot ends the journey there; it takes no more moves.
            try archive.recordMove(lot: example.lot, kind: .close, at: example.statusTime, reason: .used, by: "nurse", origin: "test")
            #expect(try archive.lotJourney(example.lot).status.legs.last?.to == example.statusTime)
            #expect(throws: ArchiveError.self) {
                try archive.recordMove(lot: example.lot, kind: .none, at: example.statusTime, by: "x", origin: "test")
            }
        }
    }

    @Test(arguments: Engine.allCases)
    func movesAreLeavesAndVerifyHoldsThem(engine: Engine) async throws {
        let example = try StabilityExample.load()
        try await withArchive(engine) { test in
            do {
                let archive = try test.open()
                defer { archive.close() }
                try await Self.keepExample(archive, example)
                var kinds: [String] = []
                try archive.engine.query("SELECT kind FROM record_leaves ORDER BY leaf_index", []) { kinds.append($0.text(0)) }
                #expect(kinds.suffix(6) == ["product", "lot", "lot_move", "lot_move", "lot_move", "lot_move"])
            }
            #expect(try await test.verify().problems.isEmpty)
            do {
                let archive = try test.open()
                defer { archive.close() }
                try archive.engine.execute("UPDATE lot_moves SET at_ms = at_ms + 3600000 WHERE move_seq = 2")
            }
            let problems = try await test.verify().problems
            #expect(problems.contains { $0.contains("move #2 of lot \(example.lot) of site #0 was changed after it was kept: at_ms") })
            do {
                let archive = try test.open()
                defer { archive.close() }
                try archive.engine.execute("UPDATE lots SET product_json = REPLACE(product_json, '72', '720')")
            }
            #expect(try await test.verify().problems.contains { $0.contains("lot \(example.lot) of site #0: its product's text was changed") })
        }
    }

    @Test(arguments: Engine.allCases)
    func whatIsRefused(engine: Engine) async throws {
        try await withArchive(engine) { test in
            let archive = try test.open()
            defer { archive.close() }
            func refusal(_ body: () throws -> Void) -> ArchiveError? {
                do { try body() } catch let error as ArchiveError { return error } catch { return nil }
                return nil
            }
            #expect(refusal { try archive.addProduct(json: #"{"name": "vvm14", "kinetics": "vvm7"}"#, addedBy: "x") }?.kind == .invalidRead)
            #expect(
                refusal { try archive.addProduct(json: #"{"name": "p", "allowances": [{"hours": 1}]}"#, addedBy: "x") }?.message.contains("allowances[0]")
                    == true)
            #expect(refusal { try archive.addLot("L1", productName: "nonesuch", by: "x") }?.hint == .listProducts)
            #expect(refusal { try archive.addLot("a lot", productName: "vvm7", by: "x") }?.kind == .invalidRead)
            try archive.addLot("L1", productName: "vvm7", by: "x")
            #expect(refusal { try archive.addLot("L1", productName: "vvm7", by: "x") }?.kind == .conflict, "a lot the site has already")
            // Another site has lots of its own names.
            try archive.addLot("L1", siteID: 7, productName: "vvm7", by: "x")
            #expect(try archive.lots(siteID: 7).map(\.id) == ["L1"])
            #expect(refusal { try archive.recordMove(lot: "L1", kind: .logger, loggerID: "nobody", at: Date(), by: "x", origin: "t") }?.kind == .notFound)
            #expect(refusal { try archive.recordMove(lot: "L2", kind: .none, at: Date(), by: "x", origin: "t") }?.hint == .listLots)
            // Closed, a lot takes no move (a conflict with what is kept); a close before the
            // first move is a close that cannot be.
            let start = Date(timeIntervalSince1970: 1_772_438_400)
            try archive.recordMove(lot: "L1", kind: .none, at: start, by: "x", origin: "t")
            #expect(
                refusal { try archive.recordMove(lot: "L1", kind: .close, at: start.addingTimeInterval(-60), reason: .used, by: "x", origin: "t") }?.kind
                    == .invalidRead)
            try archive.recordMove(lot: "L1", kind: .close, at: start.addingTimeInterval(60), reason: .used, by: "x", origin: "t")
            #expect(refusal { try archive.recordMove(lot: "L1", kind: .none, at: start.addingTimeInterval(120), by: "x", origin: "t") }?.kind == .conflict)
            // A built-in product is kept with the lot as its file's text.
            let lot = try #require(try archive.lot("L1"))
            #expect(lot.productVersion == 0 && lot.product == Product.builtIn(named: "vvm7"))
        }
    }

    /// Issue 44 item 2: a move or close dated more than a day after the recorder's clock is
    /// refused where every door records it (the archive), as a read's time is; a day of slack
    /// is kept for clocks and zones.
    @Test(arguments: Engine.allCases)
    func aMoveOrCloseMoreThanADayAheadIsRefused(engine: Engine) async throws {
        try await withArchive(engine) { test in
            let archive = try test.open()
            defer { archive.close() }
            let now = Date(timeIntervalSince1970: 1_796_601_600)  // 2026-12-07T00:00:00Z
            try archive.addLot("L1", productName: "vvm7", by: "x")
            let ahead = now.addingTimeInterval(LotMoveRecord.latestAhead + 1)
            let move = #expect(throws: ArchiveError.self) {
                try archive.recordMove(lot: "L1", kind: .none, at: ahead, by: "x", origin: "t", now: now)
            }
            #expect(move?.kind == .invalidRead)
            #expect(
                move?.message
                    == "the lot 'L1' cannot move at 2026-12-08T00:00:01Z, more than a day after now (2026-12-07T00:00:00Z): a hand-over or a close is recorded once it happened. Check the date and its time zone."
            )
            // Within the day it is kept; a close beyond it is refused the same way.
            try archive.recordMove(lot: "L1", kind: .none, at: now.addingTimeInterval(LotMoveRecord.latestAhead), by: "x", origin: "t", now: now)
            let close = #expect(throws: ArchiveError.self) {
                try archive.recordMove(lot: "L1", kind: .close, at: ahead.addingTimeInterval(86_400 * 200), reason: .used, by: "x", origin: "t", now: now)
            }
            #expect(close?.message.hasPrefix("the lot 'L1' cannot close at 2027-06-") == true)
            #expect(try archive.lotMoves("L1").count == 1)
        }
    }
}
