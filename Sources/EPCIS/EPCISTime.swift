import Foundation

/// EPCIS times as the standard writes them (docs/epcis.md §2): `2026-12-07T09:05:00.000+01:00`,
/// milliseconds always, the offset as `±HH:MM` (`+00:00` for UTC in `eventTimeZoneOffset`,
/// `Z` in a UTC time). Made by arithmetic on the calendar, so no formatter and no locale is
/// involved and the event hash sees exactly these characters.
public enum EPCISTime {
    /// `time` in the zone `offsetSeconds` east of UTC (nil: UTC written with `Z`).
    public static func text(_ time: Date, offsetSeconds: Int? = nil) -> String {
        let milliseconds = Int64((time.timeIntervalSince1970 * 1000).rounded())
        let shift = Int64(offsetSeconds ?? 0) * 1000
        let local = milliseconds + shift
        let days = floorDivide(local, 86_400_000)
        let inDay = local - days * 86_400_000
        let (year, month, day) = civil(days: days)
        let hour = inDay / 3_600_000
        let minute = inDay / 60_000 % 60
        let second = inDay / 1000 % 60
        let millis = inDay % 1000
        let body =
            pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2) + "."
            + pad(millis, 3)
        guard let offsetSeconds else { return body + "Z" }
        return body + offset(offsetSeconds)
    }

    /// `+01:00`, `-05:30`, `+00:00`: the form `eventTimeZoneOffset` requires.
    public static func offset(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + pad(Int64(minutes / 60), 2) + ":" + pad(Int64(minutes % 60), 2)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    /// Year, month and day of the day `days` after 1970-01-01 (proleptic Gregorian).
    private static func civil(days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
