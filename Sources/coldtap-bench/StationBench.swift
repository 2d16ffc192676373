import Archive
import ColdTapCommands
import Foundation
import LoggerFormats
import NDEF
import Station

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// coldtap-bench station [--json] [--uploads N] [--engine sqlite|postgresql] [--no-pages]: 16 clients on loopback upload distinct logger
// reads (4,000 samples each, made before the clock starts) to a station on SQLite, then on a
// private PostgreSQL cluster (or COLDTAP_BENCH_POSTGRESQL); afterwards the archive is counted:
// every 201 must be there and nothing else ("lost" counts the difference).
// Targets on 2 cores: ≥ 500 uploads/s, p99 < 50 ms, lost 0.
// `--hanging-webhooks`: ALARM reads, with and without webhook receivers that never answer
// (StationWebhookBench.swift).

struct StationFigures {
    var engine: String
    var uploads: Int
    var clients: Int
    var perSecond: Double
    var p50: Double
    var p99: Double
    var lost: Int
    var failed: Int
}

func runStationBench(_ json: Bool) async throws {
    let arguments = CommandLine.arguments
    var uploads = BenchScale.pick(1600, smoke: 32)
    if let index = arguments.firstIndex(of: "--uploads"), index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 {
        uploads = value
    }
    let clients = 16
    if arguments.contains("--hanging-webhooks") {
        try await runHangingWebhooksBench(json, uploads: uploads, clients: clients)
        return
    }
    let bodies = try (0..<uploads).map { try stationRead($0) }
    var figures: [StationFigures] = []
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-bench-station-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let only = arguments.firstIndex(of: "--engine").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    if only == nil || only == "sqlite" {
        figures.append(try await benchStation("sqlite", location: folder.appendingPathComponent("station.sqlite").path, bodies: bodies, clients: clients))
    }
    if only == nil || only == "postgresql" {
        if let given = ProcessInfo.processInfo.environment["COLDTAP_BENCH_POSTGRESQL"] {
            figures.append(
                try await benchStation(
                    "postgresql", location: given, bodies: bodies, clients: clients, signingKey: folder.appendingPathComponent("pg-key").path))
        } else {
            let cluster = try BenchCluster.start()
            defer { cluster.stop() }
            let admin = try PostgreSQLEngine(uri: cluster.uri("postgres"))
            try admin.execute("CREATE DATABASE station")
            admin.close()
            figures.append(
                try await benchStation(
                    "postgresql", location: cluster.uri("station"), bodies: bodies, clients: clients,
                    signingKey: folder.appendingPathComponent("pg-key").path))
        }
    }
    let pages = arguments.contains("--no-pages") ? nil : try await measureStationPages(folder: folder)
    func engineJSON(_ item: StationFigures) -> JSONValue {
        .object([
            ("uploads", .int(item.uploads)), ("clients", .int(item.clients)), ("uploadsPerSecond", .number((item.perSecond * 10).rounded() / 10)),
            ("p50Ms", .number((item.p50 * 100).rounded() / 100)), ("p99Ms", .number((item.p99 * 100).rounded() / 100)),
            ("lost", .int(item.lost)), ("engine", .string(item.engine)), ("failed", .int(item.failed)),
        ])
    }
    if json {
        guard case .object(let top)? = figures.first.map(engineJSON) else { return }
        print(
            JSONValue.object(
                top + [
                    ("engines", .array(figures.map { .string($0.engine) })),
                    ("byEngine", .object(figures.map { ($0.engine, engineJSON($0)) })),
                ] + (pages?.json ?? [])
            ).serialized(pretty: false))
        return
    }
    print("station: \(clients) clients on loopback upload distinct reads of 4,000 samples (targets: ≥ 500 uploads/s, p99 < 50 ms, lost 0)")
    for item in figures {
        print(
            String(
                format: "  %@  %d uploads: %.0f uploads/s, p50 %.1f ms, p99 %.1f ms, lost %d, failed %d",
                item.engine.padding(toLength: 10, withPad: " ", startingAt: 0), item.uploads, item.perSecond, item.p50, item.p99, item.lost, item.failed))
    }
    pages?.printLines()
}

/// Read `index`: a generic16-unix NDEF message of 4,000 samples of its own logger.
private func stationRead(_ index: Int) throws -> Data {
    let start = Date(timeIntervalSince1970: 1_767_225_600 + Double(index) * 60)
    let temperatures = (0..<4000).map { ((5 + 2 * sin(Double($0 + index) / 40)) * 10).rounded() / 10 }
    let payload = try Generic16Encoder.unixPayload(start: start, temperatures: temperatures, intervalSeconds: 300)
    return try NDEFMessage(records: [Generic16Encoder.record(payload: payload)]).encoded()
}

/// - Parameter webhookURLs: webhooks of the bench site (http to loopback allowed).
/// - Parameter signingKey: the key file a PostgreSQL station signs its checkpoints with, as
///   every station of a fleet does (made here); a SQLite one uses the key beside its archive.
func benchStation(
    _ engine: String, location: String, bodies: [Data], clients: Int, webhookURLs: [String] = [], signingKey: String? = nil
) async throws -> StationFigures {
    let setup = Console.capturing()
    guard await ColdTap.main(["site", "add", "bench", "--archive", location], console: setup) == 0,
        await ColdTap.main(["token", "create", "--site", "bench", "--scope", "upload", "--archive", location], console: setup) == 0
    else {
        throw ArchiveBenchError("the bench station could not be set up: \(setup.errorOutput)")
    }
    let token = setup.output.split(separator: "\n").last.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
    for url in webhookURLs {
        guard
            await ColdTap.main(
                [
                    "webhook", "add", "--site", "bench", url, "--allow-http-webhooks", "--allow-private-webhooks",
                    "--archive", location,
                ], console: setup) == 0
        else {
            throw ArchiveBenchError("the bench webhook could not be added: \(setup.errorOutput)")
        }
    }
    var configuration = Station.Configuration(archive: location)
    if let signingKey {
        let archive = try Archive.open(location)
        defer { archive.close() }
        _ = try RecordSigningKey.loadOrCreate(file: signingKey, origin: try archive.recordOrigin())
        configuration.signingKey = signingKey
    }
    configuration.allowHTTPWebhooks = true
    configuration.allowPrivateWebhookTargets = true
    configuration.http.port = 0
    configuration.http.threads = clients
    let station = Station(configuration: configuration, logLine: { _ in })
    try station.start()
    defer { station.stop() }
    let url = URL(string: "http://127.0.0.1:\(station.port)/api/v1/reads")!
    let sessionConfiguration = URLSessionConfiguration.ephemeral
    sessionConfiguration.httpMaximumConnectionsPerHost = clients
    let session = URLSession(configuration: sessionConfiguration)
    let started = Date()
    let results = await withTaskGroup(of: [(Int, Double, Int)].self) { group in
        for client in 0..<clients {
            group.addTask {
                var mine: [(Int, Double, Int)] = []
                var index = client
                while index < bodies.count {
                    var request = URLRequest(url: url)
                    request.httpMethod = "POST"
                    request.httpBody = bodies[index]
                    request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
                    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                    request.setValue("bench-\(index)", forHTTPHeaderField: "X-ColdTap-Logger-Id")
                    request.setValue("2026-02-01T00:00:00Z", forHTTPHeaderField: "X-ColdTap-Read-Time")
                    let sent = Date()
                    let status = await post(session, request)
                    mine.append((index, Date().timeIntervalSince(sent) * 1000, status))
                    index += clients
                }
                return mine
            }
        }
        var all: [(Int, Double, Int)] = []
        for await part in group { all += part }
        return all
    }
    let seconds = Date().timeIntervalSince(started)
    session.finishTasksAndInvalidate()
    let created = Set(results.filter { $0.2 == 201 }.map { "bench-\($0.0)" })
    // Count the archive: every 201 is there, nothing else is.
    let archive = try Archive.open(location)
    defer { archive.close() }
    var kept = Set<String>()
    try archive.engine.query("SELECT logger_id FROM reads", []) { kept.insert($0.text(0)) }
    let lost = created.subtracting(kept).count + kept.subtracting(created).count
    let latencies = results.map(\.1).sorted()
    func percentile(_ p: Double) -> Double {
        latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int((Double(latencies.count) * p).rounded(.up)) - 1)]
    }
    return StationFigures(
        engine: engine, uploads: results.count, clients: clients, perSecond: Double(created.count) / seconds,
        p50: percentile(0.5), p99: percentile(0.99), lost: lost, failed: results.filter { $0.2 != 201 }.count)
}

private func post(_ session: URLSession, _ request: URLRequest) async -> Int {
    await withCheckedContinuation { continuation in
        session.dataTask(with: request) { data, response, error in
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if status != 201 {
                let said = data.map { String(decoding: $0.prefix(300), as: UTF8.self) } ?? "\(error.map { "\($0)" } ?? "no answer")"
                FileHandle.standardError.write(Data("coldtap-bench station: upload answered \(status): \(said)\n".utf8))
            }
            continuation.resume(returning: status)
        }.resume()
    }
}
