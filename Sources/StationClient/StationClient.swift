import ColdTapBase
import Digest
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A read to send to a station: its bytes exactly as read and the headers that go with them.
public struct PendingUpload: Sendable, Codable, Equatable {
    public var raw: Data
    /// When the tag was read (`X-ColdTap-Read-Time`).
    public var readTime: Date?
    /// Where it was read (`X-ColdTap-Source`), e.g. "ColdTap iPhone" or a reader's name.
    public var source: String?
    /// `X-ColdTap-Logger-Id`, for a log that names no logger.
    public var loggerID: String?
    /// The read time is an estimate from a file's modification time, not a time the uploader
    /// knows (`X-ColdTap-Read-Time-Source: file-modification-time`); absent in queue files
    /// written before it existed.
    public var readTimeFromFile: Bool?

    public init(raw: Data, readTime: Date? = nil, source: String? = nil, loggerID: String? = nil, readTimeFromFile: Bool = false) {
        self.raw = raw
        self.readTime = readTime
        self.source = source
        self.loggerID = loggerID
        self.readTimeFromFile = readTimeFromFile ? true : nil
    }

    /// The SHA-256 of the bytes: the station keeps one read per logger and SHA-256, so a
    /// retry of the same upload never adds a second one.
    public var sha256: String { SHA256Digest.hex(raw) }
}

/// What the station answered to an upload.
public struct UploadReceipt: Sendable {
    /// 201 kept now, 200 kept before (the same bytes).
    public var status: Int
    /// The JSON answer (README, "Station API").
    public var body: Data
    public var sha256: String

    public var alreadyKept: Bool { status == 200 }

    /// A member of the answer, e.g. `verdict`.
    public func value(_ key: String) -> Any? {
        ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?[key]
    }
}

public enum StationClientError: Error, Sendable, CustomStringConvertible, Equatable {
    /// No answer (offline, refused, timed out): worth retrying.
    case unreachable(String)
    /// The station answered with an error: `retryable` for 408, 429 and 5xx.
    case refused(status: Int, error: String, detail: String)
    /// The station's record no longer holds what it showed before (a witness's check,
    /// docs/archive-record.md): nothing more is sent to it until someone looks.
    case recordInconsistent(String)
    /// The station answered, but not with JSON this client reads (a station of another
    /// version, or something else at that address): the reason. Not worth retrying.
    case unreadableAnswer(String)

    public var retryable: Bool {
        switch self {
        case .unreachable: return true
        case .refused(let status, _, _): return status == 408 || status == 429 || status >= 500
        case .recordInconsistent, .unreadableAnswer: return false
        }
    }

    /// The station refused the token (401) or its scope (403): the reads are not at fault and
    /// stay queued until the token is fixed.
    public var credentialsRefused: Bool {
        if case .refused(let status, _, _) = self { return status == 401 || status == 403 }
        return false
    }

    public var description: String {
        switch self {
        case .unreachable(let reason): return "the station cannot be reached (\(reason))"
        case let .refused(status, error, detail): return "the station answered \(status) \(error): \(detail)"
        case .recordInconsistent(let what): return "the station's record cannot be trusted: \(what)"
        case .unreadableAnswer(let reason): return "the station's answer is not one this client reads (\(reason))"
        }
    }
}

/// Uploads reads to a station over HTTP(S) with an API token (Foundation only: the iPhone
/// app and `coldtap` share it). A client made without a token only signs in
/// (`signIn(user:password:device:)`, StationSignIn.swift), which gives the token for the next.
public final class StationClient: Sendable {
    public let baseURL: URL
    private let token: String?
    private let session: URLSession

    public convenience init(baseURL: URL, token: String, timeout: TimeInterval = 30) {
        self.init(baseURL: baseURL, token: token, configuration: Self.configuration(timeout: timeout))
    }

    /// A client without a token yet, for `signIn(user:password:device:)`; anything else it
    /// sends goes without `Authorization`, and the station refuses it (401).
    public convenience init(baseURL: URL, timeout: TimeInterval = 30) {
        self.init(baseURL: baseURL, token: nil, configuration: Self.configuration(timeout: timeout))
    }

    private static func configuration(timeout: TimeInterval) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        return configuration
    }

    /// A client whose requests go through `configuration` (tests give it a `URLProtocol`
    /// that answers for the station).
    init(baseURL: URL, token: String?, configuration: URLSessionConfiguration) {
        self.baseURL = baseURL
        self.token = token
        session = URLSession(configuration: configuration)
    }

    /// Sends one read.
    /// - Throws: `StationClientError`.
    public func upload(_ upload: PendingUpload) async throws -> UploadReceipt {
        var request = URLRequest(url: baseURL.appendingPathComponent("api/v1/reads"))
        request.httpMethod = "POST"
        request.httpBody = upload.raw
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        request = authorized(request)
        if let readTime = upload.readTime {
            request.setValue(readTime.isoUTCWholeSeconds, forHTTPHeaderField: UploadHeader.readTime)
            if upload.readTimeFromFile == true {
                request.setValue("file-modification-time", forHTTPHeaderField: UploadHeader.readTimeSource)
            }
        }
        if let source = upload.source { request.setValue(source, forHTTPHeaderField: UploadHeader.source) }
        if let loggerID = upload.loggerID { request.setValue(loggerID, forHTTPHeaderField: UploadHeader.loggerID) }
        let (data, status) = try await send(request)
        guard status == 200 || status == 201 else { throw Self.refusal(status: status, body: data) }
        return UploadReceipt(status: status, body: data, sha256: upload.sha256)
    }

    func get(_ url: URL) async throws -> (Data, Int) {
        try await send(authorized(URLRequest(url: url)))
    }

    /// `request` with the token (when the client has one) and `Accept: application/json`.
    func authorized(_ request: URLRequest) -> URLRequest {
        var request = request
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        return request
    }

    func send(_ request: URLRequest) async throws -> (Data, Int) {
        try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let response = response as? HTTPURLResponse {
                    continuation.resume(returning: (data ?? Data(), response.statusCode))
                } else {
                    continuation.resume(throwing: StationClientError.unreachable(error?.localizedDescription ?? "no answer"))
                }
            }.resume()
        }
    }
}
