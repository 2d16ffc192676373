import Foundation

/// A station's address as a person types it into the app or `--station`: `https://` and a
/// host, nothing else. Plain `http://` is refused because iOS's App Transport Security would
/// block every upload to it (and the token would cross the network in clear); a station on
/// the local network serves HTTPS with its own certificate (`coldtap serve --tls-cert`).
public enum StationAddress {
    public enum Problem: Error, Equatable, Sendable {
        /// Not a URL with a scheme and a host.
        case notAnAddress
        /// `http://`: uploads would be blocked (and the token sent in clear).
        case plainHTTP
        /// `user:password@`: the token is the credential; an address carries none.
        case credentialsInAddress
    }

    /// The URL for `text` (spaces around it ignored), or why it cannot be a station's.
    public static func parse(_ text: String) -> Result<URL, Problem> {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, let url = components.url
        else { return .failure(.notAnAddress) }
        if components.user != nil || components.password != nil { return .failure(.credentialsInAddress) }
        switch scheme {
        case "https": return .success(url)
        case "http": return .failure(.plainHTTP)
        default: return .failure(.notAnAddress)
        }
    }
}
