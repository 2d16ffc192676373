import Foundation

/// One alarm rule of a profile. Build rules with the static factories, which keep the
/// fields consistent with the kind.
public struct Rule: Sendable, Hashable, CustomStringConvertible {
    /// What the rule looks at.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The longest unbroken run beyond the threshold (a single event).
        case continuous
        /// All time beyond the threshold added up, over the whole log or per calendar day.
        case cumulative
        /// Any single sample beyond the threshold.
        case instantaneous
        /// The mean kinetic temperature of the whole log compared with the threshold.
        case meanKinetic = "mkt"
    }

    /// What a cumulative rule adds up over.
    public enum Scope: String, Sendable, Hashable, Codable, CaseIterable {
        /// The whole log.
        case log
        /// Each calendar day (in the time zone given to the assessment) on its own.
        case day
    }

    public let kind: Kind
    /// The temperature limit and its comparator (for `meanKinetic`: the limit on the MKT).
    public let threshold: Threshold
    /// How long the exposure must last; `nil` for instantaneous and MKT rules.
    public let duration: DurationLimit?
    /// What a cumulative rule adds up over; `.log` for every other kind.
    public let scope: Scope

    private init(kind: Kind, threshold: Threshold, duration: DurationLimit?, scope: Scope) {
        self.kind = kind
        self.threshold = threshold
        self.duration = duration
        self.scope = scope
    }

    /// Fires when one unbroken run of samples beyond `threshold` lasts `duration`.
    public static func continuous(_ threshold: Threshold, for duration: DurationLimit) -> Rule {
        Rule(kind: .continuous, threshold: threshold, duration: duration, scope: .log)
    }

    /// Fires when all time beyond `threshold` (within the whole log, or within one calendar
    /// day for `.day`) adds up to `duration`.
    public static func cumulative(_ threshold: Threshold, for duration: DurationLimit, per scope: Scope = .log) -> Rule {
        Rule(kind: .cumulative, threshold: threshold, duration: duration, scope: scope)
    }

    /// Fires on any single valid sample beyond `threshold`.
    public static func instantaneous(_ threshold: Threshold) -> Rule {
        Rule(kind: .instantaneous, threshold: threshold, duration: nil, scope: .log)
    }

    /// Fires when the mean kinetic temperature (ΔH/R = 10 000 K) of the log is beyond `threshold`.
    public static func meanKinetic(_ threshold: Threshold) -> Rule {
        Rule(kind: .meanKinetic, threshold: threshold, duration: nil, scope: .log)
    }

    /// The rule as people write it: `> 8 °C for 10 h continuous`, `≥ 30 °C for 10 h cumulative`,
    /// `≥ 10 °C for 20 h cumulative per day`, `any point > −15 °C`, `MKT > 25 °C`.
    public var description: String {
        switch kind {
        case .continuous:
            return "\(threshold) for \(duration?.description ?? "0 s") continuous"
        case .cumulative:
            return "\(threshold) for \(duration?.description ?? "0 s") cumulative" + (scope == .day ? " per day" : "")
        case .instantaneous:
            return "any point \(threshold)"
        case .meanKinetic:
            return "MKT \(threshold)"
        }
    }
}
