import ColdChain
import Foundation
import LoggerFormats

/// A read to keep: the bytes exactly as read, how they were decoded, and the decoded log.
public struct NewRead: Sendable {
    /// The tag memory dump, NDEF message or URL text, byte for byte.
    public var raw: Data
    /// What `raw` is (`tag2`, `tag5`, `flipper`, `ndef`, `url`, `hex`).
    public var inputKind: String
    /// Where it came from: a reader name, a file, an app.
    public var origin: String
    /// The options needed to decode `raw` again (JSON text; see `ArchiveDecodeOptions`).
    public var decodeOptions: String
    public var log: TemperatureLog
    /// `--logger-id`: the identity when the log carries none (or to override it).
    public var loggerID: String?
    /// The profile the read is assessed against when it is kept (`nil`: not assessed), and
    /// the zone of its days.
    public var profile: Profile?
    public var timeZone: TimeZone

    public init(
        raw: Data, inputKind: String, origin: String, decodeOptions: String, log: TemperatureLog,
        loggerID: String? = nil, profile: Profile?, timeZone: TimeZone
    ) {
        self.raw = raw
        self.inputKind = inputKind
        self.origin = origin
        self.decodeOptions = decodeOptions
        self.log = log
        self.loggerID = loggerID
        self.profile = profile
        self.timeZone = timeZone
    }
}

/// What adding one read did.
public struct AddResult: Sendable {
    public var readID: Int64
    public var loggerID: String
    /// True when the same bytes were kept before (nothing was added).
    public var alreadyKept: Bool
    public var newSamples: Int
    public var duplicates: Int
    public var conflicts: Int
    /// Unknown time between the newest sample kept before and this read's oldest.
    public var gapBefore: DateInterval?
    /// Seconds the read's estimated times were moved to meet the samples kept before.
    public var timeOffset: TimeInterval
    public var verdict: Verdict?
    public var chainHead: String
}

/// A logger as the archive knows it.
public struct LoggerRecord: Sendable, Equatable {
    public var id: String
    public var format: String
    public var serial: String?
    public var tagUID: String?
    public var vendor: String?
    public var model: String?
}

/// One line of `coldtap loggers`.
public struct LoggerSummary: Sendable {
    public var logger: LoggerRecord
    public var firstSample: Date?
    public var lastSample: Date?
    public var readCount: Int
    public var lastVerdict: String?
    /// The profile (JSON) of the newest assessment.
    public var lastProfileJSON: String?
}

/// A kept read, as history and verify show it.
public struct ReadSummary: Sendable, Equatable {
    public var id: Int64
    public var readTime: Date
    public var readTimeSource: String
    public var origin: String
    public var sha256: String
    public var decoder: String
    public var coldTapVersion: String
    public var integrity: String
    public var sampleCount: Int
    public var firstSample: Date?
    public var lastSample: Date?
    public var newSamples: Int
    public var duplicates: Int
    public var conflicts: Int
    public var timeBase: String
    public var interval: TimeInterval
    /// How it was decoded, as kept (JSON text: ArchiveKit's `ArchivedReads.decodeOptionsJSON`).
    public var decodeOptions: String = ""
}

/// One stitched sample and the read that first saw it.
public struct StitchedSample: Sendable, Equatable {
    public var sample: TemperatureLog.Sample
    public var readID: Int64
}

/// A re-read that gave another value for a time already kept: both are shown.
public struct SampleConflict: Sendable, Equatable {
    public var time: Date
    public var kept: TemperatureLog.Sample
    public var keptReadID: Int64
    public var other: TemperatureLog.Sample
    public var otherReadID: Int64
}

public struct Acknowledgement: Sendable, Equatable {
    public var id: Int64
    public var excursionStart: Date
    public var by: String
    public var at: Date
    public var comment: String
}

/// A kept raw read handed to a decoder (verify, redecode).
public struct StoredRead: Sendable {
    public var id: Int64
    public var loggerID: String
    public var raw: Data
    public var inputKind: String
    public var readTime: Date
    public var readTimeSource: String
    public var origin: String
    public var decoder: String
    public var decodeOptions: String
}

/// The stitched record of one logger over a period.
public struct History: Sendable {
    public var logger: LoggerRecord
    public var generation: Int
    public var interval: TimeInterval
    public var reads: [ReadSummary]
    public var samples: [StitchedSample]
    public var gaps: [DateInterval]
    public var conflicts: [SampleConflict]
    public var acknowledgements: [Acknowledgement]
    public var chainHead: String
    public var from: Date?
    public var to: Date?
    /// The days of a logger that summarises them itself, stitched per day (the read that saw
    /// most of each day), oldest first; `nil` for other loggers.
    public var dailySummaries: [TemperatureLog.DailySummary]?
    /// The alarms the logger was configured with, as its newest read with days gave them.
    public var loggerAlarms: [TemperatureLog.ConfiguredAlarm]?
    /// The zone its newest read with days was read in.
    public var loggerTimeZone: String?

    /// True when the period holds neither samples nor daily summaries: nothing to judge or show.
    public var isEmpty: Bool { samples.isEmpty && (dailySummaries ?? []).isEmpty }

    /// The reads whose samples (each standing for its interval) meet `from..<to`: the reads
    /// behind a lot's leg of this logger.
    public func reads(covering from: Date, _ to: Date) -> [ReadSummary] {
        reads.filter { read in
            guard let first = read.firstSample, let last = read.lastSample else { return false }
            return last.addingTimeInterval(read.interval) > from && first < to
        }
    }

    /// The stitched record as one log for ColdChain and the reports: samples oldest first,
    /// the time between reads that do not meet left as unknown time (a clock jump between
    /// samples, which the assessment counts both ways).
    public func temperatureLog() -> TemperatureLog {
        let newest = reads.max { $0.readTime < $1.readTime }
        let statuses = Set(reads.map { $0.integrity.split(separator: " ").first.map(String.init) ?? $0.integrity })
        let integrity: TemperatureLog.Integrity
        if statuses.contains("failed") {
            integrity = .init(status: .failed, detail: .archiveReadFailed)
        } else if statuses == ["verified"] {
            integrity = .init(status: .verified, detail: .archiveAllVerified)
        } else {
            integrity = .init(status: .unverified, detail: .archiveNotAllVerified(reads: reads.count))
        }
        var warnings: [LogWarning] = []
        if !conflicts.isEmpty { warnings.append(.archiveConflicts(count: conflicts.count)) }
        if !gaps.isEmpty { warnings.append(.archiveGaps(count: gaps.count)) }
        var log = TemperatureLog(
            format: TemperatureLog.Format(name: logger.format),
            logger: .init(tagUID: logger.tagUID, vendor: logger.vendor, model: logger.model.map { .init(name: $0) }, serial: logger.serial),
            samples: samples.map(\.sample), interval: interval,
            timeBase: TemperatureLog.TimeBase(rawValue: newest?.timeBase ?? "") ?? .loggerHeader,
            integrity: integrity, readTime: newest?.readTime ?? Date(timeIntervalSince1970: 0),
            metadata: ["archiveLogger": .text(logger.id), "archiveReads": .integer(Int64(reads.count)), "archiveChainHead": .text(chainHead)],
            warnings: warnings, readTimeSource: .newestArchivedRead,
            timeBaseDetail: nil, detection: .archiveStitched(reads: reads.count))
        log.dailySummaries = dailySummaries
        log.loggerAlarms = loggerAlarms
        log.loggerTimeZone = loggerTimeZone
        return log
    }
}

/// What `archive verify` found.
public struct VerifyReport: Sendable {
    public var reads: Int
    public var acknowledgements: Int
    public var chainHead: String
    /// Each row that does not hold, first one first; empty when all holds.
    public var problems: [String]
    /// The record's size and root as recomputed from its leaves.
    public var recordLeaves: Int
    public var recordRoot: String
    /// What was checked of the checkpoints, one line each.
    public var recordNotes: [String]
}

/// What `archive redecode` did.
public struct RedecodeReport: Sendable {
    public var generation: Int
    public var reads: Int
    /// One line per read whose samples changed.
    public var changes: [String]
    public var samples: Int
}

extension History {
    /// The acknowledgements as the assessment takes them (`Assessor.assess(…, acknowledgements:)`).
    public var excursionAcknowledgements: [ExcursionAcknowledgement] {
        acknowledgements.map { ExcursionAcknowledgement(excursionStart: $0.excursionStart, by: $0.by, at: $0.at, comment: $0.comment) }
    }
}
