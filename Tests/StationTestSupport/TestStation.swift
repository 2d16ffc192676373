import Archive
import ArchiveTestSupport
import ColdTapBase
import Foundation
import LoggerFormats
import NDEF
import Station
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

extension TestArchive {
    /// What the archive holds: reads, acknowledgements, the chain head and the station's rows.
    public func fingerprint() throws -> String {
        let archive = try Archive.open(location)
        defer { archive.close() }
        let store = try StationStore(archive: archive)
        let counts = try store.counts()
        let head = try archive.chainHead()
        let loggers = try archive.engine.scalarInt("SELECT COUNT(*) FROM site_loggers") ?? -1
        let tokens = try archive.engine.scalarInt("SELECT COUNT(*) FROM tokens") ?? -1
        let acks = try archive.engine.scalarInt("SELECT COUNT(*) FROM acknowledgements") ?? -1
        return "\(counts.reads) \(counts.loggers) \(counts.samples) \(head.length) \(head.hash) \(loggers) \(tokens) \(acks)"
    }
}

/// A station on 127.0.0.1 with an ephemeral port over a fresh archive, with a site `north`
/// and a site `south` and their tokens; `stop()` stops it and removes the archive.
public final class TestStation: @unchecked Sendable {
    public let archive: TestArchive
    public var station: Station
    public var tokens: [String: String] = [:]
    public let logLines = LockedLines()
    public var configuration: Station.Configuration

    /// - Parameter connectionTimeout: short, for the slow-client tests.
    /// - Parameter webhooks: changes to the webhook settings (by default the tests' receivers
    ///   on 127.0.0.1 over http are allowed).
    public init(
        _ engine: Engine, maxBody: Int = 1 << 20, webhookBackoff: TimeInterval = 0.05, port: UInt16 = 0,
        connectionTimeout: Int = 3, sessions: SessionLimits = SessionLimits(), webhooks: (inout Station.Configuration) -> Void = { _ in },
        configure: (inout HTTPServer.Configuration) -> Void = { _ in }
    ) async throws {
        archive = try TestArchive(engine)
        configuration = Station.Configuration(archive: archive.location)
        configuration.http.port = port
        configuration.http.maxBody = maxBody
        configuration.http.connectionTimeout = connectionTimeout
        configuration.webhookBackoff = webhookBackoff
        configuration.webhookAttempts = 4
        configuration.allowHTTPWebhooks = true
        configuration.allowPrivateWebhookTargets = true
        // Next to the archive for SQLite too, so that both engines sign the same way.
        configuration.signingKey = archive.path("signing-key")
        configuration.sessionLimits = sessions
        webhooks(&configuration)
        configure(&configuration.http)
        let lines = logLines
        station = Station(configuration: configuration, logLine: { lines.append($0) })
        try Self.addSitesAndTokens(at: archive.location, into: &tokens)
        try station.start()
        boundPort = station.port
    }

    /// Sites `north` and `south` with an upload, a read and an admin token each, and an
    /// operator token, made through the archive as `coldtap site add` / `token create` do.
    private static func addSitesAndTokens(at location: String, into tokens: inout [String: String]) throws {
        let opened = try Archive.open(location)
        defer { opened.close() }
        let store = try StationStore(archive: opened)
        for name in ["north", "south"] {
            let site = try store.addSite(name)
            for scope in [TokenScope.upload, .read, .admin] {
                tokens["\(name)-\(scope.rawValue)"] = try store.createToken(site: site, scope: scope).token
            }
        }
        tokens["operator"] = try store.createToken(site: nil, scope: .operator).token
    }

    /// The port of the first start, kept for a restart on the same port.
    public private(set) var boundPort: UInt16 = 0
    public var port: UInt16 { boundPort }
    public var base: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Stops and starts the station again on the same port (a restart).
    public func restart() throws {
        station.stop()
        configuration.http.port = boundPort
        let lines = logLines
        station = Station(configuration: configuration, logLine: { lines.append($0) })
        try station.start()
    }

    public func stop() {
        station.stop(grace: 2)
        archive.remove()
    }

    /// Makes a logger kept by the command line one of `site`'s, as its first upload would.
    public func claim(_ loggerID: String, for site: String) throws {
        let opened = try Archive.open(archive.location)
        defer { opened.close() }
        let store = try StationStore(archive: opened)
        let siteID = try #require(try store.site(named: site)).id
        #expect(try store.claim(loggerID: loggerID, siteID: siteID) == siteID)
    }
}

/// Runs `body` with a fresh station and stops it afterwards, even when `body` throws.
public func withStation(
    _ engine: Engine, maxBody: Int = 1 << 20, connectionTimeout: Int = 3,
    _ body: (TestStation) async throws -> Void
) async throws {
    let station = try await TestStation(engine, maxBody: maxBody, connectionTimeout: connectionTimeout)
    defer { station.stop() }
    try await body(station)
}

public final class LockedLines: Sendable {
    private let lines = LockedValue<[String]>([])
    public init() {}
    public func append(_ line: String) { lines.withLock { $0.append(line) } }
    public var all: [String] { lines.withLock { $0 } }
}

/// An HTTP answer as a test reads it.
public struct Answer: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data
    public var text: String { String(decoding: body, as: UTF8.self) }
    public func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "not a JSON object: \(text.prefix(300))")
    }
    public func header(_ name: String) -> String? { headers.first { $0.key.lowercased() == name.lowercased() }?.value }
}

/// One request over loopback with URLSession.
public func request(_ url: URL, method: String = "GET", token: String? = nil, headers: [String: String] = [:], body: Data? = nil) async throws -> Answer {
    var request = URLRequest(url: url)
    // The tests check answers, not how fast they come: on a loaded machine (the whole suite
    // on two cores) an answer may take longer than URLSession's default minute.
    request.timeoutInterval = 600
    request.httpMethod = method
    request.httpBody = body
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 600
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    return try await withCheckedThrowingContinuation { continuation in
        session.dataTask(with: request) { data, response, error in
            guard let response = response as? HTTPURLResponse else {
                continuation.resume(throwing: error ?? URLError(.badServerResponse))
                return
            }
            var headers: [String: String] = [:]
            for (key, value) in response.allHeaderFields { headers["\(key)"] = "\(value)" }
            continuation.resume(returning: Answer(status: response.statusCode, headers: headers, body: data ?? Data()))
        }.resume()
    }
}

/// Logger reads for the tests: generic16-unix NDEF messages (no serial: the logger id goes
/// in X-ColdTap-Logger-Id).
public enum Reads {
    public static let start = LoggerFiles.start
    public static let interval = LoggerFiles.interval

    public static func generic(first: Int = 0, temperatures: [Double]) throws -> Data {
        try LoggerFiles.generic(first: first, temperatures: temperatures)
    }

    /// A cold read: 5 °C and a small wave.
    public static func cold(first: Int = 0, count: Int = 144) throws -> Data {
        try generic(first: first, temperatures: (first..<(first + count)).map { ((5 + sin(Double($0) / 10)) * 10).rounded() / 10 })
    }

    /// A read with a freeze of five hours at -2 °C in the middle: ALARM (vaccine-fridge).
    public static func alarm(first: Int = 0) throws -> Data {
        try generic(first: first, temperatures: (0..<144).map { (50..<80).contains($0) ? -2 : 5 })
    }

    public static var readTime: String { "2026-01-02T00:00:00Z" }

    /// The read time of a read of samples `first..<first + count`: ten minutes after its newest
    /// sample, as a person tapping the logger would read it.
    public static func readTime(first: Int, count: Int) -> String {
        start.addingTimeInterval(Double((first + count) * interval)).isoUTCWholeSeconds
    }

    /// A cuplTag URL of `count` samples, 5 °C plus tenths repeating every `wave` samples.
    public static func cuplTagURL(_ encoder: CuplTagEncoder, count: Int, wave: Int) throws -> Data {
        let raw = (0..<count).map { CuplTagEncoder.rawTemperature(5 + Double($0 % wave) / 10) }
        return Data(try encoder.url(pairs: try encoder.pairs(temperatureRaw: raw, humidityRaw: nil), minutesElapsed: 2).utf8)
    }
}

/// `rawExchange` on a thread of its own: a request that reaches a handler needs Swift's
/// cooperative threads (decoding is async), which a test blocking one in `recv` would starve.
public func rawExchangeOnThread(port: UInt16, _ bytes: [UInt8], timeout: TimeInterval = 5) async -> (status: Int?, response: String) {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: rawExchange(port: port, bytes, timeout: timeout)) }.start()
    }
}

/// Sends raw bytes to the station and reads what comes back until the server closes or
/// `timeout` passes; the status of the first response line, if any.
public func rawExchange(
    port: UInt16, _ bytes: [UInt8], pauseAfter: Int? = nil, pause: TimeInterval = 0, closeEarly: Bool = false,
    timeout: TimeInterval = 5
) -> (status: Int?, response: String) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return (nil, "no socket") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { return (nil, "no connection") }
    var timeval = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeval, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeval, socklen_t(MemoryLayout<timeval>.size))
    let split = min(pauseAfter ?? bytes.count, bytes.count)
    let sentFirst = bytes[..<split].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    if sentFirst < 0 { return (nil, "send failed") }
    if pause > 0 { Thread.sleep(forTimeInterval: pause) }
    if split < bytes.count {
        _ = bytes[split...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
    if closeEarly {
        shutdown(fd, Int32(SHUT_WR))
    }
    var received = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while received.count < 1 << 20 {
        let count = recv(fd, &buffer, buffer.count, 0)
        if count <= 0 { break }
        received += buffer[0..<count]
        // One response is enough: stop after the head and the body its length says.
        if let text = String(bytes: received, encoding: .utf8), let headEnd = text.range(of: "\r\n\r\n") {
            let head = text[..<headEnd.lowerBound].lowercased()
            if let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)),
                text.utf8.count - text[..<headEnd.upperBound].utf8.count >= length
            {
                break
            }
        }
    }
    let text = String(decoding: received, as: UTF8.self)
    let parts = text.split(separator: " ", maxSplits: 2)
    let status = parts.count >= 2 && parts[0].hasPrefix("HTTP/") ? Int(parts[1]) : nil
    return (status, text)
}
