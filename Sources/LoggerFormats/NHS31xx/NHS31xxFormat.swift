import ColdTapBase
import Foundation
import NDEF

/// NXP NHS3100 / NHS3152 loggers running the "tlogger" firmware (docs/nhs31xx.md). A single
/// NDEF message (the initial message) gives the configuration, status and no samples; a
/// whole readout (`NHSReadout`, or a transcript) gives everything.
struct NHS31xxFormat: LoggerFormatDecoder {
    static let formatName = "nhs31xx"
    var name: String { Self.formatName }
    /// A GETVERSION and a GETCONFIG answer frame identify the logger even when it holds no samples yet.
    var detectionIsConclusive: Bool { true }

    func detect(_ message: NDEFMessage, options: DecodeOptions) -> Detection {
        let frames = NHSReadout.frames(in: message).frames
        if frames.isEmpty { return .refused("no MIME record holds a response frame (payload byte 1 = 01)") }
        guard frames.contains(where: { $0.frame.id == NHSMessageID.getConfig.rawValue }) else {
            return .refused("its response frames (\(frames.map(\.frame.name).joined(separator: ", "))) include no GETCONFIG answer")
        }
        let hasVersion = frames.contains { $0.frame.id == NHSMessageID.getVersion.rawValue }
        return .accepted(
            hasVersion
                ? "a MIME record holds a GETVERSION answer and another a GETCONFIG answer (the initial message)"
                : "a MIME record holds a GETCONFIG answer (48 01)")
    }

    func decode(_ message: NDEFMessage, options: DecodeOptions) throws -> TemperatureLog {
        var readout = NHSReadout()
        try readout.add(message, readTime: nil)
        return try NHS31xxLog.build(readout, options: options)
    }
}

/// Builds a `TemperatureLog` from a readout: samples placed at startTime + k × interval,
/// the 851 placeholder flagged missing, the clock checked and drift corrected (§5.3),
/// events on the same time base (§5.5), the tag's status and limits in metadata.
public enum NHS31xxLog {
    /// The "not measured" sample value (85.1 °C, §5.4).
    public static let placeholder: Int16 = 851
    /// Every real sample is clamped to this range by the firmware (deci-°C).
    public static let sensorRange: ClosedRange<Int16> = -400...850

    /// - Parameter options: `readTime` is the reader's clock at the read (used for the drift
    ///   unless the readout knows when GETCONFIG was read).
    /// - Throws: `LoggerFormatError` `.recordNotFound` when no GETCONFIG answer was read.
    public static func build(_ readout: NHSReadout, options: DecodeOptions) throws -> TemperatureLog {
        let format = NHS31xxFormat.formatName
        guard let config = readout.config else {
            throw LoggerFormatError(
                .recordNotFound, format: format,
                "no GETCONFIG answer was read, so the samples have no interval or start time")
        }
        var warnings: [LogWarning] = []
        var metadata: [String: MetadataValue] = [:]
        let identity = identityOf(readout, options: options, metadata: &metadata)
        describeConfiguration(config, readout: readout, metadata: &metadata, warnings: &warnings)
        // Clock (§5.3).
        let clock = ClockCorrection(
            config: config, readTime: readout.configReadTime ?? options.readTime,
            readTimeTrusted: readout.configReadTime != nil || options.readTimeSource == .given || options.readTimeSource == .tagRead,
            readTimeSource: readout.configReadTime != nil ? .readerClockAtConfigurationRead : options.readTimeSource)
        if let drift = clock.drift { metadata["clockDrift"] = .text(String(format: "%+d s", drift)) }
        warnings += clock.warnings

        let interval = TimeInterval(config.interval)
        let samples = self.samples(readout, config: config, clock: clock, warnings: &warnings)
        let events = self.events(readout, clock: clock, warnings: &warnings)

        var log = TemperatureLog(
            format: .nhs31xx, logger: identity, samples: samples, interval: interval,
            timeBase: .loggerClock,
            integrity: .init(status: .unverified, detail: .nhsNoCheck),
            readTime: options.readTime, metadata: metadata, warnings: warnings,
            readTimeSource: options.readTimeSource, timeBaseDetail: clock.detail)
        log.events = events
        return log
    }

    /// Who the logger is (NXP, its model, tag UID and serial), and its versions, status
    /// texts, live temperature and battery check as metadata.
    static func identityOf(
        _ readout: NHSReadout, options: DecodeOptions, metadata: inout [String: MetadataValue]
    ) -> TemperatureLog.LoggerIdentity {
        var identity = TemperatureLog.LoggerIdentity(
            tagUID: options.tagUID, vendor: "NXP",
            model: .named(readout.version?.model ?? "NHS31xx"))
        if identity.tagUID == nil, let nfc = readout.nfcUID, nfc.count == 8 {
            identity.tagUID = hex(Array(nfc[0..<3] + nfc[4..<8]))
        }
        if let serial = readout.serial { identity.serial = serial.map { String(format: "%08X", $0) }.joined() }
        if let version = readout.version {
            metadata["softwareVersion"] = .text("\(version.softwareMajor).\(version.softwareMinor)")
            metadata["messageAPI"] = .text("\(version.apiMajor).\(version.apiMinor)")
            if version.deviceID != 0 { metadata["deviceID"] = .text(String(format: "0x%08X", version.deviceID)) }
        }
        if !readout.statusTexts.isEmpty { metadata["statusText"] = .text(readout.statusTexts.joined(separator: " | ")) }
        if let live = readout.liveTemperature { metadata["liveTemperature"] = .celsius(Double(live) / 10) }
        if let battery = readout.batteryThreshold { metadata["batteryCheck"] = .text(battery < 0 ? "good" : "brown-out at \(battery) µA extra load") }

        return identity
    }

    /// The configuration and status (GETCONFIG) as metadata, and the warnings the status
    /// and the logger's refusals give.
    static func describeConfiguration(
        _ config: NHSConfig, readout: NHSReadout, metadata: inout [String: MetadataValue], warnings: inout [LogWarning]
    ) {
        metadata["interval"] = .integer(Int64(config.interval))
        metadata["sampleCount"] = .integer(Int64(config.count))
        metadata["configTime"] = config.configTime == 0 ? "never configured" : .time(date(config.configTime))
        metadata["tagClock"] = .integer(Int64(config.currentTime))
        if let delay = config.startDelay {
            metadata["startDelay"] = delay == NHSConfiguration.waitForStart ? "wait for START" : .integer(Int64(delay))
        }
        if let running = config.runningTime { metadata["runningTime"] = running == 0 ? "no limit" : .integer(Int64(running)) }
        if config.limitsEnabled {
            metadata["loggerValidMinimum"] = .celsius(Double(config.validMinimum) / 10)
            metadata["loggerValidMaximum"] = .celsius(Double(config.validMaximum) / 10)
        } else {
            metadata["loggerLimits"] = .text("off (validMinimum \(celsius(config.validMinimum)) is not below validMaximum \(celsius(config.validMaximum)))")
        }
        if let low = config.attainedMinimum, low != NHSConfig.noAttainedMinimum { metadata["attainedMinimum"] = .celsius(Double(low) / 10) }
        if let high = config.attainedMaximum, high != NHSConfig.noAttainedMaximum { metadata["attainedMaximum"] = .celsius(Double(high) / 10) }
        if let status = config.status {
            metadata["status"] = .text(String(format: "0x%03X", status.rawValue))
            metadata["statusBits"] = .text(status.names.joined(separator: ","))
            if let state = status.state { metadata["state"] = .text(state) }
            if status.contains(.brownOut) { warnings.append(.nhsBrownOut) }
            if status.contains(.full) { warnings.append(.nhsMemoryFull) }
            if status.contains(.temperatureTooHigh) || status.contains(.temperatureTooLow) {
                let which = [
                    status.contains(.temperatureTooHigh) ? "above its maximum" : nil,
                    status.contains(.temperatureTooLow) ? "below its minimum" : nil,
                ].compactMap { $0 }
                metadata["loggerVerdict"] = .text("excursion: samples \(which.joined(separator: " and "))")
            } else if config.limitsEnabled {
                metadata["loggerVerdict"] = "within its limits"
            }
        }
        if config.layout == .legacy {
            metadata["messageAPI"] = metadata["messageAPI"] ?? "5"
            if let maxCount = config.maxCount {
                metadata["maxCount"] = maxCount == 0xFFFF ? "stopped by an error or full" : (maxCount == 0 ? "no limit" : .integer(Int64(maxCount)))
            }
        }
        if !config.result.isOK { warnings.append(.nhsConfigResult(config.result)) }
        warnings += readout.refusals.map { .nhsRefused($0) }

    }

    /// The samples in the order stored, each at the tag clock's corrected time; placeholders
    /// missing, values beyond the sensor's range flagged, unread ones said.
    static func samples(_ readout: NHSReadout, config: NHSConfig, clock: ClockCorrection, warnings: inout [LogWarning]) -> [TemperatureLog.Sample] {
        let stored = max(Int(config.count), (readout.samples.keys.max() ?? -1) + 1)
        var samples: [TemperatureLog.Sample] = []
        var placeholders = 0, outOfRange = 0
        var unread: [ClosedRange<Int>] = []
        let interval = TimeInterval(config.interval)
        for index in 0..<stored {
            guard let raw = readout.samples[index] else {
                if let last = unread.last, last.upperBound == index - 1 {
                    unread[unread.count - 1] = last.lowerBound...index
                } else {
                    unread.append(index...index)
                }
                continue
            }
            let time = clock.time(ofSample: index, interval: interval)
            if raw == placeholder {
                placeholders += 1
                samples.append(.init(time: time, temperature: nil, flags: [.missing]))
            } else if sensorRange.contains(raw) {
                samples.append(.init(time: time, temperature: Double(raw) / 10))
            } else {
                outOfRange += 1
                samples.append(.init(time: time, temperature: Double(raw) / 10, flags: [.outOfRange]))
            }
        }
        if placeholders > 0 {
            warnings.append(.nhsPlaceholders(count: placeholders))
        }
        if outOfRange > 0 { warnings.append(.nhsOutsideSensorRange(count: outOfRange)) }
        if !unread.isEmpty { warnings.append(.nhsUnread(numbers: unread, stored: stored)) }
        if stored > Int(config.count) {
            warnings.append(.nhsLoggedDuringRead(count: stored - Int(config.count), counted: Int(config.count)))
        }

        return samples
    }

    /// The logger's own events (§5.5), at corrected times where the tag clock gives them.
    static func events(_ readout: NHSReadout, clock: ClockCorrection, warnings: inout [LogWarning]) -> [TemperatureLog.Event] {
        var events: [TemperatureLog.Event] = []
        for block in readout.mergedEvents {
            let number = block.number.map(Int.init)
            let name = number.map { NHSStatus.name(ofBit: $0) } ?? "event"
            var time: Date?
            var clockSinceReboot: UInt32?
            if let stamp = block.timestamp {
                if clock.isTagTime(stamp) { time = clock.corrected(stamp) } else { clockSinceReboot = stamp }
            }
            var end: Date?
            if let endStamp = block.endTime, endStamp != 0, clock.isTagTime(endStamp) { end = clock.corrected(endStamp) }
            let detail = TemperatureLog.Event.Detail.nhsStatus(
                bit: number, clockSinceReboot: clockSinceReboot,
                stillOut: block.endTime == 0)
            events.append(TemperatureLog.Event(time: time, name: name, end: end, detail: detail))
        }
        // 12.4 ORs "more" into the echoed mask (bit 7); visible only on requests without bit 7.
        let truncated = readout.eventAnswers.filter { $0.mask & 0x80 != 0 && $0.mask & ~UInt32(0xE0) == 0 }
        // A cut-short 0x60 answer followed by complete answers for each side is whole.
        let split = Set(readout.eventAnswers.map(\.mask))
        if !truncated.isEmpty && !(split.contains(0x20) && split.contains(0x40)) {
            warnings.append(.nhsEventsCutShort)
        }

        return events
    }

    /// Deci-°C as °C text with one decimal, e.g. `-5.3`.
    public static func celsius(_ deci: Int16) -> String { String(format: "%.1f", Double(deci) / 10) }
    static func hex(_ bytes: [UInt8]) -> String { bytes.hexString() }
    static func date(_ epoch: UInt32) -> Date { Date(timeIntervalSince1970: TimeInterval(epoch)) }
}

/// The clock rules of docs/nhs31xx.md §5.3: is the tag's clock continuous since SETCONFIG,
/// how far it drifted from the reader's, and the linear correction NXP's app applies:
/// corrected = start + (t − start) × (now − start) / (tagNow − start).
struct ClockCorrection {
    let config: NHSConfig
    /// Epoch of the first sample, when there is one.
    let start: UInt32?
    let continuous: Bool
    /// reader − tag, seconds, when known.
    let drift: Int?
    /// The rescaling factor, when applied.
    let factor: Double?
    var warnings: [LogWarning] = []
    var detail: String

    /// The largest clock-rate error taken as the tag's own (10 %).
    static let plausibleRateError = 0.10

    init(config: NHSConfig, readTime: Date, readTimeTrusted: Bool, readTimeSource: DecodeOptions.ReadTimeSource) {
        self.config = config
        let startTime = config.startTime ?? 0
        start = startTime == 0 ? nil : startTime
        continuous = config.configTime != 0 && config.currentTime >= config.configTime
        let now = readTime.timeIntervalSince1970
        if continuous && readTimeTrusted {
            drift = Int((now - TimeInterval(config.currentTime)).rounded())
        } else {
            drift = nil
        }
        var applied: Double?
        var implausible: Double?
        if let start, continuous, readTimeTrusted, config.currentTime > start {
            let span = TimeInterval(config.currentTime - start)
            let scaled = (now - TimeInterval(start)) / span
            // The chip's RTC runs on an uncalibrated oscillator, but not 10 % off: a larger
            // difference means the reader's clock (or --read-time) is wrong, not the tag's.
            if abs(scaled - 1) <= Self.plausibleRateError { applied = scaled } else { implausible = scaled }
        }
        factor = applied

        let startText = start.map { "first sample at \(NHS31xxLog.date($0).loggerISOText) by the tag's clock" }
        if config.layout == .legacy {
            detail =
                "the tag's clock (message API 5 gives no start time: the first sample is taken as logged at the configuration time \(NHS31xxLog.date(config.configTime).loggerISOText))"
            warnings.append(.nhsNoStartTime)
        } else if !continuous {
            detail =
                "the tag's clock, UNRELIABLE: it was lost (its reading \(config.currentTime) is before the configuration time \(config.configTime), so it counts from a reboot); "
                + (startText ?? "no sample yet") + ", not corrected for drift"
            if config.configTime != 0 {
                warnings.append(.nhsClockLost)
            }
        } else if let start = startText {
            if let implausible, let drift {
                detail =
                    "the tag's clock: \(start); not corrected for drift: the reader's clock \(readTime.loggerISOText) is \(String(format: "%+d", drift)) s from the tag's, a rate of \(String(format: "%.3f", implausible)) no RTC runs at"
                warnings.append(.nhsReadTimeFarFromClock(readTime: readTime, source: readTimeSource, driftSeconds: drift))
            } else if let factor, let drift {
                detail =
                    "the tag's clock: \(start), tag clock \(NHS31xxLog.date(config.currentTime).loggerISOText) against the reader's \(readTime.loggerISOText) (drift \(String(format: "%+d", drift)) s); sample and event times rescaled linearly by \(String(format: "%.6f", factor)) to the reader's clock"
            } else {
                detail = "the tag's clock: \(start); not corrected for drift (the read time is \(readTimeSource), not the reader's clock at the read)"
            }
        } else {
            detail = "the tag's clock; no sample yet"
        }
    }

    /// True for a timestamp on the epoch clock set by SETCONFIG (not counted from a reboot).
    func isTagTime(_ stamp: UInt32) -> Bool { config.configTime != 0 && stamp >= config.configTime }

    /// Corrected times are rounded to whole seconds: the tag's clock has no finer resolution.
    func corrected(_ stamp: UInt32) -> Date {
        guard let start, let factor else { return NHS31xxLog.date(stamp) }
        let offset = (TimeInterval(stamp) - TimeInterval(start)) * factor
        return Date(timeIntervalSince1970: (TimeInterval(start) + offset).rounded())
    }

    func time(ofSample index: Int, interval: TimeInterval) -> Date {
        let origin = TimeInterval(start ?? config.configTime)
        let nominal = TimeInterval(index) * interval
        return Date(timeIntervalSince1970: (origin + nominal * (factor ?? 1)).rounded())
    }
}
