import Archive
import ArchiveTestSupport
import ColdTapBase
import ColdTapCommands
import CommandTestSupport
import Digest
import Foundation
import Station
import StationTestSupport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The webhook queue (issue 27, item 3): deliveries from a persistent queue served by a small
/// fixed pool, no redirects, and targets limited to https on public addresses.
@Suite("Webhook queue", .serialized)
struct WebhookQueueTests {
    @Test("a 307 is a failed attempt, never followed: the other path gets nothing", arguments: Engine.allCases)
    func redirectNotFollowed(engine: Engine) async throws {
        let station = try await TestStation(engine)
        defer { station.stop() }
        let paths = LockedLines()
        let server = HTTPServer(
            configuration: {
                var configuration = HTTPServer.Configuration()
                configuration.port = 0
                return configuration
            }()
        ) { request in
            paths.append(request.path)
            return request.path == "/hook" ? HTTPResponse(status: 307, headers: [("Location", "/other")]) : HTTPResponse(status: 204)
        }
        try server.start()
        defer { server.stop(grace: 1) }
        let added = await coldtap([
            "webhook", "add", "--site", "north", "http://127.0.0.1:\(server.port)/hook", "--allow-http-webhooks",
            "--allow-private-webhooks", "--archive", station.archive.location,
        ])
        #expect(added.status == 0, "\(added.err)")
        try await uploadAlarm(station, logger: "redirected")
        #expect(station.station.drainWebhooks(timeout: 30))
        #expect(paths.all == ["/hook", "/hook", "/hook", "/hook"])
        let deliveries = try deliveriesKept(station)
        #expect(deliveries.map(\.status) == [307, 307, 307, 307])
        #expect(deliveries.allSatisfy { !$0.delivered && $0.error.contains("redirect, not followed") })
        let listed = await coldtap(["webhook", "list", "--archive", station.archive.location])
        #expect(listed.out.contains("0 pending, 0 delivered, 1 given up, 4 failed attempt(s)"), "\(listed.out)")
    }

    @Test("an event the archive cannot queue is said in the log, and the read is kept all the same")
    func anEventThatCannotBeQueuedIsLogged() async throws {
        let station = try await TestStation(.sqlite)
        defer { station.stop() }
        let added = await coldtap([
            "webhook", "add", "--site", "north", "http://127.0.0.1:9/cold", "--allow-http-webhooks", "--allow-private-webhooks",
            "--archive", station.archive.location,
        ])
        #expect(added.status == 0, "\(added.err)")
        // The queue's table gone: the write that queues the alarm fails.
        let archive = try Archive.open(station.archive.location)
        try archive.engine.execute("DROP TABLE webhook_queue")
        archive.close()
        try await uploadAlarm(station, logger: "unqueued")
        #expect(
            station.logLines.all.contains { $0.contains("\"webhookEventNotQueued\":\"alarm\"") && $0.contains("\"siteID\":1") },
            "\(station.logLines.all.suffix(3))")
        let opened = try Archive.open(station.archive.location)
        defer { opened.close() }
        #expect(try opened.engine.scalarInt("SELECT COUNT(*) FROM reads WHERE logger_id = 'unqueued'") == 1)
    }

    @Test("webhook add refuses http, user-info and loopback, link-local or private hosts, by literal or by name")
    func badTargetsRefusedAtAdd() async throws {
        let archive = try TestArchive(.sqlite)
        defer { archive.remove() }
        #expect(await coldtap(["site", "add", "north", "--archive", archive.location]).status == 0)
        func add(_ url: String, _ flags: [String] = []) async -> Run {
            await coldtap(["webhook", "add", "--site", "north", url] + flags + ["--archive", archive.location])
        }
        let refused: [(String, [String], String)] = [
            ("http://alarms.example.org/hook", [], "plain http"),
            ("ftp://alarms.example.org/hook", [], "scheme is not https"),
            ("https://user:pw@alarms.example.org/hook", [], "user name or password"),
            ("https://token@alarms.example.org/hook", [], "user name or password"),
            ("https://127.0.0.1/hook", [], "loopback"),
            ("https://169.254.169.254/latest/meta-data", [], "link-local"),
            ("https://10.1.2.3/hook", [], "private"),
            ("https://[::1]/hook", [], "loopback"),
            ("https://[::ffff:127.0.0.1]/hook", [], "loopback"),
            ("https://[fd00::1]/hook", [], "private"),
            ("https://[fe80::1]/hook", [], "link-local"),
            ("https://100.64.0.1/hook", [], "private"),
            ("https://0.0.0.0/hook", [], "0.0.0.0/8"),
            ("https://224.0.0.1/hook", [], "multicast"),
            ("https://localhost/hook", [], "loopback"),
            ("http://localhost:9/hook", ["--allow-http-webhooks"], "loopback"),
            ("https://0.0.0.0/hook", ["--allow-private-webhooks"], "0.0.0.0/8"),
        ]
        for (url, flags, reason) in refused {
            let run = await add(url, flags)
            #expect(run.status != 0, "\(url) was added")
            #expect(run.err.contains("webhook not added") && run.err.contains(reason), "\(url): \(run.err)")
            #expect(!run.err.contains("pw@"), "the refusal repeats the password: \(run.err)")
        }
        // The flags let tests and LAN receivers in.
        let lan = await add("http://10.1.2.3:8080/hook", ["--allow-http-webhooks", "--allow-private-webhooks"])
        #expect(lan.status == 0, "\(lan.err)")
        let local = await add("https://localhost/hook", ["--allow-private-webhooks"])
        #expect(local.status == 0, "\(local.err)")
        let listed = await coldtap(["webhook", "list", "--archive", archive.location])
        #expect(listed.out.split(separator: "\n").count == 3, "a header and the two hooks: \(listed.out)")
    }

    @Test("addresses judged by what they are, IPv6 forms of IPv4 included")
    func addressKinds() throws {
        let strict = WebhookTargetPolicy()
        let refused = [
            "https://[::ffff:10.0.0.1]/", "https://[::ffff:169.254.169.254]/", "https://[64:ff9b::a9fe:a9fe]/",
            "https://[2002:7f00:1::]/", "https://[::]/", "https://[ff02::1]/", "https://172.16.0.1/", "https://192.168.1.1/",
            "https://255.255.255.255/", "https://[fec0::1]/", "https://198.18.0.1/",
            // ::ffff:0:0/96, IPv4-translated (issue 43 item 15): loopback and metadata inside.
            "https://[::ffff:0:7f00:1]/", "https://[::ffff:0:a9fe:a9fe]/",
        ]
        for url in refused {
            #expect(throws: WebhookTargetRefusal.self, "\(url)") { try WebhookTarget.parse(url, policy: strict) }
        }
        for url in ["https://93.184.215.14/hook", "https://[2606:4700::1111]/hook", "https://alarms.example.org:8443/x?y=1"] {
            #expect(try WebhookTarget.parse(url, policy: strict).scheme == "https", "\(url)")
        }
        #expect(throws: WebhookTargetRefusal.self) { try WebhookTarget.parse("https://exa mple.org/", policy: strict) }
        #expect(throws: WebhookTargetRefusal.self) { try WebhookTarget.parse("https://", policy: strict) }
        #expect(try WebhookTarget.parse("http://10.0.0.1/", policy: WebhookTargetPolicy(allowHTTP: true, allowPrivate: true)).host == "10.0.0.1")
    }

    @Test(
        "a hook stored without the checks is refused at delivery, with the reason recorded and nothing sent",
        arguments: Engine.allCases)
    func badTargetsRefusedAtDelivery(engine: Engine) async throws {
        let station = try await TestStation(engine) { $0.allowPrivateWebhookTargets = false }
        defer { station.stop() }
        let receiver = try RawReceiver(mode: .answer)
        defer { receiver.stop() }
        let hooks = [
            "http://127.0.0.1:\(receiver.port)/hook", "http://localhost:\(receiver.port)/hook",
            "http://u:pw@127.0.0.1:\(receiver.port)/hook", "https://169.254.169.254/latest/meta-data", "https://10.9.9.9/hook",
        ]
        do {
            let archive = try Archive.open(station.archive.location)
            defer { archive.close() }
            let store = try StationStore(archive: archive)
            let north = try #require(try store.site(named: "north"))
            for url in hooks { try store.addWebhook(siteID: north.id, url: url, secret: "s") }
        }
        try await uploadAlarm(station, logger: "refused")
        #expect(station.station.drainWebhooks(timeout: 30))
        #expect(receiver.connections == 0)
        let deliveries = try deliveriesKept(station).sorted { $0.webhookID < $1.webhookID }
        // One attempt each, given up at once: a refused target does not get better by waiting.
        #expect(deliveries.map(\.webhookID) == [1, 2, 3, 4, 5])
        #expect(deliveries.allSatisfy { !$0.delivered && $0.status == nil })
        let reasons = deliveries.map(\.error)
        #expect(reasons[0].contains("loopback"), "\(reasons)")
        #expect(reasons[1].contains("localhost (127.0.0.1)") || reasons[1].contains("localhost (::1)"), "\(reasons)")
        #expect(reasons[2].contains("user name or password") && !reasons[2].contains("pw"), "\(reasons)")
        #expect(reasons[3].contains("link-local"), "\(reasons)")
        #expect(reasons[4].contains("private"), "\(reasons)")
        let listed = await coldtap(["webhook", "list", "--archive", station.archive.location])
        #expect(listed.out.components(separatedBy: "0 pending, 0 delivered, 1 given up, 1 failed attempt(s)").count == 6, "\(listed.out)")
    }

    @Test("a delivery under way when the station stops is resumed by the next start", arguments: Engine.allCases)
    func restartResumes(engine: Engine) async throws {
        let station = try await TestStation(engine) { $0.webhookAttemptTimeout = 60 }
        defer { station.stop() }
        let receiver = try RawReceiver(mode: .hang)
        defer { receiver.stop() }
        let added = await coldtap([
            "webhook", "add", "--site", "north", "http://127.0.0.1:\(receiver.port)/hook", "--secret", "s3cret",
            "--allow-http-webhooks", "--allow-private-webhooks", "--archive", station.archive.location,
        ])
        #expect(added.status == 0, "\(added.err)")
        try await uploadAlarm(station, logger: "resumed")
        #expect(receiver.waitForConnections(1, timeout: 30))
        // Stops at once although the receiver holds the attempt for up to a minute.
        station.station.stop(grace: 2)
        do {
            let archive = try Archive.open(station.archive.location)
            defer { archive.close() }
            let store = try StationStore(archive: archive)
            #expect(try store.pendingWebhookDeliveries() == 1)
            #expect(try store.deliveries().map(\.error) == ["the station stopped during the attempt"])
        }
        receiver.mode = .answer
        try station.restart()
        #expect(station.station.drainWebhooks(timeout: 30))
        #expect(receiver.answered.count == 1)
        let body = try #require(receiver.answered.first)
        let object = try #require(try JSONSerialization.jsonObject(with: body.body) as? [String: Any])
        #expect(object["type"] as? String == "alarm")
        #expect((object["logger"] as? [String: Any])?["id"] as? String == "resumed")
        let expected = "sha256=" + HMACSHA256.authenticationCode(body.body, key: Data("s3cret".utf8)).hexString(uppercase: false)
        #expect(body.headers["x-coldtap-signature"] == expected)
        #expect(try deliveriesKept(station).map(\.delivered) == [false, true])
    }

    @Test("1,000 ALARMs while the receiver hangs: every upload answered 201, threads bounded, all queued", .tags(.slow), arguments: Engine.allCases)
    func hangingReceiverStall(engine: Engine) async throws {
        let workers = 4
        let station = try await TestStation(engine) {
            $0.webhookWorkers = workers
            $0.webhookAttemptTimeout = 120
        }
        defer { station.stop() }
        let receiver = try RawReceiver(mode: .hang)
        defer { receiver.stop() }
        let added = await coldtap([
            "webhook", "add", "--site", "north", "http://127.0.0.1:\(receiver.port)/hook",
            "--allow-http-webhooks", "--allow-private-webhooks", "--archive", station.archive.location,
        ])
        #expect(added.status == 0, "\(added.err)")
        // A first alarm starts the attempt that hangs, and brings up the clients' threads.
        try await uploadAlarm(station, logger: "stall-warm")
        #expect(receiver.waitForConnections(1, timeout: 30))
        let before = threadCount()
        let highest = LockedValueBox(before)
        let token = try #require(station.tokens["north-upload"])
        let body = try Reads.alarm()
        let url = station.base.appendingPathComponent("api/v1/reads")
        let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
            for client in 0..<8 {
                group.addTask {
                    var statuses: [Int] = []
                    for index in stride(from: client, to: 1000, by: 8) {
                        let answer = try await request(
                            url, method: "POST", token: token,
                            headers: [UploadHeader.loggerID: "stall-\(index)", UploadHeader.readTime: Reads.readTime],
                            body: body)
                        statuses.append(answer.status)
                        if index % 50 == 0 { highest.raise(threadCount()) }
                    }
                    return statuses
                }
            }
            var all: [Int] = []
            for try await part in group { all += part }
            return all
        }
        highest.raise(threadCount())
        #expect(statuses.count == 1000)
        #expect(statuses.allSatisfy { $0 == 201 }, "\(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count))")
        // The old sender held a thread per event (a thousand here); the pool holds `workers`,
        // whatever the queue. The count is the whole test process's, where other suites start
        // and stop stations at the same time, hence the margin (a full run once saw +16).
        #expect(highest.value <= before + workers + 64, "threads went from \(before) to \(highest.value)")
        // Per-target concurrency 1: the one hanging attempt, nothing more.
        #expect(receiver.connections == 1)
        let archive = try Archive.open(station.archive.location)
        defer { archive.close() }
        let store = try StationStore(archive: archive)
        #expect(try store.pendingWebhookDeliveries() == 1001)
        let listed = await coldtap(["webhook", "list", "--archive", station.archive.location])
        #expect(listed.out.contains("1001 pending, 0 delivered, 0 given up, 0 failed attempt(s)"), "\(listed.out)")
    }

    // MARK: Helpers

    private func uploadAlarm(_ station: TestStation, logger: String) async throws {
        let upload = try await request(
            station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: station.tokens["north-upload"],
            headers: [UploadHeader.loggerID: logger, UploadHeader.readTime: Reads.readTime], body: try Reads.alarm())
        #expect(upload.status == 201, "\(upload.text)")
    }

    private func deliveriesKept(_ station: TestStation) throws -> [WebhookDelivery] {
        let archive = try Archive.open(station.archive.location)
        defer { archive.close() }
        return try StationStore(archive: archive).deliveries()
    }
}

/// The threads of this process (the station runs in it).
func threadCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
}

final class LockedValueBox: @unchecked Sendable {
    private let lock = NSLock()
    private var highest: Int
    init(_ value: Int) { highest = value }
    func raise(_ value: Int) { lock.withLock { highest = max(highest, value) } }
    var value: Int { lock.withLock { highest } }
}

/// A receiver on 127.0.0.1 on one thread of its own: in `hang` mode it accepts connections
/// and never reads nor answers; in `answer` mode it reads each request and answers 204.
final class RawReceiver: @unchecked Sendable {
    enum Mode { case hang, answer }
    struct Received {
        var headers: [String: String]
        var body: Data
    }

    private let condition = NSCondition()
    private var modeValue: Mode
    private var accepted = 0
    private var receivedRequests: [Received] = []
    private var held: [Int32] = []
    private let listener: Int32
    let port: UInt16
    private let finished = DispatchSemaphore(value: 0)

    var mode: Mode {
        get { condition.withLock { modeValue } }
        set { condition.withLock { modeValue = newValue } }
    }
    var connections: Int { condition.withLock { accepted } }
    var answered: [Received] { condition.withLock { receivedRequests } }

    init(mode: Mode) throws {
        modeValue = mode
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard listener >= 0, bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in
            defer { finished.signal() }
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                condition.withLock {
                    accepted += 1
                    condition.broadcast()
                }
                if self.mode == .hang {
                    condition.withLock { held.append(connection) }
                } else {
                    answer(connection)
                }
            }
        }
        thread.start()
    }

    func waitForConnections(_ count: Int, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while accepted < count {
            if !condition.wait(until: deadline) { return accepted >= count }
        }
        return true
    }

    private func answer(_ connection: Int32) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headEnd: Int?
        var length = 0
        while bytes.count < 1 << 20 {
            if let end = headEnd, bytes.count >= end + length { break }
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { return }
            bytes += buffer[0..<count]
            if headEnd == nil, let range = Data(bytes).range(of: Data("\r\n\r\n".utf8)) {
                headEnd = range.upperBound
                let head = String(decoding: bytes[..<range.lowerBound], as: UTF8.self)
                for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                    length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        guard let end = headEnd else { return }
        var headers: [String: String] = [:]
        for line in String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        condition.withLock { receivedRequests.append(Received(headers: headers, body: Data(bytes[end..<min(bytes.count, end + length)]))) }
        let response = "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"
        _ = response.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        finished.wait()
        for connection in condition.withLock({ held }) { close(connection) }
    }
}
