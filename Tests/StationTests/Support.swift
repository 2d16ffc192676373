import Archive
import ArchiveTestSupport
import ColdTapCommands
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
    func fingerprint() throws -> String {
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
final class TestStation: @unchecked Sendable {
    let archive: TestArchive
    var station: Station
    var tokens: [String: String] = [:]
    let logLines = LockedLines()
    var configuration: Station.Configuration

    /// - Parameter connectionTimeout: short, for the slow-client tests.
    /// - Parameter webhooks: changes to the webhook settings (by default the tests' receivers
    ///   on 127.0.0.1 over http are allowed).
    init(
        _ engine: Engine, maxBody: Int = 1 << 20, webhookBackoff: TimeInterval = 0.05, port: UInt16 = 0,
        connectionTimeout: Int = 3, webhooks: (inout Station.Configuration) -> Void = { _ in },
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
        webhooks(&configuration)
        configure(&configuration.http)
        let lines = logLines
        station = Station(configuration: configuration, logLine: { lines.append($0) })
        for site in ["north", "south"] {
            let added = await coldtap(["site", "add", site, "--archive", archive.location])
            #expect(added.status == 0, "\(added.err)")
            for scope in ["upload", "read", "admin"] {
                let made = await coldtap(["token", "create", "--site", site, "--scope", scope, "--archive", archive.location])
                #expect(made.status == 0, "\(made.err)")
                tokens["\(site)-\(scope)"] = made.out.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        let made = await coldtap(["token", "create", "--scope", "operator", "--archive", archive.location])
        #expect(made.status == 0, "\(made.err)")
        tokens["operator"] = made.out.trimmingCharacters(in: .whitespacesAndNewlines)
        try station.start()
        boundPort = station.port
    }

    /// The port of the first start, kept for a restart on the same port.
    private(set) var boundPort: UInt16 = 0
    var port: UInt16 { boundPort }
    var base: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Stops and starts the station again on the same port (a restart).
    func restart() throws {
        station.stop()
        configuration.http.port = boundPort
        let lines = logLines
        station = Station(configuration: configuration, logLine: { lines.append($0) })
        try station.start()
    }

    func stop() {
        station.stop(grace: 2)
        archive.remove()
    }

    /// Makes a logger kept by the command line one of `site`'s, as its first upload would.
    func claim(_ loggerID: String, for site: String) throws {
        let opened = try Archive.open(archive.location)
        defer { opened.close() }
        let store = try StationStore(archive: opened)
        let siteID = try #require(try store.site(named: site)).id
        #expect(try store.claim(loggerID: loggerID, siteID: siteID) == siteID)
    }
}

/// Runs `body` with a fresh station and stops it afterwards, even when `body` throws.
func withStation(
    _ engine: Engine, maxBody: Int = 1 << 20, connectionTimeout: Int = 3,
    _ body: (TestStation) async throws -> Void
) async throws {
    let station = try await TestStation(engine, maxBody: maxBody, connectionTimeout: connectionTimeout)
    defer { station.stop() }
    try await body(station)
}

final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

/// An HTTP answer as a test reads it.
struct Answer {
    var status: Int
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "not a JSON object: \(text.prefix(300))")
    }
    func header(_ name: String) -> String? { headers.first { $0.key.lowercased() == name.lowercased() }?.value }
}

/// One request over loopback with URLSession.
func request(_ url: URL, method: String = "GET", token: String? = nil, headers: [String: String] = [:], body: Data? = nil) async throws -> Answer {
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.httpBody = body
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let session = URLSession(configuration: .ephemeral)
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
enum Reads {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    static let interval = 600

    static func generic(first: Int = 0, temperatures: [Double]) throws -> Data {
        let payload = try Generic16Encoder.unixPayload(
            start: start.addingTimeInterval(Double(first * interval)),
            temperatures: temperatures, intervalSeconds: interval)
        return try NDEFMessage(records: [Generic16Encoder.record(payload: payload)]).encoded()
    }

    /// A cold read: 5 °C and a small wave.
    static func cold(first: Int = 0, count: Int = 144) throws -> Data {
        try generic(first: first, temperatures: (first..<(first + count)).map { ((5 + sin(Double($0) / 10)) * 10).rounded() / 10 })
    }

    /// A read with a freeze of five hours at -2 °C in the middle: ALARM (vaccine-fridge).
    static func alarm(first: Int = 0) throws -> Data {
        try generic(first: first, temperatures: (0..<144).map { (50..<80).contains($0) ? -2 : 5 })
    }

    static var readTime: String { "2026-01-02T00:00:00Z" }

    /// A cuplTag URL of `count` samples, 5 °C plus tenths repeating every `wave` samples.
    static func cuplTagURL(_ encoder: CuplTagEncoder, count: Int, wave: Int) throws -> Data {
        let raw = (0..<count).map { CuplTagEncoder.rawTemperature(5 + Double($0 % wave) / 10) }
        return Data(try encoder.url(pairs: try encoder.pairs(temperatureRaw: raw, humidityRaw: nil), minutesElapsed: 2).utf8)
    }
}

/// `rawExchange` on a thread of its own: a request that reaches a handler needs Swift's
/// cooperative threads (decoding is async), which a test blocking one in `recv` would starve.
func rawExchangeOnThread(port: UInt16, _ bytes: [UInt8], timeout: TimeInterval = 5) async -> (status: Int?, response: String) {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: rawExchange(port: port, bytes, timeout: timeout)) }.start()
    }
}

/// Sends raw bytes to the station and reads what comes back until the server closes or
/// `timeout` passes; the status of the first response line, if any.
func rawExchange(
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
