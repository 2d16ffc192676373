import Foundation

/// A calendar day written `yyyy-MM-dd` (`2024-04-09`), as the command line's and the
/// station's period options take it: the project's one day parser and printer. The text is
/// read by a POSIX `DateFormatter` of that pattern, made once per zone and shared (making
/// one builds an ICU formatter), so every caller accepts and refuses exactly the same texts;
/// a caller that wants exactly ten characters says so before asking.
public enum CalendarDay {
    /// The start of the day `text` names in `zone` (its first instant the formatter finds),
    /// or `nil` when `text` is not such a day.
    public static func parse(_ text: String, in zone: TimeZone) -> Date? {
        withFormatter(for: zone) { $0.date(from: text) }
    }

    /// `date`'s day in `zone`, as `yyyy-MM-dd`.
    public static func text(_ date: Date, in zone: TimeZone) -> String {
        withFormatter(for: zone) { $0.string(from: date) }
    }

    private struct Formatters: @unchecked Sendable {
        var byZone: [String: DateFormatter] = [:]
    }

    private static let formatters = LockedValue(Formatters())

    /// Runs `body` with the zone's formatter under the lock (a formatter is not shared while in use).
    private static func withFormatter<T>(for zone: TimeZone, _ body: (DateFormatter) -> T) -> T {
        formatters.withLock { formatters in
            if let made = formatters.byZone[zone.identifier] { return body(made) }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone
            formatter.dateFormat = "yyyy-MM-dd"
            // At most 64 zones kept; any other gets a formatter of its own each time.
            if formatters.byZone.count < 64 { formatters.byZone[zone.identifier] = formatter }
            return body(formatter)
        }
    }
}
