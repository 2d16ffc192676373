import ColdTapBase
import Foundation
import NDEF

/// Date-time text as loggers and users write it.
public enum TimeText {
    /// 2010-01-01T00:00:00Z: earliest plausible logger time.
    static let plausibleEarliest = Date(timeIntervalSince1970: 1_262_304_000)

    /// ISO 8601, or UNIX seconds no earlier than 2010 (smaller numbers are durations or counters).
    static func parseDeviceTime(_ text: String) -> Date? {
        if let date = ISO8601Time.parse(text) { return date }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds.isFinite, seconds >= plausibleEarliest.timeIntervalSince1970,
            seconds < 4_102_444_800
        {
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
        if let date = ISO8601Time.parse(candidate) { return (date, text) }
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
    var loggerISOText: String { isoUTCWholeSeconds }
}
