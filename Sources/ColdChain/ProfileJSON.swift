import Foundation
import LoggerFormats

/// A custom profile file that cannot be used; `field` names the bad field as a path
/// (`rules[1].comparator`), empty for the document as a whole.
public struct ProfileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { field.isEmpty ? message : "\(field): \(message)" }
}

extension Profile {
    /// Reads a custom profile from JSON:
    ///
    /// ```json
    /// {
    ///   "name": "pharmacy-fridge",
    ///   "summary": "optional text",
    ///   "band": {"min": 2, "max": 8},
    ///   "rules": [
    ///     {"kind": "continuous", "comparator": ">", "limit": 8, "hours": 10},
    ///     {"kind": "cumulative", "comparator": ">=", "limit": 30, "minutes": 600, "per": "day"},
    ///     {"kind": "cumulative", "comparator": ">", "limit": 30, "hours": 24, "strictlyLonger": true},
    ///     {"kind": "instantaneous", "comparator": "<", "limit": -0.5},
    ///     {"kind": "mkt", "comparator": ">", "limit": 25}
    ///   ]
    /// }
    /// ```
    ///
    /// `band` is optional (both edges are inside; either may be left out). Comparators are
    /// `>`, `>=`/`≥`, `<`, `<=`/`≤`; limits are °C. Continuous and cumulative rules take
    /// exactly one of `hours`, `minutes`, `seconds`; the exposure fires the rule when it
    /// reaches that duration, or only when it is longer with `"strictlyLonger": true`.
    /// Cumulative rules add up over the whole log unless `"per": "day"`.
    /// `"alarmsUntilAcknowledged": true` makes an instantaneous rule's alarm last until every
    /// excursion beyond its limit is acknowledged (`cdc-vaccine-fridge`). Unknown keys are
    /// errors, so a misspelt key is not silently ignored.
    /// - Throws: `ProfileError` naming the first bad field.
    public static func fromJSON(_ data: Data) throws(ProfileError) -> Profile {
        let object = try JSONNode.rootObject(of: data)
        try JSONNode.rejectUnknownKeys(object, allowed: ["name", "summary", "band", "rules", "alarmsUntilAcknowledged"], at: "")
        guard let nameNode = object["name"] else {
            throw ProfileError(field: "name", message: "missing; give the profile a name.")
        }
        let name = try nameNode.string(at: "name")
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ProfileError(field: "name", message: "is empty; give the profile a name.")
        }
        var summary = ""
        if let node = object["summary"] { summary = try node.string(at: "summary") }
        var band: Band?
        if let node = object["band"] { band = try parseBand(node) }
        guard let rulesNode = object["rules"] else {
            throw ProfileError(field: "rules", message: "missing; give a list of rules (it may be empty).")
        }
        let ruleNodes = try rulesNode.array(at: "rules")
        var rules: [Rule] = []
        for (index, node) in ruleNodes.enumerated() {
            rules.append(try parseRule(node, at: "rules[\(index)]"))
        }
        var untilAcknowledged = false
        if let node = object["alarmsUntilAcknowledged"] {
            guard case .bool(let value) = node else {
                throw ProfileError(field: "alarmsUntilAcknowledged", message: "must be true or false.")
            }
            untilAcknowledged = value
        }
        return Profile(name: name, summary: summary, band: band, rules: rules, alarmsLastUntilAcknowledged: untilAcknowledged)
    }

    private static func parseBand(_ node: JSONNode) throws(ProfileError) -> Band {
        let object = try node.object(at: "band")
        try JSONNode.rejectUnknownKeys(object, allowed: ["min", "max"], at: "band")
        var min: Double?
        var max: Double?
        if let node = object["min"] { min = try node.number(at: "band.min") }
        if let node = object["max"] { max = try node.number(at: "band.max") }
        if let min, let max, min > max {
            throw ProfileError(field: "band", message: "min \(min) is above max \(max).")
        }
        return Band(min: min, max: max)
    }

    private static func parseRule(_ node: JSONNode, at path: String) throws(ProfileError) -> Rule {
        let object = try node.object(at: path)
        guard let kindNode = object["kind"] else {
            throw ProfileError(field: "\(path).kind", message: "missing; use continuous, cumulative, instantaneous or mkt.")
        }
        let kindText = try kindNode.string(at: "\(path).kind")
        guard let kind = Rule.Kind(rawValue: kindText) else {
            throw ProfileError(field: "\(path).kind", message: "'\(kindText)' is not a rule kind; use continuous, cumulative, instantaneous or mkt.")
        }
        var allowed: Set<String> = ["kind", "comparator", "limit"]
        if kind == .continuous || kind == .cumulative { allowed.formUnion(["hours", "minutes", "seconds", "strictlyLonger"]) }
        if kind == .cumulative { allowed.insert("per") }
        try JSONNode.rejectUnknownKeys(object, allowed: allowed, at: path)

        guard let comparatorNode = object["comparator"] else {
            throw ProfileError(field: "\(path).comparator", message: "missing; every rule states >, >=, < or <=.")
        }
        let comparatorText = try comparatorNode.string(at: "\(path).comparator")
        guard let comparator = Comparator(symbol: comparatorText) else {
            throw ProfileError(field: "\(path).comparator", message: "'\(comparatorText)' is not a comparator; use >, >=, < or <=.")
        }
        guard let limitNode = object["limit"] else {
            throw ProfileError(field: "\(path).limit", message: "missing; give the limit in °C.")
        }
        let threshold = Threshold(comparator, try limitNode.number(at: "\(path).limit"))

        switch kind {
        case .instantaneous: return .instantaneous(threshold)
        case .meanKinetic: return .meanKinetic(threshold)
        case .continuous, .cumulative:
            let units: [(key: String, seconds: Double)] = [("hours", 3600), ("minutes", 60), ("seconds", 1)]
            let given = units.filter { object[$0.key] != nil }
            guard given.count == 1, let unit = given.first, let valueNode = object[unit.key] else {
                throw ProfileError(
                    field: given.count > 1 ? "\(path).\(given[1].key)" : path,
                    message: "give exactly one of hours, minutes or seconds for a \(kind.rawValue) rule.")
            }
            let amount = try valueNode.number(at: "\(path).\(unit.key)")
            let seconds = amount * unit.seconds
            guard seconds > 0, seconds <= 10 * 366 * 86_400 else {
                throw ProfileError(field: "\(path).\(unit.key)", message: "\(amount) is not a duration between 0 and 10 years.")
            }
            var strictlyLonger = false
            if let node = object["strictlyLonger"] { strictlyLonger = try node.bool(at: "\(path).strictlyLonger") }
            let duration = DurationLimit(seconds: seconds, inclusive: !strictlyLonger, inMinutes: unit.key == "minutes")
            guard kind == .cumulative else { return .continuous(threshold, for: duration) }
            var scopeText = "log"
            if let node = object["per"] { scopeText = try node.string(at: "\(path).per") }
            guard let scope = Rule.Scope(rawValue: scopeText) else {
                throw ProfileError(field: "\(path).per", message: "'\(scopeText)' is not a scope; use log or day.")
            }
            return .cumulative(threshold, for: duration, per: scope)
        }
    }
}

/// A parsed JSON value, for reading profile files with errors that name the field.
enum JSONNode: Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([String: JSONNode])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONNode].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONNode].self))
        }
    }

    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "true/false"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    private func mismatch(_ path: String, expected: String) -> ProfileError {
        ProfileError(field: path, message: "expected \(expected), found \(typeName).")
    }

    func object(at path: String) throws(ProfileError) -> [String: JSONNode] {
        guard case .object(let value) = self else { throw mismatch(path, expected: "an object") }
        return value
    }

    func array(at path: String) throws(ProfileError) -> [JSONNode] {
        guard case .array(let value) = self else { throw mismatch(path, expected: "a list") }
        return value
    }

    func string(at path: String) throws(ProfileError) -> String {
        guard case .string(let value) = self else { throw mismatch(path, expected: "a string") }
        return value
    }

    func number(at path: String) throws(ProfileError) -> Double {
        guard case .number(let value) = self, value.isFinite else { throw mismatch(path, expected: "a number") }
        return value
    }

    func bool(at path: String) throws(ProfileError) -> Bool {
        guard case .bool(let value) = self else { throw mismatch(path, expected: "true or false") }
        return value
    }

    /// The document's top-level object, or the error that says where its syntax goes wrong.
    static func rootObject(of data: Data) throws(ProfileError) -> [String: JSONNode] {
        let root: JSONNode
        do {
            root = try JSONDecoder().decode(JSONNode.self, from: data)
        } catch {
            throw ProfileError(field: "", message: "not valid JSON (\(JSONNode.describe(error, in: data))); fix its syntax.")
        }
        return try root.object(at: "")
    }

    static func rejectUnknownKeys(_ object: [String: JSONNode], allowed: Set<String>, at path: String) throws(ProfileError) {
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ProfileError(
                field: path.isEmpty ? unknown : "\(path).\(unknown)",
                message: "unknown field; expected one of \(allowed.sorted().joined(separator: ", ")).")
        }
    }

    static func describe(_ error: any Error, in data: Data) -> String {
        let text: String
        if let decoding = error as? DecodingError, case .dataCorrupted(let context) = decoding {
            // Foundation's parser says where the text goes wrong; the decoder does not.
            text = JSONText.syntaxProblem(in: data) ?? context.underlyingError.map { "\($0)" } ?? context.debugDescription
        } else {
            text = "\(error)"
        }
        // It goes inside a sentence: no closing full stop of its own.
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }
}
