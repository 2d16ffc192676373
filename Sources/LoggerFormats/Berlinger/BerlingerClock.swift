import Foundation

/// A Berlinger device's wall-clock times (`YYYY-MM-DD HH:MM`, no zone, docs/berlinger.md §7)
/// placed on UTC through the zone the caller says the clock ran in. A local time that the
/// zone skips (the spring-forward hour) is an error; one it repeats (the autumn hour) is
/// resolved by the order of the rows.
struct BerlingerClock {
    let zone: TimeZone
    let format: String

    /// A local time, as minutes since 1970-01-01 00:00 on the wall clock.
    struct Local: Comparable {
        var minutes: Int
        static func < (left: Local, right: Local) -> Bool { left.minutes < right.minutes }
    }

    /// `YYYY-MM-DD HH:MM` (exactly), or `nil`.
    static func local(_ text: String) -> Local? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, let day = localDay(String(parts[0])), let minute = minuteOfDay(String(parts[1])) else { return nil }
        return Local(minutes: day.minutes + minute)
    }

    /// `YYYY-MM-DD` as the local time of its midnight, or `nil` for anything else (a month 13,
    /// a 30 February).
    static func localDay(_ text: String) -> Local? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        return Local(minutes: daysFromCivil(year: year, month: month, day: day) * 1440)
    }

    /// `HH:MM` as minutes after midnight, or `nil`.
    static func minuteOfDay(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"), let hour = number(bytes[0..<2]), let minute = number(bytes[3..<5]),
            hour < 24, minute < 60
        else { return nil }
        return hour * 60 + minute
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's civil-from-days inverse).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Every UTC instant at which the zone's clock shows `local`: none in a skipped hour, two
    /// in a repeated one, earliest first.
    func instants(of local: Local) -> [Date] {
        let wall = TimeInterval(local.minutes * 60)
        var offsets: Set<Int> = []
        for probe in [-86_400.0, 0, 86_400] {
            offsets.insert(zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall + probe)))
        }
        return offsets.map { Date(timeIntervalSince1970: wall - TimeInterval($0)) }
            .filter { zone.secondsFromGMT(for: $0) == Int(wall - $0.timeIntervalSince1970) }
            .sorted()
    }

    /// The instant of `local`; in a repeated hour the first at or after `after` (the previous
    /// row's time), else the earliest.
    /// - Throws: `LoggerFormatError` naming `line` for a time the zone skips.
    func instant(of local: Local, after: Date? = nil, line: Int, text: String) throws -> Date {
        let candidates = instants(of: local)
        guard let first = candidates.first else {
            throw LoggerFormatError(
                .inconsistent, format: format, field: "line \(line)",
                "\(text) does not exist in \(zone.identifier): the clocks skip that hour (a daylight-saving change), so the logger's clock did not run in this zone as given"
            )
        }
        if let after, let later = candidates.first(where: { $0 >= after }) { return later }
        return first
    }
}
