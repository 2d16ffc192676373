import Foundation
import LoggerFormats
import TestSupport
import Testing

@testable import ColdChain

/// A log of hourly samples (time, °C) as a logger would give it.
func hourlyLog(_ samples: [(time: Date, celsius: Double)]) -> TemperatureLog {
    TemperatureLog(
        format: "test", samples: samples.map { TemperatureLog.Sample(time: $0.time, temperature: $0.celsius) }, interval: 3600,
        timeBase: .loggerHeader, integrity: .init(status: .verified, detail: "test"), readTime: samples.last?.time ?? t0)
}

/// docs/stability.md §5, built from the document and held to the figures it states.
@Suite struct StabilityWorkedExampleTests {
    static func legs(_ example: StabilityExample, changing change: (inout [StabilityExample.Leg]) -> Void = { _ in }) -> [LotLeg] {
        var described = example.legs
        change(&described)
        return described.map { leg in
            LotLeg(logger: leg.logger, from: leg.from, to: leg.to, log: leg.logger == nil ? nil : hourlyLog(leg.samples))
        }
    }

    @Test func theDocumentedFiguresAndDecision() throws {
        let example = try StabilityExample.load()
        let product = try Product.fromJSON(Data(example.productJSON.utf8))
        let status = LotEvaluation.status(lot: example.lot, product: product, legs: Self.legs(example), at: example.statusTime)
        #expect(abs(status.consumed - (try example.number("consumed"))) < 0.00005)
        #expect(status.consumedBy.rawValue == example.figures["consumedBy"])
        #expect(abs((status.kineticsConsumed ?? -1) - (try example.number("kineticsConsumed"))) < 0.00005)
        #expect(status.unknownSeconds == (try example.number("unknownSeconds")))
        #expect(abs(status.worstCaseConsumed - (try example.number("worst case"))) < 0.00005)
        #expect(status.decision.rawValue == example.figures["decision"])
        #expect(status.legs.count == example.legFigures.count)
        for (leg, figures) in zip(status.legs, example.legFigures) {
            #expect(abs(leg.consumed - figures.consumed) < 0.00005)
            #expect(abs((leg.kineticsConsumed ?? -1) - figures.kinetics) < 0.00005)
            #expect(leg.unknownSeconds == figures.unknownHours * 3600)
        }
        #expect(status.bands.map(\.seconds) == [18 * 3600, 3 * 3600])
        #expect(status.discardEvents.isEmpty)
        // The reasons name the biggest consumers: the depot's 3 h at 27 °C first.
        let english = status.reasons.map { $0.english(in: utc) }
        #expect(english.contains { $0.hasPrefix("Consumed 0.5 of the stability budget by the allowances") })
        let excursion = try #require(status.reasons.first { if case .excursion = $0 { return true } else { return false } })
        guard case .excursion(let first, let logger) = excursion else { return }
        #expect(logger == "depot-fridge" && first.seconds == 3 * 3600 && first.peak == 27 && abs(first.consumed - 0.25) < 1e-9)
        #expect(english.contains { $0.contains("2 h of the journey is unknown: 2 h of leg 2 (no logger);") })
    }

    /// Issue 44 item 3: the unknown time is told leg by leg, each with its own share: a short
    /// unlogged hand-over is not named for the hours a logged leg has no samples for.
    @Test func eachLegIsNamedWithItsOwnUnknownTime() throws {
        let example = try StabilityExample.load()
        let product = try Product.fromJSON(Data(example.productJSON.utf8))
        let legs = Self.legs(example) { legs in
            // The clinic's logger stops 5 hours before the status time.
            legs[3].samples.removeLast(5)
        }
        let status = LotEvaluation.status(lot: example.lot, product: product, legs: legs, at: example.statusTime)
        let reason = try #require(status.reasons.first { if case .unknownTime = $0 { return true } else { return false } })
        guard case .unknownTime(let seconds, let unknownLegs, _, _, _) = reason else { return }
        #expect(unknownLegs.map(\.leg) == status.legs.indices.filter { status.legs[$0].unknownSeconds > 0 })
        #expect(unknownLegs.map(\.seconds) == unknownLegs.map { status.legs[$0.leg].unknownSeconds })
        #expect(unknownLegs.map(\.seconds).reduce(0, +) == seconds)
        #expect(unknownLegs.first?.leg == 1 && unknownLegs.first?.seconds == 2 * 3600)
        #expect(unknownLegs.last?.leg == 3 && unknownLegs.last?.logger == "clinic-fridge")
        let text = reason.english(in: utc)
        #expect(text.contains(": 2 h of leg 2 (no logger), "), "\(text)")
        #expect(text.contains(" of leg 4 (logger clinic-fridge)"), "\(text)")
    }

    @Test func aLongerUnloggedHandOverMakesItInconclusive() throws {
        let example = try StabilityExample.load()
        let product = try Product.fromJSON(Data(example.productJSON.utf8))
        // The hand-over takes 5 h: the depot leg starts 3 h later (its samples stay; the
        // first 3 h of them, at 5 °C, fall before it).
        let legs = Self.legs(example) { legs in
            legs[1].to.addTimeInterval(3 * 3600)
            legs[2].from.addTimeInterval(3 * 3600)
        }
        let status = LotEvaluation.status(lot: example.lot, product: product, legs: legs, at: example.statusTime)
        #expect(abs(status.worstCaseConsumed - (0.5 + 5.0 / 12)) < 1e-9)
        #expect(abs(status.consumed - 0.5) < 1e-9)
        #expect(status.decision == .inconclusive)
        #expect(status.reasons.last?.english(in: utc).hasSuffix("which decides: REVIEW instead.") == true)
    }

    @Test func aFreezeDiscardsAFreezeSensitiveProductAtOnce() throws {
        let example = try StabilityExample.load()
        let product = try Product.fromJSON(Data(example.productJSON.utf8))
        let legs = Self.legs(example) { legs in
            legs[3].samples[2].celsius = 0
            legs[3].samples[3].celsius = -0.5
        }
        let status = LotEvaluation.status(lot: example.lot, product: product, legs: legs, at: example.statusTime)
        #expect(status.decision == .discard)
        #expect(status.discardEvents.count == 1)
        let event = try #require(status.discardEvents.first)
        #expect(event.leg == 3 && event.temperature == -0.5 && event.rule == Threshold(.lessThanOrEqual, 0))
        #expect(event.time == example.legs[3].samples[2].time)
        #expect(status.reasons.first?.english(in: utc).hasPrefix("Discard limit ≤ 0 °C met in leg 4 (logger clinic-fridge)") == true)
    }
}

@Suite struct StabilityModelTests {
    @Test func theVVMModelsPassThroughTheirPoints() throws {
        for (name, hot, cold) in [("vvm30", 30.0, 193.0), ("vvm14", 14, 90), ("vvm7", 7, 45)] {
            let model = try #require(Product.Kinetics.builtIn(named: name))
            #expect(abs(model.lifeSeconds(at: 37) / 86_400 - hot) < 1e-9)
            #expect(abs(model.lifeSeconds(at: 25) / 86_400 - cold) < 1e-9)
        }
        let vvm2 = try #require(Product.Kinetics.builtIn(named: "vvm2"))
        #expect(abs(vvm2.lifeSeconds(at: 5) / 86_400 - 225) < 1e-9)
        #expect(vvm2.lifeSeconds(at: 40) < vvm2.lifeSeconds(at: 37))
    }

    @Test func kineticsCountStorageTimeAndAllowancesDoNot() throws {
        let product = try #require(Product.builtIn(named: "vvm14"))
        // 14 days at 37 °C is the whole life.
        let samples = (0..<(14 * 24)).map { (time: t0.addingTimeInterval(Double($0) * 3600), celsius: 37.0) }
        let legs = [LotLeg(logger: "a", from: t0, to: t0.addingTimeInterval(14 * 86_400), log: hourlyLog(samples))]
        let status = LotEvaluation.status(lot: "L", product: product, legs: legs, at: legs[0].to)
        #expect(abs(status.consumed - 1) < 1e-9)
        #expect(status.consumedBy == .kinetics)
        #expect(status.decision == .discard)
    }

    @Test func bandEdgesFollowTheWordsOfTheFile() throws {
        let product = try Product.fromJSON(
            Data(#"{"name": "p", "allowances": [{"above": 8, "upTo": 25, "hours": 1}, {"above": 25, "below": 30, "hours": 1}]}"#.utf8))
        #expect(product.allowanceIndex(of: 8) == nil)
        #expect(product.allowanceIndex(of: 8.1) == 0)
        #expect(product.allowanceIndex(of: 25) == 0)
        #expect(product.allowanceIndex(of: 25.1) == 1)
        #expect(product.allowanceIndex(of: 30) == nil)
        #expect(product.allowances.map(\.name) == ["> 8 °C and ≤ 25 °C", "> 25 °C and < 30 °C"])
    }

    @Test(arguments: [
        (#"{"name": "p"}"#, "", "no stability data"),
        (#"{"name": "p", "allowances": [{"above": 8, "upTo": 25, "hours": 1}, {"atOrAbove": 25, "hours": 2}]}"#, "allowances[1]", "overlaps"),
        (#"{"name": "p", "allowances": [{"above": 8, "upTo": 25, "hours": 1, "minutes": 3}]}"#, "allowances[0].minutes", "exactly one"),
        (#"{"name": "p", "allowances": [{"hours": 1}]}"#, "allowances[0]", "no edge"),
        (#"{"name": "p", "allowances": [{"above": 8, "uptoo": 25, "hours": 1}]}"#, "allowances[0].uptoo", "unknown field"),
        (#"{"name": "p", "discard": [{"above": 30, "below": 0}]}"#, "discard[0].below", "only one"),
        (#"{"name": "p", "kinetics": "vvm99"}"#, "kinetics", "not a built-in model"),
        (#"{"name": "p", "kinetics": {"points": [{"celsius": 37, "days": 90}, {"celsius": 25, "days": 14}]}}"#, "kinetics.points", "fewer at the hotter"),
        (#"{"name": "p", "kinetics": "vvm2", "reviewThreshold": 1.5}"#, "reviewThreshold", "fraction"),
        (#"{"name": "a b", "kinetics": "vvm2"}"#, "name", "not a product name"),
        (#"{"name": "p", "kinetics": "vvm2""#, "", "not valid JSON"),
    ])
    func aWrongFileIsRefusedNamingTheField(json: String, field: String, message: String) {
        #expect {
            try Product.fromJSON(Data(json.utf8))
        } throws: { error in
            guard let error = error as? ProductError else { return false }
            return error.field == field && error.message.contains(message)
        }
    }

    @Test func legsRunFromMoveToMoveAndStopAtTheEnd() {
        let moves = [LotMove(logger: "b", at: at(4)), LotMove(logger: "a", at: at(0)), LotMove(logger: nil, at: at(2)), LotMove(logger: "c", at: at(9))]
        let legs = LotLeg.legs(of: moves, until: at(6))
        #expect(legs.map(\.logger) == ["a", nil, "b"])
        #expect(legs.map(\.from) == [at(0), at(2), at(4)])
        #expect(legs.map(\.to) == [at(2), at(4), at(6)])
    }

    @Test func timeAfterTheNewestReadAndGapsAreUnknown() throws {
        let product = try #require(Product.builtIn(named: "example-2-8"))
        // 10 hourly samples, the 5th missing; the leg runs 2 h past the last sample's hour.
        var samples = (0..<10).map { TemperatureLog.Sample(time: t0.addingTimeInterval(Double($0) * 3600), temperature: 5) }
        samples[4] = TemperatureLog.Sample(time: samples[4].time, temperature: nil, flags: [.missing])
        let log = TemperatureLog(
            format: "test", samples: samples, interval: 3600, timeBase: .loggerHeader, integrity: .init(status: .verified, detail: "test"),
            readTime: t0)
        let to = t0.addingTimeInterval(12 * 3600)
        let status = LotEvaluation.status(lot: "L", product: product, legs: [LotLeg(logger: "a", from: t0, to: to, log: log)], at: to)
        #expect(status.unknownSeconds == 3 * 3600)
        #expect(status.decision == .usable)  // 3 h in the 12 h band: 0.25 at worst
    }

    @Test func aFailedIntegrityCheckMakesTheLotInconclusive() throws {
        let product = try #require(Product.builtIn(named: "example-2-8"))
        let samples = (0..<4).map { (time: t0.addingTimeInterval(Double($0) * 3600), celsius: 5.0) }
        let leg = LotLeg(logger: "a", from: t0, to: t0.addingTimeInterval(4 * 3600), log: hourlyLog(samples), integrityFailed: true)
        let status = LotEvaluation.status(lot: "L", product: product, legs: [leg], at: leg.to)
        #expect(status.decision == .inconclusive)
        #expect(status.reasons.first == .integrityFailed(logger: "a"))
    }

    @Test func aLotWithNoJourneyIsInconclusive() throws {
        let status = LotEvaluation.status(lot: "L", product: try #require(Product.builtIn(named: "vvm7")), legs: [], at: t0)
        #expect(status.decision == .inconclusive)
        #expect(status.reasons.first == .noJourney)
    }
}

@Suite struct ProductJSONRoundTripTests {
    @Test func everyBuiltInProductReadsBackFromItsJSON() throws {
        for product in Product.builtIn {
            #expect(try Product.fromJSON(Data(product.jsonText.utf8)) == product)
        }
        let given = try Product.fromJSON(
            Data(
                #"{"name": "x", "allowances": [{"atOrAbove": 8.5, "below": 25, "minutes": 90}], "discard": [{"below": -1}], "kinetics": {"points": [{"celsius": 40, "days": 3}, {"celsius": 5, "days": 700}]}, "reviewThreshold": 0.5, "summary": "a \"quoted\"\nline"}"#
                    .utf8))
        #expect(try Product.fromJSON(Data(given.jsonText.utf8)) == given)
    }
}
