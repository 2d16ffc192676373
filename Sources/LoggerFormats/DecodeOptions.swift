import Foundation

/// What the caller knows beyond the tag's bytes.
public struct DecodeOptions: Sendable {
    /// Where the read time came from; shown in the output because read-time based time
    /// bases depend on it.
    public enum ReadTimeSource: Sendable, Equatable, Codable, CustomStringConvertible {
        /// The caller gave it.
        case given
        /// The modification time of the dump file.
        case fileModificationTime
        /// The moment of decoding (no better source).
        case now
        /// The moment the tag was read by a reader or phone.
        case tagRead
        /// The reader's clock when an NHS31xx logger's configuration was read (docs/nhs31xx.md).
        case readerClockAtConfigurationRead
        /// The newest read of an archived logger's merged history.
        case newestArchivedRead
        /// Sent by the device that uploaded the read to a station (`X-ColdTap-Read-Time`).
        case givenByUploader
        /// The moment a station received an upload that gave no read time: an estimate.
        case stationArrival
        /// The time a logger wrote into its own report (a Berlinger report's creation or stop
        /// time, docs/berlinger.md §1), on the logger's clock.
        case loggerReport
        case other(String)

        /// The known sources, for `init(stored:)`.
        static let known: [ReadTimeSource] = [
            .given, .fileModificationTime, .now, .tagRead,
            .readerClockAtConfigurationRead, .newestArchivedRead, .givenByUploader, .stationArrival, .loggerReport,
        ]

        /// The stable code a source is stored under (stored logs, the archive): worded by
        /// each front end, never shown as it is.
        public var code: String {
            switch self {
            case .given: return "given"
            case .fileModificationTime: return "file-modification-time"
            case .now: return "now"
            case .tagRead: return "tag-read"
            case .readerClockAtConfigurationRead: return "reader-clock-at-configuration-read"
            case .newestArchivedRead: return "newest-archived-read"
            case .givenByUploader: return "given-by-uploader"
            case .stationArrival: return "station-arrival"
            case .loggerReport: return "logger-report"
            case .other(let text): return text
            }
        }

        /// The English phrase, naming no front end's option or header.
        public var description: String {
            switch self {
            case .given: return "given by the user"
            case .fileModificationTime: return "file modification time"
            case .now: return "now (no read time known)"
            case .tagRead: return "time of the tag read"
            case .readerClockAtConfigurationRead: return "the reader's clock when GETCONFIG was read"
            case .newestArchivedRead: return "newest archived read"
            case .givenByUploader: return "given by the uploading device"
            case .stationArrival: return "the station's arrival time (no read time sent)"
            case .loggerReport: return "the time the logger wrote its report, on its own clock"
            case .other(let text): return text
            }
        }

        /// The source stored as `stored`: its code, or the English phrase earlier versions
        /// stored (archives and the app's history keep them; `.given`'s was "given with"
        /// and the command line's option for it, the only phrase that began so); `.other`
        /// for any other text.
        public init(stored: String) {
            if let match = Self.known.first(where: { $0.code == stored || $0.description == stored }) {
                self = match
            } else {
                self = stored.hasPrefix("given with ") ? .given : .other(stored)
            }
        }

        public init(from decoder: any Decoder) throws {
            self.init(stored: try decoder.singleValueContainer().decode(String.self))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(code)
        }

        /// True when the read time is a fact (given, or the moment of a tag read); false when
        /// it stands in for an unknown one (a file's modification time, now).
        public var isKnown: Bool {
            switch self {
            case .given, .tagRead, .readerClockAtConfigurationRead, .givenByUploader, .loggerReport: return true
            case .fileModificationTime, .now, .newestArchivedRead, .stationArrival, .other: return false
            }
        }
    }

    /// Which format to use instead of auto-detection.
    public enum LoggerSelection: Sendable, Equatable {
        /// A built-in format by name: `cupltag`, `generic16`, `generic16-unix`, `dtn1`.
        case named(String)
        /// A user's logger descriptor (see `LoggerDescriptor`).
        case descriptor(LoggerDescriptor)
    }

    /// When the tag was read (UTC).
    public var readTime: Date
    public var readTimeSource: ReadTimeSource
    /// The logger's shared secret (cuplTag HMAC-MD5 key, ASCII), if known.
    public var secret: String?
    /// Forces a format; `nil` auto-detects.
    public var logger: LoggerSelection?
    /// Sample interval in seconds to use when the log gives none (or gives 0).
    public var interval: TimeInterval?
    /// The `intervalSource` metadata value of a log whose interval is the one given in
    /// `interval`; front ends may word it their own way.
    public static let givenIntervalSource = "given interval"

    /// The longest sample interval (seconds) taken as real: 31 days. No cold-chain logger
    /// samples less often, and longer intervals put sample times centuries away (or, beyond
    /// ~10^13 s, outside what a `Date` holds), so a larger value is a damaged field.
    public static let longestPlausibleInterval: TimeInterval = 31 * 86_400
    /// Tag UID as hex, copied into the log's identity when the log came from a tag.
    public var tagUID: String?
    /// The zone of a logger's wall-clock dates that carry none (SmarTag1, docs/smartag.md §5;
    /// a Berlinger report, docs/berlinger.md §7); `nil` takes a SmarTag1's as UTC and refuses
    /// a Berlinger report.
    public var loggerTimeZone: TimeZone?

    public init(
        readTime: Date, readTimeSource: ReadTimeSource = .given, secret: String? = nil,
        logger: LoggerSelection? = nil, interval: TimeInterval? = nil, tagUID: String? = nil
    ) {
        self.readTime = readTime
        self.readTimeSource = readTimeSource
        self.secret = secret
        self.logger = logger
        self.interval = interval
        self.tagUID = tagUID
    }
}
