import ColdTapBase
import Foundation

/// A product file that cannot be used; `field` names the bad field as a path
/// (`allowances[1].upTo`), empty for the document as a whole.
public struct ProductError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    init(_ error: ProfileError) { self.init(field: error.field, message: error.message) }

    public var description: String { field.isEmpty ? message : "\(field): \(message)" }
}

extension Product {
    /// The keys of an allowance band's edges: which comparator each writes.
    static let lowerEdgeKeys: [(key: String, comparator: Comparator)] = [("above", .greaterThan), ("atOrAbove", .greaterThanOrEqual)]
    /// "upTo 25" keeps 25 inside (beyond is `> 25`); "below 25" does not (beyond is `≥ 25`).
    static let upperEdgeKeys: [(key: String, comparator: Comparator)] = [("upTo", .greaterThan), ("below", .greaterThanOrEqual)]
    static let discardKeys: [(key: String, comparator: Comparator)] = [
        ("above", .greaterThan), ("atOrAbove", .greaterThanOrEqual), ("below", .lessThan), ("atOrBelow", .lessThanOrEqual),
    ]
    static let durationUnits: [(key: String, seconds: Double)] = [("days", 86_400), ("hours", 3600), ("minutes", 60), ("seconds", 1)]

    /// Reads a product file (the format `coldtap products --schema` prints, docs/stability.md):
    ///
    /// ```json
    /// {
    ///   "name": "mmr-vaccine",
    ///   "summary": "optional text",
    ///   "storage": {"min": 2, "max": 8},
    ///   "allowances": [{"above": 8, "upTo": 25, "hours": 72}, {"above": 25, "upTo": 30, "hours": 12}],
    ///   "discard": [{"atOrBelow": 0}, {"above": 30}],
    ///   "kinetics": "vvm14",
    ///   "reviewThreshold": 0.8
    /// }
    /// ```
    ///
    /// `kinetics` is a built-in model's name or `{"points": [{"celsius": 37, "days": 14},
    /// {"celsius": 25, "days": 90}]}`. Allowance bands must not overlap; each gives one of
    /// `days`, `hours`, `minutes`, `seconds`. A product needs at least one of allowances,
    /// discard or kinetics. Unknown keys are errors.
    /// - Throws: `ProductError` naming the first bad field.
    public static func fromJSON(_ data: Data) throws(ProductError) -> Product {
        do {
            return try parse(data)
        } catch {
            throw ProductError(error)
        }
    }

    private static func parse(_ data: Data) throws(ProfileError) -> Product {
        let object = try JSONNode.rootObject(of: data)
        try JSONNode.rejectUnknownKeys(
            object, allowed: ["name", "summary", "gtin", "storage", "allowances", "discard", "kinetics", "reviewThreshold"], at: "")
        guard let nameNode = object["name"] else { throw ProfileError(field: "name", message: "missing; give the product a name.") }
        let name = try nameNode.string(at: "name")
        guard Product.isValidName(name) else {
            throw ProfileError(
                field: "name", message: "'\(name.prefix(80))' is not a product name: 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit."
            )
        }
        var product = Product(name: name)
        if let node = object["summary"] { product.summary = try node.string(at: "summary") }
        if let node = object["gtin"] {
            let gtin = try node.string(at: "gtin")
            guard Product.isValidGTIN(gtin) else {
                throw ProfileError(
                    field: "gtin", message: "'\(gtin.prefix(80))' is not a GTIN: 8, 12, 13 or 14 digits whose last is the GS1 check digit.")
            }
            product.gtin = gtin
        }
        if let node = object["storage"] { product.storage = try parseStorage(node) }
        if let node = object["allowances"] {
            for (index, band) in try node.array(at: "allowances").enumerated() {
                product.allowances.append(try parseAllowance(band, at: "allowances[\(index)]"))
            }
            try checkNoOverlap(product.allowances)
        }
        if let node = object["discard"] {
            for (index, limit) in try node.array(at: "discard").enumerated() {
                product.discard.append(try parseDiscard(limit, at: "discard[\(index)]"))
            }
        }
        if let node = object["kinetics"] { product.kinetics = try parseKinetics(node) }
        if let node = object["reviewThreshold"] {
            let value = try node.number(at: "reviewThreshold")
            guard value > 0, value <= 1 else {
                throw ProfileError(field: "reviewThreshold", message: "\(value) is not a fraction above 0 and at most 1.")
            }
            product.reviewThreshold = value
        }
        guard !product.allowances.isEmpty || !product.discard.isEmpty || product.kinetics != nil else {
            throw ProfileError(field: "", message: "the product has no stability data; give allowances, discard or kinetics.")
        }
        return product
    }

    /// A GTIN-8, -12, -13 or -14 whose last digit is the GS1 check digit of the others
    /// (weights 3 and 1 alternating from the right, docs/epcis.md).
    public static func isValidGTIN(_ text: String) -> Bool {
        guard [8, 12, 13, 14].contains(text.unicodeScalars.count), let last = text.unicodeScalars.last, (0x30...0x39).contains(last.value) else {
            return false
        }
        return GS1CheckDigit.of(text.dropLast()) == Int(last.value - 0x30)
    }

    /// 1 to 64 letters, digits, `.`, `_` or `-`, starting with a letter or digit: a product's
    /// or a lot's name is safe in a URL, a file name and a command line.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, (1...64).contains(name.unicodeScalars.count) else { return false }
        func plain(_ scalar: Unicode.Scalar) -> Bool { scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar)) }
        return plain(first) && name.unicodeScalars.allSatisfy { plain($0) || $0 == "." || $0 == "_" || $0 == "-" }
    }

    private static func parseStorage(_ node: JSONNode) throws(ProfileError) -> Band {
        let object = try node.object(at: "storage")
        try JSONNode.rejectUnknownKeys(object, allowed: ["min", "max"], at: "storage")
        var min: Double?
        var max: Double?
        if let node = object["min"] { min = try node.number(at: "storage.min") }
        if let node = object["max"] { max = try node.number(at: "storage.max") }
        if let min, let max, min > max { throw ProfileError(field: "storage", message: "min \(min) is above max \(max).") }
        return Band(min: min, max: max)
    }

    private static func edge(
        _ object: [String: JSONNode], _ keys: [(key: String, comparator: Comparator)], at path: String
    ) throws(ProfileError) -> Threshold? {
        let given = keys.filter { object[$0.key] != nil }
        guard given.count <= 1 else {
            throw ProfileError(field: "\(path).\(given[1].key)", message: "give only one of \(given.map(\.key).joined(separator: " or ")).")
        }
        guard let edge = given.first, let node = object[edge.key] else { return nil }
        return Threshold(edge.comparator, try node.number(at: "\(path).\(edge.key)"))
    }

    private static func parseAllowance(_ node: JSONNode, at path: String) throws(ProfileError) -> Allowance {
        let object = try node.object(at: path)
        try JSONNode.rejectUnknownKeys(
            object, allowed: Set((lowerEdgeKeys + upperEdgeKeys).map(\.key) + durationUnits.map(\.key)), at: path)
        let lower = try edge(object, lowerEdgeKeys, at: path)
        let upper = try edge(object, upperEdgeKeys, at: path)
        guard lower != nil || upper != nil else {
            throw ProfileError(field: path, message: "the band has no edge; give above or atOrAbove, upTo or below.")
        }
        if let lower, let upper, lower.limit >= upper.limit, !(lower.limit == upper.limit && lower.comparator.includesLimit && upper.comparator == .greaterThan)
        {
            throw ProfileError(field: path, message: "the band \(Allowance(lower: lower, upper: upper, seconds: 1).name) holds no temperature.")
        }
        let given = durationUnits.filter { object[$0.key] != nil }
        guard given.count == 1, let unit = given.first, let valueNode = object[unit.key] else {
            throw ProfileError(
                field: given.count > 1 ? "\(path).\(given[1].key)" : path, message: "give exactly one of days, hours, minutes or seconds.")
        }
        let amount = try valueNode.number(at: "\(path).\(unit.key)")
        let seconds = amount * unit.seconds
        guard seconds > 0, seconds <= 100 * 366 * 86_400 else {
            throw ProfileError(field: "\(path).\(unit.key)", message: "\(amount) is not a duration above 0 and within 100 years.")
        }
        return Allowance(lower: lower, upper: upper, seconds: seconds)
    }

    /// A temperature range's end: its value and whether the value itself is inside.
    private struct RangeEnd {
        var value: Double
        var inclusive: Bool
    }

    /// Refuses two bands that share a temperature: time there would be counted twice.
    private static func checkNoOverlap(_ allowances: [Allowance]) throws(ProfileError) {
        func range(_ band: Allowance) -> (low: RangeEnd, high: RangeEnd) {
            let low = band.lower.map { RangeEnd(value: $0.limit, inclusive: $0.comparator.includesLimit) } ?? RangeEnd(value: -.infinity, inclusive: false)
            let high = band.upper.map { RangeEnd(value: $0.limit, inclusive: $0.comparator == .greaterThan) } ?? RangeEnd(value: .infinity, inclusive: false)
            return (low, high)
        }
        for first in allowances.indices {
            for second in allowances.indices where second > first {
                let (a, b) = (range(allowances[first]), range(allowances[second]))
                let low =
                    a.low.value != b.low.value
                    ? (a.low.value > b.low.value ? a.low : b.low) : RangeEnd(value: a.low.value, inclusive: a.low.inclusive && b.low.inclusive)
                let high =
                    a.high.value != b.high.value
                    ? (a.high.value < b.high.value ? a.high : b.high) : RangeEnd(value: a.high.value, inclusive: a.high.inclusive && b.high.inclusive)
                if low.value < high.value || (low.value == high.value && low.inclusive && high.inclusive) {
                    throw ProfileError(
                        field: "allowances[\(second)]",
                        message: "the band \(allowances[second].name) overlaps allowances[\(first)] (\(allowances[first].name)); time there would count twice.")
                }
            }
        }
    }

    private static func parseDiscard(_ node: JSONNode, at path: String) throws(ProfileError) -> Threshold {
        let object = try node.object(at: path)
        try JSONNode.rejectUnknownKeys(object, allowed: Set(discardKeys.map(\.key)), at: path)
        guard let threshold = try edge(object, discardKeys, at: path), object.count == 1 else {
            throw ProfileError(field: path, message: "give exactly one of above, atOrAbove, below or atOrBelow.")
        }
        return threshold
    }

    private static func parseKinetics(_ node: JSONNode) throws(ProfileError) -> Kinetics {
        if case .string(let name) = node {
            guard let model = Kinetics.builtIn(named: name) else {
                throw ProfileError(
                    field: "kinetics",
                    message: "'\(name.prefix(80))' is not a built-in model; use \(Kinetics.builtIn.compactMap(\.model).joined(separator: ", ")) or give points."
                )
            }
            return model
        }
        let object = try node.object(at: "kinetics")
        try JSONNode.rejectUnknownKeys(object, allowed: ["points"], at: "kinetics")
        guard let pointsNode = object["points"] else {
            throw ProfileError(field: "kinetics.points", message: "missing; give two points, each {\"celsius\": T, \"days\": D}.")
        }
        let nodes = try pointsNode.array(at: "kinetics.points")
        guard nodes.count == 2 else { throw ProfileError(field: "kinetics.points", message: "give exactly two points; \(nodes.count) given.") }
        var points: [Kinetics.Point] = []
        for (index, pointNode) in nodes.enumerated() {
            let path = "kinetics.points[\(index)]"
            let point = try pointNode.object(at: path)
            try JSONNode.rejectUnknownKeys(point, allowed: ["celsius", "days"], at: path)
            guard let celsius = point["celsius"], let days = point["days"] else {
                throw ProfileError(field: path, message: "give both celsius and days.")
            }
            points.append(Kinetics.Point(celsius: try celsius.number(at: "\(path).celsius"), days: try days.number(at: "\(path).days")))
        }
        guard let kinetics = Kinetics(points[0], points[1]) else {
            throw ProfileError(
                field: "kinetics.points",
                message: "the two points must be at different temperatures above −273.15 °C, with positive days, fewer at the hotter one.")
        }
        return kinetics
    }
}

extension Product {
    /// The product as a product file holds it (what `fromJSON` reads back to an equal
    /// product): how a lot keeps the exact stability data it is judged by, a built-in one's
    /// included, and how `coldtap products --json` prints them.
    public var jsonText: String {
        func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        }
        func string(_ text: String) -> String { JSONStringLiteral.quoted(text) }
        func key(_ keys: [(key: String, comparator: Comparator)], _ threshold: Threshold) -> String {
            "\(string(keys.first { $0.comparator == threshold.comparator }?.key ?? "above")): \(number(threshold.limit))"
        }
        var members = ["\"name\": \(string(name))"]
        if !summary.isEmpty { members.append("\"summary\": \(string(summary))") }
        if let gtin { members.append("\"gtin\": \(string(gtin))") }
        if let storage {
            var edges: [String] = []
            if let low = storage.low { edges.append("\"min\": \(number(low.limit))") }
            if let high = storage.high { edges.append("\"max\": \(number(high.limit))") }
            members.append("\"storage\": {\(edges.joined(separator: ", "))}")
        }
        if !allowances.isEmpty {
            let bands = allowances.map { band in
                var parts: [String] = []
                if let lower = band.lower { parts.append(key(Self.lowerEdgeKeys, lower)) }
                if let upper = band.upper { parts.append(key(Self.upperEdgeKeys, upper)) }
                let hours = band.seconds / 3600
                parts.append(hours == hours.rounded() ? "\"hours\": \(number(hours))" : "\"seconds\": \(number(band.seconds))")
                return "{\(parts.joined(separator: ", "))}"
            }
            members.append("\"allowances\": [\(bands.joined(separator: ", "))]")
        }
        if !discard.isEmpty { members.append("\"discard\": [\(discard.map { "{\(key(Self.discardKeys, $0))}" }.joined(separator: ", "))]") }
        if let kinetics {
            if let model = kinetics.model, Kinetics.builtIn(named: model) == kinetics {
                members.append("\"kinetics\": \(string(model))")
            } else {
                let points = [kinetics.hot, kinetics.cold].map { "{\"celsius\": \(number($0.celsius)), \"days\": \(number($0.days))}" }
                members.append("\"kinetics\": {\"points\": [\(points.joined(separator: ", "))]}")
            }
        }
        if reviewThreshold != Self.defaultReviewThreshold { members.append("\"reviewThreshold\": \(number(reviewThreshold))") }
        return "{\n  " + members.joined(separator: ",\n  ") + "\n}\n"
    }
}
