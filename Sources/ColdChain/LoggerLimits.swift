import Foundation
import LoggerFormats

/// `--profile logger`: judge a log against the limits the logger was configured with (an
/// NHS31xx's validMinimum/validMaximum, docs/nhs31xx.md §3.2), and compare ColdTap's verdict
/// with the logger's own (its status bits).
extension Profile {
    public static let loggerLimitsName = "logger"

    /// The placeholder chosen on the command line; `resolved(for:)` fills it from the log.
    public static let loggerLimits = Profile(
        name: loggerLimitsName,
        summary: "the logger's own limits (taken from the log it is applied to)",
        band: nil, rules: [])

    /// The limits a log's logger was configured with, as metadata `loggerValidMinimum` /
    /// `loggerValidMaximum` (°C), when it has both.
    public static func loggerBand(of log: TemperatureLog) -> (low: Double, high: Double)? {
        guard let low = log.metadata["loggerValidMinimum"]?.number,
            let high = log.metadata["loggerValidMaximum"]?.number, low < high
        else { return nil }
        return (low, high)
    }

    /// This profile, or for `loggerLimits` the profile of the logger's own limits: a sample
    /// strictly above the maximum or strictly below the minimum is an alarm, as the logger counts it.
    public func resolved(for log: TemperatureLog) -> Profile {
        guard name == Self.loggerLimitsName, band == nil, rules.isEmpty else { return self }
        guard let (low, high) = Self.loggerBand(of: log) else { return self }
        if let alarms = log.loggerAlarms, !alarms.isEmpty { return Self.configuredAlarms(alarms, band: Band(min: low, max: high)) }
        let text = "\(ColdChainFormat.temperature(low, decimals: 1))–\(ColdChainFormat.temperature(high, decimals: 1)) °C"
        return Profile(
            name: Self.loggerLimitsName, summary: "the logger's own limits, \(text), any sample beyond them an alarm",
            band: Band(min: low, max: high),
            rules: [.instantaneous(Threshold(.greaterThan, high)), .instantaneous(Threshold(.lessThan, low))])
    }
}

extension Profile {
    /// The profile of alarms a logger was configured with (a Berlinger device's, docs/berlinger.md §3):
    /// strictly beyond each limit, unbroken (single-event) or in total (cumulative), for its minutes.
    static func configuredAlarms(_ alarms: [TemperatureLog.ConfiguredAlarm], band: Band) -> Profile {
        let rules: [Rule] = alarms.map { alarm in
            let threshold = Threshold(alarm.direction == .high ? .greaterThan : .lessThan, alarm.limit)
            switch alarm.kind {
            case .singleEvent: return .continuous(threshold, for: .minutes(alarm.minutes))
            case .cumulative: return .cumulative(threshold, for: .minutes(alarm.minutes))
            }
        }
        return Profile(
            name: loggerLimitsName, summary: "the logger's own alarms: " + alarms.map(\.text).joined(separator: "; "), band: band, rules: rules)
    }
}

extension Assessor {
    /// Adds what the logger itself concluded, and says when it disagrees with ColdTap.
    static func compareWithLogger(_ assessment: inout Assessment, log: TemperatureLog) {
        if assessment.profile.name == Profile.loggerLimitsName && assessment.profile.rules.isEmpty {
            assessment.verdict = .inconclusive
            assessment.verdictReasons.append(.loggerLimitsMissing(recorded: log.metadata["loggerLimits"]?.text))
        }
        guard let loggerVerdict = log.metadata["loggerVerdict"]?.text else { return }
        let loggerSaw = loggerVerdict.hasPrefix("excursion")
        guard let (low, high) = Profile.loggerBand(of: log) else { return }
        let outside = log.samples.contains { sample in
            guard sample.isValid, let value = sample.temperature else { return false }
            return value > high || value < low
        }
        let status = log.metadata["statusBits"]?.text
        if loggerSaw != outside {
            assessment.verdictReasons.append(.loggerDisagrees(verdict: loggerVerdict, status: status, samplesBeyond: outside))
        } else {
            assessment.verdictReasons.append(.loggerAgrees(verdict: loggerVerdict, status: status))
        }
    }
}
