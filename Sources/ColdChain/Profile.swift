import Foundation

/// A named set of alarm rules with the allowed temperature band they protect.
public struct Profile: Sendable, Hashable, CustomStringConvertible {
    /// Short name used on the command line, e.g. `vaccine-fridge`.
    public var name: String
    /// One line on what the profile is for and where its rules come from.
    public var summary: String
    /// The allowed band; `nil` when the source gives only alarm limits (WHO shipping indicators).
    public var band: Band?
    /// The alarm rules, in the order they are reported.
    public var rules: [Rule]
    /// An instantaneous rule's alarm lasts until every excursion beyond its limit is
    /// acknowledged (a procedure where each reading outside the range is investigated).
    public var alarmsLastUntilAcknowledged: Bool

    public init(name: String, summary: String = "", band: Band?, rules: [Rule], alarmsLastUntilAcknowledged: Bool = false) {
        self.name = name
        self.summary = summary
        self.band = band
        self.rules = rules
        self.alarmsLastUntilAcknowledged = alarmsLastUntilAcknowledged
    }

    /// The band excursions, time-in-band figures and charts are measured against: `band`
    /// when the profile has one, otherwise the least strict rule limit on each side (for
    /// `who-shipping-1`: `≥ 30 °C` above and `≤ −0.5 °C` below). MKT rules do not count.
    public var excursionBand: Band {
        if let band { return band }
        let limits = rules.filter { $0.kind != .meanKinetic }.map(\.threshold)
        func reachesSooner(_ a: Threshold, _ b: Threshold) -> Bool {
            // The threshold that more temperatures are beyond: lower for high limits,
            // higher for low limits; at the same value the one that includes it.
            if a.limit != b.limit { return a.direction == .high ? a.limit < b.limit : a.limit > b.limit }
            return a.comparator.includesLimit && !b.comparator.includesLimit
        }
        let high = limits.filter { $0.direction == .high }.min(by: reachesSooner)
        let low = limits.filter { $0.direction == .low }.min(by: reachesSooner)
        return Band(low: low, high: high)
    }

    /// Every temperature limit worth drawing on a chart: the band edges and the thresholds of
    /// the continuous, cumulative and instantaneous rules, without repeats, warmest first.
    public var limits: [Threshold] {
        var result: [Threshold] = []
        let candidates =
            [band?.high, band?.low].compactMap { $0 }
            + rules.filter { $0.kind != .meanKinetic }.map(\.threshold)
        for threshold in candidates where !result.contains(threshold) { result.append(threshold) }
        return result.sorted { $0.limit > $1.limit }
    }

    /// `name (band)`.
    public var description: String {
        band.map { "\(name) (\($0))" } ?? name
    }

    // MARK: Built-in profiles (see docs/coldchain.md)

    /// Vaccine refrigerator, 30-day recorder (WHO PQS E006, e.g. Fridge-tag): 2–8 °C;
    /// alarms are single events.
    public static let vaccineFridge = Profile(
        name: "vaccine-fridge",
        summary: "Vaccine refrigerator, 30-day recorder (WHO PQS E006): 2–8 °C, single-event alarms",
        band: Band(min: 2, max: 8),
        rules: [
            .continuous(Threshold(.greaterThan, 8), for: .hours(10)),
            .continuous(Threshold(.lessThanOrEqual, -0.5), for: .minutes(60)),
        ])

    /// The CDC Vaccine Storage and Handling Toolkit's practice for a vaccine fridge: every
    /// reading outside 2–8 °C is an excursion to investigate, so each is an alarm until
    /// someone acknowledges it (docs/coldchain.md).
    public static let cdcVaccineFridge = Profile(
        name: "cdc-vaccine-fridge",
        summary: "Vaccine refrigerator under the CDC toolkit's practice: 2–8 °C, every reading outside is an ALARM until acknowledged",
        band: Band(min: 2, max: 8),
        rules: [
            .instantaneous(Threshold(.greaterThan, 8)),
            .instantaneous(Threshold(.lessThan, 2)),
        ],
        alarmsLastUntilAcknowledged: true)

    /// WHO PQS 10-day shipping indicator, type 1 (freeze-sensitive vaccines).
    public static let whoShipping1 = Profile(
        name: "who-shipping-1",
        summary: "WHO PQS shipping indicator type 1 (freeze-sensitive vaccines)",
        band: nil,
        rules: [
            .continuous(Threshold(.greaterThanOrEqual, 45), for: .hours(1)),
            .cumulative(Threshold(.greaterThanOrEqual, 30), for: .hours(10)),
            .continuous(Threshold(.lessThanOrEqual, -0.5), for: .hours(1)),
        ])

    /// WHO PQS 10-day shipping indicator, type 2.
    public static let whoShipping2 = Profile(
        name: "who-shipping-2",
        summary: "WHO PQS shipping indicator type 2",
        band: nil,
        rules: [
            .continuous(Threshold(.greaterThanOrEqual, 45), for: .hours(1)),
            .cumulative(Threshold(.greaterThanOrEqual, 30), for: .hours(10)),
            .cumulative(Threshold(.greaterThanOrEqual, 10), for: .hours(20)),
        ])

    /// USP <659> controlled room temperature: 20–25 °C, MKT ≤ 25 °C, excursions 15–30 °C,
    /// spikes up to 40 °C for at most 24 h.
    public static let uspControlledRoomTemperature = Profile(
        name: "usp-crt",
        summary: "USP <659> controlled room temperature: 20–25 °C, MKT ≤ 25 °C",
        band: Band(min: 20, max: 25),
        rules: [
            .meanKinetic(Threshold(.greaterThan, 25)),
            .instantaneous(Threshold(.lessThan, 15)),
            .instantaneous(Threshold(.greaterThan, 40)),
            .cumulative(Threshold(.greaterThan, 30), for: .moreThan(hours: 24)),
        ])

    /// Quick-frozen food (EU): −18 °C or colder, brief rises of at most 3 °C.
    public static let frozen = Profile(
        name: "frozen",
        summary: "Quick-frozen food (EU): ≤ −18 °C, brief rises of at most 3 °C",
        band: Band(min: nil, max: -18),
        rules: [.instantaneous(Threshold(.greaterThan, -15))])

    /// Vaccine freezer (US CDC): −50 to −15 °C.
    public static let vaccineFreezer = Profile(
        name: "vaccine-freezer",
        summary: "Vaccine freezer (US CDC): −50 to −15 °C",
        band: Band(min: -50, max: -15),
        rules: [
            .instantaneous(Threshold(.greaterThan, -15)),
            .instantaneous(Threshold(.lessThan, -50)),
        ])

    /// Every built-in profile, in the order of docs/coldchain.md.
    public static let builtIn: [Profile] = [
        vaccineFridge, cdcVaccineFridge, whoShipping1, whoShipping2, uspControlledRoomTemperature, frozen, vaccineFreezer,
    ]

    /// The built-in profile with this name, or `nil`.
    public static func builtIn(named name: String) -> Profile? {
        builtIn.first { $0.name == name }
    }
}
