import ColdTapBase
import Foundation
import NDEF

/// Builds generic16 / generic16-unix records (docs/formats/generic16.md).
public enum Generic16Encoder {
    /// The raw value that marks a missing sample.
    public static let missingRaw: Int16 = -32768

    /// Tenths of a degree, rounded, clamped to −32767…32767; `nil` (or NaN) is missing.
    public static func raw(_ celsius: Double?) -> Int16 {
        guard let celsius, celsius.isFinite else { return missingRaw }
        return Int16(min(32767, max(-32767, (celsius * 10).rounded())))
    }

    private static func appendSamples(_ temperatures: [Double?], to out: inout [UInt8]) {
        for temperature in temperatures {
            let value = UInt16(bitPattern: raw(temperature))
            out += [UInt8(value & 0xFF), UInt8(value >> 8)]
        }
    }

    /// `generic16` payload: interval (u16 LE seconds), then the samples.
    /// - Throws: `LoggerEncodingError` for an interval outside 0…65535 s.
    public static func payload(temperatures: [Double?], intervalSeconds: Int) throws -> [UInt8] {
        guard (0...65535).contains(intervalSeconds) else {
            throw LoggerEncodingError("a generic16 interval is 0…65535 seconds, not \(intervalSeconds)")
        }
        var out = [UInt8(intervalSeconds & 0xFF), UInt8(intervalSeconds >> 8)]
        appendSamples(temperatures, to: &out)
        return out
    }

    /// `generic16-unix` payload: start (u32 LE UNIX seconds), interval (u16 LE), samples.
    /// - Throws: `LoggerEncodingError` for a start before 1970 or after 2106, or a bad interval.
    public static func unixPayload(start: Date, temperatures: [Double?], intervalSeconds: Int) throws -> [UInt8] {
        let seconds = start.timeIntervalSince1970.rounded(.down)
        guard seconds >= 0, seconds <= Double(UInt32.max) else {
            throw LoggerEncodingError("a generic16-unix start time must fit 32-bit UNIX seconds")
        }
        guard (1...65535).contains(intervalSeconds) else {
            throw LoggerEncodingError("a generic16-unix interval is 1…65535 seconds, not \(intervalSeconds)")
        }
        let value = UInt32(seconds)
        var out = (0..<4).map { UInt8(value >> UInt32($0 * 8) & 0xFF) }
        out += [UInt8(intervalSeconds & 0xFF), UInt8(intervalSeconds >> 8)]
        appendSamples(temperatures, to: &out)
        return out
    }

    /// The MIME record carrying a payload; the type must contain `temp` to be recognised.
    public static func record(payload: [UInt8], type: String = "application/vnd.acme.temp") -> NDEFRecord {
        NDEFRecord(tnf: .media, type: type, payload: Data(payload))
    }

    /// A Text record `start=<time>` (UTC, `Z`) that gives a generic16 log its start time.
    public static func startRecord(_ start: Date) -> NDEFRecord {
        let text = "start=" + start.isoUTCWholeSeconds
        return TextRecord(text: text, language: "en").record
    }
}
