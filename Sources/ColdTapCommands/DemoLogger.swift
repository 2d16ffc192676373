import Foundation
import LoggerFormats
import NDEF

/// Built-in loggers for `coldtap emulate --logger` and `coldtap demo`: a day in a 2–8 °C
/// pharmacy fridge, sampled every 10 minutes, with a door left open for about 50 minutes in
/// the afternoon (up to 11.4 °C), written in each supported logger format.
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
        switch self {
        case .cupltag: return "nt3h2111"
        case .generic16, .generic16Unix: return "ntag216"
        case .dtn1: return "st25dv64k"
        }
    }

    /// The logger's NDEF message when read at `readTime` (the newest sample a few minutes
    /// earlier), holding `series` (oldest first).
    /// - Throws: `LoggerEncodingError` from the format's encoder.
    func message(readTime: Date, series: [Double] = DemoLogger.temperatures) throws -> NDEFMessage {
        let newest = readTime.addingTimeInterval(-180)
        let start = newest.addingTimeInterval(-Double((series.count - 1) * DemoLogger.interval))
        switch self {
        case .cupltag:
            let encoder = CuplTagEncoder(variant: .temperatureOnly, serial: "CTDEMO01", intervalMinutes: DemoLogger.interval / 60)
            let raw = series.map(CuplTagEncoder.rawTemperature)
            return try encoder.message(pairs: try encoder.pairs(temperatureRaw: raw, humidityRaw: nil), minutesElapsed: 3)
        case .generic16:
            let payload = try Generic16Encoder.payload(temperatures: series, intervalSeconds: DemoLogger.interval)
            return NDEFMessage(records: [Generic16Encoder.startRecord(start), Generic16Encoder.record(payload: payload)])
        case .generic16Unix:
            let payload = try Generic16Encoder.unixPayload(start: start, temperatures: series, intervalSeconds: DemoLogger.interval)
            return NDEFMessage(records: [Generic16Encoder.record(payload: payload)])
        case .dtn1:
            let encoder = DTN1Encoder(deviceInformation: [
                DTN1Encoder.Pair("MODEL", "DTN1"), DTN1Encoder.Pair("SN", "DEMO0001"),
                DTN1Encoder.Pair("INTERVAL", String(DemoLogger.interval)),
            ])
            return try encoder.message(temperatures: series)
        }
    }
}
