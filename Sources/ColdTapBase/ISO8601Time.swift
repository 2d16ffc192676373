import Foundation

/// ISO 8601 date-times: ColdTap's one reader and its writers. Every layer names times this
/// way (messages, JSON, CSV, upload headers), so the formatters are made once here.
public enum ISO8601Time {
    /// ISO 8601 date-time with an offset or `Z`, with or without fractional seconds, spaces
    /// around ignored: the one reading of times that loggers, the command line, upload headers
    /// and the station's queries share.
    /// Years are the four digits ISO 8601 writes without an agreement (0001–9999): ICU reads
    /// longer ones and wraps them (year 292277026596 came back as −4712), so the result is
    /// taken only when it falls on the day the text names, give or take its offset.
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count <= 64, offsetIsOnEarth(trimmed) else { return nil }
        if let date = parseWholeSecondsISO8601(trimmed) { return representable.contains(date) ? date : nil }
        guard let named = namedDay(trimmed) else { return nil }
        // Made once: creating an ISO8601DateFormatter builds an ICU formatter, which cost a
        // station upload more than parsing its whole read. Used under the lock (Foundation
        // does not promise that one formatter may parse on two threads at once).
        let parsed = isoFormatters.withLock { formatters in
            formatters.whole.date(from: trimmed) ?? formatters.fractional.date(from: trimmed)
        }
        guard let parsed, parsed.timeIntervalSince1970.isFinite else { return nil }
        let day = (parsed.timeIntervalSince1970 / 86_400).rounded(.down)
        // An offset moves the UTC day by at most one either way.
        guard abs(day - Double(named)) <= 1, representable.contains(parsed) else { return nil }
        return parsed
    }

    /// The widest offset any zone has had: UTC−12:00 to UTC+14:00, so ±14:00 either way.
    /// ICU reads `+99:00`; a clock that far from UTC is a typing error, not a place.
    public static let largestOffsetMinutes = 14 * 60

    /// False when `text` ends in a numeric offset (`±HH:MM`, `±HHMM`, `±HH` after the time)
    /// beyond `largestOffsetMinutes`; true for `Z`, an offset in range, or none.
    static func offsetIsOnEarth(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let t = bytes.firstIndex(where: { $0 == 0x54 || $0 == 0x74 }),
            let sign = bytes[t...].lastIndex(where: { $0 == 0x2B || $0 == 0x2D })
        else { return true }
        let digits = bytes[(sign + 1)...].filter { $0 != 0x3A }
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return true }
        let values = digits.map { Int($0 - 0x30) }
        let hours = values.count >= 2 ? values[0] * 10 + values[1] : values[0]
        let minutes = values.count == 4 ? values[2] * 10 + values[3] : 0
        return hours * 60 + minutes <= largestOffsetMinutes
    }

    /// The earliest and latest times ColdTap reads or writes: 0001-01-01 and the end of 9999.
    public static let representable = Date(timeIntervalSince1970: -62_135_596_800)...Date(timeIntervalSince1970: 253_402_300_799)

    /// Days since 1970-01-01 of the `YYYY-MM-DD` that starts `text`, or `nil` when it does not
    /// start with a valid date of four-digit year 0001–9999.
    static func namedDay(_ text: String) -> Int? {
        let bytes = Array(text.utf8.prefix(11))
        guard bytes.count >= 10, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes.count == 10 || !(0x30...0x39).contains(bytes[10]) else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (0x30...0x39).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), year >= 1,
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return daysSince1970(year: year, month: month, day: day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (as ISO 8601).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `YYYY-MM-DDTHH:MM:SS` with `Z` or `±HH:MM`, the form read times are sent in, read
    /// without ICU (its parse cost a station upload ~0.1 ms); `nil` for anything else, which
    /// the formatters then read (so this only has to be right for what it accepts).
    static func parseWholeSecondsISO8601(_ text: String) -> Date? {
        var utf8 = text.utf8.makeIterator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(25)
        while let byte = utf8.next() {
            guard bytes.count < 25 else { return nil }
            bytes.append(byte)
        }
        guard bytes.count == 20 || bytes.count == 25 else { return nil }
        func number(_ at: Int, _ count: Int) -> Int? {
            var value = 0
            for index in at..<(at + count) {
                let byte = bytes[index]
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), bytes[4] == 0x2D, let month = number(5, 2), bytes[7] == 0x2D,
            let day = number(8, 2), bytes[10] == 0x54, let hour = number(11, 2), bytes[13] == 0x3A,
            let minute = number(14, 2), bytes[16] == 0x3A, let second = number(17, 2),
            (1900...9999).contains(year), (1...12).contains(month), hour <= 23, minute <= 59, second <= 59
        else { return nil }
        guard (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        var offset = 0
        if bytes.count == 20 {
            guard bytes[19] == 0x5A else { return nil }
        } else {
            guard bytes[19] == 0x2B || bytes[19] == 0x2D, let hours = number(20, 2), bytes[22] == 0x3A,
                let minutes = number(23, 2), hours <= 23, minutes <= 59
            else { return nil }
            offset = (hours * 3600 + minutes * 60) * (bytes[19] == 0x2D ? -1 : 1)
        }
        let days = daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second - offset))
    }

    private struct ISOFormatters: @unchecked Sendable {
        let whole: ISO8601DateFormatter
        let fractional: ISO8601DateFormatter
    }

    private static let isoFormatters: LockedValue<ISOFormatters> = {
        let whole = ISO8601DateFormatter()
        whole.formatOptions = [.withInternetDateTime]
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return LockedValue(ISOFormatters(whole: whole, fractional: fractional))
    }()

    /// `2024-04-09T10:35:00+02:00`: whole seconds in `zone` with its offset (`Z` for UTC).
    public static func text(_ date: Date, in zone: TimeZone) -> String {
        // One formatter per zone, made on first use: making one builds an ICU formatter,
        // which costs more than formatting a whole CSV row.
        zoneFormatters.withLock { formatters in
            let formatter: ISO8601DateFormatter
            if let made = formatters.byZone[zone.identifier] {
                formatter = made
            } else {
                formatter = ISO8601DateFormatter()
                formatter.timeZone = zone
                formatter.formatOptions = [.withInternetDateTime]
                if formatters.byZone.count < 64 { formatters.byZone[zone.identifier] = formatter }
            }
            return formatter.string(from: date)
        }
    }

    private struct ZoneFormatters: @unchecked Sendable {
        var byZone: [String: ISO8601DateFormatter] = [:]
    }

    private static let zoneFormatters = LockedValue(ZoneFormatters())

    static let utcStyle = Date.ISO8601FormatStyle(timeZone: TimeZone.utc)
}

extension Date {
    /// ISO 8601 in UTC with `Z`, with milliseconds only when the time has a fraction
    /// (`2023-11-14T22:13:20Z`, `2023-11-14T22:13:20.250Z`): JSON output and the archive.
    public var isoUTC: String {
        let whole = timeIntervalSince1970.rounded(.down)
        let base = Date(timeIntervalSince1970: whole).formatted(ISO8601Time.utcStyle)
        let fraction = timeIntervalSince1970 - whole
        guard fraction > 0.0005 else { return base }
        let millis = String(format: "%03d", Int((fraction * 1000).rounded()) % 1000)
        return String(base.dropLast()) + "." + millis + "Z"
    }

    /// ISO 8601 in UTC with `Z` and whole seconds, any fraction dropped
    /// (`2023-11-14T22:13:20Z`): how messages and warnings name a time, in every language.
    public var isoUTCWholeSeconds: String {
        formatted(ISO8601Time.utcStyle)
    }
}
