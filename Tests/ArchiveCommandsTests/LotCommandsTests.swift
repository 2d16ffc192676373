import Archive
import ArchiveTestSupport
import ColdTapCommands
import CommandTestSupport
import Foundation
import TestSupport
import Testing

/// `coldtap product`, `products` and `lot` as a user types them, on both engines: the
/// worked example of docs/stability.md from files to the decision.
@Suite struct LotCommandsTests {
    /// Writes the example's loggers' files and product file, keeps them with the command line,
    /// and records the lot's journey; returns the archive's `--archive` arguments.
    static func recordExample(_ test: TestArchive, _ example: StabilityExample) async throws -> [String] {
        let archive = ["--archive", test.location]
        for leg in example.legs {
            guard let logger = leg.logger else { continue }
            let path = test.path("\(logger).ndef")
            try LoggerFiles.hourly(leg.samples).write(to: URL(fileURLWithPath: path))
            let add = await coldtap(["archive", "add", path, "--logger-id", logger] + archive)
            #expect(add.status == 0, "\(add.err)")
        }
        let productPath = test.path("product.json")
        try Data(example.productJSON.utf8).write(to: URL(fileURLWithPath: productPath))
        let product = await coldtap(["product", "add", productPath, "--by", "QA"] + archive)
        #expect(product.status == 0 && product.out.contains("Registered product '\(example.productName)' v1"), "\(product.err)")
        let lot = await coldtap(["lot", "add", example.lot, "--product", example.productName, "--quantity", "200", "--by", "QA"] + archive)
        #expect(lot.status == 0, "\(lot.err)")
        for leg in example.legs {
            let target = leg.logger.map { ["--logger", $0] } ?? ["--none"]
            let move = await coldtap(["lot", "move", example.lot] + target + ["--at", leg.from.isoUTC, "--by", "driver", "--place", "dock"] + archive)
            #expect(move.status == 0, "\(move.err)")
        }
        return archive
    }

    @Test(arguments: Engine.allCases)
    func theWorkedExampleFromTheCommandLine(engine: Engine) async throws {
        let example = try StabilityExample.load()
        try await withArchive(engine) { test in
            let archive = try await Self.recordExample(test, example)
            let run = await coldtap(["lot", "status", example.lot, "--at", example.statusTime.isoUTC, "--json"] + archive)
            #expect(run.status == 0, "\(run.err)")
            let json = try jsonObject(run.out)
            #expect(
                Set(json.keys)
                    == [
                        "lot", "product", "consumed", "consumedBy", "bands", "kineticsConsumed", "unknownSeconds", "legs", "discardEvents", "decision",
                        "reasons",
                    ])
            #expect(abs((json["consumed"] as? Double ?? -1) - (try example.number("consumed"))) < 0.00005)
            #expect(json["consumedBy"] as? String == example.figures["consumedBy"])
            #expect(abs((json["kineticsConsumed"] as? Double ?? -1) - (try example.number("kineticsConsumed"))) < 0.00005)
            #expect(json["unknownSeconds"] as? Int == Int(try example.number("unknownSeconds")))
            #expect(json["decision"] as? String == example.figures["decision"])
            let legs = try #require(json["legs"] as? [[String: Any]])
            #expect(legs.map { $0["logger"] as? String } == example.legs.map(\.logger))
            #expect(legs.first?["from"] as? String == "2026-03-02T08:00:00Z")
            for (leg, figures) in zip(legs, example.legFigures) {
                #expect(abs((leg["consumed"] as? Double ?? -1) - figures.consumed) < 0.00005)
            }
            let bands = try #require(json["bands"] as? [[String: Any]])
            #expect(bands.first?["band"] as? String == "> 8 °C and ≤ 25 °C" && bands.first?["allowanceSeconds"] as? Int == 72 * 3600)

            // In words: the decision, the legs, the reasons.
            let text = await coldtap(["lot", "status", example.lot, "--at", example.statusTime.isoUTC] + archive)
            #expect(text.out.contains(": USABLE") && text.out.contains("(no logger)") && text.out.contains("depot-fridge"), "\(text.out)")
            #expect(text.out.contains("Excursion in leg 3 (logger depot-fridge)"))

            // The report for the reviewer's signature, in three languages.
            for (language, decisionWord) in [("en", "USABLE"), ("zh-Hans", "可用"), ("ja", "使用可")] {
                let folder = test.path("report-\(language)")
                let report = await coldtap(
                    ["lot", "report", example.lot, "--at", example.statusTime.isoUTC, "--lang", language, "--out", folder] + archive)
                #expect(report.status == 0, "\(report.err)")
                let pdf = try Data(contentsOf: URL(fileURLWithPath: folder + "/lot-\(example.lot)-lot-report.pdf"))
                #expect(pdf.starts(with: Data("%PDF".utf8)))
                let html = try String(contentsOfFile: folder + "/lot-\(example.lot)-lot-report.html", encoding: .utf8)
                #expect(html.contains(example.lot) && html.contains("depot-fridge") && html.contains(decisionWord), "\(language)")
            }

            // The moves are leaves; verify holds the archive.
            let verify = await coldtap(["archive", "verify"] + archive)
            #expect(verify.status == 0, "\(verify.out)\(verify.err)")

            // Closed, the lot takes no move; listed, it shows its decision now.
            let close = await coldtap(["lot", "close", example.lot, "--at", example.statusTime.isoUTC, "--reason", "used", "--by", "nurse"] + archive)
            #expect(close.status == 0, "\(close.err)")
            let late = await coldtap(["lot", "move", example.lot, "--none", "--at", example.statusTime.isoUTC, "--by", "x"] + archive)
            #expect(late.status == 64 && late.err.contains("was closed (used)"), "\(late.err)")
            let list = await coldtap(["lot", "list", "--json"] + archive)
            let lots = try #require(try jsonObject(list.out)["lots"] as? [[String: Any]])
            #expect(lots.first?["lot"] as? String == example.lot && lots.first?["decision"] as? String == "USABLE")
        }
    }

    @Test func aFreezeDiscardsTheLotAndWrongInputIsToldPlainly() async throws {
        let example = try StabilityExample.load()
        try await withArchive(.sqlite) { test in
            var frozen = example
            frozen.legs[3].samples[5].celsius = -0.3
            let archive = try await Self.recordExample(test, frozen)
            let run = await coldtap(["lot", "status", example.lot, "--at", example.statusTime.isoUTC, "--json"] + archive)
            let json = try jsonObject(run.out)
            #expect(json["decision"] as? String == "DISCARD")
            let events = try #require(json["discardEvents"] as? [[String: Any]])
            #expect(events.count == 1 && events.first?["rule"] as? String == "≤ 0 °C" && events.first?["temperature"] as? Double == -0.3)

            let badPath = test.path("bad.json")
            try Data(#"{"name": "x", "allowances": [{"above": 8, "upTo": 25}]}"#.utf8).write(to: URL(fileURLWithPath: badPath))
            let bad = await coldtap(["product", "add", badPath, "--by", "QA"] + archive)
            #expect(bad.status == 65 && bad.err.contains("allowances[0]: give exactly one of days, hours, minutes or seconds."), "\(bad.err)")
            let unknown = await coldtap(["lot", "add", "L2", "--product", "nonesuch", "--by", "QA"] + archive)
            #expect(unknown.status != 0 && unknown.err.contains("'coldtap product list'"), "\(unknown.err)")
            let missing = await coldtap(["lot", "status", "nope"] + archive)
            #expect(missing.status != 0 && missing.err.contains("there is no lot 'nope'") && missing.err.contains("'coldtap lot list'"), "\(missing.err)")
            let both = await coldtap(["lot", "move", example.lot, "--none", "--logger", "depot-fridge", "--at", "2026-03-05T00:00:00Z", "--by", "x"] + archive)
            #expect(both.status == 64, "\(both.err)")
            let products = await coldtap(["products"])
            #expect(products.out.contains("vvm14") && products.out.contains("example-2-8"))
            let schema = await coldtap(["products", "--schema"])
            #expect(schema.out.contains("reviewThreshold"))
        }
    }
}
