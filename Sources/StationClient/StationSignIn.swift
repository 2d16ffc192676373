import ColdTapBase
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a station answers to a device's sign-in (`POST /api/v1/device-tokens`,
/// docs/accounts.md): an upload token made for the user and this device, shown this once,
/// and who the user is. Uploads with the token are recorded with the user and the device.
public struct DeviceSignIn: Sendable, Equatable, Decodable {
    /// The upload token (the station keeps only its SHA-256).
    public var token: String
    /// The token's number on the station ("token #12" in its audit trail).
    public var tokenID: Int
    /// The user's name, as typed to sign in.
    public var user: String
    /// The name the user's signatures print, e.g. "Olli Berg".
    public var fullName: String
    /// "operator", "reviewer" or "admin" (a viewer cannot sign a device in).
    public var role: String
    /// The user's site.
    public var site: String
    /// The device the token is for, as the station keeps it.
    public var device: String

    public init(token: String, tokenID: Int, user: String, fullName: String, role: String, site: String, device: String) {
        self.token = token
        self.tokenID = tokenID
        self.user = user
        self.fullName = fullName
        self.role = role
        self.site = site
        self.device = device
    }

    enum CodingKeys: String, CodingKey {
        case token, tokenID = "id", user, fullName, role, site, device
    }
}

/// Why a station did not sign a device in.
public enum StationSignInError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why an account may not sign a device in (403).
    public enum NotAllowed: Sendable, Equatable, CaseIterable {
        /// The account was disabled.
        case disabled
        /// The account has no password yet: its set-up link sets one.
        case noPasswordYet
        /// A viewer's account: a device uploads reads, which needs the operator role or above.
        case viewer
        /// The station said something this client does not tell apart (its words are kept).
        case other
    }

    /// 401: the user name or the password is wrong (the station answers the same for both,
    /// so names cannot be probed).
    case wrongNameOrPassword
    /// 423: the account is locked after repeated wrong passwords, until the time the station
    /// names (`nil` when its answer names none this client reads).
    case locked(until: Date?)
    /// 403: the account may not sign a device in; `detail` is the station's words.
    case notAllowed(NotAllowed, detail: String)
    /// No answer (offline, refused, timed out).
    case unreachable(String)
    /// Any other error answer: 400 for a body the station refused, 404 from a station that
    /// has no device sign-in, 429, 5xx…
    case refused(status: Int, error: String, detail: String)
    /// A 201 this client cannot read (something else at that address, or another version).
    case badAnswer(String)

    public var description: String {
        switch self {
        case .wrongNameOrPassword: return "the user name or password is wrong"
        case .locked(let until): return "the account is locked" + (until.map { " until \($0.isoUTC)" } ?? "")
        case .notAllowed(_, let detail): return "the station does not let this account sign in a device: \(detail)"
        case .unreachable(let reason): return "the station cannot be reached (\(reason))"
        case let .refused(status, error, detail): return "the station answered \(status) \(error): \(detail)"
        case .badAnswer(let reason): return "the station's answer is not one this client reads (\(reason))"
        }
    }

    /// The error for the station's answer `status` with `body` (`{"error", "detail"}`).
    static func from(status: Int, body: Data) -> StationSignInError {
        let refusal = StationClient.refusal(status: status, body: body)
        guard case let .refused(_, error, detail) = refusal else { return .badAnswer("\(refusal)") }
        switch status {
        case 401: return .wrongNameOrPassword
        case 423: return .locked(until: lockEnd(in: detail))
        case 403: return .notAllowed(notAllowed(detail), detail: detail)
        default: return .refused(status: status, error: error, detail: detail)
        }
    }

    /// Which refusal a 403's detail names, by the station's fixed wording (Station's
    /// `checkPassword` and `createDeviceToken`).
    static func notAllowed(_ detail: String) -> NotAllowed {
        let text = detail.lowercased()
        if text.contains("this account is disabled") { return .disabled }
        if text.contains("has no password yet") { return .noPasswordYet }
        if text.contains("is a viewer") { return .viewer }
        return .other
    }

    /// The time after "until " in a 423's detail ("… locked after repeated wrong passwords
    /// until 2026-04-09T10:05:00.250Z; try again then …").
    static func lockEnd(in detail: String) -> Date? {
        guard let until = detail.range(of: "until ") else { return nil }
        let time = detail[until.upperBound...].prefix { !$0.isWhitespace && $0 != ";" && $0 != "," }
        return ISO8601Time.parse(String(time))
    }
}

extension StationClient {
    /// Signs `user` in from this device with their password: the station makes an upload
    /// token for them and the device named `device` (e.g. "ward 3 phone"). Sent without any
    /// token (a client made with `init(baseURL:)` will do) and never retried: each wrong
    /// password counts toward the account's lock.
    /// - Throws: `StationSignInError`, one case for each refusal.
    public func signIn(user: String, password: String, device: String) async throws -> DeviceSignIn {
        var request = URLRequest(url: try signInURL())
        request.httpMethod = "POST"
        request.httpBody = try JSONEncoder().encode(SignInBody(user: user, password: password, device: device))
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, status): (Data, Int)
        do {
            (data, status) = try await send(request)
        } catch let error as StationClientError {
            throw StationSignInError.unreachable(Self.reason(error))
        }
        guard status == 201 || status == 200 else { throw StationSignInError.from(status: status, body: data) }
        let signIn: DeviceSignIn
        do {
            signIn = try JSONDecoder().decode(DeviceSignIn.self, from: data)
        } catch {
            throw StationSignInError.badAnswer("\(error)")
        }
        guard !signIn.token.isEmpty else { throw StationSignInError.badAnswer("the answer holds no token") }
        return signIn
    }

    struct SignInBody: Encodable {
        var user: String
        var password: String
        var device: String
    }

    private func signInURL() throws -> URL {
        do {
            return try url(segments: ["api", "v1", "device-tokens"])
        } catch let error as StationClientError {
            throw StationSignInError.unreachable(Self.reason(error))
        }
    }

    private static func reason(_ error: StationClientError) -> String {
        if case .unreachable(let reason) = error { return reason }
        return error.description
    }
}
