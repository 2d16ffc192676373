import Archive
import Foundation

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
