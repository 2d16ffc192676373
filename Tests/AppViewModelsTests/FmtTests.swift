import Foundation
import Testing

@testable import AppViewModels

@Suite struct FmtTests {
    @Test func temperatureHasOneDecimalInCelsiusAndADashForNoValue() {
        #expect(Fmt.temperature(4.26, locale: usEnglish) == "4.3 °C")
        #expect(Fmt.temperature(-18, locale: usEnglish) == "-18.0 °C")
        #expect(Fmt.temperature(nil) == "—")
        #expect(Fmt.temperature(.nan) == "—")
        #expect(Fmt.temperature(.infinity) == "—")
        // The phone's language decides the decimal mark, never the unit.
        #expect(Fmt.temperature(4.5, locale: Locale(identifier: "de_DE")) == "4,5 °C")
    }

    @Test func durationShowsAtMostTwoUnitsAndZeroMinutesForNoTime() {
        #expect(Fmt.duration(3700, locale: usEnglish) == "1 hr, 2 min")
        #expect(Fmt.duration(3 * 86400 + 7200 + 60, locale: usEnglish) == "3 days, 2 hr")
        #expect(Fmt.duration(0, locale: usEnglish) == "0 min")
        #expect(Fmt.duration(-5, locale: usEnglish) == "0 min")
        #expect(Fmt.duration(.nan, locale: usEnglish) == "0 min")
    }

    @Test func dateTimeIsShownInTheChosenZone() {
        // ICU puts a narrow no-break space before AM/PM.
        #expect(Fmt.dateTime(t0, in: utc, locale: usEnglish) == "Apr 9, 2026 at 12:00\u{202F}AM")
        #expect(Fmt.dateTime(t0, in: TimeZone(identifier: "Asia/Tokyo")!, locale: usEnglish) == "Apr 9, 2026 at 9:00\u{202F}AM")
        #expect(Fmt.dateTime(nil, in: utc) == "—")
    }

    @Test func percentNeedsAWhole() {
        #expect(Fmt.percent(1, of: 3, locale: usEnglish) == "33.3%")
        #expect(Fmt.percent(5, of: 5, locale: usEnglish) == "100%")
        #expect(Fmt.percent(5, of: 0) == "—")
    }
}
