import Foundation

/// Text forms shared by rule descriptions, reasons and reports.
public enum ColdChainFormat {
    /// A temperature in °C without the unit, with a typographic minus: `8`, `−0.5`, `11.25`.
    /// `decimals` rounds (and drops trailing zeros); `nil` keeps the shortest exact form.
    public static func temperature(_ value: Double, decimals: Int? = nil) -> String {
        guard value.isFinite else { return "—" }
        guard abs(value) < 1e12 else { return "\(value)".replacingOccurrences(of: "-", with: "−") }
        var rounded = value
        if let decimals {
            let scale = pow(10, Double(max(0, min(decimals, 9))))
            rounded = (value * scale).rounded() / scale
        }
        if rounded == 0 { rounded = 0 }  // no "−0"
        let text: String
        if rounded == rounded.rounded(), abs(rounded) < 1e15 {
            text = String(Int(rounded))
        } else {
            text = "\(rounded)"
        }
        return text.replacingOccurrences(of: "-", with: "−")
    }

    /// A duration as people read it in tables, the one rounding rule of every report and
    /// the terminal: whole seconds under an hour, whole minutes from an hour (half a minute
    /// rounds up), days from 48 hours.
    public struct DurationParts: Sendable, Equatable {
        public var days: Int
        public var hours: Int
        public var minutes: Int
        public var seconds: Int

        public init(days: Int, hours: Int, minutes: Int, seconds: Int) {
            (self.days, self.hours, self.minutes, self.seconds) = (days, hours, minutes, seconds)
        }
    }

    /// `seconds` as `DurationParts`; `nil` for a non-finite or absurd value.
    public static func durationParts(_ seconds: TimeInterval) -> DurationParts? {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return nil }
        var total = Int(seconds.rounded())
        if total >= 3600 { total = Int((Double(total) / 60).rounded()) * 60 }
        let days = total >= 2 * 86_400 ? total / 86_400 : 0
        let rest = total - days * 86_400
        return DurationParts(days: days, hours: rest / 3600, minutes: rest % 3600 / 60, seconds: rest % 60)
    }

    /// Parts of one whole (a day's time in band, above, below, unknown) rounded to whole
    /// minutes so that they add up to the whole rounded the same way: the largest remainders
    /// take the minutes that plain rounding would lose or add (a complete day is 24 h, not
    /// 23 h 59 min).
    public static func minutesAddingUp(_ parts: [TimeInterval]) -> [TimeInterval] {
        let minutes = parts.map { $0.isFinite ? max(0, $0) / 60 : 0 }
        let total = Int(minutes.reduce(0, +).rounded())
        var whole = minutes.map { Int($0.rounded(.down)) }
        var left = total - whole.reduce(0, +)
        for index in minutes.indices.sorted(by: { minutes[$0] - Double(whole[$0]) > minutes[$1] - Double(whole[$1]) }) where left > 0 {
            whole[index] += 1
            left -= 1
        }
        return whole.map { TimeInterval($0 * 60) }
    }

    /// A duration in hours, minutes and seconds: `10 h`, `12 h 30 min`, `45 s`, `36 h`.
    public static func duration(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return "—" }
        let total = Int(seconds.rounded())
        if total == 0 { return "0 s" }
        let hours = total / 3600
        let minutes = (total % 3600) / 60
        let secs = total % 60
        var parts: [String] = []
        if hours > 0 { parts.append("\(hours) h") }
        if minutes > 0 { parts.append("\(minutes) min") }
        if secs > 0 { parts.append("\(secs) s") }
        return parts.joined(separator: " ")
    }

    /// A time as `yyyy-MM-dd HH:mm` (with `:ss` when the seconds are not zero) and the UTC
    /// offset of `timeZone`, e.g. `2026-04-09 20:35 +02:00`.
    public static func time(_ date: Date, in timeZone: TimeZone) -> String {
        // Built from calendar fields, not a DateFormatter: creating one (ICU) cost more than
        // the rest of an upload's assessment.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let hasSeconds = date.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) != 0
        let offset = timeZone.secondsFromGMT(for: date) / 60
        var text = day(parts) + " " + twoDigits(parts.hour ?? 0) + ":" + twoDigits(parts.minute ?? 0)
        if hasSeconds { text += ":" + twoDigits(parts.second ?? 0) }
        return text + " " + (offset < 0 ? "-" : "+") + twoDigits(abs(offset) / 60) + ":" + twoDigits(abs(offset) % 60)
    }

    /// `yyyy-MM-dd` of calendar fields.
    static func day(_ parts: DateComponents) -> String {
        let year = parts.year ?? 0
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-" + twoDigits(parts.month ?? 0) + "-" + twoDigits(parts.day ?? 0)
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}
