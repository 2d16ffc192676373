import Foundation

/// Berlinger Fridge-tag 2 / 2 L / Ultra Low and Q-tag CLm doc text reports (docs/berlinger.md):
/// the device, its configured alarms, its daily summaries (`Hist:`), its rows (`Data:`) and a
/// Q-tag's run results (`Res:`), with every wall-clock time placed on UTC through the zone
/// the caller gives (the report carries none).
public enum BerlingerDecoder {
    /// The formats, in the order `coldtap formats` lists them.
    public static let formatNames = [
        TemperatureLog.Format.fridgeTag2.name, TemperatureLog.Format.fridgeTag2L.name, TemperatureLog.Format.fridgeTagUltraLow.name,
        TemperatureLog.Format.qTagCLmDoc.name,
    ]

    /// The format of a `Device:` value, or `nil` for a device ColdTap does not know.
    public static func format(ofDevice device: String) -> TemperatureLog.Format? {
        switch device {
        case "Q-tag Fridge-tag 2": return .fridgeTag2
        case "Q-tag Fridge-tag 2 L": return .fridgeTag2L
        case "Q-tag Fridge-tag Ultra Low": return .fridgeTagUltraLow
        default: return device.hasPrefix("Q-tag CLm doc") ? .qTagCLmDoc : nil
        }
    }

    /// True when the bytes start as a Berlinger report does (`Device: Q-tag `).
    public static func looks(like bytes: Data) -> Bool { BerlingerReport.looks(like: bytes) }

    /// One sentence per format, for `coldtap formats`.
    public static func summary(of format: TemperatureLog.Format) -> String {
        switch format {
        case .fridgeTag2: return "Berlinger Fridge-tag 2 text report: daily summaries only (up to 60 days), no readings"
        case .fridgeTag2L: return "Berlinger Fridge-tag 2 L text report: daily summaries and 5-minute readings"
        case .fridgeTagUltraLow: return "Berlinger Fridge-tag Ultra Low text report: daily summaries and 5-minute readings"
        case .qTagCLmDoc: return "Berlinger Q-tag CLm doc text report: a run's results, its alarm episodes and its readings"
        default: return ""
        }
    }

    /// The bytes `Sig:` signs, the `Sig:` value, the certificate's bytes, its public key and
    /// `Sig Cert:` (each 128 hex digits as printed), for a caller that checks the device's
    /// signature (docs/berlinger.md §7).
    public struct SignedParts: Sendable, Equatable {
        public var signedBytes: Data
        public var signature: String
        public var certificateBytes: Data
        public var publicKey: String
        public var certificateSignature: String
        public var issuer: String?
        public var lot: String?
    }

    /// The report's signed parts, when it has all of them.
    public static func signedParts(of bytes: Data) -> SignedParts? {
        guard let report = try? BerlingerReport.parse(bytes, format: "berlinger"), let signed = report.signedRange,
            let certificate = report.certificateRange, let cert = report.block("Cert"), let key = cert.value("Public Key"),
            let signature = report.value("Sig"), let certificateSignature = report.value("Sig Cert")
        else { return nil }
        let start = bytes.startIndex
        return SignedParts(
            signedBytes: bytes[(start + signed.lowerBound)..<(start + signed.upperBound)], signature: signature,
            certificateBytes: bytes[(start + certificate.lowerBound)..<(start + certificate.upperBound)], publicKey: key,
            certificateSignature: certificateSignature, issuer: cert.value("Issuer"), lot: cert.value("Lot"))
    }

    /// What the decoder says of the signature until a caller checks it.
    public static let unverifiedDetail: TemperatureLog.Integrity.Detail =
        "unverified (the report carries a device signature, Cert:/Sig:, that was not checked)"

    /// Decodes a report.
    /// - Parameter options: `loggerTimeZone` is required (the report's times carry no zone);
    ///   a given read time is kept, otherwise the report's own creation (or stop) time is the read time.
    /// - Throws: `LoggerFormatError`: `.timeZoneUnknown` (hint `.needsLoggerTimeZone`) without
    ///   a zone; `.malformed` / `.inconsistent` naming the line for a report cut off, a value
    ///   that is not what its key says, or a time the zone skips; `.unknownLogger` for a
    ///   forced format the report is not.
    public static func decode(_ bytes: Data, options: DecodeOptions) throws -> TemperatureLog {
        let deviceLine = String(decoding: bytes.prefix(80).prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let device = String(deviceLine.dropFirst("Device: ".count))
        guard looks(like: bytes), let format = format(ofDevice: device) else {
            throw LoggerFormatError(
                .malformed, format: "berlinger", field: "line 1",
                "'\(deviceLine)' names no Berlinger logger ColdTap reads (Fridge-tag 2, 2 L, Ultra Low, Q-tag CLm doc)")
        }
        if case .named(let forced)? = options.logger, forced != format.name {
            throw LoggerFormatError(.unknownLogger, format: format.name, "the report is a \(device), not '\(forced)'")
        }
        guard let zone = options.loggerTimeZone else {
            throw LoggerFormatError(
                .timeZoneUnknown, format: format.name,
                "the report's times carry no time zone, and none was given for the logger's clock", hint: .needsLoggerTimeZone)
        }
        let report = try BerlingerReport.parse(bytes, format: format.name)
        var reader = Reader(report: report, format: format, clock: BerlingerClock(zone: zone, format: format.name))
        var log = try reader.log(device: device, options: options)
        log.detection =
            options.logger == nil ? .detected(format: format.name, reason: "the report's first line is 'Device: \(device)'") : .forced(format: format.name)
        return log
    }
}

/// Reads the meaning of a parsed report.
private struct Reader {
    let report: BerlingerReport
    let format: TemperatureLog.Format
    let clock: BerlingerClock
    var metadata: [String: MetadataValue] = [:]
    var warnings: [LogWarning] = []
    var events: [TemperatureLog.Event] = []

    init(report: BerlingerReport, format: TemperatureLog.Format, clock: BerlingerClock) {
        self.report = report
        self.format = format
        self.clock = clock
    }

    func refuse(_ line: Int, _ detail: String) -> LoggerFormatError {
        LoggerFormatError(.malformed, format: format.name, field: "line \(line)", detail)
    }

    /// `key`'s value under `node`, required.
    func required(_ key: String, in node: BerlingerReport.Node, what: String) throws -> String {
        guard let value = node.value(key) else { throw refuse(node.line, "\(what) has no '\(key):' (the block is cut off or damaged)") }
        return value
    }

    /// A temperature as printed (`+8.0`, `-0.5`, `24.3`).
    func temperature(_ text: String, line: Int, key: String) throws -> Double {
        let body = text.hasPrefix("+") || text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), body.filter({ $0 == "." }).count <= 1,
            let value = Double(text.hasPrefix("+") ? String(body) : text), abs(value) < 1000
        else { throw refuse(line, "\(key) '\(text)' is not a temperature") }
        return value
    }

    /// A whole number of minutes (or a count).
    func count(_ text: String, line: Int, key: String) throws -> Int {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text) else {
            throw refuse(line, "\(key) '\(text)' is not a whole number")
        }
        return value
    }

    /// A `YYYY-MM-DD HH:MM` value placed on UTC.
    func time(_ text: String, line: Int, key: String, after: Date? = nil) throws -> Date {
        guard let local = BerlingerClock.local(text) else { throw refuse(line, "\(key) '\(text)' is not a time (YYYY-MM-DD HH:MM)") }
        return try clock.instant(of: local, after: after, line: line, text: text)
    }

    mutating func log(device: String, options: DecodeOptions) throws -> TemperatureLog {
        guard let conf = report.block("Conf") else { throw refuse(1, "the report has no Conf: block") }
        let serial = try required("Serial", in: conf, what: "Conf:")
        guard !serial.isEmpty, serial.count <= 32, serial.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw refuse(conf.line, "the serial '\(serial)' is not letters and digits")
        }
        metadata["firmwareVersion"] = report.value("Fw Vers").map { .text($0) }
        metadata["reportVersion"] = report.value("Vers").map { .text($0) }
        metadata["lot"] = conf.value("Lot").map { .text($0) }
        if let unit = conf.value("Temp unit"), unit != "C" {
            throw refuse(conf.line, "temperatures are in '\(unit)', and ColdTap reads only reports in °C (Temp unit: C)")
        }
        let alarms = try configuredAlarms(conf)
        applyLimits(alarms)
        var interval: TimeInterval = 0
        if let minutes = conf.value("Logging Interval") {
            interval = TimeInterval(try count(minutes, line: conf.line, key: "Logging Interval")) * 60
            metadata["loggingIntervalMinutes"] = .integer(Int64(interval / 60))
        }
        var summaries: [TemperatureLog.DailySummary]?
        var reportTime: Date?
        if let hist = report.block("Hist") {
            let (days, created) = try dailySummaries(hist, alarms: alarms)
            summaries = days
            reportTime = created
        } else if let results = report.block("Res") {
            reportTime = try runResults(results, alarms: alarms)
        } else {
            throw refuse(conf.line, "the report has neither Hist: (a Fridge-tag's days) nor Res: (a Q-tag's run)")
        }
        let samples = try rows()
        let zoneName = clock.zone.identifier
        var log = TemperatureLog(
            format: format, logger: .init(vendor: "Berlinger", model: .named(device), serial: serial, firmware: report.value("Fw Vers")), samples: samples,
            interval: interval, timeBase: .loggerClock,
            integrity: .init(status: .unverified, detail: BerlingerDecoder.unverifiedDetail),
            readTime: options.readTimeSource.isKnown || reportTime == nil ? options.readTime : reportTime!,
            metadata: metadata, warnings: warnings,
            readTimeSource: options.readTimeSource.isKnown || reportTime == nil ? options.readTimeSource : .loggerReport,
            timeBaseDetail: "the logger's wall clock (no zone in the report), read in \(zoneName)")
        log.events = events
        log.dailySummaries = summaries
        log.loggerAlarms = alarms
        log.loggerTimeZone = zoneName
        log.resolution = 0.1
        return log
    }

    // MARK: Conf

    /// A Fridge-tag's `0:` low and `1:` high alarm (single-event), or a Q-tag's `1:`…`5:` by type.
    func configuredAlarms(_ conf: BerlingerReport.Node) throws -> [TemperatureLog.ConfiguredAlarm] {
        guard let block = conf.child("Alarm") else { throw refuse(conf.line, "Conf: has no Alarm: block (the configured alarms)") }
        var alarms: [TemperatureLog.ConfiguredAlarm] = []
        for item in block.children {
            let name = item.key
            let type: Int
            if format == .qTagCLmDoc {
                type = try count(try required("Type", in: item, what: "alarm \(name)"), line: item.line, key: "Type")
                if type == 0 { continue }
            } else {
                guard name == "0" || name == "1" else { throw refuse(item.line, "a Fridge-tag alarm is 0: (low) or 1: (high), not '\(name):'") }
                type = name == "0" ? 1 : 2
            }
            guard (1...4).contains(type) else { throw refuse(item.line, "alarm \(name) has type \(type), which ColdTap does not know (1–4)") }
            let limitLine = item.children.first { $0.own("T AL") != nil }?.line ?? item.line
            let limit = try temperature(try required("T AL", in: item, what: "alarm \(name)"), line: limitLine, key: "T AL")
            let minutes = try count(try required("t AL", in: item, what: "alarm \(name)"), line: limitLine, key: "t AL")
            alarms.append(
                .init(
                    name: name, direction: type == 1 || type == 3 ? .low : .high, kind: type <= 2 ? .singleEvent : .cumulative,
                    limit: limit, minutes: Double(minutes)))
        }
        return alarms
    }

    /// The band ColdTap's `logger` profile judges with: the tightest limit on each side.
    mutating func applyLimits(_ alarms: [TemperatureLog.ConfiguredAlarm]) {
        if let low = alarms.filter({ $0.direction == .low }).map(\.limit).max() { metadata["loggerValidMinimum"] = .celsius(low) }
        if let high = alarms.filter({ $0.direction == .high }).map(\.limit).min() { metadata["loggerValidMaximum"] = .celsius(high) }
        metadata["loggerLimits"] = .text(alarms.isEmpty ? "no alarm configured" : alarms.map(\.text).joined(separator: "; "))
    }

    // MARK: Hist

    /// The days, oldest first, and the report's creation time.
    mutating func dailySummaries(
        _ hist: BerlingerReport.Node, alarms: [TemperatureLog.ConfiguredAlarm]
    ) throws -> ([TemperatureLog.DailySummary], Date) {
        let activation = try time(try required("TS Actv", in: hist, what: "Hist:"), line: hist.line, key: "TS Actv")
        let created = try time(try required("TS Report Creation", in: hist, what: "Hist:"), line: hist.line, key: "TS Report Creation")
        metadata["activated"] = .time(activation)
        metadata["reportCreated"] = .time(created)
        var days: [TemperatureLog.DailySummary] = []
        var previousDate: BerlingerClock.Local?
        for node in hist.children where node.own("TS Actv") == nil && node.own("TS Report Creation") == nil {
            guard node.pairs.count == 1, let index = Int(node.key), index == days.count + 1 else {
                throw refuse(node.line, "'\(node.key):' is not the next day of Hist: (\(days.count + 1):)")
            }
            let day = try dailySummary(node, alarms: alarms, activation: activation, created: created)
            let local = BerlingerClock.localDay(day.date)!
            if let previousDate, local.minutes >= previousDate.minutes {
                throw refuse(node.line, "day \(index) (\(day.date)) is not older than the day before it: Hist: lists days newest first")
            }
            previousDate = local
            days.append(day)
        }
        days.reverse()
        // An alarm still on from the day before prints 00:00: its excursion did not start then.
        for index in days.indices.dropFirst() {
            for alarm in days[index].alarms.indices where days[index].alarms[alarm].triggered == days[index].dayStart {
                if days[index - 1].alarms.indices.contains(alarm), days[index - 1].alarms[alarm].triggered != nil {
                    days[index].alarms[alarm].start = nil
                }
            }
        }
        metadata["summaryDays"] = .integer(Int64(days.count))
        return (days, created)
    }

    func dailySummary(
        _ node: BerlingerReport.Node, alarms: [TemperatureLog.ConfiguredAlarm], activation: Date, created: Date
    ) throws -> TemperatureLog.DailySummary {
        let what = "day \(node.key)"
        let dateText = try required("Date", in: node, what: what)
        guard let local = BerlingerClock.localDay(dateText) else { throw refuse(node.line, "\(what): Date '\(dateText)' is not a date (YYYY-MM-DD)") }
        func line(of key: String) -> Int { node.children.first { $0.own(key) != nil }?.line ?? node.line }
        guard let dayStart = clock.instants(of: local).first ?? clock.instants(of: .init(minutes: local.minutes + 60)).first,
            let dayEnd = clock.instants(of: .init(minutes: local.minutes + 1440)).first
                ?? clock.instants(of: .init(minutes: local.minutes + 1500)).first
        else { throw refuse(node.line, "\(what): \(dateText) has no midnight in \(clock.zone.identifier)") }
        func timeOfDay(_ key: String) throws -> Date? {
            guard let text = node.value(key), !text.isEmpty else { return nil }
            guard let minute = BerlingerClock.minuteOfDay(text) else { throw refuse(line(of: key), "\(key) '\(text)' is not a time of day (HH:MM)") }
            return try clock.instant(of: .init(minutes: local.minutes + minute), line: line(of: key), text: "\(dateText) \(text)")
        }
        let minimum = try temperature(try required("Min T", in: node, what: what), line: line(of: "Min T"), key: "Min T")
        let maximum = try temperature(try required("Max T", in: node, what: what), line: line(of: "Max T"), key: "Max T")
        let mean = try temperature(try required("Avrg T", in: node, what: what), line: line(of: "Avrg T"), key: "Avrg T")
        guard minimum <= mean, mean <= maximum else {
            throw LoggerFormatError(
                .inconsistent, format: format.name, field: "line \(node.line)",
                "\(what) (\(dateText)): the mean \(mean) °C is not between the minimum \(minimum) and the maximum \(maximum)")
        }
        guard let alarmBlock = node.child("Alarm") else { throw refuse(node.line, "\(what) has no Alarm: block (the block is cut off)") }
        var alarmDays: [TemperatureLog.DailySummary.AlarmDay] = []
        for alarm in alarms {
            guard let item = alarmBlock.child(alarm.name) else { throw refuse(alarmBlock.line, "\(what) has no alarm \(alarm.name):") }
            let itemLine = item.children.first?.line ?? item.line
            let minutes = try count(try required("t Acc", in: item, what: "\(what), alarm \(alarm.name)"), line: itemLine, key: "t Acc")
            guard minutes <= 1500 else { throw refuse(itemLine, "t Acc \(minutes) is more minutes than a day has") }
            var triggered: Date?
            if let text = item.value("TS A"), !text.isEmpty {
                guard let minute = BerlingerClock.minuteOfDay(text) else { throw refuse(itemLine, "TS A '\(text)' is not a time of day (HH:MM)") }
                triggered = try clock.instant(of: .init(minutes: local.minutes + minute), line: itemLine, text: "\(dateText) \(text)")
            }
            alarmDays.append(
                .init(
                    alarm: alarm.direction, limit: alarm.limit, allowedSeconds: alarm.minutes * 60, seconds: Double(minutes) * 60,
                    triggered: triggered, start: triggered.map { $0.addingTimeInterval(-alarm.minutes * 60) }))
        }
        let events = try node.value("Events").map { try count($0, line: line(of: "Events"), key: "Events") }
        return .init(
            date: dateText, dayStart: dayStart, dayEnd: dayEnd, coveredFrom: max(dayStart, min(activation, dayEnd)),
            coveredTo: min(dayEnd, max(created, dayStart)), min: minimum, minTime: try timeOfDay("TS Min T"), max: maximum,
            maxTime: try timeOfDay("TS Max T"), mean: mean, alarms: alarmDays, events: events)
    }

    // MARK: Res (Q-tag)

    /// The run's results as metadata and its alarm episodes as events; returns the stop time.
    mutating func runResults(_ results: BerlingerReport.Node, alarms: [TemperatureLog.ConfiguredAlarm]) throws -> Date {
        func line(of key: String) -> Int { results.children.first { $0.own(key) != nil }?.line ?? results.line }
        func optionalTime(_ key: String) throws -> Date? {
            guard let text = results.value(key), !text.isEmpty else { return nil }
            return try time(text, line: line(of: key), key: key)
        }
        let stop = try time(try required("TS Stop", in: results, what: "Res:"), line: line(of: "TS Stop"), key: "TS Stop")
        metadata["activated"] = try optionalTime("TS Actv").map { .time($0) }
        metadata["runStart"] = try optionalTime("TS Start").map { .time($0) }
        metadata["runStop"] = .time(stop)
        for (key, name) in [("Min T", "runMinimum"), ("Max T", "runMaximum"), ("MKT", "runMKT"), ("Avrg T", "runMean")] {
            if let text = results.value(key), !text.isEmpty { metadata[name] = .celsius(try temperature(text, line: line(of: key), key: key)) }
        }
        metadata["runMinimumTime"] = try optionalTime("TS Min T").map { .time($0) }
        metadata["runMaximumTime"] = try optionalTime("TS Max T").map { .time($0) }
        if let run = results.value("Run Number") { metadata["runNumber"] = .integer(Int64(try count(run, line: line(of: "Run Number"), key: "Run Number"))) }
        guard let block = results.child("Alarm") else { return stop }
        for item in block.children {
            // An alarm switched off may still print its empty block.
            if item.children.isEmpty && !alarms.contains(where: { $0.name == item.key }) { continue }
            guard let alarm = alarms.first(where: { $0.name == item.key }) else {
                throw refuse(item.line, "Res: reports alarm \(item.key), which Conf: does not configure")
            }
            var texts: [String] = []
            for episode in item.children {
                let begin = try time(try required("TS S", in: episode, what: "an episode of alarm \(alarm.name)"), line: episode.line, key: "TS S")
                let minutes = try count(try required("t A", in: episode, what: "an episode of alarm \(alarm.name)"), line: episode.line, key: "t A")
                let triggered = try episode.own("TS A").flatMap { $0.isEmpty ? nil : try time($0, line: episode.line, key: "TS A") }
                let end = try episode.own("TS E").flatMap { $0.isEmpty ? nil : try time($0, line: episode.line, key: "TS E") }
                let extreme = try episode.own("T M").map { try temperature($0, line: episode.line, key: "T M") }
                var text = "\(alarm.text): from \(begin.isoUTCWholeSeconds), \(minutes) min beyond"
                if let triggered { text += ", fired \(triggered.isoUTCWholeSeconds)" }
                if let end { text += ", ended \(end.isoUTCWholeSeconds)" } else if alarm.kind == .singleEvent { text += ", still on at the stop" }
                if let extreme { text += ", extreme \(String(format: "%.1f", extreme)) °C" }
                texts.append(text)
                events.append(.init(time: begin, name: "loggerAlarm\(alarm.name)", end: end, detail: .text(text)))
            }
            metadata["alarm\(alarm.name)Episodes"] = .text(texts.isEmpty ? "none" : texts.joined(separator: "; "))
        }
        return stop
    }

    // MARK: Data

    /// The `Data:` rows as samples; the device's `x` marks as `outOfLimits` events over runs of rows.
    mutating func rows() throws -> [TemperatureLog.Sample] {
        guard let data = report.block("Data") else {
            if format != .fridgeTag2 { warnings.append(.text("the report has no Data: table, so no readings")) }
            return []
        }
        guard let header = data.rows.first else { throw refuse(data.line, "the Data: table has no header row") }
        guard header.fields.first == "yyyy-MM-dd hh:mm" else {
            throw refuse(header.line, "the Data: header row does not start with the time column (yyyy-MM-dd hh:mm)")
        }
        var samples: [TemperatureLog.Sample] = []
        samples.reserveCapacity(data.rows.count)
        var flaggedRun: (start: Date, end: Date)?
        var flaggedRows = 0
        var previous: Date?
        for row in data.rows.dropFirst() {
            guard row.fields.count == 2 || row.fields.count == 3 else {
                throw refuse(row.line, "a Data: row has \(row.fields.count) fields; rows are a time, a temperature and an optional x")
            }
            let time = try time(row.fields[0], line: row.line, key: "the row's time", after: previous)
            if let previous, time <= previous {
                warnings.append(
                    .text("line \(row.line): \(row.fields[0]) is not after the row before it (the logger's clock was set back)"))
            }
            previous = time
            let flagged: Bool
            switch row.fields.count == 3 ? row.fields[2] : "" {
            case "": flagged = false
            case "x": flagged = true
            case let other: throw refuse(row.line, "the out-of-limits column holds '\(other)', not x or nothing")
            }
            if row.fields[1] == "--.-" {
                samples.append(.init(time: time, temperature: nil, flags: [.missing]))
            } else {
                samples.append(.init(time: time, temperature: try temperature(row.fields[1], line: row.line, key: "the row's temperature")))
            }
            if flagged {
                flaggedRows += 1
                flaggedRun = (flaggedRun?.start ?? time, time)
            } else if let run = flaggedRun {
                events.append(outOfLimits(run))
                flaggedRun = nil
            }
        }
        if let run = flaggedRun { events.append(outOfLimits(run)) }
        metadata["outOfLimitsRows"] = .integer(Int64(flaggedRows))
        events.sort { ($0.time ?? .distantPast) < ($1.time ?? .distantPast) }
        return samples
    }

    func outOfLimits(_ run: (start: Date, end: Date)) -> TemperatureLog.Event {
        .init(time: run.start, name: "outOfLimits", end: run.end, detail: "rows the logger marked x (beyond its configured limits)")
    }
}
