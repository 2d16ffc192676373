import Foundation

/// Which side of the allowed range a temperature or an excursion lies on.
public enum Direction: String, Sendable, Hashable, Codable, CaseIterable {
    /// Warmer than the limit.
    case high
    /// Colder than the limit.
    case low
}

/// How a value is compared with a limit. Every rule states one explicitly: "≥ 30 °C" counts
/// 30.0 as beyond the limit, "> 30 °C" does not.
public enum Comparator: String, Sendable, Hashable, Codable, CaseIterable {
    case greaterThan = ">"
    case greaterThanOrEqual = "≥"
    case lessThan = "<"
    case lessThanOrEqual = "≤"

    /// Reads `>`, `>=`, `≥`, `<`, `<=` or `≤`; `nil` for anything else.
    public init?(symbol: String) {
        switch symbol.trimmingCharacters(in: .whitespaces) {
        case ">": self = .greaterThan
        case ">=", "≥": self = .greaterThanOrEqual
        case "<": self = .lessThan
        case "<=", "≤": self = .lessThanOrEqual
        default: return nil
        }
    }

    /// True when `value` compared with `limit` satisfies this comparator.
    public func holds(_ value: Double, _ limit: Double) -> Bool {
        switch self {
        case .greaterThan: return value > limit
        case .greaterThanOrEqual: return value >= limit
        case .lessThan: return value < limit
        case .lessThanOrEqual: return value <= limit
        }
    }

    /// `high` for `>` and `≥`, `low` for `<` and `≤`.
    public var direction: Direction {
        switch self {
        case .greaterThan, .greaterThanOrEqual: return .high
        case .lessThan, .lessThanOrEqual: return .low
        }
    }

    /// True for `≥` and `≤`: the limit value itself satisfies the comparator.
    public var includesLimit: Bool { self == .greaterThanOrEqual || self == .lessThanOrEqual }
}

/// A temperature limit with its comparator, e.g. "> 8 °C": temperatures for which the
/// comparator holds are beyond the limit.
public struct Threshold: Sendable, Hashable, Codable, CustomStringConvertible {
    public var comparator: Comparator
    /// The limit in °C.
    public var limit: Double

    public init(_ comparator: Comparator, _ limit: Double) {
        self.comparator = comparator
        self.limit = limit
    }

    /// True when `temperature` (°C) is beyond this limit.
    public func isBeyond(_ temperature: Double) -> Bool { comparator.holds(temperature, limit) }

    /// `high` for an upper limit, `low` for a lower one.
    public var direction: Direction { comparator.direction }

    /// How far (°C, never negative) `temperature` lies past the limit value on the beyond side.
    public func excess(of temperature: Double) -> Double {
        switch direction {
        case .high: return Swift.max(0, temperature - limit)
        case .low: return Swift.max(0, limit - temperature)
        }
    }

    /// E.g. `> 8 °C`, `≤ −0.5 °C`.
    public var description: String { "\(comparator.rawValue) \(ColdChainFormat.temperature(limit)) °C" }
}

/// The allowed temperature band: a temperature is inside unless it is beyond the high or
/// the low limit. Either side may be open.
public struct Band: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Temperatures beyond this are above the band (comparator `>` or `≥`).
    public var high: Threshold?
    /// Temperatures beyond this are below the band (comparator `<` or `≤`).
    public var low: Threshold?

    /// A band given by its own limits.
    public init(low: Threshold?, high: Threshold?) {
        self.low = low
        self.high = high
    }

    /// The closed band `min…max` °C: both edge values are inside. `nil` leaves a side open.
    public init(min: Double?, max: Double?) {
        self.low = min.map { Threshold(.lessThan, $0) }
        self.high = max.map { Threshold(.greaterThan, $0) }
    }

    /// Relative position of a temperature and the band.
    public enum Position: String, Sendable, Hashable, Codable {
        case inside, above, below
    }

    /// Where a temperature (°C) lies relative to the band. Inlined: excursions are found by
    /// asking it of every sample (Sources/ColdChain/Assessor.swift).
    @inline(__always)
    public func position(of temperature: Double) -> Position {
        if let high, high.isBeyond(temperature) { return .above }
        if let low, low.isBeyond(temperature) { return .below }
        return .inside
    }

    /// The limit on one side, if that side is bounded.
    public func limit(_ direction: Direction) -> Threshold? {
        direction == .high ? high : low
    }

    /// E.g. `2–8 °C`, `−50 to −15 °C`, `≤ −18 °C`, `> −0.5 °C and < 30 °C`, or `any` for an open band.
    public var description: String {
        let lowText = low.map { ($0.comparator == .lessThan ? "≥ " : "> ") + ColdChainFormat.temperature($0.limit) }
        let highText = high.map { ($0.comparator == .greaterThan ? "≤ " : "< ") + ColdChainFormat.temperature($0.limit) }
        if let low, let high, low.comparator == .lessThan, high.comparator == .greaterThan {
            // An en dash between two negative numbers would read as a minus sign.
            let separator = low.limit < 0 || high.limit < 0 ? " to " : "–"
            return ColdChainFormat.temperature(low.limit) + separator + ColdChainFormat.temperature(high.limit) + " °C"
        }
        switch (lowText, highText) {
        case let (lowText?, highText?): return "\(lowText) °C and \(highText) °C"
        case let (lowText?, nil): return "\(lowText) °C"
        case let (nil, highText?): return "\(highText) °C"
        case (nil, nil): return "any"
        }
    }
}

/// How a rule's exposure time is compared with its duration: reached at the duration
/// ("for 10 h") or only past it ("for more than 24 h").
public struct DurationLimit: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The duration in seconds.
    public var seconds: TimeInterval
    /// `true`: an exposure of exactly `seconds` reaches the limit ("for 10 h");
    /// `false`: it must be longer ("for more than 24 h").
    public var inclusive: Bool

    /// `true` writes the duration in minutes (`60 min`) as the source of a rule does;
    /// `false` writes hours, minutes and seconds (`1 h`).
    public var inMinutes: Bool

    public init(seconds: TimeInterval, inclusive: Bool = true, inMinutes: Bool = false) {
        self.seconds = seconds
        self.inclusive = inclusive
        self.inMinutes = inMinutes
    }

    /// `hours` hours, reached when the exposure is at least that long.
    public static func hours(_ hours: Double) -> DurationLimit { DurationLimit(seconds: hours * 3600) }
    /// `minutes` minutes, reached when the exposure is at least that long.
    public static func minutes(_ minutes: Double) -> DurationLimit {
        DurationLimit(seconds: minutes * 60, inMinutes: true)
    }
    /// Reached only when the exposure is strictly longer than `hours` hours.
    public static func moreThan(hours: Double) -> DurationLimit {
        DurationLimit(seconds: hours * 3600, inclusive: false)
    }

    /// True when an exposure of `exposure` seconds reaches this limit.
    public func isReached(by exposure: TimeInterval) -> Bool {
        inclusive ? exposure >= seconds : exposure > seconds
    }

    /// E.g. `10 h`, `60 min`, `more than 24 h`.
    public var description: String {
        let text =
            inMinutes && seconds.truncatingRemainder(dividingBy: 60) == 0 && abs(seconds) < 1e12
            ? "\(Int(seconds / 60)) min" : ColdChainFormat.duration(seconds)
        return (inclusive ? "" : "more than ") + text
    }
}
