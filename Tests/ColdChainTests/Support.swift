import Foundation
import LoggerFormats

@testable import ColdChain

/// 2026-04-09T00:00:00Z.
let t0 = Date(timeIntervalSince1970: 1_775_692_800)
let halfHour: TimeInterval = 1800
let utc = TimeZone(identifier: "UTC")!
let berlin = TimeZone(identifier: "Europe/Berlin")!

/// A log with one sample per `interval` from `start`: `nil` is a missing sample, indices in
/// `outOfRange` are flagged out of range (their value kept, untrusted).
func makeLog(
    _ values: [Double?], interval: TimeInterval = halfHour, start: Date = t0,
    outOfRange: Set<Int> = [], integrity: TemperatureLog.Integrity.Status = .verified
) -> TemperatureLog {
    let samples = values.enumerated().map { index, value in
        let time = start.addingTimeInterval(Double(index) * interval)
        if outOfRange.contains(index) {
            return TemperatureLog.Sample(time: time, temperature: value, flags: [.outOfRange])
        }
        if let value { return TemperatureLog.Sample(time: time, temperature: value) }
        return TemperatureLog.Sample(time: time, temperature: nil, flags: [.missing])
    }
    return TemperatureLog(
        format: "test", samples: samples, interval: interval, timeBase: .loggerHeader,
        integrity: .init(status: integrity, detail: integrity == .failed ? "HMAC mismatch" : "test"),
        readTime: start.addingTimeInterval(Double(values.count) * interval))
}

/// `count` copies of `value`.
func run(_ value: Double?, _ count: Int) -> [Double?] { Array(repeating: value, count: count) }

func at(_ slot: Int, interval: TimeInterval = halfHour) -> Date {
    t0.addingTimeInterval(Double(slot) * interval)
}

func assess(
    _ values: [Double?], _ profile: Profile, interval: TimeInterval = halfHour,
    timeZone: TimeZone = utc
) -> Assessment {
    Assessor.assess(makeLog(values, interval: interval), profile: profile, timeZone: timeZone)
}

/// A profile with one rule and the band 2–8 °C.
func single(_ rule: Rule, band: Band? = Band(min: 2, max: 8)) -> Profile {
    Profile(name: "test", band: band, rules: [rule])
}
