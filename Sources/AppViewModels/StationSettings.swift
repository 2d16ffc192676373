import Foundation
import StationClient

/// Why the station settings cannot be saved.
public enum StationSettingsProblem: Error, LocalizedError, Sendable, Equatable {
    case notAnAddress
    case plainHTTP
    case credentialsInAddress
    case noToken

    public var errorDescription: String? {
        switch self {
        case .notAnAddress: return String(localized: "The station address must start with https:// and name a host.")
        case .plainHTTP:
            return String(
                localized:
                    "The station address must start with https://: iOS does not let apps upload to plain http:// addresses. Ask whoever runs the station to serve it over HTTPS with a certificate."
            )
        case .credentialsInAddress:
            return String(localized: "Leave the user name and password out of the address; the station's token goes in its own field.")
        case .noToken: return String(localized: "Enter the station's API token.")
        }
    }
}

/// The station form of Settings: the address and token as typed, checked before they are
/// kept in the Keychain.
public struct StationSettingsForm: Sendable, Equatable {
    public var address: String
    public var token: String

    public init(address: String = "", token: String = "") {
        self.address = address
        self.token = token
    }

    /// What is kept: the address as typed without the spaces around it, its URL, and the token.
    public struct Checked: Sendable, Equatable {
        public var address: String
        public var url: URL
        public var token: String
    }

    /// *Save and upload* needs both fields and no save under way.
    public func canSave(saving: Bool) -> Bool {
        !saving && !address.isEmpty && !token.isEmpty
    }

    /// The address and token to keep, or why they cannot be kept (the address is judged first).
    public func checked() -> Result<Checked, StationSettingsProblem> {
        let trimmed = address.trimmingCharacters(in: .whitespacesAndNewlines)
        let url: URL
        switch StationAddress.parse(trimmed) {
        case .success(let parsed): url = parsed
        case .failure(.plainHTTP): return .failure(.plainHTTP)
        case .failure(.credentialsInAddress): return .failure(.credentialsInAddress)
        case .failure(.notAnAddress): return .failure(.notAnAddress)
        }
        let key = token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else { return .failure(.noToken) }
        return .success(Checked(address: trimmed, url: url, token: key))
    }
}

/// What the station section shows once a station is set: the address, what waits, what
/// was refused, the last problem and the upload button.
public struct StationSummary: Sendable, Equatable {
    public var address: String
    public var waiting: String
    /// The count of refused reads, shown only when there are some.
    public var refused: String?
    public var problem: String?
    public var uploadTitle: String
    public var canUpload: Bool

    public init(stationURL: URL, waitingCount: Int, refusedCount: Int, lastProblem: String?, isSending: Bool, locale: Locale = .autoupdatingCurrent) {
        address = stationURL.absoluteString
        waiting = waitingCount.formatted(.number.locale(locale))
        refused = refusedCount > 0 ? refusedCount.formatted(.number.locale(locale)) : nil
        problem = lastProblem
        uploadTitle = isSending ? String(localized: "Uploading…") : String(localized: "Upload now")
        canUpload = !isSending && waitingCount > 0
    }

    /// The Settings row naming the station: its host, or "None".
    public static func settingsValue(stationURL: URL?) -> String {
        stationURL?.host ?? String(localized: "None")
    }
}

/// The words for what happened to the uploads.
public enum UploadTexts {
    /// The last flush's problem: what kept reads queued, else the first refusal, else nil.
    public static func problem(after result: UploadQueue.FlushResult) -> String? {
        if case .recordInconsistent(let what) = result.lastError {
            // Loud on purpose: the station may have lost or hidden reads it kept before.
            return String(
                localized:
                    "The station's record no longer holds what it showed this phone before, so nothing more is sent to it. Tell the station's operator: \(what)"
            )
        }
        if let error = result.lastError {
            let reason = error.description
            return String(localized: "Not uploaded yet: \(reason)")
        }
        if let refusal = result.rejected.first {
            let reason = refusal.reason
            return String(localized: "The station refused a read: \(reason)")
        }
        return nil
    }

    public static func queueUnavailable(_ error: Error) -> String {
        let reason = error.localizedDescription
        return String(localized: "The upload queue cannot be opened: \(reason)")
    }

    public static func notQueued(_ error: Error) -> String {
        let reason = error.localizedDescription
        return String(localized: "The read could not be queued for the station: \(reason)")
    }
}
