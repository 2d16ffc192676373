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
            case 84..<89: excursion = Double(index - 83) * 1.3 // door open: warming
            case 89..<93: excursion = Double(93 - index) * 1.2 // door shut: cooling down
            default: excursion = 0
            }
            return ((base + excursion) * 10).rounded() / 10
        }
    }

    /// The chip a logger of this kind is emulated on unless `--chip` says otherwise.
    var defaultChip: String {
        LoggerImageFactory.chipName(kind: rawValue) ?? "ntag216"
    }

    /// The logger's NDEF message when read at `readTime` (the newest sample a few minutes
    /// earlier), holding `series` (oldest first).
    /// - Throws: `LoggerEncodingError` from the format's encoder.
    func message(readTime: Date, series: [Double] = DemoLogger.temperatures) throws -> NDEFMessage {
        try LoggerImageFactory.message(kind: rawValue, temperatures: series,
                                       interval: TimeInterval(DemoLogger.interval),
                                       newestSampleTime: readTime.addingTimeInterval(-180), readTime: readTime,
                                       serial: self == .cupltag ? "CTDEMO01" : "DEMO0001")
    }
}
