import Foundation
import Testing

@testable import ColdChain

@Suite struct ProfileJSONTests {
    func parse(_ text: String) throws(ProfileError) -> Profile {
        try Profile.fromJSON(Data(text.utf8))
    }

    func error(_ text: String) -> ProfileError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func fullProfile() throws {
        let profile = try parse(
            """
            {"name": "pharmacy", "summary": "our fridge", "band": {"min": 2, "max": 8}, "rules": [
              {"kind": "continuous", "comparator": ">", "limit": 8, "hours": 10},
              {"kind": "continuous", "comparator": "<=", "limit": -0.5, "minutes": 60},
              {"kind": "cumulative", "comparator": "≥", "limit": 30, "hours": 2, "per": "day"},
              {"kind": "cumulative", "comparator": ">", "limit": 30, "hours": 24, "strictlyLonger": true},
              {"kind": "instantaneous", "comparator": "<", "limit": -50},
              {"kind": "mkt", "comparator": ">", "limit": 25}
            ]}
            """)
        #expect(profile.name == "pharmacy")
        #expect(profile.summary == "our fridge")
        #expect(profile.band == Band(min: 2, max: 8))
        #expect(
            profile.rules == [
                .continuous(Threshold(.greaterThan, 8), for: .hours(10)),
                .continuous(Threshold(.lessThanOrEqual, -0.5), for: .minutes(60)),
                .cumulative(Threshold(.greaterThanOrEqual, 30), for: .hours(2), per: .day),
                .cumulative(Threshold(.greaterThan, 30), for: .moreThan(hours: 24)),
                .instantaneous(Threshold(.lessThan, -50)),
                .meanKinetic(Threshold(.greaterThan, 25)),
            ])
        #expect(profile.rules[1].description == "≤ −0.5 °C for 60 min continuous")
    }

    @Test func bandIsOptionalAndMayBeOneSided() throws {
        #expect(try parse(#"{"name": "x", "rules": []}"#).band == nil)
        #expect(try parse(#"{"name": "x", "band": {"max": -18}, "rules": []}"#).band == Band(min: nil, max: -18))
    }

    @Test(arguments: [
        ("[1]", "", "expected an object, found a list."),
        ("{", "", ""),
        (#"{"rules": []}"#, "name", "missing; give the profile a name."),
        (#"{"name": 3, "rules": []}"#, "name", "expected a string, found a number."),
        (#"{"name": "x"}"#, "rules", "missing; give a list of rules (it may be empty)."),
        (#"{"name": "x", "rule": []}"#, "rule", "unknown field; expected one of alarmsUntilAcknowledged, band, name, rules, summary."),
        (#"{"name": "x", "band": {"min": 8, "max": 2}, "rules": []}"#, "band", "min 8.0 is above max 2.0."),
        (#"{"name": "x", "band": {"min": "2"}, "rules": []}"#, "band.min", "expected a number, found a string."),
        (
            #"{"name": "x", "rules": [{"kind": "spike", "comparator": ">", "limit": 1}]}"#, "rules[0].kind",
            "'spike' is not a rule kind; use continuous, cumulative, instantaneous or mkt."
        ),
        (
            #"{"name": "x", "rules": [{"kind": "mkt", "limit": 25}]}"#, "rules[0].comparator",
            "missing; every rule states >, >=, < or <=."
        ),
        (
            #"{"name": "x", "rules": [{"kind": "mkt", "comparator": "=>", "limit": 25}]}"#, "rules[0].comparator",
            "'=>' is not a comparator; use >, >=, < or <=."
        ),
        (#"{"name": "x", "rules": [{"kind": "mkt", "comparator": ">"}]}"#, "rules[0].limit", "missing; give the limit in °C."),
        (
            #"{"name": "x", "rules": [{"kind": "mkt", "comparator": ">", "limit": true}]}"#, "rules[0].limit",
            "expected a number, found true/false."
        ),
        (
            #"{"name": "x", "rules": [{"kind": "mkt", "comparator": ">", "limit": 25, "hours": 1}]}"#, "rules[0].hours",
            "unknown field; expected one of comparator, kind, limit."
        ),
        (
            #"{"name": "x", "rules": [{"kind": "continuous", "comparator": ">", "limit": 8}]}"#, "rules[0]",
            "give exactly one of hours, minutes or seconds for a continuous rule."
        ),
        (
            #"{"name": "x", "rules": [{"kind": "continuous", "comparator": ">", "limit": 8, "hours": 1, "minutes": 60}]}"#,
            "rules[0].minutes", "give exactly one of hours, minutes or seconds for a continuous rule."
        ),
        (
            #"{"name": "x", "rules": [{"kind": "continuous", "comparator": ">", "limit": 8, "hours": -1}]}"#,
            "rules[0].hours", "-1.0 is not a duration between 0 and 10 years."
        ),
        (
            #"{"name": "x", "rules": [{"kind": "continuous", "comparator": ">", "limit": 8, "hours": 1, "per": "day"}]}"#,
            "rules[0].per", "unknown field; expected one of comparator, hours, kind, limit, minutes, seconds, strictlyLonger."
        ),
        (
            #"{"name": "x", "rules": [{"kind": "cumulative", "comparator": ">", "limit": 8, "hours": 1, "per": "week"}]}"#,
            "rules[0].per", "'week' is not a scope; use log or day."
        ),
        (
            #"{"name": "x", "rules": [{"kind": "instantaneous", "comparator": ">", "limit": 1}, 7]}"#, "rules[1]",
            "expected an object, found a number."
        ),
    ])
    func errorsNameTheBadField(text: String, field: String, message: String) throws {
        let found = try #require(error(text))
        #expect(found.field == field)
        if !message.isEmpty { #expect(found.message == message) }
    }

    @Test func builtInNames() {
        #expect(
            Profile.builtIn.map(\.name) == [
                "vaccine-fridge", "cdc-vaccine-fridge", "who-shipping-1", "who-shipping-2", "usp-crt", "frozen", "vaccine-freezer",
            ])
        #expect(Profile.builtIn(named: "frozen") == .frozen)
        #expect(Profile.builtIn(named: "fridge") == nil)
    }
}
