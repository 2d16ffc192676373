import Foundation
import NDEF
import Testing

@testable import LoggerFormats

/// Auto-detection's plausibility checks (interval 1 s … 1 day, start, sensor range) refuse a
/// loose match, but only warn about a conclusive one: a cuplTag whose check holds, or a
/// format whose structure is unmistakable, at the extreme values of its fields.
@Suite struct ConclusiveMatchTests {
    static let readTime = Date(timeIntervalSince1970: 1_780_000_000)
    static func options(secret: String? = nil) -> DecodeOptions { DecodeOptions(readTime: readTime, readTimeSource: .given, secret: secret) }

    func cuplTag(interval: Int, elapsed: Int, resets: Int, secret: String?) throws -> NDEFMessage {
        let encoder = CuplTagEncoder(variant: .temperatureOnly, serial: "CTEXTRM1", intervalMinutes: interval, resetsAllTime: resets, secret: secret)
        let raw = (0..<12).map { CuplTagEncoder.rawTemperature(4 + Double($0) / 10) }
        return try encoder.message(pairs: try encoder.pairs(temperatureRaw: raw, humidityRaw: nil), minutesElapsed: elapsed)
    }

    @Test(arguments: [("k3y", "HMAC-MD5"), (nil, "MD5")] as [(String?, String)])
    func aVerifiedCuplTagAtItsLargestIntervalIsDecodedWithAWarning(secret: String?, method: String) throws {
        let message = try cuplTag(interval: 65_535, elapsed: 65_534, resets: 65_535, secret: secret)
        let log = try LoggerDecoder.decode(message, options: Self.options(secret: secret))
        #expect(log.format.name == "cupltag")
        #expect(log.integrity.status == .verified, "\(log.integrity.detail.text)")
        #expect(log.interval == 65_535 * 60)
        let warning = try #require(
            log.warnings.first {
                if case .implausibleYetConclusive = $0 { return true }; return false
            })
        #expect(warning.text.contains("3932100") || warning.text.contains("interval"), "\(warning.text)")
        #expect(warning == .implausibleYetConclusive(format: "cupltag", [.interval(3_932_100)]))
    }

    @Test func aCuplTagAtItsSmallestValuesIsDecodedWithoutAWarning() throws {
        let log = try LoggerDecoder.decode(try cuplTag(interval: 1, elapsed: 0, resets: 0, secret: nil), options: Self.options())
        #expect(log.interval == 60)
        #expect(
            !log.warnings.contains {
                if case .implausibleYetConclusive = $0 { return true }; return false
            })
    }

    @Test func aCuplTagWhoseCheckFailsIsStillRefusedForAnImplausibleInterval() throws {
        // Signed with one key, checked with another: nothing shows the match is real.
        let message = try cuplTag(interval: 65_535, elapsed: 0, resets: 0, secret: "k3y")
        #expect(throws: LoggerFormatError.self) { try LoggerDecoder.decode(message, options: Self.options(secret: "other")) }
    }

    @Test func looseFormatsAtImplausibleValuesAreRefused() throws {
        // generic16 at its largest interval (65,535 s, under a day) is a logger's; at 0 s it is not.
        let largest = try NDEFMessage(records: [
            Generic16Encoder.record(payload: try Generic16Encoder.payload(temperatures: [4, 5, 6], intervalSeconds: 65_535))
        ])
        #expect(try LoggerDecoder.decode(largest, options: Self.options()).interval == 65_535)
        let zero = try NDEFMessage(records: [Generic16Encoder.record(payload: try Generic16Encoder.payload(temperatures: [4, 5, 6], intervalSeconds: 0))])
        #expect(throws: LoggerFormatError.self) { try LoggerDecoder.decode(zero, options: Self.options()) }
        // generic16-unix at the end of its 32-bit clock (2106): no start a read can have, so
        // that reading is refused and the bytes fall to the plain generic16 layout.
        let late = try NDEFMessage(records: [
            Generic16Encoder.record(
                payload: try Generic16Encoder.unixPayload(
                    start: Date(timeIntervalSince1970: 4_294_967_000), temperatures: [4, 5], intervalSeconds: 60))
        ])
        let fallen = try LoggerDecoder.decode(late, options: Self.options())
        #expect(fallen.format.name == "generic16")
        guard case .detected(_, let reason)? = fallen.detection else { Issue.record("not detected: \(String(describing: fallen.detection))"); return }
        #expect(!reason.isEmpty)
    }
}
