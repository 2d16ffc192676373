import Foundation
import Testing

/// One answer of the station's web pages, read off a raw socket (redirects not followed,
/// every Set-Cookie kept).
public struct PageAnswer {
    public var status: Int
    public var head: [(String, String)]
    public var body: String
    public func header(_ name: String) -> String? { head.first { $0.0.lowercased() == name.lowercased() }?.1 }
    public func headers(_ name: String) -> [String] { head.filter { $0.0.lowercased() == name.lowercased() }.map(\.1) }
}

/// A browser's HTTP exchange with the station, as a browser would send it.
public func page(
    _ station: TestStation, _ method: String = "GET", _ path: String, cookie: String? = nil, form: [(String, String)]? = nil,
    headers: [String: String] = [:]
) throws -> PageAnswer {
    var body = ""
    if let form {
        var components = URLComponents()
        components.queryItems = form.map { URLQueryItem(name: $0.0, value: $0.1) }
        body = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
    }
    var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(station.port)\r\nConnection: close\r\n"
    if let cookie { request += "Cookie: \(cookie)\r\n" }
    for (name, value) in headers { request += "\(name): \(value)\r\n" }
    // As a browser posts a page's form: with the page's origin (unless the test gives its own).
    if form != nil, !headers.contains(where: { $0.0.lowercased() == "origin" || $0.0.lowercased() == "referer" }) {
        request += "Origin: http://127.0.0.1:\(station.port)\r\n"
    }
    if form != nil { request += "Content-Type: application/x-www-form-urlencoded\r\n" }
    request += "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    let (status, text) = rawExchange(port: station.port, Array(request.utf8), timeout: 30)
    let status1 = try #require(status, "no HTTP answer to \(method) \(path): \(text.prefix(200))")
    let split = text.range(of: "\r\n\r\n")
    let headText = split.map { String(text[..<$0.lowerBound]) } ?? text
    let head = headText.split(separator: "\r\n").dropFirst().compactMap { line -> (String, String)? in
        guard let colon = line.firstIndex(of: ":") else { return nil }
        return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    return PageAnswer(status: status1, head: head, body: split.map { String(text[$0.upperBound...]) } ?? "")
}

/// The first capture group of `pattern` in `text`.
public func firstMatch(_ pattern: String, in text: String) -> String? {
    guard let regex = try? NSRegularExpression(pattern: pattern),
        let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)), match.numberOfRanges > 1,
        let range = Range(match.range(at: 1), in: text)
    else { return nil }
    return String(text[range])
}

/// Signs a browser in with a site's token (a station without users) and returns the
/// `coldtap_session=…` cookie of the session the station opened.
public func signInWithToken(_ station: TestStation, _ token: String) throws -> String {
    let answer = try page(station, "POST", "/login", form: [("token", token)], headers: ["Origin": "http://127.0.0.1:\(station.port)"])
    #expect(answer.status == 303, "sign-in: \(answer.status) \(answer.body.prefix(300))")
    let cookie = try #require(answer.headers("Set-Cookie").first { $0.hasPrefix("coldtap_session=") }, "no session cookie: \(answer.head)")
    return String(cookie.split(separator: ";")[0])
}

/// Signs a browser in with a user's name and password (a station with users) and returns
/// the `coldtap_session=…` cookie of the session the station opened.
public func signInWithPassword(_ station: TestStation, user: String, password: String) throws -> String {
    let answer = try page(
        station, "POST", "/login", form: [("user", user), ("password", password)], headers: ["Origin": "http://127.0.0.1:\(station.port)"])
    #expect(answer.status == 303, "sign-in of \(user): \(answer.status) \(answer.body.prefix(300))")
    let cookie = try #require(answer.headers("Set-Cookie").first { $0.hasPrefix("coldtap_session=") }, "no session cookie: \(answer.head)")
    return String(cookie.split(separator: ";")[0])
}
