import Foundation
import LoggerFormats
import NDEF
import Testing

/// Logger files for the tests.
public enum LoggerFiles {
    public static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    public static let interval = 600

    /// A generic16-unix NDEF message (its own clock, no serial) holding `temperatures` from
    /// sample `first` on (sample n is taken at start + n intervals).
    public static func generic(first: Int, temperatures: [Double]) throws -> Data {
        let payload = try Generic16Encoder.unixPayload(
            start: start.addingTimeInterval(Double(first * interval)),
            temperatures: temperatures, intervalSeconds: interval)
        return try NDEFMessage(records: [Generic16Encoder.record(payload: payload)]).encoded()
    }

    /// The reference series: sample n is 5 °C plus a slow wave, in tenths (what generic16 keeps).
    public static func value(_ n: Int) -> Double { ((5 + 2 * sin(Double(n) / 10)) * 10).rounded() / 10 }

    public static func series(_ range: Range<Int>) -> [Double] { range.map(value) }

    /// Writes a generic16-unix file of samples `range` (with `changes` applied) and returns its path.
    public static func writeGeneric(
        _ archive: TestArchive, _ name: String, _ range: Range<Int>,
        changes: [Int: Double] = [:]
    ) throws -> String {
        var values = series(range)
        for (index, value) in changes { values[index - range.lowerBound] = value }
        let path = archive.path(name)
        try generic(first: range.lowerBound, temperatures: values).write(to: URL(fileURLWithPath: path))
        return path
    }
}

extension LoggerFiles {
    /// Writes a cuplTag NDEF message of `temperatures` (no clock: its times come from the read
    /// time, the newest `minutesElapsed` before it) and returns its path.
    public static func writeCuplTag(
        _ archive: TestArchive, _ name: String, _ encoder: CuplTagEncoder,
        temperatures: ArraySlice<Double>, minutesElapsed: Int
    ) throws -> String {
        let pairs = try encoder.pairs(temperatureRaw: temperatures.map(CuplTagEncoder.rawTemperature), humidityRaw: nil)
        let path = archive.path(name)
        try encoder.message(pairs: pairs, minutesElapsed: minutesElapsed).encoded().write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Parses a command's JSON output.
public func jsonObject(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

extension LoggerFiles {
    /// A generic16-unix NDEF message (its own clock, no serial) of hourly samples; the times
    /// must be consecutive hours, as docs/stability.md's example loggers record.
    public static func hourly(_ samples: [(time: Date, celsius: Double)]) throws -> Data {
        let start = samples.first?.time ?? LoggerFiles.start
        let payload = try Generic16Encoder.unixPayload(start: start, temperatures: samples.map(\.celsius), intervalSeconds: 3600)
        return try NDEFMessage(records: [Generic16Encoder.record(payload: payload)]).encoded()
    }
}
