import Testing

@testable import LoggerFormats

@Suite struct DurationParsingTests {
    /// Durations too large for a date, negative or not numbers are refused, never wrapped.
    @Test func outOfRangeDurationsAreRefused() {
        for text in ["1e308h", "1e307min", "inf", "nan", "-1", "-5min", "9999999999999999999999d"] {
            #expect(TimeText.parseDuration(text, defaultUnit: 1) == nil, "\(text)")
        }
        #expect(TimeText.parseDuration("10min", defaultUnit: 1) == 600)
    }
}
