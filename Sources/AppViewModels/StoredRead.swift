import ColdChain
import Foundation
import LoggerFormats
import StationClient
import TempChart

/// One read kept on the phone: the decoded log as read, with the choices it was judged
/// with. The assessment is computed again when shown, so a changed profile never rewrites
/// what the logger recorded. Kept as JSON in the app's history folder (`HistoryFolder`).
public struct StoredRead: Codable, Identifiable, Sendable, Equatable {
    /// What the raw read is (its raw values are the ones the history files hold).
    public enum RawKind: String, Codable, Sendable {
        /// The NDEF message bytes as read.
        case ndefMessage
        /// An NHS31xx exchange transcript, JSON Lines (docs/nhs31xx.md §7).
        case nhsTranscript
        /// The whole memory of a logger that writes its tag itself (ST SmarTag), as a Flipper file.
        case tagMemory
    }

    public var id: UUID
    /// When the phone read the tag.
    public var readAt: Date
    public var log: TemperatureLog
    /// The profile name the read was judged against.
    public var profileName: String
    /// The time zone identifier used for display when it was read.
    public var timeZoneIdentifier: String
    /// How the read went on the air: resumes after losing the tag, seconds.
    public var resumes: Int
    public var seconds: Double
    /// The SHA-256 of the raw read queued for the station (nil: no station was set, or an
    /// older version read it). `UploadStatus.of` tells whether it is there yet.
    public var uploadSHA256: String?
    /// What the raw read is (NDEF message bytes, or an NHS31xx exchange transcript).
    public var rawKind: RawKind?
    /// True for an NHS31xx read in automatic mode (writing was refused).
    public var automaticMode: Bool?
    /// True for the bundled sample read (`SampleRead`): marked as such wherever it shows and
    /// never uploaded; nil for a logger's read (and in history files written before it existed).
    public var sample: Bool?

    public init(
        id: UUID = UUID(), readAt: Date, log: TemperatureLog, profileName: String, timeZoneIdentifier: String,
        resumes: Int = 0, seconds: Double = 0, uploadSHA256: String? = nil, rawKind: RawKind? = nil, automaticMode: Bool? = nil,
        sample: Bool = false
    ) {
        self.id = id
        self.readAt = readAt
        self.log = log
        self.profileName = profileName
        self.timeZoneIdentifier = timeZoneIdentifier
        self.resumes = resumes
        self.seconds = seconds
        self.uploadSHA256 = uploadSHA256
        self.rawKind = rawKind
        // Only a transcript can have been read in automatic mode; other reads keep no flag.
        self.automaticMode = rawKind == .nhsTranscript ? automaticMode : nil
        // A sample is never queued, whatever the caller passed.
        self.sample = sample ? true : nil
        if sample { self.uploadSHA256 = nil }
    }

    /// The bundled sample read, not a logger's.
    public var isSample: Bool { sample == true }

    /// What goes to the station for a read: the raw bytes as read, its read time, the app as
    /// the source, and the tag UID to name the logger when the log itself names none.
    public static func upload(raw: Data, log: TemperatureLog) -> PendingUpload {
        PendingUpload(raw: raw, readTime: log.readTime, source: "ColdTap iPhone", loggerID: log.logger.tagUID)
    }

    /// The logger as a person names it: model and serial, else the tag UID, else the format.
    public var loggerName: String {
        let identity = log.logger
        let model = [identity.vendor, identity.model.map { LogTexts.model($0, language: .appLanguage) }].compactMap { $0 }.joined(separator: " ")
        if let serial = identity.serial, !serial.isEmpty {
            return model.isEmpty ? serial : "\(model) \(serial)"
        }
        if !model.isEmpty { return model }
        if let uid = identity.tagUID { return uid }
        return log.format.name
    }

    /// The profile the read is judged against now: the one it was read with, or `current`
    /// when that profile no longer exists.
    public func profile(current: Profile) -> Profile {
        Profile.builtIn(named: profileName) ?? current
    }

    /// The assessment shown for the read: its own profile (see `profile(current:)`), times
    /// and days in `timeZone` (the one chosen in Settings now).
    public func assessment(currentProfile: Profile, timeZone: TimeZone) -> Assessment {
        Assessor.assess(log, profile: profile(current: currentProfile), timeZone: timeZone)
    }
}

extension ReportLanguage {
    /// The report language matching the app's current localization.
    public static var appLanguage: ReportLanguage {
        ReportLanguage(localization: Bundle.main.preferredLocalizations.first ?? "en")
    }

    /// The report language for a localization name as a bundle gives it ("zh-Hans", "ja",
    /// "en"): Chinese and Japanese by prefix, English otherwise.
    public init(localization: String) {
        if localization.hasPrefix("zh") {
            self = .simplifiedChinese
        } else if localization.hasPrefix("ja") {
            self = .japanese
        } else {
            self = .english
        }
    }
}
