import ColdChain
import Foundation
import LoggerFormats

@testable import AppViewModels

/// 2026-04-09T00:00:00Z.
let t0 = Date(timeIntervalSince1970: 1_775_692_800)
let utc = TimeZone(identifier: "UTC")!
let usEnglish = Locale(identifier: "en_US")

/// A log of half-hourly samples from `t0`; `nil` is a missing sample.
func makeLog(
    _ values: [Double?], logger: TemperatureLog.LoggerIdentity = .init(), integrity: TemperatureLog.Integrity = .init(status: .verified, detail: ""),
    warnings: [LogWarning] = []
) -> TemperatureLog {
    let samples = values.enumerated().map { index, value in
        let time = t0.addingTimeInterval(Double(index) * 1800)
        if let value { return TemperatureLog.Sample(time: time, temperature: value) }
        return TemperatureLog.Sample(time: time, temperature: nil, flags: [.missing])
    }
    return TemperatureLog(
        format: "test", logger: logger, samples: samples, interval: 1800, timeBase: .loggerHeader, integrity: integrity,
        readTime: t0.addingTimeInterval(Double(values.count) * 1800), warnings: warnings)
}

/// A read of `log` judged against the vaccine refrigerator profile.
func makeRead(
    _ log: TemperatureLog, resumes: Int = 0, uploadSHA256: String? = nil, rawKind: StoredRead.RawKind? = .ndefMessage,
    automaticMode: Bool? = nil
) -> StoredRead {
    StoredRead(
        readAt: log.readTime, log: log, profileName: Profile.vaccineFridge.name, timeZoneIdentifier: "UTC", resumes: resumes,
        seconds: 1.5, uploadSHA256: uploadSHA256, rawKind: rawKind, automaticMode: automaticMode)
}

/// A fresh folder in the temporary directory, removed when `body` ends (also when it throws).
func withTemporaryFolder<T>(_ body: (URL) throws -> T) rethrows -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("AppViewModelsTests-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}
