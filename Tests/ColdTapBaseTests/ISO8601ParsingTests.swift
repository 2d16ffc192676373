import Foundation
import TestSupport
import Testing

@testable import ColdTapBase

/// The quick reading of whole-second ISO 8601 times gives what Foundation's formatter gives,
/// and leaves everything else to it.
@Suite struct ISO8601ParsingTests {
    static func formatter(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    @Test(.tags(.slow)) func theQuickReadingAgreesWithTheFormatter() {
        var random = SeededGenerator(seed: 8601)
        var accepted = 0
        for _ in 0..<5_000 {
            let year = Int.random(in: 1895...2105, using: &random)
            let month = Int.random(in: 0...13, using: &random)
            let day = Int.random(in: 0...32, using: &random)
            let hour = Int.random(in: 0...24, using: &random)
            let minute = Int.random(in: 0...60, using: &random)
            let second = Int.random(in: 0...60, using: &random)
            let zone = ["Z", "+00:00", "-00:00", "+05:45", "-09:30", "+14:00", "+13:45", "z", "+0545", ""].randomElement(using: &random)!
            let text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second) + zone
            let quick = ISO8601Time.parseWholeSecondsISO8601(text)
            if let quick {
                accepted += 1
                #expect(quick == Self.formatter(text), "\(text)")
            }
            // Whatever the quick reading leaves, the public parser still reads as the formatter
            // does, except a day that does not exist (1957-02-29), which the formatter moves on.
            let exists = (1...12).contains(month) && (1...ISO8601Time.daysIn(month: month, year: year)).contains(day)
            #expect(ISO8601Time.parse(text) == (exists ? (Self.formatter(text) ?? quick) : nil), "\(text)")
        }
        #expect(accepted > 1_000)
    }

    @Test func examples() {
        #expect(ISO8601Time.parseWholeSecondsISO8601("2024-04-09T08:35:00Z") == Date(timeIntervalSince1970: 1_712_651_700))
        #expect(ISO8601Time.parseWholeSecondsISO8601("2024-04-09T16:35:00+08:00") == Date(timeIntervalSince1970: 1_712_651_700))
        #expect(ISO8601Time.parseWholeSecondsISO8601("2024-02-29T00:00:00Z") != nil)
        #expect(ISO8601Time.parseWholeSecondsISO8601("2023-02-29T00:00:00Z") == nil)
        #expect(ISO8601Time.parseWholeSecondsISO8601("2024-04-09T08:35:00.5Z") == nil)
        #expect(ISO8601Time.parse(" 2024-04-09T08:35:00.250Z ") == Date(timeIntervalSince1970: 1_712_651_700.25))
        #expect(ISO8601Time.parseWholeSecondsISO8601("２０２４-04-09T08:35:00Z") == nil)
    }

    /// Extreme and malformed times through the one parser every reader of times uses (tags,
    /// `--read-time`, upload headers, the station's queries): each is refused, or read as the
    /// very day it names; none wraps around, none traps.
    @Test func extremeTimesAreRefusedOrReadAsWritten() throws {
        let texts = [
            "292277026596-12-04T15:30:07Z", "-292277026596-12-04T15:30:07Z", "99999-01-01T00:00:00Z", "+10000-01-01T00:00:00Z",
            "0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "1582-10-10T00:00:00Z", "1899-12-31T23:59:59Z", "9999-12-31T23:59:59Z",
            "9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59", "2024-02-30T00:00:00Z", "2024-04-09T24:00:00Z",
            "2024-04-09T08:35:60Z", "2024-04-09T08:35:00+99:99", "2024-04-09T08:35:00.999999999999Z", "2024-04-09", "T08:35:00Z",
            String(repeating: "9", count: 30) + "-01-01T00:00:00Z", "1e308", "", " ", "2024-04-09T08:35:00Z" + String(repeating: " ", count: 100),
        ]
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        for text in texts {
            guard let date = ISO8601Time.parse(text) else { continue }
            #expect(ISO8601Time.representable.contains(date), "\(text) → \(date)")
            let named = try #require(ISO8601Time.namedDay(text.trimmingCharacters(in: .whitespaces)), "\(text) was read without naming a day")
            #expect(abs((date.timeIntervalSince1970 / 86_400).rounded(.down) - Double(named)) <= 1, "\(text) → \(date)")
            let year = utc.component(.year, from: date)
            #expect(abs(year - (Int(text.prefix(4)) ?? -1)) <= 1, "\(text) → year \(year)")
        }
        #expect(ISO8601Time.parse("292277026596-12-04T15:30:07Z") == nil)
        #expect(ISO8601Time.parse("9999-12-31T23:59:59Z") != nil)
    }

    /// Issue 43 item 15: an offset beyond any zone's (±14:00) is a typing error, refused on
    /// both readings; the widest real ones still read.
    @Test func anOffsetNoZoneHasIsRefused() {
        for text in ["2026-12-07T10:00:00+99:00", "2026-12-07T10:00:00-15:00", "2026-12-07T10:00:00.5+14:01", "2026-12-07T10:00:00+2400"] {
            #expect(ISO8601Time.parse(text) == nil, "\(text)")
        }
        #expect(ISO8601Time.parse("2026-12-07T10:00:00+14:00") == Date(timeIntervalSince1970: 1_796_587_200))
        #expect(ISO8601Time.parse("2026-12-07T10:00:00.000-12:00") == Date(timeIntervalSince1970: 1_796_680_800))
        #expect(ISO8601Time.parse("2026-12-07T10:00:00+0545") != nil)
        #expect(ISO8601Time.parse("2026-12-07T10:00:00Z") == Date(timeIntervalSince1970: 1_796_637_600))
    }
}
