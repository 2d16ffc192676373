import ColdChain
import Foundation
import LoggerFormats
import StationClient

/// A read decoded, before the app keeps it: from a tapped logger or the bundled sample.
public struct FinishedRead: Sendable {
    public var log: TemperatureLog
    /// The raw read the station gets (NDEF message bytes, an NHS31xx transcript, a tag memory).
    public var raw: Data
    public var rawKind: StoredRead.RawKind
    /// An NHS31xx read in automatic mode (its write was refused).
    public var automaticMode: Bool
    /// How the read went on the air: resumes after losing the tag, seconds.
    public var resumes: Int
    public var seconds: Double
    /// The bundled sample (`SampleRead`), not a logger.
    public var sample: Bool

    public init(
        log: TemperatureLog, raw: Data, rawKind: StoredRead.RawKind, automaticMode: Bool = false, resumes: Int = 0, seconds: Double = 0,
        sample: Bool = false
    ) {
        self.log = log
        self.raw = raw
        self.rawKind = rawKind
        self.automaticMode = automaticMode
        self.resumes = resumes
        self.seconds = seconds
        self.sample = sample
    }
}

/// What the app does with a read before showing it, the same for a tapped logger and the
/// sample: a logger's read is queued for the station first (so the history can show it
/// waiting), the sample never is; then it becomes the `StoredRead` the history keeps.
public enum ReadKeeping {
    /// - Parameters:
    ///   - enqueue: queues an upload and gives its SHA-256 (nil: no station, or not queued);
    ///     never called for the sample.
    public static func keep(
        _ finished: FinishedRead, profileName: String, timeZoneIdentifier: String, enqueue: (PendingUpload) -> String?
    ) -> StoredRead {
        let queued = finished.sample ? nil : enqueue(StoredRead.upload(raw: finished.raw, log: finished.log))
        return StoredRead(
            readAt: finished.log.readTime, log: finished.log, profileName: profileName, timeZoneIdentifier: timeZoneIdentifier,
            resumes: finished.resumes, seconds: finished.seconds, uploadSHA256: queued, rawKind: finished.rawKind,
            automaticMode: finished.automaticMode, sample: finished.sample)
    }
}
