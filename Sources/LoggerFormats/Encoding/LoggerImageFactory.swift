import Foundation
import NDEF

/// Makes the NDEF message a real logger of each kind would carry, from plain values: the one
/// factory of logger images, for the tests, `coldtap emulate` (a logger KIND) and `coldtap demo`.
public enum LoggerImageFactory {
    /// Kinds: `cupltag` (temperature only), `cupltag-rh` (temperature + humidity),
    /// `generic16`, `generic16-unix`, `dtn1`.
    public static let kinds = ["cupltag", "cupltag-rh", "generic16", "generic16-unix", "dtn1"]

    /// The chip a logger of this kind is built on unless told otherwise, as an NFCTags
    /// `TagChip` raw value (LoggerFormats does not import NFCTags): cuplTag → `nt3h2111`
    /// (docs/formats/cupltag.md §1), DTN1 → `st25dv64k` (docs/formats/dtn1.md), generic16 and
    /// generic16-unix → `ntag216` (generic loggers exist on both tag types; the largest common
    /// NTAG holds a day of 10-minute samples); `nil` for an unknown kind.
    public static func chipName(kind: String) -> String? {
        switch kind {
        case "cupltag", "cupltag-rh": return "nt3h2111"
        case "dtn1": return "st25dv64k"
        case "generic16", "generic16-unix": return "ntag216"
        default: return nil
        }
    }

    /// Builds a logger's message.
    /// - Parameters:
    ///   - kind: one of `kinds`.
    ///   - temperatures: °C, oldest first, one per interval.
    ///   - humidities: %RH per temperature (`cupltag-rh` only; 50 % when `nil`).
    ///   - interval: seconds between samples (whole minutes for cuplTag).
    ///   - newestSampleTime: when the newest sample was taken.
    ///   - readTime: when the tag is read (cuplTag stores the minutes since the newest sample);
    ///     `nil` means at `newestSampleTime`.
    ///   - secret: cuplTag HMAC-MD5 key (ASCII, ≤ 16 bytes); `nil` signs with MD5.
    ///   - serial: cuplTag 8-character serial / DTN1 serial.
    /// - Returns: the message; generic16 carries a `start=` Text record, DTN1 its device
    ///   information with the interval (its time base is then the read time).
    /// - Throws: `LoggerEncodingError` for an unknown kind or values the format cannot hold.
    public static func message(
        kind: String, temperatures: [Double], humidities: [Double]? = nil,
        interval: TimeInterval, newestSampleTime: Date, readTime: Date? = nil,
        secret: String? = nil, serial: String? = nil
    ) throws -> NDEFMessage {
        guard interval > 0, interval.isFinite else { throw LoggerEncodingError("the interval must be positive, not \(interval)") }
        let start = newestSampleTime.addingTimeInterval(-TimeInterval(max(0, temperatures.count - 1)) * interval)
        switch kind {
        case "cupltag", "cupltag-rh":
            let minutes = interval / 60
            guard minutes == minutes.rounded() else {
                throw LoggerEncodingError("a cuplTag logs in whole minutes; \(interval) s is not")
            }
            let elapsed = ((readTime ?? newestSampleTime).timeIntervalSince(newestSampleTime) / 60).rounded()
            guard elapsed >= 0, elapsed <= 65535 else {
                throw LoggerEncodingError("the read time must be 0…65535 minutes after the newest sample")
            }
            let rh = kind == "cupltag-rh"
            let encoder = CuplTagEncoder(
                variant: rh ? .temperatureHumidity : .temperatureOnly,
                serial: serial ?? "CT000001", intervalMinutes: Int(minutes), secret: secret)
            let humidityRaw = rh ? (humidities ?? Array(repeating: 50, count: temperatures.count)).map(CuplTagEncoder.rawHumidity) : nil
            let pairs = try encoder.pairs(temperatureRaw: temperatures.map(CuplTagEncoder.rawTemperature), humidityRaw: humidityRaw)
            return try encoder.message(pairs: pairs, minutesElapsed: Int(elapsed))
        case "generic16":
            let payload = try Generic16Encoder.payload(temperatures: temperatures, intervalSeconds: try wholeSeconds(interval))
            return NDEFMessage(records: [Generic16Encoder.startRecord(start), Generic16Encoder.record(payload: payload)])
        case "generic16-unix":
            let payload = try Generic16Encoder.unixPayload(
                start: start, temperatures: temperatures,
                intervalSeconds: try wholeSeconds(interval))
            return NDEFMessage(records: [Generic16Encoder.record(payload: payload)])
        case "dtn1":
            let encoder = DTN1Encoder(deviceInformation: [
                .init("MODEL", "DTN1"), .init("SN", serial ?? "DTN1-000001"),
                .init("INTERVAL", String(try wholeSeconds(interval))),
            ])
            return try encoder.message(temperatures: temperatures)
        default:
            throw LoggerEncodingError("unknown logger kind '\(kind)'; use one of \(kinds.joined(separator: ", "))")
        }
    }

    /// A plausible cold-chain run for demos: `count` samples around 5 °C with a slow daily
    /// wave, and an excursion to about `excursionPeak` °C for `excursionLength` samples
    /// starting at `excursionStart`. Deterministic.
    public static func demoTemperatures(
        count: Int, excursionStart: Int, excursionLength: Int,
        excursionPeak: Double = 12.5
    ) -> [Double] {
        (0..<max(0, count)).map { index in
            var value = 5.0 + 1.2 * sin(Double(index) / 12.0) + 0.3 * sin(Double(index) * 1.7)
            let into = index - excursionStart
            if into >= 0 && into < excursionLength, excursionLength > 0 {
                let phase = Double(into + 1) / Double(excursionLength + 1)
                value += (excursionPeak - 5.0) * sin(phase * Double.pi)
            }
            return (value * 10).rounded() / 10
        }
    }

    private static func wholeSeconds(_ interval: TimeInterval) throws -> Int {
        guard interval == interval.rounded(), interval <= 65535 else {
            throw LoggerEncodingError("this format stores the interval as whole seconds up to 65535, not \(interval)")
        }
        return Int(interval)
    }
}
