import Foundation
import NDEF

/// Date-time text as loggers and users write it.
public enum TimeText {
    /// ISO 8601 in UTC with `Z` and whole seconds (`2023-11-14T22:13:20Z`): how messages and
    /// warnings name a time, in every language.
    public static func isoUTC(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .gmt))
    }

    /// ISO 8601 date-time with an offset or `Z`, with or without fractional seconds, spaces
    /// around ignored: the one reading of times that loggers, `--read-time`, upload headers
    /// and the station's queries share.
    /// Years are the four digits ISO 8601 writes without an agreement (0001–9999): ICU reads
    /// longer ones and wraps them (year 292277026596 came back as −4712), so the result is
    /// taken only when it falls on the day the text names, give or take its offset.
    public static func parseISO8601(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count <= 64 else { return nil }
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
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else { return nil }
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
              (1900...9999).contains(year), (1...12).contains(month), hour <= 23, minute <= 59, second <= 59 else { return nil }
        guard (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        var offset = 0
        if bytes.count == 20 {
            guard bytes[19] == 0x5A else { return nil }
        } else {
            guard bytes[19] == 0x2B || bytes[19] == 0x2D, let hours = number(20, 2), bytes[22] == 0x3A,
                  let minutes = number(23, 2), hours <= 23, minutes <= 59 else { return nil }
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

    /// 2010-01-01T00:00:00Z: earliest plausible logger time.
    static let plausibleEarliest = Date(timeIntervalSince1970: 1_262_304_000)

    /// ISO 8601, or UNIX seconds no earlier than 2010 (smaller numbers are durations or counters).
    static func parseDeviceTime(_ text: String) -> Date? {
        if let date = parseISO8601(text) { return date }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds.isFinite, seconds >= plausibleEarliest.timeIntervalSince1970,
           seconds < 4_102_444_800 {
            return Date(timeIntervalSince1970: seconds)
        }
        return nil
    }

    /// A duration such as `600`, `600s`, `10min`, `10 m`, `1h`, `500ms`; bare numbers are in
    /// `defaultUnit` seconds.
    static func parseDuration(_ text: String, defaultUnit: Double) -> TimeInterval? {
        let lowered = text.trimmingCharacters(in: .whitespaces).lowercased()
        let suffixes: [(String, Double)] = [("ms", 0.001), ("min", 60), ("sec", 1), ("s", 1), ("m", 60), ("h", 3600)]
        for (suffix, unit) in suffixes where lowered.hasSuffix(suffix) {
            let number = lowered.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
            if let value = Double(number) { return bounded(value * unit) }
        }
        return Double(lowered).flatMap { bounded($0 * defaultUnit) }
    }

    /// A number of seconds, finite and not negative (`1e308h` overflows to infinity: refused).
    /// How long a logger's interval may be is the caller's rule (it names the field).
    private static func bounded(_ seconds: Double) -> TimeInterval? {
        seconds.isFinite && seconds >= 0 ? seconds : nil
    }
}

/// The start time a message's Text record gives (docs/formats/generic16.md: `2026-08-18T13:54:35+08:00`
/// or `start=<time>`), with the text for the log.
func startTimeFromTextRecords(_ message: NDEFMessage) -> (Date, String)? {
    for record in message.records {
        guard let text = record.textRecord?.text else { continue }
        var candidate = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if candidate.lowercased().hasPrefix("start=") { candidate = String(candidate.dropFirst(6)) }
        if let date = TimeText.parseISO8601(candidate) { return (date, text) }
    }
    return nil
}

/// `KEY=VALUE` lines of a device-information Text record, in order.
struct DeviceInformationText: Sendable {
    var pairs: [(key: String, value: String)]

    /// The first Text record holding at least one `KEY=VALUE` line other than a lone
    /// `start=` line (which is generic16's start time, not device information).
    static func find(in message: NDEFMessage) -> DeviceInformationText? {
        for record in message.records {
            guard let text = record.textRecord?.text else { continue }
            var pairs: [(key: String, value: String)] = []
            for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
                guard let equals = line.firstIndex(of: "=") else { continue }
                let key = line[..<equals].trimmingCharacters(in: .whitespaces)
                let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                if !key.isEmpty { pairs.append((key, value)) }
            }
            if pairs.isEmpty { continue }
            if pairs.count == 1 && pairs[0].key.lowercased() == "start" { continue }
            return DeviceInformationText(pairs: pairs)
        }
        return nil
    }

    static func normalize(_ key: String) -> String {
        key.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " && $0 != "." }
    }

    /// Pairs whose normalized key contains one of the fragments (or, for fragments of one
    /// or two letters, equals it), in order.
    func pairs(matching fragments: [String]?) -> [(key: String, value: String)] {
        guard let fragments, !fragments.isEmpty else { return [] }
        let normalized = fragments.map(DeviceInformationText.normalize)
        return pairs.filter { pair in
            let key = DeviceInformationText.normalize(pair.key)
            // Short fragments (`sn`) must be the whole key; longer ones may be part of it.
            return normalized.contains { $0.count <= 2 ? key == $0 : key.contains($0) }
        }
    }
}

extension Date {
    /// ISO 8601 in UTC with `Z` (whole seconds), for messages.
    var loggerISOText: String { TimeText.isoUTC(self) }
}
