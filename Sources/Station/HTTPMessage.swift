import Foundation
import JSONOutput

/// One HTTP request as the routes see it: the server builds it from libmicrohttpd's
/// callbacks, tests build it directly, so that every route is tested without a socket too.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without its query, as sent (percent-escapes kept: `pathSegments` decodes
    /// each segment on its own).
    public var path: String
    /// The query arguments, decoded, in the order given.
    public var query: [(String, String)]
    /// Header names in lower case.
    public var headers: [String: String]
    public var body: Data
    /// True when the body was over the server's limit: it was not kept (`body` is empty).
    public var bodyTooLarge = false

    public init(method: String, path: String, query: [(String, String)] = [], headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The last value of a query argument.
    public func query(_ name: String) -> String? { query.last { $0.0 == name }?.1 }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: Data

    public init(status: Int, headers: [(String, String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }

    /// A JSON document (compact, ordered keys, a final newline).
    public static func json(_ status: Int, _ value: JSONValue, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers,
            body: Data((value.serialized(pretty: false) + "\n").utf8))
    }

    /// An EPCIS 2.0 JSON-LD document (docs/epcis.md): `application/ld+json`, as GS1's REST
    /// binding serves it.
    public static func jsonLD(_ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "application/ld+json; charset=utf-8")], body: Data((value.serialized(pretty: false) + "\n").utf8))
    }

    /// `{"error": ..., "detail": ...}`: `error` a short fixed phrase, `detail` one sentence.
    public static func error(_ status: Int, _ error: String, _ detail: String, headers: [(String, String)] = []) -> HTTPResponse {
        json(status, .object([("error", .string(error)), ("detail", .string(detail))]), headers: headers)
    }
}

/// What a route returns when the request is wrong: becomes the JSON error response.
public struct HTTPFailure: Error, Sendable, CustomStringConvertible {
    public var status: Int
    public var error: String
    public var detail: String
    public var headers: [(String, String)]

    public init(_ status: Int, _ error: String, _ detail: String, headers: [(String, String)] = []) {
        self.status = status
        self.error = error
        self.detail = detail
        self.headers = headers
    }

    public var response: HTTPResponse { .error(status, error, detail, headers: headers) }
    public var description: String { "\(status) \(error): \(detail)" }

    public static func badRequest(_ detail: String) -> HTTPFailure { HTTPFailure(400, "bad request", detail) }
    public static func notFound(_ detail: String) -> HTTPFailure { HTTPFailure(404, "not found", detail) }
}

/// The `{"error", "detail"}` of a refusal, read back for the request log and the reads page.
struct ErrorBody: Decodable {
    var error: String?
    var detail: String?

    static func read(_ body: Data) -> ErrorBody? { try? JSONDecoder().decode(ErrorBody.self, from: body) }
}
