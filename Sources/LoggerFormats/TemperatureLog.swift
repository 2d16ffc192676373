import ColdTapBase
import Foundation

/// What a logger recorded, with times rebuilt and every point kept in its place.
public struct TemperatureLog: Sendable, Equatable, Codable {
    /// A flag on one sample. Flagged samples keep their place in time and are left out
    /// of statistics.
    public enum SampleFlag: String, Sendable, Equatable, Codable, CaseIterable {
        /// Outside the sensor's physical range (kept, not trusted).
        case outOfRange = "out-of-range"
        /// The logger marked this sample as not taken.
        case missing
    }

    public struct Sample: Sendable, Equatable, Codable {
        /// Absolute time (UTC) at which the sample was taken.
        public var time: Date
        /// Temperature in °C. For a `missing` sample this is `nil`.
        public var temperature: Double?
        /// Relative humidity in %, where the logger measures it.
        public var humidity: Double?
        public var flags: [SampleFlag]

        public init(time: Date, temperature: Double?, humidity: Double? = nil, flags: [SampleFlag] = []) {
            self.time = time
            self.temperature = temperature
            self.humidity = humidity
            self.flags = flags
        }

        /// True when the sample counts in statistics: a temperature and no flag. Inlinable:
        /// ColdChain asks it of every sample (Sources/ColdChain/Timeline.swift).
        @inlinable public var isValid: Bool { temperature != nil && flags.isEmpty }
    }

    /// Who wrote the log.
    public struct LoggerIdentity: Sendable, Equatable, Codable {
        /// Tag UID as hex, when the log came from a tag or a dump.
        public var tagUID: String?
        public var vendor: String?
        public var model: Model?
        public var serial: String?
        /// The logger's firmware version as it states it, where its log says (Berlinger).
        public var firmware: String?

        public init(tagUID: String? = nil, vendor: String? = nil, model: Model? = nil, serial: String? = nil, firmware: String? = nil) {
            self.tagUID = tagUID
            self.vendor = vendor
            self.model = model
            self.serial = serial
            self.firmware = firmware
        }

        /// The logger's model: a product designation (NHS3100, a descriptor's model), or the
        /// cuplTag's sensor variant, which reports word in their language. Stored and written
        /// as its English name.
        public enum Model: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
            /// A cuplTag's HDC2021 sensor, measuring temperature (and humidity).
            case cuplTagHDC2021(humidity: Bool)
            case named(String)

            public init(name: String) {
                switch name {
                case Self.cuplTagHDC2021(humidity: false).name: self = .cuplTagHDC2021(humidity: false)
                case Self.cuplTagHDC2021(humidity: true).name: self = .cuplTagHDC2021(humidity: true)
                default: self = .named(name)
                }
            }

            public init(stringLiteral value: String) { self.init(name: value) }

            /// The English name (what JSON output writes).
            public var name: String {
                switch self {
                case .cuplTagHDC2021(let humidity): return humidity ? "HDC2021 temperature + humidity" : "HDC2021 temperature"
                case .named(let name): return name
                }
            }

            public var description: String { name }

            public init(from decoder: any Decoder) throws { self.init(name: try decoder.singleValueContainer().decode(String.self)) }

            public func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(name)
            }
        }
    }

    /// Where the absolute times came from.
    public enum TimeBase: String, Sendable, Equatable, Codable {
        /// A start or newest-sample time stored by the logger itself.
        case loggerHeader = "logger-header"
        /// A Text record in the same NDEF message.
        case textRecord = "text-record"
        /// A device-information key (DTN1).
        case deviceInformation = "device-information"
        /// Estimated: the newest sample is taken as logged just before the read.
        case readTime = "read-time"
        /// The logger's own real-time clock (its start time and its clock reading at the
        /// read), corrected for drift against the reader's clock when it can be; `timeBaseDetail`
        /// names the correction (NHS31xx, docs/nhs31xx.md §5.3).
        case loggerClock = "logger-clock"
    }

    public struct Integrity: Sendable, Equatable, Codable {
        public enum Status: String, Sendable, Equatable, Codable {
            case verified
            case unverified
            case failed
        }

        /// What was checked and what came out, as values (`text` is the English phrase).
        public indirect enum Detail: Sendable, Equatable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
            /// The check that held, e.g. `MD5`, `HMAC-MD5`.
            case verified(method: String)
            /// The stored code is not the one the data gives (`keyGiven`: a secret was used).
            case mismatch(method: String, stored: [UInt8], computed: [UInt8], keyGiven: Bool)
            /// The format carries no check at all (`format` names it).
            case noCheck(format: String)
            /// The NHS31xx protocol carries no checksum or signature.
            case nhsNoCheck
            /// Over an archive's stitched reads: all verified, any failed, or `reads` not all verified.
            case archiveAllVerified
            case archiveReadFailed
            case archiveNotAllVerified(reads: Int)
            /// A front end's own English for `original` (it names its options).
            case worded(Detail, english: String)
            /// A phrase with no type: a descriptor's own note, or a log stored before details were typed.
            case text(String)

            public init(stringLiteral value: String) { self = .text(value) }

            public var description: String { text }

            /// The English phrase.
            public var text: String {
                switch self {
                case .verified(let method): return method
                case .mismatch(let method, let stored, let computed, let keyGiven):
                    return
                        "\(method) mismatch: the end-stop holds \(stored.hexString(uppercase: false)) but the data gives \(computed.hexString(uppercase: false))"
                        + (keyGiven ? " (wrong secret, or the data was altered)" : "")
                case .noCheck(let format): return "the \(format) format carries no integrity check"
                case .nhsNoCheck: return "the NHS31xx protocol carries no checksum or signature"
                case .archiveAllVerified: return "every read verified"
                case .archiveReadFailed: return "a read in the archive failed its integrity check"
                case .archiveNotAllVerified(let reads): return "\(reads) archived read(s), not all verified"
                case .worded(_, let english): return english
                case .text(let text): return text
                }
            }

            /// The detail with any front end's wording taken off.
            public var original: Detail {
                if case .worded(let original, _) = self { return original.original }
                return self
            }

            /// True when there is nothing to say.
            public var isEmpty: Bool { text.isEmpty }
        }

        public var status: Status
        public var detail: Detail
        /// What the caller could give to verify it (a secret key for a tag that may sign
        /// with HMAC-MD5); each front end words it.
        public var hint: UserHint?

        public init(status: Status, detail: Detail, hint: UserHint? = nil) {
            self.status = status
            self.detail = detail
            self.hint = hint
        }

        private enum CodingKeys: String, CodingKey { case status, detail, hint }

        /// Reads the detail as a typed value, or as the plain phrase older versions stored.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            status = try container.decode(Status.self, forKey: .status)
            detail = try container.decode(TypedOrText<Detail>.self, forKey: .detail).value
            hint = try container.decodeIfPresent(UserHint.self, forKey: .hint)
        }
    }

    /// The format that decoded it (`format.name`: `cupltag`, `generic16`, `dtn1`, or a descriptor's name).
    public var format: Format
    public var logger: LoggerIdentity
    /// Oldest first.
    public var samples: [Sample]
    /// Sample interval in seconds.
    public var interval: TimeInterval
    public var timeBase: TimeBase
    public var integrity: Integrity
    /// When the tag was read (or the dump taken).
    public var readTime: Date
    /// Format metadata: battery, reset counts, loop count, device-information pairs, ...
    /// Keys are stable, lower-camel-case where ColdTap names them, verbatim where a device does.
    public var metadata: [String: MetadataValue]
    public var warnings: [LogWarning]
    /// Where `readTime` came from, e.g. `given with --read-time`, `file modification time`,
    /// `now`; `nil` when the caller did not say.
    public var readTimeSource: DecodeOptions.ReadTimeSource?
    /// What exactly gave the time base, e.g. `Text record "start=2026-08-18T13:54:35+08:00"`
    /// or `device-information key LOG_START`.
    public var timeBaseDetail: String?
    /// Why this format was chosen: the auto-detection reason, or that the caller forced it.
    public var detection: Detection?
    /// True when the read time stands in for an unknown one (a file's modification time, now)
    /// and the sample times were placed from it: every time in the log is then an estimate.
    public var timesEstimated = false
    /// °C per step of the sensor's reading (a descriptor's scale, the cuplTag's 165/4096),
    /// for showing values no finer than they were measured; `nil` when not known.
    public var resolution: Double?
    /// What the logger itself recorded besides samples (state changes, excursions it saw),
    /// oldest first; empty for formats that keep no event log.
    public var events: [Event] = []
    /// Quantities a logger measures besides temperature and humidity (a SmarTag's pressure
    /// and light), each on its own times; `nil` when there are none (so logs of other
    /// loggers encode as before).
    public var series: [Series]?
    /// For a logger that records only readings beyond its thresholds (a SmarTag in a
    /// threshold mode): what the time between records is known to hold; `nil` for a logger
    /// that records every reading.
    public var thresholdLogging: ThresholdLogging?
    /// For a logger that summarises each day itself (a Berlinger Fridge-tag): its days, oldest
    /// first; `nil` for other loggers (so their logs encode as before).
    public var dailySummaries: [DailySummary]?
    /// The alarms the logger was configured with, where the log records them as rules
    /// (Berlinger); `nil` otherwise.
    public var loggerAlarms: [ConfiguredAlarm]?
    /// The zone the logger's zoneless wall-clock times were read in (an IANA name or a fixed
    /// offset), kept as provenance; `nil` when its times carry their own.
    public var loggerTimeZone: String?

    public init(
        format: Format, logger: LoggerIdentity = LoggerIdentity(), samples: [Sample],
        interval: TimeInterval, timeBase: TimeBase, integrity: Integrity, readTime: Date,
        metadata: [String: MetadataValue] = [:], warnings: [LogWarning] = [], readTimeSource: DecodeOptions.ReadTimeSource? = nil,
        timeBaseDetail: String? = nil, detection: Detection? = nil
    ) {
        self.format = format
        self.logger = logger
        self.samples = samples
        self.interval = interval
        self.timeBase = timeBase
        self.integrity = integrity
        self.readTime = readTime
        self.metadata = metadata
        self.warnings = warnings
        self.readTimeSource = readTimeSource
        self.timeBaseDetail = timeBaseDetail
        self.detection = detection
    }
}

extension TemperatureLog {
    /// One entry of a logger's own event log (e.g. NHS31xx status bits, docs/nhs31xx.md §5.5).
    public struct Event: Sendable, Equatable, Codable {
        /// When it happened (UTC), on the same time base as the samples; `nil` when the
        /// logger's clock did not give an absolute time for it.
        public var time: Date?
        /// Stable lower-camel-case name, e.g. `logging`, `temperatureTooHigh`.
        public var name: String
        /// For an episode (an excursion): when it ended; `nil` while it lasts or when unknown.
        public var end: Date?
        /// What the logger meant, and any caveat about the time (`text` is the English phrase).
        public var detail: Detail?

        public init(time: Date?, name: String, end: Date? = nil, detail: Detail? = nil) {
            self.time = time
            self.name = name
            self.end = end
            self.detail = detail
        }

        public enum Detail: Sendable, Equatable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
            /// An NHS31xx status bit (`nil`: the event carried no number); `clockSinceReboot`:
            /// its tag-clock reading, counted from a reboot, so it has no date; `stillOut`: the
            /// episode had not ended when read.
            case nhsStatus(bit: Int?, clockSinceReboot: UInt32?, stillOut: Bool)
            /// A SmarTag's asynchronous record (docs/smartag.md §3.4, §4.4).
            case smarTag(SmarTagMotion)
            /// A phrase with no type (logs stored before event details were typed).
            case text(String)

            public init(stringLiteral value: String) { self = .text(value) }

            public var description: String { text }

            /// The English phrase.
            public var text: String {
                switch self {
                case .nhsStatus(let bit, let clock, let stillOut):
                    return (bit.map { NHSStatus.phrase(ofBit: $0) } ?? "event with no number")
                        + (clock.map { "; tag clock \($0) s, counted from a reboot after the clock was lost, so no date" } ?? "")
                        + (stillOut ? "; still out of limits when read" : "")
                case .smarTag(let motion): return motion.text
                case .text(let text): return text
                }
            }
        }

        private enum CodingKeys: String, CodingKey { case time, name, end, detail }

        /// Reads the detail as a typed value, or as the plain phrase older versions stored.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            time = try container.decodeIfPresent(Date.self, forKey: .time)
            name = try container.decode(String.self, forKey: .name)
            end = try container.decodeIfPresent(Date.self, forKey: .end)
            detail = try container.decodeIfPresent(TypedOrText<Detail>.self, forKey: .detail)?.value
        }
    }

    /// Logs stored before `events`, `timesEstimated` and `resolution` existed decode without them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            format: try container.decode(Format.self, forKey: .format),
            logger: try container.decode(LoggerIdentity.self, forKey: .logger),
            samples: try container.decode([Sample].self, forKey: .samples),
            interval: try container.decode(TimeInterval.self, forKey: .interval),
            timeBase: try container.decode(TimeBase.self, forKey: .timeBase),
            integrity: try container.decode(Integrity.self, forKey: .integrity),
            readTime: try container.decode(Date.self, forKey: .readTime),
            metadata: try container.decode([String: TypedOrText<MetadataValue>].self, forKey: .metadata).mapValues(\.value),
            warnings: try container.decode([TypedOrText<LogWarning>].self, forKey: .warnings).map(\.value),
            readTimeSource: try container.decodeIfPresent(DecodeOptions.ReadTimeSource.self, forKey: .readTimeSource),
            timeBaseDetail: try container.decodeIfPresent(String.self, forKey: .timeBaseDetail),
            detection: try container.decodeIfPresent(TypedOrText<Detection>.self, forKey: .detection)?.value)
        events = try container.decodeIfPresent([Event].self, forKey: .events) ?? []
        timesEstimated = try container.decodeIfPresent(Bool.self, forKey: .timesEstimated) ?? false
        resolution = try container.decodeIfPresent(Double.self, forKey: .resolution)
        series = try container.decodeIfPresent([Series].self, forKey: .series)
        thresholdLogging = try container.decodeIfPresent(ThresholdLogging.self, forKey: .thresholdLogging)
        dailySummaries = try container.decodeIfPresent([DailySummary].self, forKey: .dailySummaries)
        loggerAlarms = try container.decodeIfPresent([ConfiguredAlarm].self, forKey: .loggerAlarms)
        loggerTimeZone = try container.decodeIfPresent(String.self, forKey: .loggerTimeZone)
    }

    /// What a threshold-mode logger guarantees about the time it recorded nothing
    /// (docs/smartag.md §8): from `coverageStart` to `coverageEnd`, every reading it took and
    /// did not store lay within `lowest…highest` °C (`nil`: no bound on that side).
    public struct ThresholdLogging: Sendable, Equatable, Codable {
        /// Since when the logger's records are all there: its start, or the oldest record
        /// still held once the ring has overwritten older ones.
        public var coverageStart: Date
        /// Until when it is known to have been logging: the read time when it is known,
        /// else the end of the newest record.
        public var coverageEnd: Date
        public var lowest: Double?
        public var highest: Double?
        /// The logger's rule in words, e.g. "stores readings ≤ 2.0 °C or ≥ 8.0 °C".
        public var rule: String

        public init(coverageStart: Date, coverageEnd: Date, lowest: Double?, highest: Double?, rule: String) {
            self.coverageStart = coverageStart
            self.coverageEnd = coverageEnd
            self.lowest = lowest
            self.highest = highest
            self.rule = rule
        }

        /// `lowest…highest °C` with open sides written as such.
        public var rangeText: String {
            switch (lowest, highest) {
            case let (low?, high?): return String(format: "%.1f…%.1f °C", low, high)
            case let (low?, nil): return String(format: "≥ %.1f °C", low)
            case let (nil, high?): return String(format: "≤ %.1f °C", high)
            case (nil, nil): return "any temperature"
            }
        }
    }

    /// One further measured quantity, e.g. `pressure` in `hPa`: points oldest first, a `nil`
    /// value where the logger marked the reading invalid.
    public struct Series: Sendable, Equatable, Codable {
        public var name: String
        public var unit: String
        public var points: [Point]

        public struct Point: Sendable, Equatable, Codable {
            public var time: Date
            public var value: Double?

            public init(time: Date, value: Double?) {
                self.time = time
                self.value = value
            }
        }

        public init(name: String, unit: String, points: [Point]) {
            self.name = name
            self.unit = unit
            self.points = points
        }
    }
}

/// A value stored typed, or as the plain English text versions before its type stored.
struct TypedOrText<Value: Decodable & StoredAsTextBefore>: Decodable {
    let value: Value

    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            value = Value.fromStoredText(text)
        } else {
            value = try Value(from: decoder)
        }
    }
}

/// A type whose values older versions stored as their English text.
protocol StoredAsTextBefore {
    static func fromStoredText(_ text: String) -> Self
}

extension LogWarning: StoredAsTextBefore {
    static func fromStoredText(_ text: String) -> LogWarning { .text(text) }
}

extension TemperatureLog.Detection: StoredAsTextBefore {
    static func fromStoredText(_ text: String) -> Self { .text(text) }
}

extension TemperatureLog.Integrity.Detail: StoredAsTextBefore {
    static func fromStoredText(_ text: String) -> Self { .text(text) }
}

extension TemperatureLog.Event.Detail: StoredAsTextBefore {
    static func fromStoredText(_ text: String) -> Self { .text(text) }
}

extension TemperatureLog {
    /// A format, by name: the built-in ones, or a logger descriptor's. Stored and written as
    /// its name.
    public enum Format: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
        case cupltag
        case nhs31xx
        case dtn1
        case generic16
        case generic16Unix
        /// ST SmarTag1 / SmarTag2 (docs/smartag.md).
        case smarTag1
        case smarTag2
        /// Berlinger text reports (docs/berlinger.md): Fridge-tag 2, 2 L, Ultra Low, Q-tag CLm doc.
        case fridgeTag2
        case fridgeTag2L
        case fridgeTagUltraLow
        case qTagCLmDoc
        /// A user's logger descriptor (or a name no built-in format has).
        case described(String)

        static let builtIn: [Format] = [
            .cupltag, .nhs31xx, .dtn1, .generic16, .generic16Unix, .smarTag1, .smarTag2, .fridgeTag2, .fridgeTag2L, .fridgeTagUltraLow,
            .qTagCLmDoc,
        ]

        public init(name: String) { self = Self.builtIn.first { $0.name == name } ?? .described(name) }
        public init(stringLiteral value: String) { self.init(name: value) }

        public var name: String {
            switch self {
            case .cupltag: return "cupltag"
            case .nhs31xx: return "nhs31xx"
            case .dtn1: return "dtn1"
            case .generic16: return "generic16"
            case .generic16Unix: return "generic16-unix"
            case .smarTag1: return "smartag1"
            case .smarTag2: return "smartag2"
            case .fridgeTag2: return "fridge-tag-2"
            case .fridgeTag2L: return "fridge-tag-2l"
            case .fridgeTagUltraLow: return "fridge-tag-ul"
            case .qTagCLmDoc: return "q-tag-clm-doc"
            case .described(let name): return name
            }
        }

        public var description: String { name }

        public init(from decoder: any Decoder) throws { self.init(name: try decoder.singleValueContainer().decode(String.self)) }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(name)
        }
    }

    /// Why a format was chosen (`text` is the English phrase of `decode --json`'s `detection`).
    public indirect enum Detection: Sendable, Equatable, Codable, CustomStringConvertible {
        /// The caller forced a built-in format by name.
        case forced(format: String)
        /// The caller gave a logger descriptor.
        case forcedDescriptor(name: String)
        /// Auto-detection chose `format` for `reason`.
        case detected(format: String, reason: String)
        /// A bare cuplTag URL.
        case bareURL
        /// An NHS31xx exchange transcript of `steps` steps.
        case nhsTranscript(steps: Int)
        /// An archive's record of a logger, stitched from `reads` reads.
        case archiveStitched(reads: Int)
        /// A front end's own English for `original` (it names its options).
        case worded(Detection, english: String)
        /// A phrase with no type (logs stored before detection was typed).
        case text(String)

        public var description: String { text }

        /// The English phrase.
        public var text: String {
            switch self {
            case .forced(let format): return "forced as \(format)"
            case .forcedDescriptor(let name): return "forced with the logger descriptor '\(name)'"
            case .detected(let format, let reason): return "auto-detected \(format): \(reason)"
            case .bareURL: return "a bare URL with the cuplTag query parameters"
            case .nhsTranscript(let steps): return "an NHS31xx exchange transcript (\(steps) step(s))"
            case .archiveStitched(let reads): return "stitched from \(reads) archived read(s)"
            case .worded(_, let english): return english
            case .text(let text): return text
            }
        }

        /// The detection with any front end's wording taken off.
        public var original: Detection {
            if case .worded(let original, _) = self { return original.original }
            return self
        }
    }
}
