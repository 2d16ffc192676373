import ColdChain
import ColdTapBase
import Foundation

/// A profile as the JSON that `Profile.fromJSON` reads, so that the profile an assessment
/// used is kept whole and can be read back as it was.
enum ProfileExport {
    /// The JSON of the profiles written so far: every read kept records its profile, and
    /// most reads are judged by one of a few.
    private static let written = LockedValue<[Profile: String]>([:])

    static func json(_ profile: Profile) -> String {
        if let known = written.withLock({ $0[profile] }) { return known }
        let text = makeJSON(profile)
        written.withLock { cache in
            // A bound, for a process that is given many profiles.
            if cache.count >= 64 { cache.removeAll() }
            cache[profile] = text
        }
        return text
    }

    private static func makeJSON(_ profile: Profile) -> String {
        var object: [String: Any] = ["name": profile.name, "summary": profile.summary]
        if let band = profile.band {
            var edges: [String: Any] = [:]
            if let low = band.low { edges["min"] = low.limit }
            if let high = band.high { edges["max"] = high.limit }
            object["band"] = edges
        }
        object["rules"] = profile.rules.map { rule -> [String: Any] in
            var entry: [String: Any] = [
                "kind": rule.kind.rawValue, "comparator": symbol(rule.threshold.comparator),
                "limit": rule.threshold.limit,
            ]
            if let duration = rule.duration {
                if duration.inMinutes {
                    entry["minutes"] = duration.seconds / 60
                } else if duration.seconds.truncatingRemainder(dividingBy: 3600) == 0 {
                    entry["hours"] = duration.seconds / 3600
                } else {
                    entry["seconds"] = duration.seconds
                }
                if !duration.inclusive { entry["strictlyLonger"] = true }
            }
            if rule.kind == .cumulative { entry["per"] = rule.scope.rawValue }
            return entry
        }
        // Only when set, so that every other profile keeps the bytes it was kept with.
        if profile.alarmsLastUntilAcknowledged { object["alarmsUntilAcknowledged"] = true }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func symbol(_ comparator: ColdChain.Comparator) -> String {
        switch comparator {
        case .greaterThan: return ">"
        case .greaterThanOrEqual: return ">="
        case .lessThan: return "<"
        case .lessThanOrEqual: return "<="
        }
    }
}
