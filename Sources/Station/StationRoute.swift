import Archive
import Foundation

/// The station's API routes, parsed once from a request's path segments (each one
/// percent-decoded on its own, so that a logger id holding `/`, `?` or `%` is one segment and
/// reachable: README "Station API", docs/security.md "Logger ids in paths").
enum StationRoute: Equatable {
    /// The API's OpenAPI document (no token).
    case openAPI
    case healthz
    case metrics
    case reads
    case loggers
    /// The record's newest signed checkpoint (docs/archive-record.md).
    case checkpoint
    case logger(String)
    case samples(String)
    case acknowledgements(String)
    /// `report.pdf` etc.: the kind is checked by the route's handler (404 for another name).
    case report(String, name: String)
    /// The site's lots (GET) and a new lot (POST).
    case lots
    /// A lot's status.
    case lot(String)
    /// A lot's hand-over onto a logger or to nobody.
    case lotMoves(String)
    /// A lot's journey ended.
    case lotClose(String)
    /// A lot's report for the reviewer's signature: `report.pdf` or `report.html`.
    case lotReport(String, name: String)
    /// A named user's sign-in from a device (the phone): a device token for them.
    case deviceTokens
    /// A logger's electronic signatures (reviews, signed acknowledgements).
    case signatures(String)

    init?(segments: [String]) {
        switch segments {
        case ["healthz"]: self = .healthz
        case ["metrics"]: self = .metrics
        case ["api", "v1", "openapi.json"]: self = .openAPI
        case ["api", "v1", "reads"]: self = .reads
        case ["api", "v1", "loggers"]: self = .loggers
        case ["api", "v1", "checkpoint"]: self = .checkpoint
        case ["api", "v1", "lots"]: self = .lots
        case ["api", "v1", "device-tokens"]: self = .deviceTokens
        case let lot where lot.count >= 4 && lot.count <= 5 && lot[0] == "api" && lot[1] == "v1" && lot[2] == "lots":
            let id = lot[3]
            guard !id.isEmpty else { return nil }
            guard lot.count == 5 else { self = .lot(id); return }
            switch lot[4] {
            case "moves": self = .lotMoves(id)
            case "close": self = .lotClose(id)
            case let name where name.hasPrefix("report."): self = .lotReport(id, name: name)
            default: return nil
            }
        default:
            guard segments.count >= 4, segments.count <= 5, segments[0] == "api", segments[1] == "v1", segments[2] == "loggers",
                !segments[3].isEmpty
            else { return nil }
            let id = segments[3]
            guard segments.count == 5 else { self = .logger(id); return }
            switch segments[4] {
            case "samples": self = .samples(id)
            case "acknowledgements": self = .acknowledgements(id)
            case "signatures": self = .signatures(id)
            case let name where name.hasPrefix("report."): self = .report(id, name: name)
            default: return nil
            }
        }
    }

    /// The route with ids left out, for metrics and logs.
    var label: String {
        switch self {
        case .openAPI: return "/api/v1/openapi.json"
        case .healthz: return "/healthz"
        case .metrics: return "/metrics"
        case .reads: return "/api/v1/reads"
        case .loggers: return "/api/v1/loggers"
        case .checkpoint: return "/api/v1/checkpoint"
        case .logger: return "/api/v1/loggers/{id}"
        case .samples: return "/api/v1/loggers/{id}/samples"
        case .acknowledgements: return "/api/v1/loggers/{id}/acknowledgements"
        case .report: return "/api/v1/loggers/{id}/report"
        case .lots: return "/api/v1/lots"
        case .lot: return "/api/v1/lots/{lot}"
        case .lotMoves: return "/api/v1/lots/{lot}/moves"
        case .lotClose: return "/api/v1/lots/{lot}/close"
        case .lotReport: return "/api/v1/lots/{lot}/report"
        case .deviceTokens: return "/api/v1/device-tokens"
        case .signatures: return "/api/v1/loggers/{id}/signatures"
        }
    }

    var loggerID: String? {
        switch self {
        case .logger(let id), .samples(let id), .acknowledgements(let id), .report(let id, _), .signatures(let id): return id
        default: return nil
        }
    }

    var lotID: String? {
        switch self {
        case .lot(let id), .lotMoves(let id), .lotClose(let id), .lotReport(let id, _): return id
        default: return nil
        }
    }
}

extension HTTPRequest {
    /// The path's segments after the leading `/`, each percent-decoded; `nil` when the path
    /// does not start with `/` or a segment's escapes are not UTF-8.
    var pathSegments: [String]? {
        guard path.hasPrefix("/") else { return nil }
        var segments: [String] = []
        for part in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let decoded = String(part).removingPercentEncoding else { return nil }
            segments.append(decoded)
        }
        return segments
    }
}

extension Station {
    /// The characters a logger id keeps in a link; every other one (and every byte of a
    /// character outside ASCII) is percent-encoded: RFC 3986's unreserved ones, `:` and `@`.
    static let pathSegmentCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:@")

    /// The request's own path, each segment encoded as links encode it, with `query`.
    static func link(_ request: HTTPRequest, query: [(String, String)]) -> String {
        let path = "/" + (request.pathSegments ?? []).map(pathSegment).joined(separator: "/")
        var items = URLComponents()
        items.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
        // `+` reads as a space in a query: encoded, so that ids holding one come back whole.
        return path + (query.isEmpty ? "" : "?" + (items.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B"))
    }

    /// `text` as one path segment of a link.
    static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: pathSegmentCharacters) ?? text
    }

    /// The names an upload may give a logger (`X-ColdTap-Logger-Id`): a letter or digit, then
    /// up to 199 letters, digits and `. _ : @ + -`. Ids a log carries (`FORMAT:SERIAL`) may hold
    /// anything the logger wrote; links encode them (`pathSegment`).
    static func isValidLoggerName(_ text: String) -> Bool { StationName.isValid(text, maxLength: 200, punctuation: "._:@+-") }
}
