import Foundation

/// Numbers, times and durations as the app shows them, in the phone's language. `locale`
/// is the phone's unless a test fixes it.
public enum Fmt {
    /// "—" for no value (or not a number).
    public static func temperature(_ value: Double?, locale: Locale = .autoupdatingCurrent) -> String {
        guard let value, value.isFinite else { return "—" }
        // Always °C: cold-chain limits are stated in Celsius, whatever the phone's region.
        return value.formatted(.number.precision(.fractionLength(1)).locale(locale)) + " °C"
    }

    /// At most two units, days to minutes ("2 hr, 5 min"); zero minutes for no time.
    public static func duration(_ seconds: TimeInterval, locale: Locale = .autoupdatingCurrent) -> String {
        guard seconds.isFinite, seconds > 0 else {
            return Duration.seconds(0).formatted(.units(allowed: [.minutes], width: .abbreviated).locale(locale))
        }
        return Duration.seconds(seconds.rounded())
            .formatted(.units(allowed: [.days, .hours, .minutes], width: .abbreviated, maximumUnitCount: 2).locale(locale))
    }

    /// Date and time in `timeZone`; "—" for no date.
    public static func dateTime(_ date: Date?, in timeZone: TimeZone, locale: Locale = .autoupdatingCurrent) -> String {
        guard let date else { return "—" }
        var style = Date.FormatStyle(date: .abbreviated, time: .shortened, locale: locale)
        style.timeZone = timeZone
        return date.formatted(style)
    }

    /// `part` of `whole` as a percentage; "—" when `whole` is no time.
    public static func percent(_ part: TimeInterval, of whole: TimeInterval, locale: Locale = .autoupdatingCurrent) -> String {
        guard whole > 0 else { return "—" }
        return (part / whole).formatted(.percent.precision(.fractionLength(0...1)).locale(locale))
    }
}
