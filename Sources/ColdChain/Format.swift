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
        if rounded == 0 { rounded = 0 } // no "−0"
        let text: String
        if rounded == rounded.rounded(), abs(rounded) < 1e15 {
            text = String(Int(rounded))
        } else {
            text = "\(rounded)"
        }
        return text.replacingOccurrences(of: "-", with: "−")
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
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.calendar = Calendar(identifier: .gregorian)
        let hasSeconds = date.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) != 0
        formatter.dateFormat = hasSeconds ? "yyyy-MM-dd HH:mm:ss xxx" : "yyyy-MM-dd HH:mm xxx"
        return formatter.string(from: date)
    }
}
