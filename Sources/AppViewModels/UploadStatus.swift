import Foundation
import StationClient

/// Where a read stands with the station.
public enum UploadStatus: Sendable, Equatable {
    /// No station was set when it was read (or it was read by an older version).
    case notForUpload
    /// The bundled sample read (`SampleRead`), which is never uploaded.
    case sample
    /// Queued, not yet on the station.
    case waiting
    /// The station refused it for good (the reason it gave).
    case refused(String)
    /// The station has it, sent with the token of `by` (the signed-in user's full name; `nil`
    /// when not known: sent with a pasted token, or by a version before sign-in).
    case uploaded(by: String?)

    /// The status of the read queued under `sha256` (nil: never queued), given the queue's
    /// waiting reads, the reasons of those the station refused and who sent those it got
    /// (`UploadQueue.senders()`). A queued read that is neither waiting nor refused was sent.
    public static func of(sha256: String?, waiting: Set<String>, refused: [String: String], senders: [String: String] = [:]) -> UploadStatus {
        guard let sha256 else { return .notForUpload }
        if waiting.contains(sha256) { return .waiting }
        if let reason = refused[sha256] { return .refused(reason) }
        return .uploaded(by: senders[sha256].flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The status of `read`: `sample` for the sample read, else as `of(sha256:…)` gives it.
    public static func of(read: StoredRead, waiting: Set<String>, refused: [String: String], senders: [String: String] = [:]) -> UploadStatus {
        read.isSample ? .sample : of(sha256: read.uploadSHA256, waiting: waiting, refused: refused, senders: senders)
    }

    /// The small mark in a list row, shown only while the read is not on the station.
    public struct Badge: Sendable, Equatable {
        public var text: String
        public var symbol: String
        public var tone: Tone
    }

    public var badge: Badge? {
        switch self {
        case .notForUpload, .uploaded: return nil
        case .sample: return Badge(text: String(localized: "Sample read, never uploaded"), symbol: "info.circle", tone: .caution)
        case .waiting: return Badge(text: String(localized: "Not uploaded yet"), symbol: "icloud.slash", tone: .caution)
        case .refused: return Badge(text: String(localized: "Refused by the station"), symbol: "xmark.icloud", tone: .alarm)
        }
    }

    /// The "Station" line of a read's details and the station's reason under it (nil: no
    /// line, the read was never for a station).
    public var detail: (value: String, reason: String?)? {
        switch self {
        case .notForUpload: return nil
        case .sample: return (String(localized: "Sample read, never uploaded"), nil)
        case .waiting: return (String(localized: "Not uploaded yet"), nil)
        case .refused(let reason): return (String(localized: "Refused by the station"), reason)
        case .uploaded(by: nil): return (String(localized: "Uploaded"), nil)
        case .uploaded(by: let name?): return (String(localized: "Uploaded as \(name)"), nil)
        }
    }
}
