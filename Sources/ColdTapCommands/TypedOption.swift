import ColdTapBase
import Foundation

/// How the text of an option becomes a value, and what a usage error says when it does not.
/// The kinds of values the command line takes are made here once (times, days, zones, whole
/// numbers, seconds), so no command turns a string into a date or a number itself.
public struct OptionValueParser<Value: Sendable>: Sendable {
    /// The value `text` stands for, or `nil` when it is not one.
    public var convert: @Sendable (_ text: String) -> Value?
    /// The usage error's message for `text` given to the option shown as `name`.
    public var complaint: @Sendable (_ name: String, _ text: String) -> String

    public init(
        convert: @escaping @Sendable (_ text: String) -> Value?, complaint: @escaping @Sendable (_ name: String, _ text: String) -> String
    ) {
        self.convert = convert
        self.complaint = complaint
    }

    /// The same values refused with other words (an option that has always said it otherwise).
    public func complaining(_ complaint: @escaping @Sendable (_ name: String, _ text: String) -> String) -> OptionValueParser {
        OptionValueParser(convert: convert, complaint: complaint)
    }

    /// The values that also pass `check` (a range, a bound), with the same complaint.
    public func checked(_ check: @escaping @Sendable (Value) -> Bool) -> OptionValueParser {
        let convert = self.convert
        return OptionValueParser(convert: { text in convert(text).flatMap { check($0) ? $0 : nil } }, complaint: complaint)
    }
}

extension OptionValueParser where Value == Date {
    /// An ISO 8601 date-time with `Z` or an offset, fractional seconds allowed; `advice` is
    /// what follows "NAME 'TEXT' " in the complaint.
    public static func time(_ advice: String) -> OptionValueParser {
        OptionValueParser(convert: { ISO8601Time.parse($0) }, complaint: { name, text in "\(name) '\(text)' \(advice)" })
    }

    /// An ISO 8601 date-time as `time`, or a day `YYYY-MM-DD` meaning its midnight in UTC.
    public static func timeOrDay(_ advice: String) -> OptionValueParser {
        OptionValueParser(
            convert: { text in ISO8601Time.parse(text) ?? utcDay(text) }, complaint: { name, text in "\(name) '\(text)' \(advice)" })
    }

    /// Midnight in UTC of the day `YYYY-MM-DD`.
    static func utcDay(_ text: String) -> Date? { CalendarDay.parse(text, in: .utc) }
}

/// An end of a signed period as given: a time, or a day whose start depends on the zone the
/// period is read in (`--tz`, known only once every option is parsed).
public enum PeriodBound: Sendable, Equatable {
    case time(Date)
    /// `YYYY-MM-DD` as written.
    case day(String)

    /// The time it stands for, a day's start taken in `zone`.
    public func time(in zone: TimeZone) -> Date {
        switch self {
        case .time(let date): return date
        case .day(let text):
            // `periodBound` makes only days that read in UTC; a zone whose midnight that day
            // does not exist falls back to the day's UTC start rather than failing late.
            return PeriodBound.dayStart(text, in: zone) ?? PeriodBound.dayStart(text, in: .utc) ?? .distantPast
        }
    }

    static func dayStart(_ text: String, in zone: TimeZone) -> Date? {
        guard text.count == 10, let day = CalendarDay.parse(text, in: zone) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.startOfDay(for: day)
    }
}

extension OptionValueParser where Value == PeriodBound {
    /// An ISO 8601 time with a zone, or a day `YYYY-MM-DD` (its start in the period's zone).
    public static let periodBound = OptionValueParser(
        convert: { text in
            if let date = ISO8601Time.parse(text) { return .time(date) }
            return PeriodBound.dayStart(text, in: .utc) == nil ? nil : .day(text)
        },
        complaint: { name, text in "\(name) '\(text)' is not a time; write it like 2026-04-09T08:35:00Z or 2026-04-09 (that day's start in --tz)." })
}

extension OptionValueParser where Value == TimeZone {
    /// An IANA zone in any case (`Europe/Berlin`, `europe/berlin`), `UTC`, an abbreviation
    /// (`CET`) or an offset (`+02:00`, `-0530`, `+02`): the zones a report is written in.
    public static let zone = OptionValueParser(
        convert: { zoneLoosely($0) },
        complaint: { name, text in "\(name) '\(text)' is not a time zone; give a name such as Europe/Berlin, UTC or an offset such as +02:00." })

    /// An IANA zone name (`Europe/Paris`, `UTC`) or a fixed offset `±HH:MM` / `±HHMM`, nothing
    /// looser: the zone a logger's clock ran in.
    public static let strictZone = OptionValueParser(
        convert: { zoneStrictly($0) },
        complaint: { name, text in "\(name) '\(text)' is not a time zone; give a name like Europe/Paris or UTC, or an offset like +02:00." })

    /// An IANA zone (`Europe/Berlin`), `UTC`, an abbreviation (`CET`) or an offset
    /// (`+02:00`, `-0530`); `nil` for anything else.
    static func zoneLoosely(_ text: String) -> TimeZone? {
        if let zone = TimeZone(identifier: text) { return zone }
        // 'europe/berlin' means Europe/Berlin: IANA names are matched without regard to case.
        if let name = TimeZone.knownTimeZoneIdentifiers.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }),
            let zone = TimeZone(identifier: name)
        {
            return zone
        }
        if let sign = text.first, sign == "+" || sign == "-" {
            let digits = text.dropFirst().filter { $0 != ":" }
            if digits.count == 4 || digits.count == 2, digits.allSatisfy(\.isASCII), let value = Int(digits) {
                let hours = digits.count == 4 ? value / 100 : value
                let minutes = digits.count == 4 ? value % 100 : 0
                if hours <= 14, minutes < 60,
                    let zone = TimeZone(secondsFromGMT: (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
                {
                    return zone
                }
            }
        }
        return TimeZone(abbreviation: text.uppercased())
    }

    /// An IANA zone name (`Europe/Paris`, `UTC`) or a fixed offset `±HH:MM` / `±HHMM`.
    static func zoneStrictly(_ text: String) -> TimeZone? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let sign = trimmed.first, sign == "+" || sign == "-" {
            let digits = trimmed.dropFirst().filter { $0 != ":" }
            guard digits.count == 4, digits.allSatisfy(\.isASCII), let value = Int(digits) else { return nil }
            let (hours, minutes) = (value / 100, value % 100)
            guard hours <= 14, minutes < 60 else { return nil }
            return TimeZone(secondsFromGMT: (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
        }
        guard !trimmed.isEmpty, trimmed.count <= 64, trimmed.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/_+-".contains($0)) }) else {
            return nil
        }
        return TimeZone(identifier: trimmed)
    }
}

extension OptionValueParser where Value == Int64 {
    /// A whole number in `range`, written in decimal digits.
    public static func whole(_ range: ClosedRange<Int64>, _ complaint: @escaping @Sendable (_ name: String, _ text: String) -> String)
        -> OptionValueParser
    {
        OptionValueParser(convert: { Int64($0).flatMap { range.contains($0) ? $0 : nil } }, complaint: complaint)
    }
}

extension OptionValueParser where Value == Int {
    /// A whole number in `range`; the complaint names the range and the unit, if any
    /// ("--threads takes a number from 1 to 256, not 'x'.").
    public static func count(_ range: ClosedRange<Int>, unit: String? = nil) -> OptionValueParser {
        OptionValueParser(
            convert: { Int($0).flatMap { range.contains($0) ? $0 : nil } },
            complaint: { name, text in
                "\(name) takes a number\(unit.map { " of \($0)" } ?? "") from \(range.lowerBound) to \(range.upperBound), not '\(text)'."
            })
    }
}

extension OptionValueParser where Value == TimeInterval {
    /// A duration as a whole count of days, hours, minutes or seconds (`90d`, `12h`, `30m`,
    /// `45s`; a bare number is seconds), above 0 and up to `longest` seconds.
    public static func duration(upTo longest: TimeInterval, _ complaint: @escaping @Sendable (_ name: String, _ text: String) -> String)
        -> OptionValueParser
    {
        OptionValueParser(convert: { durationSeconds($0).flatMap { $0 <= longest ? $0 : nil } }, complaint: complaint)
    }

    /// The seconds of `90d`, `12h`, `30m`, `45s` or `45`; `nil` for anything else or 0.
    static func durationSeconds(_ text: String) -> TimeInterval? {
        let units: [(String, TimeInterval)] = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]
        let unit = units.first { text.hasSuffix($0.0) }
        guard let count = Int(unit.map { String(text.dropLast($0.0.count)) } ?? text), count > 0 else { return nil }
        return TimeInterval(count) * (unit?.1 ?? 1)
    }
}

extension OptionValueParser where Value == Double {
    /// A finite decimal number (seconds, degrees) that passes `accepts`.
    public static func number(
        _ accepts: @escaping @Sendable (Double) -> Bool, _ complaint: @escaping @Sendable (_ name: String, _ text: String) -> String
    ) -> OptionValueParser {
        OptionValueParser(convert: { Double($0).flatMap { $0.isFinite && accepts($0) ? $0 : nil } }, complaint: complaint)
    }
}

/// An option declared with the type of its value: the command reads a `Date`, a `TimeZone`
/// or a number from `Arguments.value(_:)` and never the string; a text that is not one is a
/// usage error in the option's words, before the command runs any of its work.
public struct TypedOption<Value: Sendable>: Sendable {
    /// The declaration that forms list: names, placeholder, help.
    public var spec: OptionSpec
    public var parser: OptionValueParser<Value>

    public init(_ spec: OptionSpec, _ parser: OptionValueParser<Value>) {
        self.spec = spec
        self.parser = parser
    }

    /// The same option with the words of one subcommand (`OptionSpec.helping`).
    public func helping(_ text: String, default defaultValue: String? = nil) -> TypedOption {
        TypedOption(spec.helping(text, default: defaultValue), parser)
    }
}

extension OptionSpec {
    /// This option, its value parsed by `parser`.
    public func typed<Value>(_ parser: OptionValueParser<Value>) -> TypedOption<Value> { TypedOption(self, parser) }
}

extension Arguments {
    /// The value of `option`, parsed; `nil` when it is not given.
    /// - Throws: `CommandError.usage` in the option's words when its text is not a value.
    public mutating func value<Value>(_ option: TypedOption<Value>) throws -> Value? {
        guard let text = value(option.spec) else { return nil }
        guard let value = option.parser.convert(text) else { throw CommandError.usage(option.parser.complaint(option.spec.displayName, text)) }
        return value
    }
}
