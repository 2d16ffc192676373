import Foundation
import Testing

@testable import ColdTapBase

/// The one day parser: a `yyyy-MM-dd` day is that day's start in the zone asked, texts that
/// are no day are refused, and a day printed reads back as the same day.
@Suite struct CalendarDayTests {
    @Test func aDayIsItsStartInTheZoneAsked() throws {
        #expect(CalendarDay.parse("2024-04-09", in: .utc) == Date(timeIntervalSince1970: 1_712_620_800))
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        // Summer time: midnight in Berlin is 22:00 UTC the day before.
        #expect(CalendarDay.parse("2024-04-09", in: berlin) == Date(timeIntervalSince1970: 1_712_620_800 - 7_200))
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        #expect(CalendarDay.parse("2024-04-09", in: tokyo) == Date(timeIntervalSince1970: 1_712_620_800 - 32_400))
    }

    @Test(arguments: ["", "2024", "2024-13-01", "2024-04-32", "yesterday", "09.04.2024", "T2024-04-09"])
    func whatIsNoDayIsRefused(text: String) {
        #expect(CalendarDay.parse(text, in: .utc) == nil)
    }

    /// The parser is the formatter the five callers each made before, leniency included:
    /// another separator passes, which is why the callers that want `yyyy-MM-dd` exactly
    /// also ask for ten characters (and a time is tried first).
    @Test func itAcceptsWhatTheFormerFormattersAccepted() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .utc
        formatter.dateFormat = "yyyy-MM-dd"
        for text in ["2024-04-09", "2024/04/09", "2024-4-9", "2024-02-29", "2023-02-29", "0001-01-01", " 2024-04-09", "2024-04-09x"] {
            #expect(CalendarDay.parse(text, in: .utc) == formatter.date(from: text), "\(text)")
        }
    }

    @Test func aPrintedDayReadsBackAsTheSameDay() throws {
        let zones = try ["UTC", "Europe/Berlin", "America/Los_Angeles", "Asia/Kolkata"].map { try #require(TimeZone(identifier: $0)) }
        let moment = Date(timeIntervalSince1970: 1_712_650_000)  // 2024-04-09T08:06:40Z
        let days = zones.map { CalendarDay.text(moment, in: $0) }
        #expect(days == ["2024-04-09", "2024-04-09", "2024-04-09", "2024-04-09"])
        for (zone, day) in zip(zones, days) {
            let start = try #require(CalendarDay.parse(day, in: zone))
            #expect(start <= moment && moment.timeIntervalSince(start) < 86_400)
            #expect(CalendarDay.text(start, in: zone) == day)
        }
    }

    @Test func manyThreadsParseAtOnce() async {
        let results = await withTaskGroup(of: Date?.self) { group in
            for offset in 0..<64 { group.addTask { CalendarDay.parse(String(format: "2024-01-%02d", offset % 28 + 1), in: .utc) } }
            var all: [Date?] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 64 && results.allSatisfy { $0 != nil })
    }

    @Test func utcIsTheZoneOfThatNameWithoutOffset() {
        #expect(TimeZone.utc == TimeZone(identifier: "UTC"))
        #expect(TimeZone.utc.secondsFromGMT() == 0 && TimeZone.utc.secondsFromGMT(for: Date(timeIntervalSince1970: 1_719_792_000)) == 0)
    }
}
