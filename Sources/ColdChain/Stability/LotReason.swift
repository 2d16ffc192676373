import Foundation

/// Why a lot's decision is what it is, as values, so that every language is worded from
/// the same facts (`english(in:)` for the JSON and the terminal; the reports' other
/// languages come from TempChart's tables). Legs are numbered from 0 here and from 1 in words.
public enum LotReason: Sendable, Equatable {
    /// The lot was never moved onto a logger (or anywhere): there is no journey to judge.
    case noJourney
    /// A read of the logger covering a leg failed its integrity check.
    case integrityFailed(logger: String)
    /// A valid sample beyond a discard limit.
    case discardLimit(DiscardEvent, logger: String?)
    /// More discard events than the reasons name.
    case moreDiscardEvents(Int)
    /// The consumed fraction of the budget, by which measure, and where review begins.
    case consumed(Double, by: BudgetMeasure, reviewThreshold: Double)
    /// The leg that consumed the most (given only when the journey has several legs).
    case legConsumedMost(leg: Int, logger: String?, consumed: Double)
    /// One of the excursions into the allowance bands that consumed the most.
    case excursion(BudgetExcursion, logger: String?)
    /// Time no valid sample stands for, and each leg's own share of it; counted at the worst
    /// the product allows, the consumed fraction would be `worstCaseConsumed`, and `decides`
    /// is the decision that would give when it differs from the known one.
    case unknownTime(
        seconds: TimeInterval, legs: [UnknownLeg], countedAs: UnknownTimeCounting?, worstCaseConsumed: Double, decides: LotDecision?)

    /// One leg's unknown time: all of an unlogged leg, or what no valid sample of its logger
    /// covers.
    public struct UnknownLeg: Sendable, Equatable {
        public var leg: Int
        public var logger: String?
        public var seconds: TimeInterval

        public init(leg: Int, logger: String?, seconds: TimeInterval) {
            self.leg = leg
            self.logger = logger
            self.seconds = seconds
        }
    }

    /// A fraction as people read a budget: `0.43`, `1.2`; below a hundredth four decimals
    /// (`0.0032`), so that a small share is not shown as none.
    public static func fraction(_ value: Double) -> String {
        ColdChainFormat.temperature(value, decimals: value >= 10 ? 1 : (value >= 0.01 || value == 0 ? 2 : 4))
    }

    /// `leg 2 (logger DEPOT-1)`, `leg 3 (no logger)`.
    static func legText(_ leg: Int, _ logger: String?) -> String {
        "leg \(leg + 1) (\(logger.map { "logger \($0)" } ?? "no logger"))"
    }

    /// The sentence in English, times in `timeZone`.
    public func english(in timeZone: TimeZone) -> String {
        switch self {
        case .noJourney:
            return "The lot has not been moved onto any logger yet: there is no journey to judge."
        case .integrityFailed(let logger):
            return "A read of logger \(logger) failed its integrity check: what it recorded cannot be trusted."
        case .discardLimit(let event, let logger):
            return "Discard limit \(event.rule) met in \(Self.legText(event.leg, logger)) at \(ColdChainFormat.time(event.time, in: timeZone)): "
                + "\(ColdChainFormat.temperature(event.temperature, decimals: 2)) °C."
        case .moreDiscardEvents(let count):
            return "\(count) more discard event\(count == 1 ? "" : "s")."
        case .consumed(let fraction, let measure, let review):
            let by = measure == .kinetics ? "by the kinetic model" : "by the allowances"
            return "Consumed \(Self.fraction(fraction)) of the stability budget \(by) (review from \(Self.fraction(review)), discard from 1)."
        case .legConsumedMost(let leg, let logger, let consumed):
            return "\(Self.legText(leg, logger).capitalizedFirst) consumed the most: \(Self.fraction(consumed))."
        case .excursion(let excursion, let logger):
            return "Excursion in \(Self.legText(excursion.leg, logger)) \(ColdChainFormat.time(excursion.start, in: timeZone)) → "
                + "\(ColdChainFormat.time(excursion.end, in: timeZone)) (\(ColdChainFormat.duration(excursion.seconds)), up to "
                + "\(ColdChainFormat.temperature(excursion.peak, decimals: 2)) °C) consumed \(Self.fraction(excursion.consumed))."
        case .unknownTime(let seconds, let legs, let counting, let worst, let decides):
            var sentence = "\(ColdChainFormat.duration(seconds)) of the journey is unknown"
            if !legs.isEmpty {
                sentence += ": " + legs.map { "\(ColdChainFormat.duration($0.seconds)) of \(Self.legText($0.leg, $0.logger))" }.joined(separator: ", ")
            }
            switch counting {
            case .band(let band, _, _)?: sentence += "; counted in the band \(band)"
            case .temperature(let celsius)?: sentence += "; counted at \(ColdChainFormat.temperature(celsius)) °C"
            case nil: break
            }
            if counting != nil { sentence += " it would make the consumed fraction \(Self.fraction(worst))" }
            if let decides { sentence += ", which decides: \(decides.rawValue) instead" }
            return sentence + "."
        }
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
