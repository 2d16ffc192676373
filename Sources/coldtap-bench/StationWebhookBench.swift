import Archive
import ColdTapBase
import ColdTapCommands
import Foundation
import LoggerFormats
import NDEF

#if canImport(Glibc)
    import Glibc
#endif

// coldtap-bench station --hanging-webhooks [--uploads N] [--engine sqlite|postgresql] [--json]:
// the station upload bench with ALARM reads (every upload queues an event for each webhook),
// first with no webhook, then with 4 webhooks whose receiver on loopback accepts connections
// and never answers, side by side. Target (issue 27): upload p99 < 50 ms while receivers hang,
// the thread count bounded by the delivery pool, and every event queued.

private let hangingHooks = 4

func runHangingWebhooksBench(_ json: Bool, uploads: Int, clients: Int) async throws {
    let arguments = CommandLine.arguments
    let bodies = try (0..<uploads).map { try alarmRead($0) }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-bench-hooks-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let receiver = try HangingReceiver()
    defer { receiver.stop() }
    let urls = (0..<hangingHooks).map { "http://127.0.0.1:\(receiver.port)/hook-\($0)" }
    let only = arguments.firstIndex(of: "--engine").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    var rows: [(engine: String, quiet: StationFigures, hanging: StationFigures, queued: Int, threadsBefore: Int, threadsMost: Int)] = []

    func measure(_ engine: String, quietLocation: String, hangingLocation: String) async throws {
        let quiet = try await benchStation(engine, location: quietLocation, bodies: bodies, clients: clients)
        let before = taskCount()
        let sampler = ThreadSampler()
        let hanging = try await benchStation(engine, location: hangingLocation, bodies: bodies, clients: clients, webhookURLs: urls)
        let most = sampler.stop()
        let archive = try Archive.open(hangingLocation)
        defer { archive.close() }
        let queued = Int(try archive.engine.scalarInt("SELECT COUNT(*) FROM webhook_queue") ?? 0)
        rows.append((engine, quiet, hanging, queued, before, most))
    }
    if only == nil || only == "sqlite" {
        try await measure(
            "sqlite", quietLocation: folder.appendingPathComponent("quiet.sqlite").path,
            hangingLocation: folder.appendingPathComponent("hanging.sqlite").path)
    }
    if only == nil || only == "postgresql" {
        let cluster = try BenchCluster.start()
        defer { cluster.stop() }
        let admin = try PostgreSQLEngine(uri: cluster.uri("postgres"))
        try admin.execute("CREATE DATABASE quiet")
        try admin.execute("CREATE DATABASE hanging")
        admin.close()
        try await measure("postgresql", quietLocation: cluster.uri("quiet"), hangingLocation: cluster.uri("hanging"))
    }
    if json {
        print(
            JSONValue.object(
                rows.map { row in
                    (
                        row.engine,
                        .object([
                            ("uploads", .int(row.hanging.uploads)), ("hooks", .int(hangingHooks)),
                            ("p99MsWithoutWebhooks", .number((row.quiet.p99 * 100).rounded() / 100)),
                            ("p99MsHangingWebhooks", .number((row.hanging.p99 * 100).rounded() / 100)),
                            ("failed", .int(row.quiet.failed + row.hanging.failed)), ("queued", .int(row.queued)),
                            ("threadsBefore", .int(row.threadsBefore)), ("threadsMost", .int(row.threadsMost)),
                        ])
                    )
                }
            ).serialized(pretty: false))
        return
    }
    print(
        "station, ALARM uploads: \(clients) clients, no webhook vs \(hangingHooks) webhooks whose receiver never answers (target: p99 < 50 ms while they hang)")
    for row in rows {
        print(
            String(
                format:
                    "  %@  %d uploads: p99 %.1f ms without webhooks, %.1f ms with hanging ones (p50 %.1f / %.1f ms); %.0f / %.0f uploads/s; failed %d; queued %d of %d; threads %d → at most %d",
                row.engine.padding(toLength: 10, withPad: " ", startingAt: 0), row.hanging.uploads, row.quiet.p99, row.hanging.p99,
                row.quiet.p50, row.hanging.p50, row.quiet.perSecond, row.hanging.perSecond, row.quiet.failed + row.hanging.failed,
                row.queued, row.hanging.uploads * hangingHooks, row.threadsBefore, row.threadsMost))
    }
}

/// Read `index`: 4,000 samples of its own logger at 5 °C with five hours at -2 °C (ALARM).
private func alarmRead(_ index: Int) throws -> Data {
    let start = Date(timeIntervalSince1970: 1_767_225_600 + Double(index) * 60)
    let temperatures = (0..<4000).map { (2000..<2060).contains($0) ? -2.0 : 5.0 }
    let payload = try Generic16Encoder.unixPayload(start: start, temperatures: temperatures, intervalSeconds: 300)
    return try NDEFMessage(records: [Generic16Encoder.record(payload: payload)]).encoded()
}

private func taskCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
}

/// The highest thread count of this process while it runs (looked at every 20 ms).
private final class ThreadSampler: Sendable {
    private struct State {
        var most: Int
        var stopAsked = false
        var stopped = false
    }
    private let state: WaitableValue<State>

    init() {
        let state = WaitableValue(State(most: taskCount()))
        self.state = state
        Thread {
            var stopping = false
            while !stopping {
                let count = taskCount()
                stopping = state.wait(until: { $0.stopAsked }, deadline: Date().addingTimeInterval(0.02)) { value, asked in
                    value.most = max(value.most, count)
                    value.stopped = asked
                    return asked
                }
            }
        }.start()
    }

    func stop() -> Int {
        state.update { $0.stopAsked = true }
        return state.wait(until: { $0.stopped }) { value, _ in value.most }
    }
}

/// Accepts connections on 127.0.0.1 and never reads nor answers them, on one thread.
private final class HangingReceiver: Sendable {
    let port: UInt16
    private let listener: Int32
    private let connections = LockedValue<[Int32]>([])
    private let acceptEnded = WaitableValue(false)

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard listener >= 0, bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw ArchiveBenchError("the hanging receiver could not listen on 127.0.0.1")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        Thread { [connections, acceptEnded] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { break }
                connections.withLock { $0.append(connection) }
            }
            acceptEnded.update { $0 = true }
        }.start()
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        acceptEnded.wait(until: { $0 }) { _, _ in }
        for connection in connections.withLock({ $0 }) { close(connection) }
    }
}
