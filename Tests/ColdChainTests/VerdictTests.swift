import Foundation
import LoggerFormats
import Testing

@testable import ColdChain

@Suite struct VerdictTests {
    @Test func alarmNamesEachRuleWhenAndByHowMuch() {
        // 11 h at 9.5 °C, then 1 h at −1 °C.
        let assessment = assess([5] + run(9.5, 22) + run(-1, 2) + [5], .vaccineFridge, timeZone: berlin)
        #expect(assessment.verdict == .alarm)
        #expect(assessment.alarms.map(\.rule) == Profile.vaccineFridge.rules)
        #expect(
            assessment.reasons[0]
                == "'> 8 °C for 10 h continuous' fired at 2026-04-09 12:30 +02:00: 11 h continuous beyond the limit from 2026-04-09 02:30 +02:00, peak 9.5 °C, 1.5 °C above the limit."
        )
        #expect(
            assessment.reasons[1]
                == "'≤ −0.5 °C for 60 min continuous' fired at 2026-04-09 14:30 +02:00: 1 h continuous beyond the limit from 2026-04-09 13:30 +02:00, peak −1 °C, 0.5 °C below the limit."
        )
        #expect(assessment.reasons[2] == "2 excursions outside 2–8 °C lasting 12 h in total.")
    }

    @Test func alarmStillMentionsWhatUnknownTimeCouldAdd() {
        let assessment = assess(run(9, 20) + [nil, -1], .vaccineFridge)
        #expect(assessment.verdict == .alarm)
        #expect(assessment.alarms.count == 1)
        #expect(assessment.possibleAlarms.map(\.rule) == [Profile.vaccineFridge.rules[1]])
        #expect(assessment.reasons.contains("Counting the 30 min of unknown time as beyond the limits would also fire: '≤ −0.5 °C for 60 min continuous'."))
    }

    @Test func failedIntegrityIsNeverOK() {
        let log = makeLog(run(5, 10), integrity: .failed)
        let assessment = Assessor.assess(log, profile: .vaccineFridge, timeZone: utc)
        #expect(assessment.verdict == .inconclusive)
        #expect(assessment.reasons.first == "The log failed its integrity check (HMAC mismatch): its data cannot be trusted.")
    }

    @Test func failedIntegrityKeepsAnAlarm() {
        let log = makeLog(run(9, 20), integrity: .failed)
        let assessment = Assessor.assess(log, profile: .vaccineFridge, timeZone: utc)
        #expect(assessment.verdict == .alarm)
        #expect(assessment.reasons.contains("The log failed its integrity check (HMAC mismatch): its data cannot be trusted."))
    }

    @Test func logWithoutValidSamples() {
        let assessment = assess([nil, nil], .vaccineFridge)
        #expect(assessment.verdict == .inconclusive)
        #expect(assessment.reasons.first == "No sample is valid (2 missing, 0 out of range).")
        #expect(assessment.statistics.mean == nil)
    }

    @Test func logWithoutInterval() {
        let assessment = assess([5, 5], .vaccineFridge, interval: 0)
        #expect(assessment.verdict == .inconclusive)
        #expect(assessment.reasons.first == "The log gives no usable sample interval (0.0 s), so durations cannot be measured.")
    }

    @Test func okWithoutUnknownTime() {
        let assessment = assess([5, 9, 5], .vaccineFridge)
        #expect(assessment.verdict == .ok)
        #expect(assessment.reasons == ["No rule fired.", "1 excursion outside 2–8 °C lasting 30 min in total."])
    }
}

/// Logs built to sit just inside and just outside every rule of every built-in profile.
@Suite struct BuiltInProfileTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var profile: String
        var what: String
        var values: [Double?]
        var expected: Verdict
        var testDescription: String { "\(profile): \(what) → \(expected.rawValue)" }
    }

    /// Background temperature that breaks no rule of the profile.
    static let calm: [String: Double] = [
        "vaccine-fridge": 5, "cdc-vaccine-fridge": 5, "who-shipping-1": 20, "who-shipping-2": 5, "usp-crt": 22, "frozen": -20,
        "vaccine-freezer": -25,
    ]

    static func make(_ profile: String, _ what: String, _ core: [Double?], _ expected: Verdict) -> Case {
        let calm = BuiltInProfileTests.calm[profile] ?? 0
        return Case(profile: profile, what: what, values: [calm] + core + [calm], expected: expected)
    }

    static let cases: [Case] = [
        // vaccine-fridge: > 8 °C for 10 h continuous; ≤ −0.5 °C for 60 min continuous.
        make("vaccine-fridge", "10 h at 8.1 °C", run(8.1, 20), .alarm),
        make("cdc-vaccine-fridge", "one reading at 8.1 °C", run(5, 4) + [8.1] + run(5, 4), .alarm),
        make("cdc-vaccine-fridge", "one reading at 1.9 °C", run(5, 4) + [1.9] + run(5, 4), .alarm),
        make("cdc-vaccine-fridge", "20 h at exactly 8 °C, then 2 °C", run(8, 40) + run(2, 4), .ok),
        make("vaccine-fridge", "9 h 30 min at 8.1 °C", run(8.1, 19), .ok),
        make("vaccine-fridge", "20 h at exactly 8 °C", run(8, 40), .ok),
        make("vaccine-fridge", "60 min at exactly −0.5 °C", run(-0.5, 2), .alarm),
        make("vaccine-fridge", "30 min at −3 °C", run(-3, 1), .ok),
        make("vaccine-fridge", "60 min at −0.4 °C", run(-0.4, 2), .ok),
        make("vaccine-fridge", "9 h 30 min at 9 °C then a missing sample", run(9, 19) + [nil], .inconclusive),
        // who-shipping-1: ≥ 45 °C 1 h continuous; ≥ 30 °C 10 h cumulative; ≤ −0.5 °C 1 h continuous.
        make("who-shipping-1", "1 h at exactly 45 °C", run(45, 2), .alarm),
        make("who-shipping-1", "1 h at 44.9 °C", run(44.9, 2), .ok),
        make("who-shipping-1", "two 30-min runs at 46 °C", run(46, 1) + [20] + run(46, 1), .ok),
        make("who-shipping-1", "10 h at 30 °C in two runs", run(30, 10) + run(20, 4) + run(30, 10), .alarm),
        make("who-shipping-1", "9 h 30 min at 30 °C", run(30, 10) + run(20, 4) + run(30, 9), .ok),
        make("who-shipping-1", "10 h at 29.9 °C", run(29.9, 20), .ok),
        make("who-shipping-1", "1 h at exactly −0.5 °C", run(-0.5, 2), .alarm),
        make("who-shipping-1", "1 h at −0.4 °C", run(-0.4, 2), .ok),
        // who-shipping-2: ≥ 45 °C 1 h continuous; ≥ 30 °C 10 h cumulative; ≥ 10 °C 20 h cumulative.
        make("who-shipping-2", "1 h at exactly 45 °C", run(45, 2), .alarm),
        make("who-shipping-2", "30 min at 50 °C", run(50, 1), .ok),
        make("who-shipping-2", "10 h at exactly 30 °C", run(30, 20), .alarm),
        make("who-shipping-2", "9 h 30 min at 35 °C", run(35, 19), .ok),
        make("who-shipping-2", "20 h at exactly 10 °C in two runs", run(10, 20) + run(5, 3) + run(10, 20), .alarm),
        make("who-shipping-2", "19 h 30 min at 10 °C", run(10, 39), .ok),
        make("who-shipping-2", "20 h at 9.9 °C", run(9.9, 40), .ok),
        // usp-crt: MKT > 25 °C; any point < 15 °C or > 40 °C; > 30 °C for more than 24 h cumulative.
        make("usp-crt", "a day at exactly 25 °C", run(25, 48), .ok),
        make("usp-crt", "a day at 25.5 °C", run(25.5, 48), .alarm),
        make("usp-crt", "a point at exactly 15 °C", run(22, 40) + [15] + run(22, 40), .ok),
        make("usp-crt", "a point at 14.9 °C", run(22, 40) + [14.9] + run(22, 40), .alarm),
        // A single point at 40 °C among 40 h at 22 °C keeps the MKT near 22.3 °C.
        make("usp-crt", "a point at exactly 40 °C", run(22, 40) + [40] + run(22, 40), .ok),
        make("usp-crt", "a point at 40.1 °C", run(22, 40) + [40.1] + run(22, 40), .alarm),
        // 24 h at 30.5 °C balanced by 48 h at 15 °C keeps the MKT at 23.25 °C (Python:
        // mkt([30.5]*48 + [15]*96) = 23.247483773140345, with 49: 23.32222383744721).
        make("usp-crt", "exactly 24 h above 30 °C", run(30.5, 48) + run(15, 96), .ok),
        make("usp-crt", "24 h 30 min above 30 °C", run(30.5, 49) + run(15, 96), .alarm),
        make("usp-crt", "48 h at exactly 30 °C", run(30, 48) + run(15, 200), .ok),
        make("usp-crt", "a missing sample", [nil], .inconclusive),
        // frozen: any point > −15 °C (band ≤ −18 °C is reported only).
        make("frozen", "a point at exactly −15 °C", [-15], .ok),
        make("frozen", "a point at −14.9 °C", [-14.9], .alarm),
        make("frozen", "a rise to −16 °C", run(-16, 4), .ok),
        // vaccine-freezer: any point > −15 °C or < −50 °C.
        make("vaccine-freezer", "a point at exactly −15 °C", [-15], .ok),
        make("vaccine-freezer", "a point at −14.9 °C", [-14.9], .alarm),
        make("vaccine-freezer", "a point at exactly −50 °C", [-50], .ok),
        make("vaccine-freezer", "a point at −50.1 °C", [-50.1], .alarm),
    ]

    @Test(arguments: cases)
    func verdict(_ testCase: Case) throws {
        let profile = try #require(Profile.builtIn(named: testCase.profile))
        let assessment = assess(testCase.values, profile)
        #expect(assessment.verdict == testCase.expected, "\(assessment.reasons)")
    }

    @Test func everyRuleOfEveryProfileIsExercised() {
        // Each rule fires in at least one ALARM case above, alone.
        for profile in Profile.builtIn {
            let fired = Set(
                BuiltInProfileTests.cases.filter { $0.profile == profile.name && $0.expected == .alarm }
                    .flatMap { assess($0.values, profile).alarms.map(\.rule.description) })
            #expect(fired == Set(profile.rules.map(\.description)), "\(profile.name)")
        }
    }

    @Test func frozenReportsTheBriefRiseAsAnExcursion() {
        let assessment = assess([-20, -16, -16, -20], .frozen)
        #expect(assessment.excursions.count == 1)
        #expect(assessment.excursions[0].limit == Threshold(.greaterThan, -18))
        #expect(assessment.excursions[0].degreeMinutes == 2 * 30 * 2)
    }
}

/// An OK never hides an excursion: the headline says what nobody has acknowledged yet, and a
/// profile whose alarms last until acknowledged lets go of them only then (issue 31 §2).
@Suite struct AcknowledgementTests {
    static let start = Date(timeIntervalSince1970: 1_775_692_800)
    static func log(_ values: [Double]) -> TemperatureLog {
        TemperatureLog(
            format: "test", samples: values.enumerated().map { .init(time: start.addingTimeInterval(Double($0.offset) * 1800), temperature: $0.element) },
            interval: 1800, timeBase: .loggerHeader, integrity: .init(status: .verified, detail: "test"),
            readTime: start.addingTimeInterval(Double(values.count) * 1800))
    }
    static let utc = TimeZone(identifier: "UTC")!

    @Test func anOKWithAnExcursionSaysItIsNotYetAcknowledged() {
        let log = Self.log([5, 5, 11.8, 11.8, 5, 5])
        let open = Assessor.assess(log, profile: .vaccineFridge, timeZone: Self.utc)
        #expect(open.verdict == .ok)
        #expect(open.headline(in: Self.utc) == "OK — 1 excursion not yet acknowledged")
        let ack = ExcursionAcknowledgement(excursionStart: Self.start.addingTimeInterval(3600), by: "Ana Ruiz", at: Self.start.addingTimeInterval(86_400))
        let done = Assessor.assess(log, profile: .vaccineFridge, timeZone: Self.utc, acknowledgements: [ack])
        #expect(done.headline(in: Self.utc) == "OK — the excursion acknowledged by Ana Ruiz on 2026-04-10 00:00 +00:00")
        #expect(Assessor.assess(Self.log([5, 5, 5]), profile: .vaccineFridge, timeZone: Self.utc).headline(in: Self.utc) == "OK")
    }

    @Test func theCDCProfileIsAnAlarmUntilEveryExcursionIsAcknowledged() {
        let log = Self.log([5, 8.5, 5, 1.5, 5])
        let hot = ExcursionAcknowledgement(excursionStart: Self.start.addingTimeInterval(1800), by: "A", at: Self.start.addingTimeInterval(9000))
        let cold = ExcursionAcknowledgement(excursionStart: Self.start.addingTimeInterval(5400), by: "B", at: Self.start.addingTimeInterval(9600))
        let none = Assessor.assess(log, profile: .cdcVaccineFridge, timeZone: Self.utc)
        #expect(none.verdict == .alarm && none.alarms.count == 2)
        let one = Assessor.assess(log, profile: .cdcVaccineFridge, timeZone: Self.utc, acknowledgements: [hot])
        #expect(one.verdict == .alarm && one.alarms.map(\.rule.threshold.direction) == [.low])
        let both = Assessor.assess(log, profile: .cdcVaccineFridge, timeZone: Self.utc, acknowledgements: [hot, cold])
        #expect(both.verdict == .ok, "\(both.reasons)")
        #expect(both.headline(in: Self.utc).hasPrefix("OK — all 2 excursions acknowledged by B"))
        // The same log under the WHO fridge profile is OK even before anyone looks.
        #expect(Assessor.assess(log, profile: .vaccineFridge, timeZone: Self.utc).verdict == .ok)
        // A profile file says the same with alarmsUntilAcknowledged, and writes it back.
        let file =
            #"{"name": "p", "band": {"min": 2, "max": 8}, "rules": [{"kind": "instantaneous", "comparator": ">", "limit": 8}], "alarmsUntilAcknowledged": true}"#
        #expect((try? Profile.fromJSON(Data(file.utf8)))?.alarmsLastUntilAcknowledged == true)
        #expect((try? Profile.fromJSON(Data(#"{"name": "p", "rules": [], "alarmsUntilAcknowledged": 1}"#.utf8))) == nil)
    }
}
