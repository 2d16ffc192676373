import Foundation
import StationClient

/// What the station form needs of a station: a device's sign-in. `StationClient` is one;
/// the tests give a fake.
public protocol StationSignInService: Sendable {
    /// - Throws: `StationSignInError` (any other error reads as offline).
    func signIn(user: String, password: String, device: String) async throws -> DeviceSignIn
}

extension StationClient: StationSignInService {}

/// Why the phone is not signed in: the form's checks before anything is sent, each refusal
/// of the station, and the Keychain refusing the token.
public enum StationSignInProblem: Error, Sendable, Equatable {
    case notAnAddress
    case plainHTTP
    case credentialsInAddress
    case noUserName
    case noPassword
    /// Not 1 to 100 characters, or a control character in it.
    case badDeviceName
    /// The station's 401 (the same for an unknown name and a wrong password).
    case wrongNameOrPassword
    /// Locked after repeated wrong passwords, until then (`nil`: the station named no time).
    case locked(until: Date?)
    case disabled
    case noPasswordYet
    /// A viewer's account: uploading needs the operator role or above.
    case viewer
    case offline
    /// The station answers, but has no device sign-in (an older station).
    case stationWithoutSignIn
    /// Anything else the station said: its words.
    case refused(String)
    case unreadableAnswer(String)
    /// The token came, but the Keychain would not keep it: its words.
    case keychain(String)

    /// The problem `error` from `StationClient.signIn` is.
    public static func from(_ error: Error) -> StationSignInProblem {
        guard let failure = error as? StationSignInError else { return .offline }
        switch failure {
        case .wrongNameOrPassword: return .wrongNameOrPassword
        case .locked(let until): return .locked(until: until)
        case .notAllowed(.disabled, _): return .disabled
        case .notAllowed(.noPasswordYet, _): return .noPasswordYet
        case .notAllowed(.viewer, _): return .viewer
        case .notAllowed(.other, let detail): return .refused(detail)
        case .unreachable: return .offline
        case .refused(404, _, _): return .stationWithoutSignIn
        case let .refused(_, error, detail): return .refused(detail.isEmpty ? error : detail)
        case .badAnswer(let reason): return .unreadableAnswer(reason)
        }
    }

    /// What happened and what to do, in the app's language; a lock's end in `timeZone`.
    public func message(in timeZone: TimeZone, locale: Locale = .autoupdatingCurrent) -> String {
        switch self {
        case .notAnAddress: return String(localized: "The station address must start with https:// and name a host.")
        case .plainHTTP:
            return String(
                localized:
                    "The station address must start with https://: iOS does not let apps upload to plain http:// addresses. Ask whoever runs the station to serve it over HTTPS with a certificate."
            )
        case .credentialsInAddress: return String(localized: "Leave the user name and password out of the address; they go in their own fields.")
        case .noUserName: return String(localized: "Enter your user name on the station.")
        case .noPassword: return String(localized: "Enter your password.")
        case .badDeviceName: return String(localized: "Name this iPhone for the station in 1 to 100 characters, e.g. “ward 3 phone”.")
        case .wrongNameOrPassword: return String(localized: "The user name or password is wrong.")
        case .locked(let until):
            guard let until else {
                return String(
                    localized: "This account is locked after repeated wrong passwords. Try again later, or ask an admin of the station to unlock it.")
            }
            let time = Fmt.dateTime(until, in: timeZone, locale: locale)
            return String(
                localized: "This account is locked after repeated wrong passwords until \(time). Try again then, or ask an admin of the station to unlock it.")
        case .disabled: return String(localized: "This account is disabled. Ask an admin of the station.")
        case .noPasswordYet:
            return String(
                localized: "This account has no password yet. Open the set-up link an admin of the station gave you, choose a password, then sign in here.")
        case .viewer: return String(localized: "A viewer cannot upload reads. Ask an admin of the station for the operator role.")
        case .offline: return String(localized: "The station cannot be reached. Check the network and try again.")
        case .stationWithoutSignIn: return String(localized: "This station does not sign phones in yet. Ask whoever runs it to update it.")
        case .refused(let reason): return String(localized: "The station refused the sign-in: \(reason)")
        case .unreadableAnswer(let reason): return String(localized: "The station's answer could not be read: \(reason)")
        case .keychain(let message): return String(localized: "The Keychain refused the change: \(message)")
        }
    }
}

/// Who this phone uploads as: the station's answer to its sign-in without the token, kept in
/// the Keychain next to the token.
public struct StationIdentity: Codable, Sendable, Equatable {
    public var user: String
    public var fullName: String
    public var role: String
    public var site: String
    public var device: String

    public init(user: String, fullName: String, role: String, site: String, device: String) {
        self.user = user
        self.fullName = fullName
        self.role = role
        self.site = site
        self.device = device
    }

    public init(_ signIn: DeviceSignIn) {
        self.init(user: signIn.user, fullName: signIn.fullName, role: signIn.role, site: signIn.site, device: signIn.device)
    }

    /// As the Keychain keeps it (JSON, sorted keys).
    public var keychainData: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The role's name as Settings shows it (a role this version does not know, as sent).
    public var roleTitle: String {
        switch role {
        case "viewer": return String(localized: "Viewer")
        case "operator": return String(localized: "Operator")
        case "reviewer": return String(localized: "Reviewer")
        case "admin": return String(localized: "Admin")
        default: return role
        }
    }
}

/// What the Keychain holds for the station: what uploads are sent with.
public enum StationCredential: Sendable, Equatable {
    /// No token: nobody is signed in, and reads are not queued for the station.
    case signedOut
    /// A token pasted into a version before sign-in, kept for existing installs: it is still
    /// used until someone signs in (which replaces it) or signs out (which forgets it). The
    /// form no longer offers pasting one.
    case pastedToken
    /// The token the station made for `identity` and this device.
    case signedIn(StationIdentity)

    /// From the Keychain's items: the token and the identity kept with it. A token without a
    /// readable identity is a pasted one; an identity without a token is nobody.
    public static func from(token: Data?, identity: Data?) -> StationCredential {
        guard let token, let text = String(data: token, encoding: .utf8), !text.isEmpty else { return .signedOut }
        guard let identity, let decoded = try? JSONDecoder().decode(StationIdentity.self, from: identity) else { return .pastedToken }
        return .signedIn(decoded)
    }

    /// Reads are queued and sent only with a token.
    public var canUpload: Bool { self != .signedOut }

    /// Whom the station records as the uploader, for "Uploaded as …" (`nil`: not known).
    public var uploaderName: String? {
        if case .signedIn(let identity) = self { return identity.fullName }
        return nil
    }
}

/// Who is signed in, as the station screen shows it (nil from `init(credential:)` when
/// nobody is: the screen shows the sign-in form instead).
public struct StationAccountSummary: Sendable, Equatable {
    public struct Row: Sendable, Equatable, Identifiable {
        public var label: String
        public var value: String
        public var id: String { label }
    }

    /// "Signed in as Olli Berg".
    public var title: String
    /// User name, role, site and device name (none for a pasted token).
    public var rows: [Row]
    /// What uploads are recorded as.
    public var note: String
    /// Said when reads still wait: who will send them.
    public var waitingNote: String?
    public var signOutTitle: String
    /// The sign-in form is shown as well (to replace a pasted token).
    public var offersSignIn: Bool

    public init?(credential: StationCredential, waitingCount: Int) {
        switch credential {
        case .signedOut: return nil
        case .pastedToken:
            title = String(localized: "Uploading with a token entered before sign-in")
            rows = []
            note = String(localized: "Sign in to upload as yourself: the station then records your name with each read.")
            signOutTitle = String(localized: "Forget the token")
            offersSignIn = true
        case .signedIn(let identity):
            let fullName = identity.fullName
            let device = identity.device
            title = String(localized: "Signed in as \(fullName)")
            rows = [
                Row(label: String(localized: "User name"), value: identity.user), Row(label: String(localized: "Role"), value: identity.roleTitle),
                Row(label: String(localized: "Site"), value: identity.site), Row(label: String(localized: "Device name"), value: device),
            ]
            note = String(localized: "The station records the reads this iPhone uploads as uploaded by \(fullName) from “\(device)”.")
            signOutTitle = String(localized: "Sign out")
            offersSignIn = false
        }
        waitingNote =
            waitingCount > 0
            ? String(
                localized: "Signing out first sends the reads still waiting, if the station can be reached; any left are uploaded by whoever signs in next.")
            : nil
    }
}
