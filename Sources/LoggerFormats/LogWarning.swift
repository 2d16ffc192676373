import Foundation

/// Something a reader of the log must know, as values, so that each language words it from
/// the same facts. `text` is the English sentence (what JSON output and the terminal show);
/// TempChart's `LogTexts` gives the Chinese and Japanese ones. Stored as Swift codes the cases
/// (`{"nhsPlaceholders": {"count": 3}}`); a plain string, as older versions stored, reads as `.text`
/// (`TemperatureLog.init(from:)`).
public indirect enum LogWarning: Sendable, Equatable, Codable, CustomStringConvertible {
    // Times.
    /// The log has no clock and the read time is not known: the newest sample was placed at
    /// `readTime`, which came from `source`.
    case timesEstimated(readTime: Date, source: DecodeOptions.ReadTimeSource)
    /// The log stores no start time: the newest sample is taken as logged at the (known) read time.
    case timesFromReadTime(readTime: Date)
    case startsBefore2000(first: Date)
    case startsAfterReadTime(first: Date, readTime: Date)
    case readTimeBeforeNewest(readTime: Date, newest: Date)

    // Interval.
    /// A sample interval was given but the log carries its own (`used`), which was kept.
    case givenIntervalNotUsed(given: TimeInterval, used: TimeInterval, from: IntervalOrigin)
    /// A device-information interval longer than any logger's, not used.
    case implausibleDeviceInterval(key: String, value: String)
    /// A log whose format was shown conclusively (its integrity check held, or the format's
    /// structure is unmistakable) but that looks unlike a logger's: kept, with why.
    case implausibleYetConclusive(format: String, [Implausibility])

    // Samples.
    /// The sample area ends with `bytes` that make no whole sample, at `offset`.
    case partialSampleAtEnd(bytes: Int, offset: Int)
    /// `count` samples outside a descriptor's sensor range.
    case outsideSensorRange(count: Int, minimum: Double, maximum: Double)

    // Integrity.
    case integrityFailed(TemperatureLog.Integrity.Detail)
    /// A secret longer than the cuplTag's 16-byte key.
    case secretTooLong(bytes: Int)
    /// A secret was given for a format that carries no HMAC (`format`).
    case secretNotUsed(format: String)

    // NHS31xx (docs/nhs31xx.md).
    case nhsBrownOut
    case nhsMemoryFull
    /// GETCONFIG's result code was not OK.
    case nhsConfigResult(NHSResult)
    /// The logger refused a command other than the expected ones.
    case nhsRefused(NHSRefusal)
    /// Message API 5: no start time; the first sample is taken at the configuration time.
    case nhsNoStartTime
    case nhsClockLost
    /// The read time differs from the tag's clock by more than any drift.
    case nhsReadTimeFarFromClock(readTime: Date, source: DecodeOptions.ReadTimeSource, driftSeconds: Int)
    /// Samples holding the 85.1 °C "nothing measured" placeholder.
    case nhsPlaceholders(count: Int)
    case nhsOutsideSensorRange(count: Int)
    /// Stored samples not read, by number (0 = oldest).
    case nhsUnread(numbers: [ClosedRange<Int>], stored: Int)
    case nhsLoggedDuringRead(count: Int, counted: Int)
    case nhsEventsCutShort

    // Reading and the archive.
    /// A SmarTag decoding note (docs/smartag.md).
    case smarTag(SmarTagNote)
    /// What the tag image showed that the reader did not expect (NFCTags' anomaly, as text).
    case tagImage(String)
    /// Samples read again with another value (the archive's stitched record).
    case archiveConflicts(count: Int)
    /// Gaps between reads that do not meet (the archive's stitched record).
    case archiveGaps(count: Int)

    /// A front end's own English for `original` (it names its options): `text` is
    /// `english`, other languages word `original`.
    case worded(LogWarning, english: String)
    /// A sentence with no type: a log stored before warnings were typed.
    case text(String)

    /// Why a decoded log does not look like a logger's (auto-detection refuses a format for
    /// these unless the match is conclusive).
    public enum Implausibility: Sendable, Equatable, Codable {
        case noSamples
        /// An interval outside 1 s … 1 day.
        case interval(TimeInterval)
        case mostOutsideSensorRange(count: Int, total: Int)
        /// A first sample before 2000 or more than a day after the read time.
        case start(Date)

        public var text: String {
            switch self {
            case .noSamples: return "it holds no samples"
            case .interval(let seconds): return "its interval of \(formatSeconds(seconds)) is outside 1 s … 1 day"
            case .mostOutsideSensorRange(let count, let total): return "\(count) of its \(total) samples are outside the sensor range"
            case .start(let first): return "it would start at \(first.loggerISOText), not between 2000 and a day after the read time"
            }
        }
    }

    /// Where the interval a log carries comes from.
    public enum IntervalOrigin: Sendable, Equatable, Codable {
        /// The cuplTag URL, in minutes.
        case url
        /// The log, with where in it (a descriptor field, a device-information key).
        case log(source: String)
    }

    public var description: String { text }

    /// The English sentence.
    public var text: String {
        switch self {
        case .timesEstimated(let readTime, let source):
            let readText = readTime.loggerISOText
            let placed: String
            switch source {
            case .fileModificationTime: placed = "the file's modification time \(readText), which moves when the file is copied"
            case .now: placed = "the time of decoding \(readText)"
            default: placed = "\(source.description) \(readText)"
            }
            return
                "the sample times are estimated: the log has no clock and the read time is not known, so the newest sample is placed at \(placed); give the real read time for true times"
        case .timesFromReadTime(let readTime):
            return "the log stores no start time: times are estimated, taking the newest sample as logged at the read time \(readTime.loggerISOText)"
        case .startsBefore2000(let first):
            return "the log starts at \(first.loggerISOText), before 2000: the logger's clock or its start time is wrong"
        case .startsAfterReadTime(let first, let readTime):
            return "the log starts at \(first.loggerISOText), after the read time \(readTime.loggerISOText): the read time or the logger's clock is wrong"
        case .readTimeBeforeNewest(let readTime, let newest):
            return
                "the read time \(readTime.loggerISOText) is earlier than the newest sample (\(newest.loggerISOText)): the read time or the logger's clock is wrong"
        case .givenIntervalNotUsed(let given, let used, let origin):
            return "the given interval of \(formatSeconds(given)) was not used: \(Self.intervalReason(used: used, from: origin))"
        case .implausibleDeviceInterval(let key, let value):
            return "the device information's \(key)=\(value) is longer than any logger's interval (31 days at most) and was not used"
        case .implausibleYetConclusive(let format, let problems):
            return
                "this \(format) log looks unlike a logger's (\(problems.map(\.text).joined(separator: "; "))), but its format is certain, so it is decoded as it is: check the logger's settings"
        case .partialSampleAtEnd(let bytes, let offset):
            return "the sample area ends with \(bytes) byte(s) at offset \(offset) that do not make a whole sample; ignored"
        case .outsideSensorRange(let count, let minimum, let maximum):
            return
                "\(count) sample(s) outside the sensor range \(formatNumber(minimum))…\(formatNumber(maximum)) °C are flagged out-of-range and left out of statistics"
        case .integrityFailed(let detail):
            return "integrity check failed: \(detail.text); the samples are shown but must not be trusted"
        case .secretTooLong(let bytes):
            return "the secret is \(bytes) bytes; a cuplTag stores at most 16, so it cannot be the tag's key"
        case .secretNotUsed(let format):
            return "the secret was not used: only cuplTag logs carry an HMAC to check, and this is a \(format) log"
        case .nhsBrownOut:
            return "the logger reports a battery brown-out or power loss (status bit 7); logging may have ended early"
        case .nhsMemoryFull:
            return "the logger's memory is full (status bit 8): later samples were measured but not stored"
        case .nhsConfigResult(let result):
            return "GETCONFIG answered \(result.explanation)"
        case .nhsRefused(let refusal):
            return "the logger refused \(refusal)"
        case .nhsNoStartTime:
            return "message API 5 gives no start time: sample times assume the first sample was taken at the configuration time"
        case .nhsClockLost:
            return
                "the logger's clock was lost (reset or power loss): its drift cannot be measured, so sample times are the tag's uncorrected schedule and may be off"
        case .nhsReadTimeFarFromClock(let readTime, let source, let drift):
            return
                "the read time \(readTime.loggerISOText) (\(source)) differs from the tag's clock by \(String(format: "%+d", drift)) s, too much to be the tag's drift; sample times are the tag's own, uncorrected"
        case .nhsPlaceholders(let count):
            return
                "\(count) sample(s) hold the 85.1 °C placeholder (nothing was measured: an NFC field was present when they fell due); they are flagged missing"
        case .nhsOutsideSensorRange(let count):
            return "\(count) sample(s) lie outside the sensor's -40.0 … 85.0 °C and are flagged out-of-range"
        case .nhsUnread(let numbers, let stored):
            return "\(Self.count(numbers)) of the \(stored) stored sample(s) were not read (numbers \(Self.rangeList(numbers)), 0 = oldest)"
        case .nhsLoggedDuringRead(let count, let counted):
            return "\(count) sample(s) were logged during the read, after GETCONFIG counted \(counted)"
        case .nhsEventsCutShort:
            return "a GETEVENTS answer was cut short by the tag (475-byte limit); some excursion events may be missing"
        case .smarTag(let note): return note.text
        case .tagImage(let anomaly):
            return "tag image: \(anomaly)"
        case .archiveConflicts(let count):
            return "\(count) sample(s) were read again with another value; the first value read is used and both are kept in the archive"
        case .archiveGaps(let count):
            return "\(count) gap(s) between reads that do not meet are unknown time"
        case .worded(_, let english):
            return english
        case .text(let text):
            return text
        }
    }

    /// The warning with any front end's wording taken off.
    public var original: LogWarning {
        if case .worded(let original, _) = self { return original.original }
        return self
    }

    /// Why a given interval was not used: what the log gives instead.
    public static func intervalReason(used: TimeInterval, from origin: IntervalOrigin) -> String {
        switch origin {
        case .url: return "the URL gives \(Int(used / 60)) min"
        case .log(let source): return "the log gives \(formatSeconds(used)) (\(source))"
        }
    }

    /// How many numbers the ranges hold.
    public static func count(_ ranges: [ClosedRange<Int>]) -> Int { ranges.reduce(0) { $0 + $1.count } }

    /// `3, 5–9`: the ranges as numbers and spans.
    public static func rangeList(_ ranges: [ClosedRange<Int>]) -> String {
        ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }.joined(separator: ", ")
    }
}

/// A command an NHS31xx logger refused: the message's name and the result code it answered.
public struct NHSRefusal: Sendable, Equatable, Codable, CustomStringConvertible {
    public var message: String
    public var result: NHSResult

    public init(message: String, result: NHSResult) {
        self.message = message
        self.result = result
    }

    public var description: String { "\(message): \(result.explanation)" }
}
