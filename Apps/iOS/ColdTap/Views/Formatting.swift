import ColdChain
import Foundation
import LoggerFormats
import SwiftUI

/// Numbers, times and verdicts as the app shows them, in the phone's language.
enum Fmt {
    static func temperature(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "—" }
        // Always °C: cold-chain limits are stated in Celsius, whatever the phone's region.
        return value.formatted(.number.precision(.fractionLength(1))) + " °C"
    }

    static func duration(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite, seconds > 0 else { return Duration.seconds(0).formatted(.units(allowed: [.minutes], width: .abbreviated)) }
        return Duration.seconds(seconds.rounded()).formatted(.units(allowed: [.days, .hours, .minutes], width: .abbreviated, maximumUnitCount: 2))
    }

    static func dateTime(_ date: Date?, in timeZone: TimeZone) -> String {
        guard let date else { return "—" }
        var style = Date.FormatStyle(date: .abbreviated, time: .shortened)
        style.timeZone = timeZone
        return date.formatted(style)
    }

    static func percent(_ part: TimeInterval, of whole: TimeInterval) -> String {
        guard whole > 0 else { return "—" }
        return (part / whole).formatted(.percent.precision(.fractionLength(0...1)))
    }
}

extension Verdict {
    var title: String {
        switch self {
        case .ok: return String(localized: "Within limits")
        case .alarm: return String(localized: "Alarm")
        case .inconclusive: return String(localized: "Inconclusive")
        }
    }

    var explanation: String {
        switch self {
        case .ok: return String(localized: "No alarm rule of the profile fired. The goods can be used.")
        case .alarm: return String(localized: "At least one alarm rule fired. Set the goods aside and follow your excursion procedure.")
        case .inconclusive: return String(localized: "The recorded data cannot decide. Check the gaps and the logger before using the goods.")
        }
    }

    var symbol: String {
        switch self {
        case .ok: return "checkmark.seal.fill"
        case .alarm: return "xmark.octagon.fill"
        case .inconclusive: return "questionmark.diamond.fill"
        }
    }

    var color: Color {
        switch self {
        case .ok: return .green
        case .alarm: return .red
        case .inconclusive: return .orange
        }
    }
}

enum VerdictText {
    /// The line shown on the NFC sheet when the read is done.
    static func sheet(for assessment: Assessment) -> String {
        let stats = assessment.statistics
        return String(localized: "\(assessment.verdict.title). Min \(Fmt.temperature(stats.min)), max \(Fmt.temperature(stats.max)).")
    }
}

extension TemperatureLog.Integrity.Status {
    var title: String {
        switch self {
        case .verified: return String(localized: "Verified")
        case .unverified: return String(localized: "Not verified")
        case .failed: return String(localized: "Failed")
        }
    }
}
