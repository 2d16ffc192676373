import Foundation
import Testing
import TestSupport
@testable import LoggerFormats

/// The quick reading of whole-second ISO 8601 times gives what Foundation's formatter gives,
/// and leaves everything else to it.
@Suite struct ISO8601ParsingTests {
    static func formatter(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    @Test func theQuickReadingAgreesWithTheFormatter() {
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
            let quick = TimeText.parseWholeSecondsISO8601(text)
            if let quick {
                accepted += 1
                #expect(quick == Self.formatter(text), "\(text)")
            }
            // Whatever the quick reading leaves, the public parser still reads as the formatter does.
            #expect(TimeText.parseISO8601(text) == (Self.formatter(text) ?? quick), "\(text)")
        }
        #expect(accepted > 1_000)
    }

    @Test func examples() {
        #expect(TimeText.parseWholeSecondsISO8601("2024-04-09T08:35:00Z") == Date(timeIntervalSince1970: 1_712_651_700))
        #expect(TimeText.parseWholeSecondsISO8601("2024-04-09T16:35:00+08:00") == Date(timeIntervalSince1970: 1_712_651_700))
        #expect(TimeText.parseWholeSecondsISO8601("2024-02-29T00:00:00Z") != nil)
        #expect(TimeText.parseWholeSecondsISO8601("2023-02-29T00:00:00Z") == nil)
        #expect(TimeText.parseWholeSecondsISO8601("2024-04-09T08:35:00.5Z") == nil)
        #expect(TimeText.parseISO8601(" 2024-04-09T08:35:00.250Z ") == Date(timeIntervalSince1970: 1_712_651_700.25))
        #expect(TimeText.parseWholeSecondsISO8601("２０２４-04-09T08:35:00Z") == nil)
    }
}
