import ColdChain
import Foundation
import LoggerFormats

@testable import TempChart

/// Generated logs for the chart tests.
enum ChartFixtures {
    /// 2026-03-02 00:00:00 UTC.
    static let start = Date(timeIntervalSince1970: 1_772_409_600)

    /// A vaccine-fridge log: `days` days at 10-minute intervals, ~5 °C with a daily wave,
    /// an excursion above 8 °C on day 2 (peak 10.2 °C), three missing samples and one
    /// out-of-range sample.
    static func fridgeLog(days: Int = 3) -> TemperatureLog {
        var samples: [TemperatureLog.Sample] = []
        let count = days * 144
        for index in 0..<count {
            let time = start.addingTimeInterval(Double(index) * 600)
            var value = 5 + 1.2 * sin(Double(index) / 144 * 2 * .pi)
            if (200..<236).contains(index) {
                // A door left open: up to 10.2 °C and back.
                let phase = Double(index - 200) / 36 * .pi
                value += 5.2 * sin(phase)
            }
            value = (value * 10).rounded() / 10
            if (300..<303).contains(index) {
                samples.append(.init(time: time, temperature: nil, flags: [.missing]))
            } else if index == 350 {
                samples.append(.init(time: time, temperature: 127, flags: [.outOfRange]))
            } else {
                samples.append(.init(time: time, temperature: value))
            }
        }
        return TemperatureLog(
            format: "generic16", logger: .init(tagUID: "E004015012345678", vendor: "Acme", model: "T-100", serial: "A1234"),
            samples: samples, interval: 600, timeBase: .loggerHeader,
            integrity: .init(status: .verified, detail: "CRC-16"),
            readTime: start.addingTimeInterval(Double(count) * 600 + 120))
    }

    /// ColdChain's excursions of `log` beyond 2–8 °C, as a chart is given them.
    static func excursions(_ log: TemperatureLog) -> [ColdChain.Excursion] {
        Assessor.excursions(in: log, band: Band(min: 2, max: 8))
    }

    /// A log of `values` (°C; non-finite = missing) every `interval` seconds from `start`.
    static func log(_ values: [Double], interval: Double = 600, start: Date = start) -> TemperatureLog {
        let samples = values.enumerated().map { index, value in
            TemperatureLog.Sample(
                time: start.addingTimeInterval(Double(index) * interval),
                temperature: value.isFinite ? value : nil, flags: value.isFinite ? [] : [.missing])
        }
        return TemperatureLog(
            format: "generic16", samples: samples, interval: interval, timeBase: .loggerHeader,
            integrity: .init(status: .unverified, detail: "test"),
            readTime: start.addingTimeInterval(Double(values.count) * interval))
    }

    /// The log a series was drawn from (non-finite values = missing), for ColdChain to judge.
    static func log(_ series: ChartSeries) -> TemperatureLog {
        let samples = zip(series.times, series.values).map { time, value in
            TemperatureLog.Sample(
                time: Date(timeIntervalSince1970: time), temperature: value.isFinite ? value : nil,
                flags: value.isFinite ? [] : [.missing])
        }
        return TemperatureLog(
            format: "generic16", samples: samples, interval: series.interval, timeBase: .loggerHeader,
            integrity: .init(status: .unverified, detail: "test"),
            readTime: Date(timeIntervalSince1970: (series.times.last ?? 0) + series.interval))
    }

    /// A random walk of `count` samples at `interval` seconds (deterministic).
    static func randomWalk(count: Int, interval: Double = 60, seed: UInt64 = 42) -> ChartSeries {
        var state = seed
        var value = 5.0
        var times = [Double](), values = [Double]()
        times.reserveCapacity(count)
        values.reserveCapacity(count)
        for index in 0..<count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let step = Double(Int64(bitPattern: state >> 11) % 1000) / 1000 - 0.5
            value = min(14, max(-3, value + step * 0.6))
            times.append(start.timeIntervalSince1970 + Double(index) * interval)
            values.append(value)
        }
        return ChartSeries(times: times, values: values, interval: interval)
    }

    static let shanghai = TimeZone(identifier: "Asia/Shanghai") ?? .gmt

    /// `count` samples spread over three days: a daily wave crossing 8 °C with
    /// deterministic noise, so density changes but the shape does not.
    static func noisyWave(count: Int) -> ChartSeries {
        let span = 3 * 86_400.0
        let interval = span / Double(count)
        var state: UInt64 = 99
        var times = [Double](), values = [Double]()
        times.reserveCapacity(count)
        values.reserveCapacity(count)
        for index in 0..<count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let noise = Double(Int64(bitPattern: state >> 11) % 1000) / 1000 - 0.5
            let t = Double(index) * interval
            times.append(start.timeIntervalSince1970 + t)
            values.append(5 + 3.5 * sin(t / 86_400 * 2 * .pi) + noise)
        }
        return ChartSeries(times: times, values: values, interval: interval)
    }
}
