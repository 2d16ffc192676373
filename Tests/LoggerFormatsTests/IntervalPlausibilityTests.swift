import Foundation
import NDEF
import Testing

@testable import LoggerFormats

/// A damaged interval field must not put sample times centuries away (or past what a
/// `Date` holds): found by the command-line robustness run with a DTN1 device-information
/// `INTERVAL=1e300`, which gave a first sample in the year −4712 and an empty alarm time.
@Suite struct IntervalPlausibilityTests {
    static let readTime = Date(timeIntervalSince1970: 1_772_366_400)  // 2026-03-01T12:00:00Z

    static func dtn1(interval: String) throws -> NDEFMessage {
        let encoder = DTN1Encoder(deviceInformation: [.init("MODEL", "DTN1"), .init("SERIAL", "X"), .init("INTERVAL", interval)])
        return try encoder.message(temperatures: [4.5, 5.0, 5.5])
    }

    @Test func aDeviceIntervalBeyond31DaysIsRefusedNamingTheKey() throws {
        for text in ["1e300", "99999999999", "2678401"] {
            let message = try Self.dtn1(interval: text)
            #expect {
                try LoggerDecoder.decode(message, options: DecodeOptions(readTime: Self.readTime, logger: .named("dtn1")))
            } throws: { error in
                guard let error = error as? LoggerFormatError else { return false }
                return error.kind == .inconsistent && error.field == "INTERVAL"
                    && error.description.contains("'\(text)'") && error.hint == .needsInterval
            }
        }
    }

    @Test func thirtyOneDaysExactlyIsStillTaken() throws {
        let log = try LoggerDecoder.decode(
            try Self.dtn1(interval: "2678400"),
            options: DecodeOptions(readTime: Self.readTime, logger: .named("dtn1")))
        #expect(log.interval == 2_678_400)
        #expect(
            log.samples.map(\.time) == [
                Self.readTime.addingTimeInterval(-5_356_800),
                Self.readTime.addingTimeInterval(-2_678_400), Self.readTime,
            ])
    }

    @Test func withIntervalGivenTheDamagedValueIsSetAsideWithAWarning() throws {
        let log = try LoggerDecoder.decode(
            try Self.dtn1(interval: "1e300"),
            options: DecodeOptions(readTime: Self.readTime, logger: .named("dtn1"), interval: 600))
        #expect(log.interval == 600)
        #expect(log.samples.first?.time == Self.readTime.addingTimeInterval(-1200))
        #expect(log.warnings.contains(.implausibleDeviceInterval(key: "INTERVAL", value: "1e300")))
    }
}
