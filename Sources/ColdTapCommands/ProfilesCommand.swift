import ColdChain
import Foundation

/// `coldtap profiles`: the built-in cold-chain profiles with their band and rules in words,
/// as JSON in the profile-file format, or the profile-file format itself (`--schema`).
public enum ProfilesCommand: Command {
    static let jsonOption = OptionSpec.flag("--json", help: "print them as JSON in the profile-file format (a start for a profile of your own)")
    static let schemaOption = OptionSpec.flag("--schema", help: "explain every field of a profile .json file, with an example")

    public static let name = "profiles"
    public static let forms = [
        CommandForm(
            summary: "list the built-in cold-chain profiles with their band and rules, or document the profile .json format",
            options: [
                jsonOption,
                schemaOption,
            ])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let json = arguments.isSet(jsonOption)
        let schema = arguments.isSet(schemaOption)
        _ = try arguments.positionals(max: 0)
        try arguments.finish()
        if json && schema { throw CommandError.usage("Give --json or --schema, not both.") }
        if schema {
            console.print(profileSchema)
        } else if json {
            console.print(JSONValue.array(Profile.builtIn.map(profileJSON)).serialized())
        } else {
            console.print(Profile.builtIn.map(text).joined(separator: "\n\n"))
        }
    }

    /// A profile in words: name, summary, band, and one sentence per rule.
    static func text(_ profile: Profile) -> String {
        var lines = [profile.name + (profile.name == ReportCommand.defaultProfile.name ? " (the default)" : "")]
        if !profile.summary.isEmpty { lines.append("  " + profile.summary) }
        lines.append(
            "  band: "
                + (profile.band.map { "\($0) (excursions are counted outside it)" }
                    ?? "none; excursions are counted outside the rules' limits, \(profile.excursionBand)"))
        if profile.rules.isEmpty { lines.append("  no alarm rules") }
        for rule in profile.rules { lines.append("  ALARM when " + sentence(rule)) }
        return lines.joined(separator: "\n")
    }

    /// "the temperature is > 8 °C for 10 h without a break".
    static func sentence(_ rule: Rule) -> String {
        let threshold = rule.threshold.description
        let duration = rule.duration?.description ?? ""
        switch rule.kind {
        case .continuous: return "the temperature is \(threshold) for \(duration) without a break"
        case .cumulative:
            return "the temperature is \(threshold) for \(duration) in total" + (rule.scope == .day ? " on any one day" : " over the whole log")
        case .instantaneous: return "any sample is \(threshold)"
        case .meanKinetic: return "the mean kinetic temperature of the whole log is \(threshold)"
        }
    }

    /// The profile as a profile file would hold it.
    static func profileJSON(_ profile: Profile) -> JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(profile.name)), ("summary", .string(profile.summary))]
        if let band = profile.band {
            var edges: [(String, JSONValue)] = []
            if let low = band.low { edges.append(("min", .number(low.limit))) }
            if let high = band.high { edges.append(("max", .number(high.limit))) }
            members.append(("band", .object(edges)))
        }
        members.append(
            (
                "rules",
                .array(
                    profile.rules.map { rule in
                        let symbols: [ColdChain.Comparator: String] = [.greaterThan: ">", .greaterThanOrEqual: ">=", .lessThan: "<", .lessThanOrEqual: "<="]
                        var fields: [(String, JSONValue)] = [
                            ("kind", .string(rule.kind.rawValue)),
                            ("comparator", .string(symbols[rule.threshold.comparator] ?? ">")),
                            ("limit", .number(rule.threshold.limit)),
                        ]
                        if let duration = rule.duration {
                            // In the unit the rule is written in, so the file reads back as the same rule.
                            if duration.inMinutes {
                                fields.append(("minutes", .number(duration.seconds / 60)))
                            } else if duration.seconds.truncatingRemainder(dividingBy: 3600) == 0 {
                                fields.append(("hours", .number(duration.seconds / 3600)))
                            } else {
                                fields.append(("seconds", .number(duration.seconds)))
                            }
                            if !duration.inclusive { fields.append(("strictlyLonger", .bool(true))) }
                        }
                        if rule.kind == .cumulative && rule.scope == .day { fields.append(("per", .string("day"))) }
                        return .object(fields)
                    })
            ))
        if profile.alarmsLastUntilAcknowledged { members.append(("alarmsUntilAcknowledged", .bool(true))) }
        return .object(members)
    }

    /// The profile-file format, field by field (README.md has the same text).
    static let profileSchema = """
        A profile file is a JSON object; --profile FILE.json uses it. Unknown keys are errors.

          name        string, required: shown in reports
          summary     string: one line on what the profile is for
          band        object: the allowed band, both edges inside (°C); excursions are counted outside it
            min       number, °C (leave out for no lower edge)
            max       number, °C (leave out for no upper edge)
          rules       list, required (may be empty): each rule that raises an ALARM
            kind        continuous | cumulative | instantaneous | mkt
            comparator  > | >= | < | <=   (the temperature compared with limit; ≥ and ≤ also work)
            limit       number, °C
            hours | minutes | seconds
                        number, exactly one, continuous and cumulative only: the exposure that fires the rule
            strictlyLonger
                        true: the exposure must be longer than the duration, not merely reach it
            per         "day": a cumulative rule adds up per calendar day (in --tz) instead of over the whole log
          alarmsUntilAcknowledged
                      true: an instantaneous rule's ALARM lasts until every excursion beyond its limit is
                      acknowledged (coldtap ack, or the station), as in cdc-vaccine-fridge

          continuous     fires when one unbroken run beyond the limit lasts the duration
          cumulative     fires when all the time beyond the limit adds up to the duration
          instantaneous  fires on any one sample beyond the limit
          mkt            fires when the mean kinetic temperature (ΔH/R = 10 000 K) is beyond the limit

        Time that is unknown (missing or out-of-range samples, clock jumps) is counted both ways:
        a rule that fires only when it counts as beyond the limit makes the verdict INCONCLUSIVE.

        Example:
          {
            "name": "pharmacy-fridge",
            "summary": "2–8 °C; 30 min above 8 °C per day at most; never at or below 0 °C",
            "band": { "min": 2, "max": 8 },
            "rules": [
              { "kind": "continuous", "comparator": ">", "limit": 8, "hours": 2 },
              { "kind": "cumulative", "comparator": ">", "limit": 8, "minutes": 30, "per": "day" },
              { "kind": "instantaneous", "comparator": "<=", "limit": 0 }
            ]
          }
        """
}
