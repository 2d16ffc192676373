import Foundation
import NDEF

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

        /// True when the sample counts in statistics: a temperature and no flag.
        public var isValid: Bool { temperature != nil && flags.isEmpty }
    }

    /// Who wrote the log.
    public struct LoggerIdentity: Sendable, Equatable, Codable {
        /// Tag UID as hex, when the log came from a tag or a dump.
        public var tagUID: String?
        public var vendor: String?
        public var model: String?
        public var serial: String?

        public init(tagUID: String? = nil, vendor: String? = nil, model: String? = nil, serial: String? = nil) {
            self.tagUID = tagUID
            self.vendor = vendor
            self.model = model
            self.serial = serial
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

        public var status: Status
        /// The method (e.g. `HMAC-MD5`) or the reason for `unverified` / `failed`.
        public var detail: String
        /// What the caller could give to verify it (a secret key for a tag that may sign
        /// with HMAC-MD5); each front end words it.
        public var hint: UserHint?

        public init(status: Status, detail: String, hint: UserHint? = nil) {
            self.status = status
            self.detail = detail
            self.hint = hint
        }

        /// The warning a log carries when its integrity check failed with this detail.
        public static func failureWarning(detail: String) -> String {
            "integrity check failed: \(detail); the samples are shown but must not be trusted"
        }
    }

    /// Format name, e.g. `cupltag`, `generic16`, `dtn1`, or a descriptor's name.
    public var format: String
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
    public var metadata: [String: String]
    public var warnings: [String]
    /// Where `readTime` came from, e.g. `given with --read-time`, `file modification time`,
    /// `now`; `nil` when the caller did not say.
    public var readTimeSource: DecodeOptions.ReadTimeSource?
    /// What exactly gave the time base, e.g. `Text record "start=2026-08-18T13:54:35+08:00"`
    /// or `device-information key LOG_START`.
    public var timeBaseDetail: String?
    /// Why this format was chosen: the auto-detection reason, or that the caller forced it.
    public var detection: String?
    /// True when the read time stands in for an unknown one (a file's modification time, now)
    /// and the sample times were placed from it: every time in the log is then an estimate.
    public var timesEstimated = false
    /// °C per step of the sensor's reading (a descriptor's scale, the cuplTag's 165/4096),
    /// for showing values no finer than they were measured; `nil` when not known.
    public var resolution: Double?
    /// What the logger itself recorded besides samples (state changes, excursions it saw),
    /// oldest first; empty for formats that keep no event log.
    public var events: [Event] = []

    public init(format: String, logger: LoggerIdentity = LoggerIdentity(), samples: [Sample],
                interval: TimeInterval, timeBase: TimeBase, integrity: Integrity, readTime: Date,
                metadata: [String: String] = [:], warnings: [String] = [], readTimeSource: DecodeOptions.ReadTimeSource? = nil,
                timeBaseDetail: String? = nil, detection: String? = nil) {
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
        /// One phrase for people: what the logger meant, and any caveat about the time.
        public var detail: String?

        public init(time: Date?, name: String, end: Date? = nil, detail: String? = nil) {
            self.time = time
            self.name = name
            self.end = end
            self.detail = detail
        }
    }

    /// Logs stored before `events`, `timesEstimated` and `resolution` existed decode without them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(format: try container.decode(String.self, forKey: .format),
                  logger: try container.decode(LoggerIdentity.self, forKey: .logger),
                  samples: try container.decode([Sample].self, forKey: .samples),
                  interval: try container.decode(TimeInterval.self, forKey: .interval),
                  timeBase: try container.decode(TimeBase.self, forKey: .timeBase),
                  integrity: try container.decode(Integrity.self, forKey: .integrity),
                  readTime: try container.decode(Date.self, forKey: .readTime),
                  metadata: try container.decode([String: String].self, forKey: .metadata),
                  warnings: try container.decode([String].self, forKey: .warnings),
                  readTimeSource: try container.decodeIfPresent(DecodeOptions.ReadTimeSource.self, forKey: .readTimeSource),
                  timeBaseDetail: try container.decodeIfPresent(String.self, forKey: .timeBaseDetail),
                  detection: try container.decodeIfPresent(String.self, forKey: .detection))
        events = try container.decodeIfPresent([Event].self, forKey: .events) ?? []
        timesEstimated = try container.decodeIfPresent(Bool.self, forKey: .timesEstimated) ?? false
        resolution = try container.decodeIfPresent(Double.self, forKey: .resolution)
    }
}
