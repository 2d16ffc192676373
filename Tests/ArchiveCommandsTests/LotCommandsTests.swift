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

    /// Issue 44 item 1: a station site's lot is found by its name alone when one site keeps
    /// it; when two do, the error names them and --site; `lot list` says which sites keep lots.
    @Test(arguments: Engine.allCases)
    func aSitesLotIsFoundByItsNameWhenOneSiteKeepsIt(engine: Engine) async throws {
        try await withArchive(engine) { test in
            let archive = ["--archive", test.location]
            for site in ["depot-north", "depot-south"] {
                let added = await coldtap(["site", "add", site] + archive)
                #expect(added.status == 0, "\(added.err)")
            }
            let add = await coldtap(["lot", "add", "LOT-P2611", "--product", "vvm7", "--by", "QA", "--site", "depot-north"] + archive)
            #expect(add.status == 0, "\(add.err)")
            let move = await coldtap(["lot", "move", "LOT-P2611", "--none", "--at", "2026-12-01T08:00:00Z", "--by", "QA"] + archive)
            #expect(move.status == 0, "\(move.err)")
            #expect(move.out.hasPrefix("Lot 'LOT-P2611' is with nobody's logger from 2026-12-01T08:00:00Z"))
            let status = await coldtap(["lot", "status", "LOT-P2611", "--json", "--at", "2026-12-02T08:00:00Z"] + archive)
            #expect(status.status == 0, "\(status.err)")
            let northStatus = await coldtap(["lot", "status", "LOT-P2611", "--json", "--at", "2026-12-02T08:00:00Z", "--site", "depot-north"] + archive)
            #expect(northStatus.out == status.out)
            let list = await coldtap(["lot", "list"] + archive)
            #expect(list.status == 0)
            #expect(list.out.hasSuffix("\nSites keep lots too: depot-north (1); 'coldtap lot list --site NAME' lists a site's.\n"), "\(list.out)")
            let json = await coldtap(["lot", "list", "--json"] + archive)
            #expect(!json.out.contains("Sites keep"), "\(json.out)")
            // Two sites keep the name: say which.
            let south = await coldtap(["lot", "add", "LOT-P2611", "--product", "vvm7", "--by", "QA", "--site", "depot-south"] + archive)
            #expect(south.status == 0, "\(south.err)")
            let ambiguous = await coldtap(["lot", "close", "LOT-P2611", "--at", "2026-12-02T08:00:00Z", "--reason", "used", "--by", "QA"] + archive)
            #expect(ambiguous.status == 64)
            #expect(
                ambiguous.err.hasPrefix(
                    "coldtap lot: the sites 'depot-north' and 'depot-south' each keep a lot 'LOT-P2611'; say which with --site NAME.\nusage:\n  coldtap lot close LOT"
                ), "\(ambiguous.err)")
            // The archive's own lot of that name is the one meant without --site.
            let own = await coldtap(["lot", "add", "LOT-P2611", "--product", "vvm7", "--by", "QA"] + archive)
            #expect(own.status == 0, "\(own.err)")
            let ownStatus = await coldtap(["lot", "status", "LOT-P2611", "--json", "--at", "2026-12-02T08:00:00Z"] + archive)
            #expect(ownStatus.status == 0 && ownStatus.out != status.out, "\(ownStatus.err)")
            // Kept nowhere: the archive's words, with the way to a site's lots.
            let nowhere = await coldtap(["lot", "status", "LOT-NONE"] + archive)
            #expect(
                nowhere.err
                    == "coldtap lot: there is no lot 'LOT-NONE'. 'coldtap lot list' lists the lots it keeps; 'coldtap lot list --site NAME' a station site's.\n"
            )
        }
    }

    /// Issue 44 item 2: a move or close more than a day ahead is refused as --read-time is,
    /// and nothing is kept.
    @Test(arguments: Engine.allCases)
    func aMoveMoreThanADayAheadIsRefused(engine: Engine) async throws {
        try await withArchive(engine) { test in
            let archive = ["--archive", test.location]
            #expect(await coldtap(["lot", "add", "L1", "--product", "vvm7", "--by", "QA"] + archive).status == 0)
            let later = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 + 30 * 86_400)
            for verb in [["move", "--none"], ["close", "--reason", "used"]] {
                let run = await coldtap(["lot", verb[0], "L1"] + verb.dropFirst() + ["--at", later.isoUTC, "--by", "QA"] + archive)
                #expect(run.status == 64, "\(run.err)")
                #expect(run.err.hasPrefix("coldtap lot: the lot 'L1' cannot \(verb[0]) at \(later.isoUTC), more than a day after now ("), "\(run.err)")
                #expect(run.err.contains("Check the date and its time zone."))
            }
            let status = await coldtap(["lot", "status", "L1", "--json"] + archive)
            let legs = try jsonObject(status.out)["legs"] as? [Any]
            #expect(legs?.isEmpty == true, "\(status.out)")
            // An hour ahead (a clock a little fast) is kept.
            let soon = await coldtap(["lot", "move", "L1", "--none", "--at", Date().addingTimeInterval(3600).isoUTC, "--by", "QA"] + archive)
            #expect(soon.status == 0, "\(soon.err)")
        }
    }
}
