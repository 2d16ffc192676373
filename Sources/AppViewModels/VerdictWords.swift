import ColdChain
import Foundation
import LoggerFormats

/// What a shown value means, for the colour the screen gives it (the app maps each to a
/// SwiftUI colour; nothing here knows colours).
public enum Tone: Sendable, Equatable {
    /// Within limits, done (green).
    case good
    /// An alarm, a refusal, an error (red).
    case alarm
    /// Undecided, waiting, a problem to look at (orange).
    case caution
    /// Less important detail (the secondary colour).
    case secondary
    /// The ordinary text colour.
    case plain
}

extension Verdict {
    /// The verdict's name, as the screen and the NFC sheet show it.
    public var title: String {
        switch self {
        case .ok: return String(localized: "Within limits")
        case .alarm: return String(localized: "Alarm")
        case .inconclusive: return String(localized: "Inconclusive")
        }
    }

    /// What the verdict means for the goods.
    public var explanation: String {
        switch self {
        case .ok: return String(localized: "No alarm rule of the profile fired. The goods can be used.")
        case .alarm: return String(localized: "At least one alarm rule fired. Set the goods aside and follow your excursion procedure.")
        case .inconclusive: return String(localized: "The recorded data cannot decide. Check the gaps and the logger before using the goods.")
        }
    }

    /// The SF Symbol shown with it.
    public var symbol: String {
        switch self {
        case .ok: return "checkmark.seal.fill"
        case .alarm: return "xmark.octagon.fill"
        case .inconclusive: return "questionmark.diamond.fill"
        }
    }

    public var tone: Tone {
        switch self {
        case .ok: return .good
        case .alarm: return .alarm
        case .inconclusive: return .caution
        }
    }
}

public enum VerdictText {
    /// The line shown on the NFC sheet when the read is done.
    public static func sheet(for assessment: Assessment) -> String {
        let stats = assessment.statistics
        let minimum = Fmt.temperature(stats.min), maximum = Fmt.temperature(stats.max)
        return String(localized: "\(assessment.verdict.title). Min \(minimum), max \(maximum).")
    }
}

extension TemperatureLog.Integrity.Status {
    /// The integrity check's outcome in a word or two.
    public var title: String {
        switch self {
        case .verified: return String(localized: "Verified")
        case .unverified: return String(localized: "Not verified")
        case .failed: return String(localized: "Failed")
        }
    }
}
