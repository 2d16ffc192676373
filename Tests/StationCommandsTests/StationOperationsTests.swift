import Archive
import ArchiveTestSupport
import ColdTapBase
import ColdTapCommands
import CommandTestSupport
import Digest
import Foundation
import NDEF
import Station
import StationClient
import StationTestSupport
import TestSupport
import Testing
import TransparencyLog

@Suite("Station operations", .serialized)
struct StationOperationsTests {
    @Test("routes answer without a socket")
    func routesWithoutSocket() async throws {
        let archive = try TestArchive(.sqlite)
        defer { archive.remove() }
        let station = Station(configuration: .init(archive: archive.location), logLine: { _ in })
        #expect(station.handle(HTTPRequest(method: "GET", path: "/healthz")).status == 200)
        #expect(station.handle(HTTPRequest(method: "GET", path: "/api/v1/loggers")).status == 401)
        #expect(station.handle(HTTPRequest(method: "GET", path: "/nope")).status == 404)
        var large = HTTPRequest(method: "POST", path: "/api/v1/reads")
        large.bodyTooLarge = true
        #expect(station.handle(large).status == 413)
        station.stop()
    }

    @Test("a request fuzz: no crash, no 500, the archive unchanged", .tags(.slow))
    func requestFuzz() async throws {
        try await withStation(.sqlite, maxBody: 64 * 1024) { station in
            let token = try #require(station.tokens["north-upload"])
            // One read kept first, so that the fuzz runs against a non-empty archive.
            let kept = try await request(
                station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: token,
                headers: [UploadHeader.loggerID: "kept", UploadHeader.readTime: Reads.readTime], body: try Reads.cold())
            #expect(kept.status == 201)
            let before = try station.archive.fingerprint()
            var generator = SeededGenerator(seed: 13)
            var statuses: [Int: Int] = [:]
            var noAnswer = 0
            let port = station.port
            func note(_ status: Int?) {
                if let status { statuses[status, default: 0] += 1 } else { noAnswer += 1 }
            }
            let valid = try Reads.cold()
            // Malformed request lines and headers.
            let malformed: [String] = [
                "GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", "GET /healthz HTTP/1.1\r\n\r\n",
                "POST /api/v1/reads HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
                "POST /api/v1/reads HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n",
                "POST /api/v1/reads HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n",
                "GET /api/v1/loggers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer\r\n\r\n",
                "GET /api/v1/loggers HTTP/1.1\r\nHost: x\r\nAuthorization: \u{00}\u{01}\r\n\r\n",
                "GET /%zz%00/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /api/v1/loggers/%00 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n",
                "GET /api/v1/loggers?limit=-1&cursor=%FF HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n",
                "GET /api/v1/loggers/kept/samples?from=x&to=y HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n",
                "GET /api/v1/loggers/kept/report.exe HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n",
                "POST /api/v1/loggers/kept/acknowledgements HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nContent-Length: 5\r\n\r\n{\"a\":",
            ]
            for text in malformed { note(rawExchange(port: port, Array(text.utf8), timeout: 4).status) }
            // Huge headers: one line over the connection's memory, and many lines.
            let huge = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 200_000) + "\r\n\r\n"
            note(rawExchange(port: port, Array(huge.utf8), timeout: 4).status)
            let many = "GET /healthz HTTP/1.1\r\nHost: x\r\n" + (0..<5000).map { "X-\($0): y\r\n" }.joined() + "\r\n"
            note(rawExchange(port: port, Array(many.utf8), timeout: 4).status)
            // Truncated bodies: the length says more than is sent, then the client goes quiet or closes.
            let head =
                "POST /api/v1/reads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nX-ColdTap-Logger-Id: fuzz\r\nContent-Length: \(valid.count)\r\n\r\n"
            for cut in [0, 1, valid.count / 2, valid.count - 1] {
                note(rawExchange(port: port, Array(head.utf8) + valid.prefix(cut), closeEarly: true, timeout: 4).status)
            }
            // A slow client: the request in two halves with a pause, and one that stops mid-header (timed out by the server).
            let slowRequest = Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            note(rawExchange(port: port, slowRequest, pauseAfter: 10, pause: 1, timeout: 4).status)
            note(rawExchange(port: port, Array("GET /heal".utf8), timeout: 5).status)
            // Random bytes as reads, and random bytes as requests.
            let reads = station.base.appendingPathComponent("api/v1/reads")
            for round in 0..<120 {
                var bytes = (0..<Int.random(in: 1...2048, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                if round % 3 == 0 {
                    // A valid read with bytes changed: it may decode (a new read) or not.
                    bytes = Array(valid)
                    for _ in 0..<Int.random(in: 1...8, using: &generator) {
                        bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                    }
                    bytes = Array(bytes.prefix(Int.random(in: 1...bytes.count, using: &generator)))
                }
                let answer = try await request(
                    reads, method: "POST", token: token,
                    headers: [UploadHeader.readTime: Reads.readTime, "Content-Type": "application/octet-stream"],
                    body: Data(bytes))
                note(answer.status)
                #expect(answer.status != 500, "round \(round): \(answer.text.prefix(300))")
                #expect((try? answer.json())?["error"] != nil || answer.status == 201 || answer.status == 200, "round \(round)")
            }
            for _ in 0..<60 {
                let bytes = (0..<Int.random(in: 1...512, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                note(rawExchange(port: port, bytes, closeEarly: true, timeout: 4).status)
            }
            #expect(statuses[500] == nil, "\(statuses)")
            // Still serving after all that.
            #expect(try await request(station.base.appendingPathComponent("healthz")).status == 200)
            // Rejected requests changed nothing: only 201s may add reads (mutated reads with no logger id never decode to one).
            #expect(statuses[201] == nil, "\(statuses)")
            #expect(try station.archive.fingerprint() == before)
            let total = statuses.values.reduce(0, +) + noAnswer
            print("station fuzz: \(total) requests, statuses \(statuses.sorted { $0.key < $1.key }), \(noAnswer) closed without an answer")
        }
    }

    @Test("webhooks: signed, retried after failures, every attempt recorded", arguments: Engine.allCases)
    func webhooks(engine: Engine) async throws {
        try await withStation(engine) { station in
            let receiver = WebhookReceiver(secret: "s3cret", failures: 2)
            let server = HTTPServer(
                configuration: {
                    var configuration = HTTPServer.Configuration()
                    configuration.port = 0
                    return configuration
                }()
            ) { receiver.handle($0) }
            try server.start()
            defer { server.stop(grace: 1) }
            let added = await coldtap([
                "webhook", "add", "--site", "north", "http://127.0.0.1:\(server.port)/hook", "--secret", "s3cret",
                "--allow-http-webhooks", "--allow-private-webhooks", "--archive", station.archive.location,
            ])
            #expect(added.status == 0, "\(added.err)")
            let token = try #require(station.tokens["north-upload"])
            let upload = try await request(
                station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: token,
                headers: [UploadHeader.loggerID: "hooked", UploadHeader.readTime: Reads.readTime], body: try Reads.alarm())
            #expect(upload.status == 201)
            // A cold read of the other site sends nothing to north's hook.
            let south = try await request(
                station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: station.tokens["south-upload"],
                headers: [UploadHeader.loggerID: "south-1", UploadHeader.readTime: Reads.readTime], body: try Reads.alarm(first: 5))
            #expect(south.status == 201)
            #expect(station.station.drainWebhooks(timeout: 30))
            let ack = try await request(
                station.base.appendingPathComponent("api/v1/loggers/hooked/acknowledgements"), method: "POST", token: token,
                headers: ["Content-Type": "application/json"],
                body: Data(#"{"excursion": "2026-01-01T08:20:00Z", "by": "N", "comment": "checked"}"#.utf8))
            #expect(ack.status == 201, "\(ack.text)")
            #expect(station.station.drainWebhooks(timeout: 30))
            let events = receiver.accepted
            #expect(events.map { $0["type"] as? String } == ["alarm", "acknowledgement"])
            #expect((events.first?["logger"] as? [String: Any])?["id"] as? String == "hooked")
            #expect(receiver.badSignatures == 0)
            // Each event carries the record's checkpoint, signed by the station's key, which
            // holds the event's read: its leaf is in the tree of that size.
            let key = try NoteVerifierKey(text: try RecordSigningKey.load(file: station.archive.path("signing-key")).verifier.text)
            let note = try #require(events.first?["checkpoint"] as? String, "\(events.first ?? [:])")
            let checkpoint = try Checkpoint.verified(Array(note.utf8), keys: [key])
            let keptArchive = try station.archive.open()
            let readLeaf = try #require(try keptArchive.leaves(kind: .read, key: "hooked/1").first)
            keptArchive.close()
            #expect(readLeaf.index < checkpoint.treeSize)
            // Two failures then success for the alarm; the acknowledgement went through first time.
            let archive = try Archive.open(station.archive.location)
            defer { archive.close() }
            let deliveries = try StationStore(archive: archive).deliveries()
            #expect(deliveries.map(\.attempt) == [1, 2, 3, 1])
            #expect(deliveries.map(\.delivered) == [false, false, true, true])
            #expect(deliveries.first?.status == 500)
            let listed = await coldtap(["webhook", "list", "--archive", station.archive.location])
            #expect(listed.out.contains("0 pending, 2 delivered, 0 given up, 2 failed attempt(s)"), "\(listed.out)")
            #expect(
                listed.out.split(separator: "\n").first?.split(separator: " ") == ["id", "site", "url", "deliveries"],
                "the table style of every list: \(listed.out)")
            let listedJSON = await coldtap(["webhook", "list", "--json", "--archive", station.archive.location])
            let hooks = try #require((try JSONSerialization.jsonObject(with: Data(listedJSON.out.utf8)) as? [String: Any])?["webhooks"] as? [[String: Any]])
            #expect(hooks.first?["delivered"] as? Int == 2 && hooks.first?["failedAttempts"] as? Int == 2, "\(listedJSON.out)")
        }
    }

    /// A read time is stored with where it came from on every path: `push` without
    /// `--read-time` sends the file's modification time as the estimate it is; with it, the
    /// uploader's own time; a raw upload without the header is dated at arrival.
    @Test("push says when its read time is a file's modification time")
    func pushReadTimeSource() async throws {
        let station = try await TestStation(.sqlite)
        defer { station.stop() }
        let token = try #require(station.tokens["north-upload"])
        let queueFolder = station.archive.path("queue")
        let file = station.archive.path("read.ndef")
        try Reads.cold().write(to: URL(fileURLWithPath: file))
        let estimated = await coldtap([
            "push", file, "--station", station.base.absoluteString, "--token", token, "--queue", queueFolder, "--logger-id", "from-file",
        ])
        #expect(estimated.status == 0, "\(estimated.err)")
        let given = station.archive.path("given.ndef")
        try Reads.cold(first: 144).write(to: URL(fileURLWithPath: given))
        let known = await coldtap([
            "push", given, "--station", station.base.absoluteString, "--token", token, "--queue", queueFolder, "--logger-id", "given",
            "--read-time", Reads.readTime,
        ])
        #expect(known.status == 0, "\(known.err)")
        let archive = try station.archive.open()
        defer { archive.close() }
        #expect(try archive.history(loggerID: "from-file").reads.first?.readTimeSource == "file-modification-time")
        #expect(try archive.history(loggerID: "given").reads.first?.readTimeSource == "given-by-uploader")
        // An unknown source is refused, naming the one value.
        let refused = try await request(
            station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: token,
            headers: [UploadHeader.readTime: Reads.readTime, UploadHeader.readTimeSource: "guess", UploadHeader.loggerID: "other"],
            body: try Reads.cold())
        #expect(refused.status == 400 && String(decoding: refused.body, as: UTF8.self).contains("file-modification-time"))
    }

    /// Issue 44 item 8: push words what the station refuses as push's own options, and a
    /// station's sentence is not followed by ".;".
    @Test("push says --logger-id, not the header, and ends the station's sentence once")
    func pushWording() async throws {
        let station = try await TestStation(.sqlite)
        defer { station.stop() }
        let token = try #require(station.tokens["north-upload"])
        let queueFolder = station.archive.path("queue")
        let file = station.archive.path("read.ndef")
        try Reads.cold().write(to: URL(fileURLWithPath: file))
        let anonymous = await coldtap([
            "push", file, "--station", station.base.absoluteString, "--token", token, "--queue", queueFolder, "--read-time", Reads.readTime,
        ])
        #expect(anonymous.status == 65, "\(anonymous.err)")
        #expect(anonymous.err.contains("give it with --logger-id ID (e.g. the label on the logger) and push the file again."), "\(anonymous.err)")
        #expect(!anonymous.err.contains(UploadHeader.loggerID), "\(anonymous.err)")
        let revoked = await coldtap([
            "push", file, "--station", station.base.absoluteString, "--token", token + "0", "--queue", queueFolder, "--logger-id", "x",
            "--read-time", Reads.readTime,
        ])
        #expect(revoked.status == 77, "\(revoked.err)")
        #expect(revoked.err.contains("the token is unknown, revoked or expired; 'coldtap push' sends them later."), "\(revoked.err)")
        #expect(!revoked.err.contains(".;"))
    }

    @Test("the client's offline queue survives a server restart; a retry never duplicates")
    func offlineQueue() async throws {
        let station = try await TestStation(.sqlite)
        defer { station.stop() }
        let token = try #require(station.tokens["north-upload"])
        let queueFolder = URL(fileURLWithPath: station.archive.path("queue"))
        let url = station.base
        station.station.stop()
        // Offline: both reads wait on disk.
        let file = station.archive.path("read.ndef")
        try Reads.cold().write(to: URL(fileURLWithPath: file))
        let offline = await coldtap([
            "push", file, "--station", url.absoluteString, "--token", token, "--queue", queueFolder.path,
            "--logger-id", "queued", "--read-time", Reads.readTime, "--attempts", "1",
        ])
        #expect(offline.status == 75, "\(offline.err)")
        #expect(offline.err.contains("1 read(s) wait"))
        let queue = try UploadQueue(directory: queueFolder)
        try queue.enqueue(PendingUpload(raw: try Reads.cold(first: 144), readTime: Date(), source: "test", loggerID: "queued"))
        #expect(queue.count == 2)
        // The station comes back on the same port.
        try station.restart()
        let client = StationClient(baseURL: url, token: token)
        let result = await queue.drain(using: client, attempts: 3, backoff: 0.1)
        #expect(result.remaining == 0)
        #expect(result.sent.map(\.status) == [201, 201])
        #expect(queue.count == 0)
        // The same read sent again (a retry after a lost answer) is the same read.
        let again = try await client.upload(PendingUpload(raw: try Reads.cold(), readTime: Date(), loggerID: "queued"))
        #expect(again.status == 200)
        // A wrong token: 77, and the read stays queued (it is not the read's fault).
        let wrong = await coldtap([
            "push", file, "--station", url.absoluteString, "--token", token + "0", "--queue", queueFolder.path,
            "--logger-id", "queued", "--attempts", "3",
        ])
        #expect(wrong.status == 77, "\(wrong.err)")
        #expect(wrong.err.contains("refused the token") && queue.count == 1, "\(wrong.err)")
        let pushed = await coldtap([
            "push", file, "--station", url.absoluteString, "--token", token, "--queue", queueFolder.path,
            "--logger-id", "queued",
        ])
        #expect(pushed.status == 0, "\(pushed.err)")
        #expect(pushed.out.contains("already kept as read #1"))
        let archive = try Archive.open(station.archive.location)
        defer { archive.close() }
        #expect(try StationStore(archive: archive).counts().reads == 2)
    }

    @Test("PostgreSQL unreachable: 503 with a JSON error, never 500")
    func unreachableStore() async throws {
        try await withStation(.postgresql) { station in
            let token = try #require(station.tokens["north-read"])
            let loggers = station.base.appendingPathComponent("api/v1/loggers")
            #expect(try await request(loggers, token: token).status == 200)
            station.archive.dropDatabase()
            let down = try await request(loggers, token: token)
            #expect(down.status == 503, "\(down.text)")
            #expect(try down.json()["error"] as? String == "archive unavailable")
            let health = try await request(station.base.appendingPathComponent("healthz"))
            #expect(health.status == 503)
        }
    }

    @Test("the systemd unit passes systemd-analyze verify")
    func systemdUnit() throws {
        let unit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("deploy/coldtap-station.service")
        let text = try String(contentsOf: unit, encoding: .utf8)
        for option in ["User=coldtap", "NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateTmp=yes", "ExecStart="] {
            #expect(text.contains(option), "\(option)")
        }
        // verify wants the ExecStart binary to exist: check a copy that points at a real executable.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("coldtap-station.service")
        try text.replacingOccurrences(of: "/usr/local/bin/coldtap", with: "/bin/true").write(to: copy, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        process.arguments = ["verify", "--man=no", copy.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(!output.contains(copy.lastPathComponent), "\(output)")
    }
}

/// A webhook receiver: checks each event's signature and timestamp, fails the first `failures`
/// deliveries with 500.
final class WebhookReceiver: @unchecked Sendable {
    let secret: String
    private var failuresLeft: Int
    private let lock = NSLock()
    private(set) var accepted: [[String: Any]] = []
    private(set) var badSignatures = 0

    init(secret: String, failures: Int) {
        self.secret = secret
        failuresLeft = failures
    }

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        lock.withLock {
            let expected = "sha256=" + HMACSHA256.authenticationCode(request.body, key: Data(secret.utf8)).hexString(uppercase: false)
            guard request.header("X-ColdTap-Signature") == expected,
                let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any],
                let stamp = request.header("X-ColdTap-Timestamp"), let seconds = Int(stamp),
                object["timestamp"] as? Int == seconds, abs(Date().timeIntervalSince1970 - Double(seconds)) < 300
            else {
                badSignatures += 1
                return HTTPResponse(status: 401)
            }
            if failuresLeft > 0 {
                failuresLeft -= 1
                return HTTPResponse(status: 500)
            }
            accepted.append(object)
            return HTTPResponse(status: 204)
        }
    }
}

/// A small deterministic generator (SplitMix64), so that a failing fuzz round can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
