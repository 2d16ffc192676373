import Foundation

/// A product's stability data: how much time outside storage it tolerates, what ends it at
/// once, and how fast heat wears it (docs/stability.md). A lot of it is judged by the sum of
/// what it met on every leg of its journey (`LotEvaluation`).
public struct Product: Sendable, Equatable {
    /// Time allowed in one temperature band outside storage, over the lot's whole journey.
    public struct Allowance: Sendable, Equatable {
        /// The band's lower edge: a temperature is in the band when `lower` holds for it
        /// (`>` or `≥` a limit); `nil` leaves the band open below.
        public var lower: Threshold?
        /// The band's upper edge: a temperature is in the band when it is *not* beyond this
        /// (`> 25` for "up to 25", `≥ 25` for "below 25"); `nil` leaves it open above.
        public var upper: Threshold?
        /// The time the band allows, in seconds (> 0).
        public var seconds: TimeInterval

        public init(lower: Threshold?, upper: Threshold?, seconds: TimeInterval) {
            self.lower = lower
            self.upper = upper
            self.seconds = seconds
        }

        /// True when `temperature` (°C) lies in the band.
        @inline(__always)
        public func contains(_ temperature: Double) -> Bool {
            if let lower, !lower.isBeyond(temperature) { return false }
            if let upper, upper.isBeyond(temperature) { return false }
            return true
        }

        /// The band in words as the product file states it: `> 8 °C and ≤ 25 °C`.
        public var name: String {
            var parts: [String] = []
            if let lower { parts.append(lower.description) }
            if let upper {
                let inside: Comparator = upper.comparator == .greaterThan ? .lessThanOrEqual : .lessThan
                parts.append(Threshold(inside, upper.limit).description)
            }
            return parts.joined(separator: " and ")
        }

        /// The band's hottest temperature (its upper limit), `nil` when open above.
        var hottest: Double? { upper?.limit }
    }

    /// An Arrhenius model of the product's life: ln(life) is linear in 1/T (kelvin) through
    /// two reference points, and beyond them.
    public struct Kinetics: Sendable, Equatable {
        /// A temperature (°C) and the days of life the product has at it.
        public struct Point: Sendable, Equatable {
            public var celsius: Double
            public var days: Double

            public init(celsius: Double, days: Double) {
                self.celsius = celsius
                self.days = days
            }
        }

        /// The built-in model's name (`vvm14`), or `nil` for points given in a product file.
        public var model: String?
        /// The hotter reference point.
        public var hot: Point
        /// The colder reference point.
        public var cold: Point

        /// A model through two points (any order); `nil` unless both temperatures are above
        /// absolute zero and differ, both lives are positive and the hotter point's is
        /// shorter (otherwise heat would not wear the product).
        public init?(model: String? = nil, _ first: Point, _ second: Point) {
            let (hot, cold) = first.celsius > second.celsius ? (first, second) : (second, first)
            guard hot.celsius != cold.celsius, cold.celsius > -273.15, hot.days > 0, cold.days > 0, hot.days < cold.days,
                hot.days.isFinite, cold.days.isFinite, hot.celsius.isFinite
            else { return nil }
            self.model = model
            self.hot = hot
            self.cold = cold
        }

        /// The activation temperature E/R in kelvin: ln(life) = a + activation / T.
        public var activationKelvin: Double {
            log(cold.days / hot.days) / (1 / Self.kelvin(cold.celsius) - 1 / Self.kelvin(hot.celsius))
        }

        /// The product's life at `celsius`, in seconds.
        public func lifeSeconds(at celsius: Double) -> TimeInterval {
            hot.days * 86_400 * exp(activationKelvin * (1 / Self.kelvin(celsius) - 1 / Self.kelvin(hot.celsius)))
        }

        static func kelvin(_ celsius: Double) -> Double { celsius + 273.15 }

        /// The WHO vaccine vial monitor categories (PQS E006): days to the end point at 37 °C
        /// and at 25 °C (VVM2: at 37 °C and 5 °C). docs/stability.md says what they assume.
        public static let builtIn: [Kinetics] = [
            Kinetics(model: "vvm30", Point(celsius: 37, days: 30), Point(celsius: 25, days: 193)),
            Kinetics(model: "vvm14", Point(celsius: 37, days: 14), Point(celsius: 25, days: 90)),
            Kinetics(model: "vvm7", Point(celsius: 37, days: 7), Point(celsius: 25, days: 45)),
            Kinetics(model: "vvm2", Point(celsius: 37, days: 2), Point(celsius: 5, days: 225)),
        ].compactMap { $0 }

        /// The built-in model `name`, or `nil`.
        public static func builtIn(named name: String) -> Kinetics? { builtIn.first { $0.model == name } }
    }

    public var name: String
    public var summary: String
    /// The product's GS1 trade item number as the file gives it (8, 12, 13 or 14 digits,
    /// check digit verified): what names its lots in EPCIS exports.
    public var gtin: String?
    /// Where the product is stored (informational: the budget is spent in `allowances`).
    public var storage: Band?
    public var allowances: [Allowance]
    /// Limits that end the lot at once: any valid sample beyond one is a discard event.
    public var discard: [Threshold]
    public var kinetics: Kinetics?
    /// The consumed fraction from which a lot needs review (0.8 unless the file says).
    public var reviewThreshold: Double

    public static let defaultReviewThreshold = 0.8

    public init(
        name: String, summary: String = "", storage: Band? = nil, allowances: [Allowance] = [], discard: [Threshold] = [],
        kinetics: Kinetics? = nil, reviewThreshold: Double = Product.defaultReviewThreshold
    ) {
        self.name = name
        self.summary = summary
        self.gtin = nil
        self.storage = storage
        self.allowances = allowances
        self.discard = discard
        self.kinetics = kinetics
        self.reviewThreshold = reviewThreshold
    }

    /// The GTIN as 14 digits (zeros in front), as GS1 Digital Link writes it.
    public var gtin14: String? { gtin.map { String(repeating: "0", count: 14 - $0.count) + $0 } }

    /// The allowance band `temperature` lies in, if any (bands never overlap: the file
    /// reader refuses overlapping ones).
    @inline(__always)
    func allowanceIndex(of temperature: Double) -> Int? {
        allowances.firstIndex { $0.contains(temperature) }
    }

    /// The hottest temperature the product allows without being discarded: the highest
    /// allowance band's upper edge, else the lowest upper discard limit, else the kinetic
    /// model's hotter point. Unknown time is counted at it (docs/stability.md).
    public var hottestAllowed: Double? {
        let highDiscard = discard.filter { $0.direction == .high }.map(\.limit).min()
        let bandTop = allowances.compactMap(\.hottest).max()
        if allowances.contains(where: { $0.upper == nil }) { return highDiscard ?? kinetics?.hot.celsius }
        return bandTop ?? highDiscard ?? kinetics?.hot.celsius
    }

    /// The products every archive knows. `vvm30` … `vvm2` carry the vaccine vial monitors'
    /// kinetics alone; `example-2-8` shows every kind of field with round numbers of our
    /// own, not any maker's data.
    public static let builtIn: [Product] = {
        var products = Kinetics.builtIn.map { kinetics in
            Product(
                name: kinetics.model ?? "",
                summary:
                    "Vaccine vial monitor \(kinetics.model?.uppercased() ?? ""): end point after \(ColdChainFormat.temperature(kinetics.hot.days)) days at \(ColdChainFormat.temperature(kinetics.hot.celsius)) °C, \(ColdChainFormat.temperature(kinetics.cold.days)) days at \(ColdChainFormat.temperature(kinetics.cold.celsius)) °C.",
                kinetics: kinetics)
        }
        products.append(
            Product(
                name: "example-2-8",
                summary:
                    "An example 2–8 °C freeze-sensitive product (round numbers, not a maker's data): 72 h allowed above 8 °C up to 25 °C, 12 h above 25 °C up to 30 °C; discarded at or below 0 °C or above 30 °C.",
                storage: Band(min: 2, max: 8),
                allowances: [
                    Allowance(lower: Threshold(.greaterThan, 8), upper: Threshold(.greaterThan, 25), seconds: 72 * 3600),
                    Allowance(lower: Threshold(.greaterThan, 25), upper: Threshold(.greaterThan, 30), seconds: 12 * 3600),
                ],
                discard: [Threshold(.lessThanOrEqual, 0), Threshold(.greaterThan, 30)]))
        return products
    }()

    /// The built-in product `name`, or `nil`.
    public static func builtIn(named name: String) -> Product? { builtIn.first { $0.name == name } }
}
