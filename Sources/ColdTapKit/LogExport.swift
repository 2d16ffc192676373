import ColdChain
import ColdTapBase
import Foundation
import JSONOutput
import LoggerFormats
import TempChart

/// A `TemperatureLog` as JSON, CSV and a text summary; shared by `decode`, `read` and `report`.
public enum LogExport {
    /// How a front end words what the log holds as values (a front end that names its
    /// options says which one gave the read time).
    public struct Wording: Sendable {
        public var readTimeSource: @Sendable (DecodeOptions.ReadTimeSource) -> String

        public init(readTimeSource: @escaping @Sendable (DecodeOptions.ReadTimeSource) -> String) {
            self.readTimeSource = readTimeSource
        }

        /// The library's English.
        public static let plain = Wording { $0.description }
    }

    /// The JSON of `coldtap decode --json`: `format`, `logger`, `readTime`, `readTimeSource`,
    /// `timeBase`, `timeBaseDetail`, `detection`, `integrity`, `interval` (seconds),
    /// `metadata`, `samples` (oldest first: `time`, `temperature` (°C, `null` when missing),
    /// `humidity` only where measured, `flags`), `events` and `series` where the logger has
    /// them, `thresholdLogging` for a threshold-mode logger (docs/coldchain.md), `warnings`.
    /// Times are UTC with `Z`.
    public static func json(_ log: TemperatureLog, wording: Wording = .plain) -> JSONValue {
        var logger: [(String, JSONValue)] = []
        if let uid = log.logger.tagUID { logger.append(("tagUID", .string(uid))) }
        if let vendor = log.logger.vendor { logger.append(("vendor", .string(vendor))) }
        if let model = log.logger.model { logger.append(("model", .string(model.name))) }
        if let serial = log.logger.serial { logger.append(("serial", .string(serial))) }
        if let firmware = log.logger.firmware { logger.append(("firmware", .string(firmware))) }
        var members: [(String, JSONValue)] = [
            ("format", .string(log.format.name)),
            ("logger", .object(logger)),
            ("readTime", .string(log.readTime.isoUTC)),
        ]
        if let source = log.readTimeSource { members.append(("readTimeSource", .string(wording.readTimeSource(source)))) }
        members.append(("timeBase", .string(log.timeBase.rawValue)))
        if let detail = log.timeBaseDetail { members.append(("timeBaseDetail", .string(detail))) }
        members.append(("timesEstimated", .bool(log.timesEstimated)))
        if let detection = log.detection { members.append(("detection", .string(detection.text))) }
        members.append(
            (
                "integrity",
                .object([
                    ("status", .string(log.integrity.status.rawValue)),
                    ("detail", .string(log.integrity.detail.text)),
                ])
            ))
        members.append(("interval", .number(log.interval)))
        members.append(("metadata", .object(log.metadata.keys.sorted().map { ($0, .string(log.metadata[$0]?.text ?? "")) })))
        members.append(("samples", .array(log.samples.map(sampleJSON))))
        if !log.events.isEmpty { members.append(("events", .array(log.events.map(eventJSON)))) }
        if let series = log.series, !series.isEmpty { members.append(("series", .array(series.map(seriesJSON)))) }
        if let thresholds = log.thresholdLogging {
            members.append(
                (
                    "thresholdLogging",
                    .object([
                        ("rule", .string(thresholds.rule)), ("lowest", .optional(thresholds.lowest)), ("highest", .optional(thresholds.highest)),
                        ("coverageStart", .string(thresholds.coverageStart.isoUTC)), ("coverageEnd", .string(thresholds.coverageEnd.isoUTC)),
                    ])
                ))
        }
        if let zone = log.loggerTimeZone { members.append(("loggerTimeZone", .string(zone))) }
        if let alarms = log.loggerAlarms { members.append(("loggerAlarms", .array(alarms.map(configuredAlarmJSON)))) }
        if let days = log.dailySummaries { members.append(("dailySummaries", .array(days.map(dailySummaryJSON)))) }
        members.append(("warnings", .array(log.warnings.map { .string($0.text) })))
        return .object(members)
    }

    /// An alarm the logger was configured with: `name`, `direction`, `kind`, `limit` (°C), `minutes`.
    public static func configuredAlarmJSON(_ alarm: TemperatureLog.ConfiguredAlarm) -> JSONValue {
        .object([
            ("name", .string(alarm.name)), ("direction", .string(alarm.direction.rawValue)), ("kind", .string(alarm.kind.rawValue)),
            ("limit", .number(alarm.limit)), ("minutes", .number(alarm.minutes)),
        ])
    }

    /// A day the logger summarised itself: `date`, `min`, `minTime`, `max`, `maxTime`, `mean`
    /// (°C as printed, times UTC), `alarms` (`alarm`, `limit`, `allowedSeconds`, `seconds`,
    /// `start`, `triggered`), `events`, and the part of the day logged (`coveredFrom`, `coveredTo`).
    public static func dailySummaryJSON(_ day: TemperatureLog.DailySummary) -> JSONValue {
        func time(_ date: Date?) -> JSONValue { date.map { .string($0.isoUTC) } ?? .null }
        let alarms: [JSONValue] = day.alarms.map { alarm in
            .object([
                ("alarm", .string(alarm.alarm.rawValue)), ("limit", .number(alarm.limit)), ("allowedSeconds", .number(alarm.allowedSeconds)),
                ("seconds", .number(alarm.seconds)), ("start", time(alarm.start)), ("triggered", time(alarm.triggered)),
            ])
        }
        return .object([
            ("date", .string(day.date)), ("min", .number(day.min)), ("minTime", time(day.minTime)), ("max", .number(day.max)),
            ("maxTime", time(day.maxTime)), ("mean", .number(day.mean)), ("alarms", .array(alarms)),
            ("events", day.events.map { .int($0) } ?? .null), ("coveredFrom", .string(day.coveredFrom.isoUTC)),
            ("coveredTo", .string(day.coveredTo.isoUTC)),
        ])
    }

    public static func sampleJSON(_ sample: TemperatureLog.Sample) -> JSONValue {
        var members: [(String, JSONValue)] = [("time", .string(sample.time.isoUTC)), ("temperature", .optional(sample.temperature))]
        if let humidity = sample.humidity { members.append(("humidity", .number(humidity))) }
        members.append(("flags", .array(sample.flags.map { .string($0.rawValue) })))
        return .object(members)
    }

    /// A further measured quantity (a SmarTag's pressure or light): `name`, `unit`, `points`
    /// (`time`, `value`, `null` where the logger marked the reading invalid).
    public static func seriesJSON(_ series: TemperatureLog.Series) -> JSONValue {
        .object([
            ("name", .string(series.name)), ("unit", .string(series.unit)),
            ("points", .array(series.points.map { .object([("time", .string($0.time.isoUTC)), ("value", .optional($0.value))]) })),
        ])
    }

    /// A logger's own event: `time` (UTC, `null` when the logger's clock gave none), `name`,
    /// `end` for an episode that ended, `detail`. Only formats with an event log (NHS31xx) have any.
    public static func eventJSON(_ event: TemperatureLog.Event) -> JSONValue {
        var members: [(String, JSONValue)] = [("time", event.time.map { .string($0.isoUTC) } ?? .null), ("name", .string(event.name))]
        if let end = event.end { members.append(("end", .string(end.isoUTC))) }
        if let detail = event.detail { members.append(("detail", .string(detail.text))) }
        return .object(members)
    }

    /// One line per logger event, for the text summaries.
    public static func eventLines(_ log: TemperatureLog) -> [(String, String)] {
        log.events.map { event in
            var text = (event.time?.isoUTC ?? "(no time)") + " " + event.name
            if let end = event.end { text += " until \(end.isoUTC)" }
            if let detail = event.detail { text += " — \(detail.text)" }
            return ("Event", text)
        }
    }

    /// RFC 4180 CSV (CRLF line ends), nothing above the header row (a spreadsheet shows a
    /// comment line as data): the time column's header says its zone (UTC unless `timeZone`
    /// is given: then ISO 8601 with that zone's offset) and, when the times are estimates, so,
    /// e.g. `time (UTC; estimated from the file's modification time 2026-08-18T06:00:00Z)`. Then
    /// `temperature_c,humidity_pct,flags`, one row per sample oldest first, values rounded as
    /// the sensor resolves them (exact values are in the JSON); empty fields where there is no
    /// value; flags joined by `;`. `headerNote` is added to that header too (the app's sample
    /// read says there that it comes from no logger).
    public static func csv(_ log: TemperatureLog, timeZone: TimeZone? = nil, headerNote: String? = nil) -> String {
        let zone = timeZone.flatMap { $0.secondsFromGMT() == 0 && $0.identifier.uppercased().hasPrefix("UTC") ? nil : $0 }
        var timeHeader = "time (\(zone?.identifier ?? "UTC")"
        if log.timesEstimated { timeHeader += "; estimated from \(standInPhrase(log)) \(log.readTime.isoUTC)" }
        if let headerNote { timeHeader += "; \(headerNote)" }
        timeHeader += ")"
        var out = [timeHeader, "temperature_c", "humidity_pct", "flags"].map(csvField).joined(separator: ",") + "\r\n"
        let digits = decimals(log.resolution)
        for sample in log.samples {
            let time = zone.map { ISO8601Time.text(sample.time, in: $0) } ?? sample.time.isoUTC
            let fields = [
                time, sample.temperature.map { rounded($0, digits) } ?? "", sample.humidity.map { rounded($0, 1) } ?? "",
                sample.flags.map(\.rawValue).joined(separator: ";"),
            ]
            out += fields.map(csvField).joined(separator: ",") + "\r\n"
        }
        return out
    }

    /// Quotes a field when it holds a comma, a quote or a line break (RFC 4180 §2).
    public static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Shortest text that reads back as the same double; whole values without `.0`.
    public static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }

    /// The read time and where it came from; an estimate says so and what it means for the times.
    public static func readTimeText(_ log: TemperatureLog, wording: Wording = .plain) -> String {
        let source = log.readTimeSource.map { " (\(wording.readTimeSource($0)))" } ?? ""
        if log.timesEstimated {
            return log.readTime.isoUTC + " (not known: \(standInPhrase(log)) stands in; every sample time is estimated from it)"
        }
        return log.readTime.isoUTC + source
    }

    /// The decimals that show a value no finer than `resolution` (0.1 → 1, 0.04 → 2); 2 when unknown.
    public static func decimals(_ resolution: Double?) -> Int {
        guard let resolution, resolution > 0, resolution.isFinite else { return 2 }
        return max(0, min(6, Int((-log10(resolution)).rounded(.up))))
    }

    /// The value with `digits` decimals, "-0" written as "0".
    public static func rounded(_ value: Double, _ digits: Int) -> String {
        let text = String(format: "%.\(digits)f", value)
        return text.hasPrefix("-") && Double(text) == 0 ? String(text.dropFirst()) : text
    }

    /// A duration as people read it: "45 s", "10 min", "4 min 30 s", "19 h", "21 h 12 min",
    /// "3 d 4 h" (from an hour on, to the minute): the reports' rule.
    public static func readableDuration(_ seconds: TimeInterval) -> String {
        ChartFormatter(timeZone: TimeZone.utc, language: .english).duration(seconds)
    }

    /// What stood in for the unknown read time, as a phrase.
    public static func standInPhrase(_ log: TemperatureLog) -> String {
        switch log.readTimeSource {
        case .fileModificationTime?: return "the file's modification time"
        case .now?: return "the time of decoding"
        case let other?: return other.description
        case nil: return "a guess"
        }
    }

    /// The text summary of `coldtap decode`: format, logger, read time, time base,
    /// integrity, sample count, first/last time, min/max, warnings.
    public static func text(_ log: TemperatureLog, input: String? = nil, wording: Wording = .plain) -> String {
        var lines: [(String, String)] = []
        lines.append(("Format", log.format.name + (log.detection.map { " (\($0))" } ?? "")))
        if let input { lines.append(("Input", input)) }
        let identity = [log.logger.vendor, log.logger.model?.name].compactMap { $0 }.joined(separator: " ")
        var logger = identity.isEmpty ? "unknown" : identity
        if let serial = log.logger.serial { logger += ", serial \(serial)" }
        if let uid = log.logger.tagUID { logger += ", tag UID \(uid)" }
        lines.append(("Logger", logger))
        lines.append(("Read time", readTimeText(log, wording: wording)))
        lines.append(("Time base", log.timeBase.rawValue + (log.timeBaseDetail.map { ": \($0)" } ?? "")))
        lines.append(("Integrity", "\(log.integrity.status.rawValue) (\(log.integrity.detail))"))
        lines.append(("Interval", readableDuration(log.interval)))
        let flagged = log.samples.filter { !$0.flags.isEmpty }.count
        lines.append(("Samples", "\(log.samples.count)" + (flagged > 0 ? " (\(flagged) flagged)" : "")))
        if let first = log.samples.first, let last = log.samples.last {
            lines.append(("First", first.time.isoUTC))
            lines.append(("Last", last.time.isoUTC))
        }
        let valid = log.samples.filter(\.isValid)
        if let low = valid.min(by: { ($0.temperature ?? 0) < ($1.temperature ?? 0) }),
            let high = valid.max(by: { ($0.temperature ?? 0) < ($1.temperature ?? 0) }),
            let lowValue = low.temperature, let highValue = high.temperature
        {
            let digits = decimals(log.resolution)
            lines.append(
                ("Temperature", "min \(rounded(lowValue, digits)) °C at \(low.time.isoUTC), max \(rounded(highValue, digits)) °C at \(high.time.isoUTC)"))
        }
        let humidities = valid.compactMap(\.humidity)
        if let low = humidities.min(), let high = humidities.max() {
            lines.append(("Humidity", "min \(rounded(low, 1)) %, max \(rounded(high, 1)) %"))
        }
        for series in log.series ?? [] {
            let values = series.points.compactMap(\.value)
            let range = values.min().map { low in "min \(rounded(low, 1)) \(series.unit), max \(rounded(values.max() ?? low, 1)) \(series.unit)" }
            lines.append(
                (
                    series.name.prefix(1).uppercased() + series.name.dropFirst(),
                    "\(series.points.count) point(s)" + (range.map { ", \($0)" } ?? "")
                ))
        }
        if let thresholds = log.thresholdLogging {
            lines.append(
                (
                    "Threshold mode",
                    "the logger \(thresholds.rule); what it did not store lay within \(thresholds.rangeText), "
                        + "\(thresholds.coverageStart.isoUTC) → \(thresholds.coverageEnd.isoUTC)"
                ))
        }
        if let battery = log.metadata["batteryMillivolts"] {
            lines.append(("Battery", battery.number.map { "\(Int($0.rounded())) mV" } ?? battery.text))
        }
        for (key, label) in [("loopCount", "Loop count"), ("resetsAllTime", "Resets"), ("resetCause", "Reset cause")] {
            if let value = log.metadata[key] { lines.append((label, value.text)) }
        }
        lines += eventLines(log)
        if log.warnings.isEmpty {
            lines.append(("Warnings", "none"))
        } else {
            for warning in log.warnings { lines.append(("Warning", warning.text)) }
        }
        let width = lines.map { $0.0.count }.max() ?? 0
        return lines.map { $0.0 + ":" + String(repeating: " ", count: width - $0.0.count + 1) + $0.1 }.joined(separator: "\n")
    }
}
