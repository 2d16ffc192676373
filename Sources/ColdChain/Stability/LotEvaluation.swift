import Foundation
import LoggerFormats

/// What a lot's journey leaves of its stability budget: `LotEvaluation.status`.
public enum LotDecision: String, Sendable, Hashable, Codable, CaseIterable {
    case usable = "USABLE"
    case review = "REVIEW"
    case discard = "DISCARD"
    case inconclusive = "INCONCLUSIVE"

    /// Where lots of this decision are listed, worst first: DISCARD 0, INCONCLUSIVE 1,
    /// REVIEW 2, USABLE 3 (the command line, the station and the app list them so).
    public var worstFirstRank: Int {
        switch self {
        case .discard: return 0
        case .inconclusive: return 1
        case .review: return 2
        case .usable: return 3
        }
    }
}

/// Which of the product's stability data gave the consumed fraction that decides.
public enum BudgetMeasure: String, Sendable, Hashable, Codable {
    case allowances, kinetics
}

/// A valid sample beyond one of the product's discard limits (consecutive such samples
/// beyond the same limit are one event, at the first one's time, with the extreme reached).
public struct DiscardEvent: Sendable, Equatable {
    public var leg: Int
    public var time: Date
    public var temperature: Double
    public var rule: Threshold
}

/// A stretch of consecutive samples in the product's allowance bands within one leg.
public struct BudgetExcursion: Sendable, Equatable {
    public var leg: Int
    public var start: Date
    public var end: Date
    public var seconds: TimeInterval
    /// The temperature furthest from storage (the highest when storage is not given).
    public var peak: Double
    /// The fraction of the allowances it consumed.
    public var consumed: Double
}

/// One leg as judged.
public struct LegStatus: Sendable, Equatable {
    public var logger: String?
    public var from: Date
    public var to: Date
    /// The leg's share of the deciding measure.
    public var consumed: Double
    public var allowancesConsumed: Double
    public var kineticsConsumed: Double?
    public var unknownSeconds: TimeInterval
    /// Seconds in each of the product's allowance bands, in the product's order.
    public var bandSeconds: [TimeInterval]
    public var integrityFailed: Bool
}

/// Time in one allowance band over the whole journey.
public struct BandTime: Sendable, Equatable {
    public var band: String
    public var seconds: TimeInterval
    public var allowanceSeconds: TimeInterval
}

/// A lot's status: its consumed budget, its legs, and the decision with its reasons.
public struct LotStatus: Sendable, Equatable {
    public var lot: String
    public var product: String
    /// The time the status is of.
    public var at: Date
    public var consumed: Double
    public var consumedBy: BudgetMeasure
    public var allowancesConsumed: Double
    public var bands: [BandTime]
    public var kineticsConsumed: Double?
    public var unknownSeconds: TimeInterval
    public var legs: [LegStatus]
    public var discardEvents: [DiscardEvent]
    public var excursions: [BudgetExcursion]
    /// The consumed fraction with the unknown time counted at the worst the product allows.
    public var worstCaseConsumed: Double
    public var decision: LotDecision
    public var reasons: [LotReason]

    /// Worst first: by the decision's `worstFirstRank`, then the most consumed, then by lot.
    public static func worstFirst(_ a: LotStatus, _ b: LotStatus) -> Bool {
        let (rankA, rankB) = (a.decision.worstFirstRank, b.decision.worstFirstRank)
        if rankA != rankB { return rankA < rankB }
        if a.consumed != b.consumed { return a.consumed > b.consumed }
        return a.lot < b.lot
    }
}

/// Applies a product's stability data to a lot's legs (docs/stability.md).
public enum LotEvaluation {
    /// Most excursions a status names in its reasons.
    public static let excursionsInReasons = 3

    /// The status of `lot` of `product` over `legs` (as `LotLeg.legs(of:until:)` makes
    /// them, with each logger's samples), as of `at`.
    public static func status(lot: String, product: Product, legs: [LotLeg], at: Date) -> LotStatus {
        var legStatuses: [LegStatus] = []
        var discardEvents: [DiscardEvent] = []
        var excursions: [BudgetExcursion] = []
        for (index, leg) in legs.enumerated() {
            let walked = walk(leg, index: index, product: product)
            legStatuses.append(walked.status)
            discardEvents += walked.discards
            excursions += walked.excursions
        }
        let allowancesConsumed = legStatuses.reduce(0) { $0 + $1.allowancesConsumed }
        let kineticsConsumed = product.kinetics.map { _ in legStatuses.reduce(0) { $0 + ($1.kineticsConsumed ?? 0) } }
        let measure: BudgetMeasure = (kineticsConsumed.map { $0 > allowancesConsumed || product.allowances.isEmpty } ?? false) ? .kinetics : .allowances
        let consumed = measure == .kinetics ? (kineticsConsumed ?? 0) : allowancesConsumed
        for index in legStatuses.indices {
            legStatuses[index].consumed = measure == .kinetics ? (legStatuses[index].kineticsConsumed ?? 0) : legStatuses[index].allowancesConsumed
        }
        let unknownSeconds = legStatuses.reduce(0) { $0 + $1.unknownSeconds }
        let bands = product.allowances.enumerated().map { index, allowance in
            BandTime(band: allowance.name, seconds: legStatuses.reduce(0) { $0 + $1.bandSeconds[index] }, allowanceSeconds: allowance.seconds)
        }

        let worst = worstCase(product: product)
        let worstCaseConsumed = max(
            product.allowances.isEmpty ? 0 : allowancesConsumed + worst.allowancesRate * unknownSeconds,
            kineticsConsumed.map { $0 + worst.kineticsRate * unknownSeconds } ?? 0)
        let discarded = !discardEvents.isEmpty
        let known = decide(consumed: consumed, discarded: discarded, product: product)
        let ifWorst = decide(consumed: max(consumed, worstCaseConsumed), discarded: discarded, product: product)
        let integrityFailures = legStatuses.filter(\.integrityFailed).compactMap(\.logger)
        var decision = known
        if !integrityFailures.isEmpty || ifWorst != known || legs.isEmpty { decision = .inconclusive }

        var reasons: [LotReason] = []
        if legs.isEmpty { reasons.append(.noJourney) }
        for logger in integrityFailures.reduce(into: [String](), { if !$0.contains($1) { $0.append($1) } }) {
            reasons.append(.integrityFailed(logger: logger))
        }
        for event in discardEvents.prefix(excursionsInReasons) {
            reasons.append(.discardLimit(event, logger: legStatuses[event.leg].logger))
        }
        if discardEvents.count > excursionsInReasons { reasons.append(.moreDiscardEvents(discardEvents.count - excursionsInReasons)) }
        reasons.append(.consumed(consumed, by: measure, reviewThreshold: product.reviewThreshold))
        if let mostIndex = legStatuses.indices.max(by: { legStatuses[$0].consumed < legStatuses[$1].consumed }), legStatuses[mostIndex].consumed > 0,
            legStatuses.count > 1
        {
            reasons.append(.legConsumedMost(leg: mostIndex, logger: legStatuses[mostIndex].logger, consumed: legStatuses[mostIndex].consumed))
        }
        for excursion in excursions.sorted(by: { ($0.consumed, $1.start) > ($1.consumed, $0.start) }).prefix(excursionsInReasons) {
            reasons.append(.excursion(excursion, logger: legStatuses[excursion.leg].logger))
        }
        if unknownSeconds > 0 {
            // Each leg named with its own unknown time, so none is blamed for another's.
            let legs = legStatuses.enumerated().filter { $0.element.unknownSeconds > 0 }.map {
                LotReason.UnknownLeg(leg: $0.offset, logger: $0.element.logger, seconds: $0.element.unknownSeconds)
            }
            reasons.append(
                .unknownTime(
                    seconds: unknownSeconds, legs: legs, countedAs: worst.description, worstCaseConsumed: worstCaseConsumed,
                    decides: ifWorst != known ? ifWorst : nil))
        }
        return LotStatus(
            lot: lot, product: product.name, at: at, consumed: consumed, consumedBy: measure, allowancesConsumed: allowancesConsumed,
            bands: bands, kineticsConsumed: kineticsConsumed, unknownSeconds: unknownSeconds, legs: legStatuses, discardEvents: discardEvents,
            excursions: excursions, worstCaseConsumed: worstCaseConsumed, decision: decision, reasons: reasons)
    }

    /// A fraction within a billionth of a limit has reached it: 336 hours of 1/336 each add up
    /// to a hair under 1 in binary, and a whole life consumed must decide as one.
    static let reachTolerance = 1e-9

    static func decide(consumed: Double, discarded: Bool, product: Product) -> LotDecision {
        if discarded || consumed >= 1 - reachTolerance { return .discard }
        if consumed >= product.reviewThreshold - reachTolerance { return .review }
        return .usable
    }

    /// How unknown time is counted at worst: a second in the band of the smallest allowance,
    /// and a second of life at the hottest temperature the product allows.
    struct WorstCase {
        var allowancesRate: Double
        var kineticsRate: Double
        var description: UnknownTimeCounting?
    }

    static func worstCase(product: Product) -> WorstCase {
        let band = product.allowances.min { $0.seconds < $1.seconds }
        let hottest = product.kinetics == nil ? nil : product.hottestAllowed
        var kineticsRate: Double = 0
        if let model = product.kinetics, let hottest { kineticsRate = 1 / model.lifeSeconds(at: hottest) }
        var counting: UnknownTimeCounting?
        if let band {
            counting = .band(band.name, allowanceSeconds: band.seconds, kineticsAt: hottest)
        } else if let hottest {
            counting = .temperature(hottest)
        }
        return WorstCase(allowancesRate: band.map { 1 / $0.seconds } ?? 0, kineticsRate: kineticsRate, description: counting)
    }

    private struct Walked {
        var status: LegStatus
        var discards: [DiscardEvent] = []
        var excursions: [BudgetExcursion] = []
    }

    /// One pass over a leg's slots, clipped to the leg: time in each band, life used,
    /// discard events and excursions; whatever no valid sample stands for is unknown.
    private static func walk(_ leg: LotLeg, index: Int, product: Product) -> Walked {
        var bandSeconds = [TimeInterval](repeating: 0, count: product.allowances.count)
        var kinetics: Double = 0
        var covered: TimeInterval = 0
        var walked = Walked(
            status: LegStatus(
                logger: leg.logger, from: leg.from, to: leg.to, consumed: 0, allowancesConsumed: 0,
                kineticsConsumed: product.kinetics == nil ? nil : 0, unknownSeconds: 0, bandSeconds: bandSeconds,
                integrityFailed: leg.integrityFailed))
        var excursion: BudgetExcursion?
        // The discard limit the previous slot was beyond; consecutive valid slots are contiguous
        // (a gap is a slot of its own, which ends a run).
        var discard: Int?
        let storageMiddle = product.storage.flatMap { band in band.low.flatMap { low in band.high.map { (low.limit + $0.limit) / 2 } } }
        func closeExcursion() {
            if let done = excursion { walked.excursions.append(done) }
            excursion = nil
        }
        if let log = leg.log {
            Timeline.forEachSlot(of: log, band: nil) { slot in
                let start = max(slot.start, leg.from)
                let end = min(slot.end, leg.to)
                let seconds = end.timeIntervalSince(start)
                guard seconds > 0 else { return }
                guard let temperature = slot.temperature else {
                    closeExcursion()
                    discard = nil
                    return
                }
                covered += seconds
                if let model = product.kinetics { kinetics += seconds / model.lifeSeconds(at: temperature) }
                if let ruleIndex = product.discard.firstIndex(where: { $0.isBeyond(temperature) }) {
                    let rule = product.discard[ruleIndex]
                    if discard == ruleIndex, let last = walked.discards.indices.last {
                        let kept = walked.discards[last].temperature
                        walked.discards[last].temperature = rule.direction == .high ? max(kept, temperature) : min(kept, temperature)
                    } else {
                        walked.discards.append(DiscardEvent(leg: index, time: start, temperature: temperature, rule: rule))
                    }
                    discard = ruleIndex
                } else {
                    discard = nil
                }
                guard let band = product.allowanceIndex(of: temperature) else {
                    closeExcursion()
                    return
                }
                bandSeconds[band] += seconds
                let share = seconds / product.allowances[band].seconds
                func furthest(_ a: Double, _ b: Double) -> Double {
                    guard let middle = storageMiddle else { return max(a, b) }
                    return abs(b - middle) > abs(a - middle) ? b : a
                }
                if var open = excursion {
                    open.end = end
                    open.seconds += seconds
                    open.consumed += share
                    open.peak = furthest(open.peak, temperature)
                    excursion = open
                } else {
                    closeExcursion()
                    excursion = BudgetExcursion(leg: index, start: start, end: end, seconds: seconds, peak: temperature, consumed: share)
                }
            }
        }
        closeExcursion()
        walked.status.bandSeconds = bandSeconds
        walked.status.allowancesConsumed = zip(bandSeconds, product.allowances).reduce(0) { $0 + $1.0 / $1.1.seconds }
        if product.kinetics != nil { walked.status.kineticsConsumed = kinetics }
        walked.status.unknownSeconds = max(0, leg.to.timeIntervalSince(leg.from) - covered)
        return walked
    }
}

/// How unknown time was counted for the worst case.
public enum UnknownTimeCounting: Sendable, Equatable {
    /// In the allowance band with the smallest allowance (and, for kinetics, at `kineticsAt` °C).
    case band(String, allowanceSeconds: TimeInterval, kineticsAt: Double?)
    /// At this temperature (°C), for a product with kinetics and no allowance bands.
    case temperature(Double)
}
