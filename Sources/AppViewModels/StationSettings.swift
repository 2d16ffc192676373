import Foundation
import StationClient

/// The station form of Settings: the station's address, the person's user name and
/// password on it, and this device's name there. Signing in (`StationClient.signIn`) gives
/// the phone an upload token of its own, kept in the Keychain where a pasted token was kept
/// before; the password is sent once and never kept (`finished(_:)` clears it). The form no
/// longer takes a pasted token: one pasted into an earlier version is still used until
/// someone signs in or out (`StationCredential.pastedToken`).
///
/// The form holds no station: the app calls `startSigningIn()`, sends the request with
/// `signIn(_:with:)` and hands the outcome to `finished(_:)`, so what the person typed is
/// never lost across a request.
public struct StationSettingsForm: Sendable, Equatable {
    public var address: String
    public var user: String
    /// As typed; sent once, cleared after each attempt.
    public var password: String
    /// This device's name on the station (e.g. "ward 3 phone"); the app fills in the
    /// device's own name (`prefill(address:deviceName:)`).
    public var device: String
    /// A sign-in is on its way.
    public private(set) var signingIn = false
    /// Why the last attempt failed (`nil` after a sign-in, or before any).
    public private(set) var problem: StationSignInProblem?
    /// A sign-out is on its way (it first sends what waits).
    public private(set) var signingOut = false
    /// Why the last sign-out or removal of the station failed (the Keychain refused).
    public private(set) var accountProblem: String?

    public init(address: String = "", user: String = "", password: String = "", device: String = "") {
        self.address = address
        self.user = user
        self.password = password
        self.device = device
    }

    /// The longest device name the station takes.
    public static let deviceNameLimit = 100

    /// What is sent: the address as typed without the spaces around it and its URL, the user
    /// name trimmed, the password exactly as typed, and the device name trimmed.
    public struct Request: Sendable, Equatable {
        public var address: String
        public var url: URL
        public var user: String
        public var password: String
        public var device: String
    }

    /// Fills the fields the person has not typed into: the station's address kept in the
    /// Keychain, and `deviceName` (the device's own name, which the app passes in).
    public mutating func prefill(address stored: String?, deviceName: String) {
        if address.isEmpty, let stored { address = stored }
        if device.trimmingCharacters(in: .whitespaces).isEmpty { device = String(deviceName.prefix(Self.deviceNameLimit)) }
    }

    /// *Sign in* needs every field and no sign-in under way.
    public var canSignIn: Bool {
        !signingIn && !address.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && !user.trimmingCharacters(in: .whitespaces).isEmpty
            && !password.isEmpty && !device.trimmingCharacters(in: .whitespaces).isEmpty
    }

    public var signInTitle: String { signingIn ? String(localized: "Signing in…") : String(localized: "Sign in") }

    /// The request to send, or why it cannot be sent (the address is judged first).
    public func checked() -> Result<Request, StationSignInProblem> {
        let trimmed = address.trimmingCharacters(in: .whitespacesAndNewlines)
        let url: URL
        switch StationAddress.parse(trimmed) {
        case .success(let parsed): url = parsed
        case .failure(.plainHTTP): return .failure(.plainHTTP)
        case .failure(.credentialsInAddress): return .failure(.credentialsInAddress)
        case .failure(.notAnAddress): return .failure(.notAnAddress)
        }
        let name = user.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { return .failure(.noUserName) }
        guard !password.isEmpty else { return .failure(.noPassword) }
        let deviceName = device.trimmingCharacters(in: .whitespaces)
        guard Self.isValidDeviceName(deviceName) else { return .failure(.badDeviceName) }
        return .success(Request(address: trimmed, url: url, user: name, password: password, device: deviceName))
    }

    /// 1 to 100 characters, none of them a control character: what the station takes.
    static func isValidDeviceName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= deviceNameLimit && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// The request to send, and the form now signing in; `nil` (with `problem` set) when it
    /// cannot be sent, or while a sign-in is under way.
    public mutating func startSigningIn() -> Request? {
        guard !signingIn else { return nil }
        switch checked() {
        case .success(let request):
            signingIn = true
            problem = nil
            return request
        case .failure(let problem):
            self.problem = problem
            return nil
        }
    }

    /// The attempt's outcome, once the token is kept (or not): the password is cleared
    /// either way.
    public mutating func finished(_ outcome: Result<DeviceSignIn, StationSignInProblem>) {
        signingIn = false
        password = ""
        switch outcome {
        case .success: problem = nil
        case .failure(let problem): self.problem = problem
        }
    }

    /// After signing out: the next person types their own name.
    public mutating func signedOut() {
        user = ""
        password = ""
        problem = nil
    }

    /// *Sign out* waits for a sign-out or an upload under way.
    public func canSignOut(isSending: Bool) -> Bool { !signingOut && !isSending }

    /// The form now signing out; `false` while a sign-out is already under way.
    public mutating func startSigningOut() -> Bool {
        guard !signingOut else { return false }
        signingOut = true
        return true
    }

    /// The sign-out's outcome: the fields cleared after it worked, its error kept when not.
    public mutating func finishedSigningOut(_ outcome: Result<Void, any Error>) {
        signingOut = false
        settle(outcome)
    }

    /// *Remove station*'s outcome, as a sign-out's.
    public mutating func removedStation(_ outcome: Result<Void, any Error>) {
        settle(outcome)
    }

    private mutating func settle(_ outcome: Result<Void, any Error>) {
        switch outcome {
        case .success:
            signedOut()
            accountProblem = nil
        case .failure(let error):
            accountProblem = error.localizedDescription
        }
    }

    /// The last problem in words, times in `timeZone`.
    public func problemText(in timeZone: TimeZone, locale: Locale = .autoupdatingCurrent) -> String? {
        problem?.message(in: timeZone, locale: locale)
    }

    /// Signs in with `request` at `service` (the app passes `StationClient(baseURL: request.url)`).
    public static func signIn(_ request: Request, with service: any StationSignInService) async -> Result<DeviceSignIn, StationSignInProblem> {
        do {
            return .success(try await service.signIn(user: request.user, password: request.password, device: request.device))
        } catch {
            return .failure(StationSignInProblem.from(error))
        }
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

    /// The Settings row naming the station: its host, "Not signed in" when nobody is, or "None".
    public static func settingsValue(stationURL: URL?, credential: StationCredential) -> String {
        guard let host = stationURL?.host else { return String(localized: "None") }
        return credential.canUpload ? host : String(localized: "Not signed in")
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
        if case let .refused(status, error, _)? = result.lastError, result.lastError?.credentialsRefused == true {
            // A device token ends when its user is disabled or it is revoked on the station.
            let reason = "\(status) \(error)"
            return String(localized: "The station no longer takes this iPhone's token (\(reason)). Sign in again under Settings › Station.")
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
