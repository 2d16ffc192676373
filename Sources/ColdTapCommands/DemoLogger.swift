import Foundation
import LoggerFormats
import NDEF

/// Built-in loggers for `coldtap emulate --logger` and `coldtap demo`: a day in a 2–8 °C
/// pharmacy fridge, sampled every 10 minutes, with a door left open for about 50 minutes in
/// the afternoon (up to 11.4 °C), written by `LoggerImageFactory` in each supported format.
enum DemoLogger: String, CaseIterable, Sendable {
    case cupltag
    case generic16
    case generic16Unix = "generic16-unix"
    case dtn1
    /// ST SmarTag1 / SmarTag2 (docs/smartag.md): the logger writes the ST25DV64K's memory
    /// itself, so the virtual tag holds a memory image, not an NDEF message.
    case smarTag1 = "smartag1"
    case smarTag2 = "smartag2"

    /// Samples in the built-in log.
    static let sampleCount = 144
    /// Seconds between samples.
    static let interval = 600

    /// The built-in temperature series, oldest first (°C, one decimal).
    static var temperatures: [Double] {
        (0..<sampleCount).map { index in
            let base = 5.0 + 0.8 * sin(Double(index) * 2 * Double.pi / 36)
            let excursion: Double
            switch index {
            case 84..<89: excursion = Double(index - 83) * 1.3  // door open: warming
            case 89..<93: excursion = Double(93 - index) * 1.2  // door shut: cooling down
            default: excursion = 0
            }
            return ((base + excursion) * 10).rounded() / 10
        }
    }

    /// The chip a logger of this kind is emulated on unless `--chip` says otherwise.
    var defaultChip: String {
        isSmarTag ? "st25dv64k" : LoggerImageFactory.chipName(kind: rawValue) ?? "ntag216"
    }

    /// True for the loggers whose tag holds a memory image written by the logger.
    var isSmarTag: Bool { self == .smarTag1 || self == .smarTag2 }

    /// A SmarTag's ST25DV64K memory after logging `series` (oldest first) every interval,
    /// the newest a few minutes before `readTime`, built by the encoder from docs/smartag.md;
    /// the SmarTag2 record carries `uid` (display order) as its firmware writes it.
    func smarTagMemory(readTime: Date, series: [Double] = DemoLogger.temperatures, uid: Data) -> Data {
        // On the interval's grid, so that two reads of the same demo logger a few seconds
        // apart (the demo's earlier read) see the same record times.
        let step = Double(DemoLogger.interval)
        let newest = (readTime.addingTimeInterval(-180).timeIntervalSince1970 / step).rounded(.down) * step
        let start = newest - Double(series.count * DemoLogger.interval)
        if self == .smarTag1 {
            let startDate = Date(timeIntervalSince1970: start)
            let encoder = SmarTagEncoder.SmarTag1(interval: DemoLogger.interval, start: startDate)
            let inputs = series.enumerated().map { index, value in
                SmarTagEncoder.SmarTag1.Input.reading(
                    time: startDate.addingTimeInterval(Double((index + 1) * DemoLogger.interval)),
                    temperature: value)
            }
            return Data(encoder.memory(after: inputs))
        }
        var encoder = SmarTagEncoder.SmarTag2(
            sampleTime: DemoLogger.interval, start: UInt32(start),
            sensors: [.init(id: 0, mode: 3, threshold1: 0)])
        encoder.uid = Array(uid)
        let readings = series.enumerated().map { index, value in
            SmarTagEncoder.SmarTag2.Reading(seconds: UInt32((index + 1) * DemoLogger.interval), value: value)
        }
        return Data(encoder.memory(after: readings))
    }

    /// The logger's NDEF message when read at `readTime` (the newest sample a few minutes
    /// earlier), holding `series` (oldest first).
    /// - Throws: `LoggerEncodingError` from the format's encoder.
    func message(readTime: Date, series: [Double] = DemoLogger.temperatures) throws -> NDEFMessage {
        try LoggerImageFactory.message(
            kind: rawValue, temperatures: series,
            interval: TimeInterval(DemoLogger.interval),
            newestSampleTime: readTime.addingTimeInterval(-180), readTime: readTime,
            serial: self == .cupltag ? "CTDEMO01" : "DEMO0001")
    }
}
