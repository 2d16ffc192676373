import Archive
import ArchiveKit
import ColdChain
import ColdTapBase
import Foundation
import JSONOutput
import LoggerFormats
import NDEF
import Station

// coldtap-bench fleet [--loggers N,N,N] [--days D] [--engine sqlite|postgresql] [--skip-verify] [--json]:
// a synthetic fleet per size (10-minute samples, one read a day per logger, each read the
// last two days so that it overlaps the one before by a day; now and then a warm spell),
// built through the archive in one write transaction a day, then measured through a station
// over it, server side: an upload (decode, keep, answer, checkpoint signed), a logger's year
// of history, a 30-day PDF report with its checkpoint and proofs, the overview's first page,
// a lot's status (a lot through three of the fleet's loggers and an unlogged hand-over over
// the last 30 days), `archive verify`, and the size on disk. Targets: each interactive figure
// within 2× from the smallest fleet to the largest and under 100 ms at the largest; verify linear.

struct FleetFigures {
    var engine: String
    var loggers: Int
    var days: Int
    var reads: Int
    var leaves: Int
    var buildSeconds: Double
    var uploadMs: Double
    var historyMs: Double
    var historySamples: Int
    var reportMs: Double
    var overviewMs: Double
    var overviewBytes: Int
    var lotStatusMs: Double
    /// `nil` with `--skip-verify` (the interactive figures alone).
    var verifySeconds: Double?
    var bytesOnDisk: Int64

    var json: JSONValue {
        func ms(_ value: Double) -> JSONValue { .number((value * 100).rounded() / 100) }
        return .object([
            ("engine", .string(engine)), ("loggers", .int(loggers)), ("days", .int(days)), ("reads", .int(reads)), ("leaves", .int(leaves)),
            ("buildSeconds", .number((buildSeconds * 10).rounded() / 10)), ("uploadMs", ms(uploadMs)), ("historyMs", ms(historyMs)),
            ("historySamples", .int(historySamples)), ("reportMs", ms(reportMs)), ("overviewMs", ms(overviewMs)),
            ("overviewBytes", .int(overviewBytes)), ("lotStatusMs", ms(lotStatusMs)),
            ("verifySeconds", verifySeconds.map { .number(($0 * 100).rounded() / 100) } ?? .null),
            ("verifyMicrosecondsPerRead", verifySeconds.map { .number(($0 * 1e6 / Double(max(reads, 1))).rounded()) } ?? .null),
            ("bytesOnDisk", .int(Int(bytesOnDisk))),
        ])
    }
}

func runFleetBench(_ json: Bool) async throws {
    let arguments = CommandLine.arguments
    func value(_ name: String) -> String? {
        arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    }
    let sizes = (value("--loggers") ?? "100,1000,3000").split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
    let days = value("--days").flatMap { Int($0) } ?? 365
    let engines = value("--engine").map { [$0] } ?? ["sqlite", "postgresql"]
    guard !sizes.isEmpty, days >= 31, engines.allSatisfy({ ["sqlite", "postgresql"].contains($0) }) else {
        throw BenchError.reference("fleet takes --loggers N[,N…] (whole numbers), --days D (31 or more), --engine sqlite|postgresql")
    }
    var figures: [FleetFigures] = []
    for engine in engines {
        for loggers in sizes {
            let item = try await benchFleet(engine: engine, loggers: loggers, days: days, verify: !arguments.contains("--skip-verify"))
            if !json { printFleet(item) }
            figures.append(item)
        }
    }
    if json {
        print(JSONValue.object([("fleet", .array(figures.map(\.json)))]).serialized(pretty: false))
    }
}

private func printFleet(_ item: FleetFigures) {
    print(
        String(
            format:
                "fleet %@ %5d loggers × %d days (%d reads, %d leaves, built in %.0f s): upload %.1f ms, year history %.1f ms (%d samples), 30-day PDF %.1f ms, overview %.1f ms (%d bytes), lot status %.1f ms, %@, %.1f MB",
            item.engine, item.loggers, item.days, item.reads, item.leaves, item.buildSeconds, item.uploadMs, item.historyMs, item.historySamples,
            item.reportMs, item.overviewMs, item.overviewBytes, item.lotStatusMs,
            item.verifySeconds.map { String(format: "verify %.1f s (%.0f µs a read)", $0, $0 * 1e6 / Double(max(item.reads, 1))) } ?? "verify not run",
            Double(item.bytesOnDisk) / 1e6))
}

/// The fleet's first day (a year that ends before the read times the measurements use).
private let fleetStart = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01T00:00:00Z
private let samplesPerDay = 144

/// Logger `logger`'s read on day `day` (its samples from the day before to the end of this
/// one): a generic16-unix NDEF message, as a phone uploads it.
private func fleetRead(logger: Int, day: Int) throws -> (raw: Data, readTime: Date) {
    let first = max(0, day - 1) * samplesPerDay
    let end = (day + 1) * samplesPerDay
    let temperatures = (first..<end).map { n -> Double in
        // A two-hour warm spell about once a month, at a time of its own per logger.
        if (n + logger * 997) % 4_400 < 12 { return 9.6 }
        return ((4.5 + Double(logger % 7) / 5 + 1.5 * sin(Double(n + logger) / 40)) * 10).rounded() / 10
    }
    let payload = try Generic16Encoder.unixPayload(
        start: fleetStart.addingTimeInterval(Double(first * 600)), temperatures: temperatures, intervalSeconds: 600)
    return (try NDEFMessage(records: [Generic16Encoder.record(payload: payload)]).encoded(), fleetStart.addingTimeInterval(Double(end * 600 + 300)))
}

private func fleetLoggerID(_ index: Int) -> String { String(format: "fleet-%05d", index) }

private func benchFleet(engine: String, loggers: Int, days: Int, verify: Bool) async throws -> FleetFigures {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-bench-fleet-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var cluster: BenchCluster?
    defer { cluster?.stop() }
    let location: String
    if engine == "sqlite" {
        location = folder.appendingPathComponent("fleet.sqlite").path
    } else {
        let started = try BenchCluster.start()
        cluster = started
        let admin = try PostgreSQLEngine(uri: started.uri("postgres"))
        try admin.execute("CREATE DATABASE fleet")
        admin.close()
        location = started.uri("fleet")
    }

    // The fleet, a day at a time: every logger's read of that day in one write transaction.
    let buildStart = Date()
    let archive = try Archive.open(location)
    let store = try StationStore(archive: archive)
    let site = try store.addSite("fleet")
    let token = try store.createToken(site: site, scope: .admin).token
    let profile = Profile.vaccineFridge
    for day in 0..<days {
        var prepared: [Archive.PreparedRead] = []
        prepared.reserveCapacity(loggers)
        for logger in 0..<loggers {
            let (raw, readTime) = try fleetRead(logger: logger, day: day)
            let upload = Upload(raw: raw, readTime: readTime, source: "bench", loggerID: fleetLoggerID(logger), secret: nil, siteName: site.name)
            prepared.append(try Archive.prepare(try await RuleBook.newRead(from: upload, profile: profile, timeZone: .gmt)))
        }
        try archive.engine.writeTransaction {
            for read in prepared { _ = try archive.keep(read, claimingFor: site.id) }
        }
    }
    let buildSeconds = Date().timeIntervalSince(buildStart)
    let reads = Int(try archive.engine.scalarInt("SELECT COUNT(*) FROM reads") ?? 0)
    // A lot's last 30 days: a shipper, an unlogged hand-over, a depot fridge, a clinic fridge.
    let lotEnd = fleetStart.addingTimeInterval(Double(days - 1) * 86_400)
    try archive.addLot("fleet-lot", siteID: site.id, productName: "example-2-8", quantity: 100, by: "bench")
    for (index, logger) in [loggers / 5, -1, loggers / 3, loggers / 2 + 1].enumerated() {
        try archive.recordMove(
            lot: "fleet-lot", siteID: site.id, kind: logger < 0 ? .none : .logger, loggerID: logger < 0 ? nil : fleetLoggerID(logger),
            at: lotEnd.addingTimeInterval(Double(index * 8 - 30) * 86_400 + (logger < 0 ? -6 * 3600 : 0)), by: "bench", origin: "bench")
    }
    let leaves = try archive.recordSize()
    archive.close()

    // A station over it, as a fleet runs one: signing its checkpoints.
    var configuration = Station.Configuration(archive: location)
    configuration.http.port = 0
    configuration.signingKey = folder.appendingPathComponent("signing-key").path
    let origin = try {
        let opened = try Archive.open(location); defer { opened.close() }; return try opened.recordOrigin()
    }()
    _ = try RecordSigningKey.loadOrCreate(file: configuration.signingKey!, origin: origin)
    let station = Station(configuration: configuration, logLine: { _ in })
    try station.start()
    defer { station.stop(grace: 1) }
    let bearer = ["Authorization": "Bearer \(token)"]
    func timed(_ request: HTTPRequest) throws -> (ms: Double, bytes: Int) {
        let started = DispatchTime.now().uptimeNanoseconds
        let answer = station.handle(request)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        guard (200..<300).contains(answer.status) else {
            throw BenchError.reference(
                "\(request.method) \(request.path) answered \(answer.status): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
        }
        return (elapsed, answer.body.count)
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    // Uploads: the next day's read of 21 loggers spread over the fleet, one at a time.
    var uploads: [Double] = []
    for round in 0..<21 {
        let logger = round * loggers / 21
        let (raw, readTime) = try fleetRead(logger: logger, day: days)
        uploads.append(
            try timed(
                HTTPRequest(
                    method: "POST", path: "/api/v1/reads",
                    headers: bearer.merging([
                        "X-ColdTap-Logger-Id": fleetLoggerID(logger), "X-ColdTap-Read-Time": readTime.isoUTCWholeSeconds,
                        "Content-Type": "application/octet-stream",
                    ]) { a, _ in a }, body: raw)
            ).ms)
    }
    // A logger's year of history, a 30-day report, the overview: medians of 9 after one warm-up.
    let probe = fleetLoggerID(loggers / 2)
    var historySamples = 0
    var history: [Double] = []
    for round in 0..<10 {
        let opened = try Archive.open(location)
        let started = DispatchTime.now().uptimeNanoseconds
        let year = try opened.history(loggerID: probe, from: fleetStart, to: fleetStart.addingTimeInterval(Double(days) * 86_400))
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        opened.close()
        historySamples = year.samples.count
        if round > 0 { history.append(elapsed) }
    }
    let periodEnd = fleetStart.addingTimeInterval(Double(days - 1) * 86_400)
    let reportRequest = HTTPRequest(
        method: "GET", path: "/api/v1/loggers/\(probe)/report.pdf",
        query: [("from", periodEnd.addingTimeInterval(-30 * 86_400).isoUTCWholeSeconds), ("to", periodEnd.isoUTCWholeSeconds)], headers: bearer)
    let overviewRequest = HTTPRequest(method: "GET", path: "/", headers: ["Cookie": "coldtap_session=\(token)"])
    var report: [Double] = [], overview: [Double] = []
    var overviewBytes = 0
    for round in 0..<10 {
        let reportTime = try timed(reportRequest).ms
        let page = try timed(overviewRequest)
        overviewBytes = page.bytes
        if round > 0 {
            report.append(reportTime)
            overview.append(page.ms)
        }
    }
    station.stop(grace: 1)
    // The lot's status: its three loggers' records over its legs, judged (medians of 9).
    var lotStatus: [Double] = []
    for round in 0..<10 {
        let opened = try Archive.open(location)
        let started = DispatchTime.now().uptimeNanoseconds
        let journey = try opened.lotJourney("fleet-lot", siteID: site.id, at: lotEnd)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        opened.close()
        guard journey.status.legs.count == 4 else { throw BenchError.reference("the fleet's lot has \(journey.status.legs.count) legs, not 4") }
        if round > 0 { lotStatus.append(elapsed) }
    }

    let verifyStart = Date()
    let opened = try Archive.open(location)
    var verifySeconds: Double?
    if verify {
        let verified = try await opened.verify(decoder: ArchivedReads.decoder)
        verifySeconds = Date().timeIntervalSince(verifyStart)
        guard verified.problems.isEmpty else { throw BenchError.reference("the fleet's archive does not verify: \(verified.problems.prefix(3))") }
    }
    let bytes: Int64
    if engine == "sqlite" {
        bytes = ["", "-wal"].reduce(Int64(0)) { total, suffix in
            total + ((try? FileManager.default.attributesOfItem(atPath: location + suffix)[.size] as? Int64) ?? 0)
        }
    } else {
        bytes = try opened.engine.scalarInt("SELECT pg_database_size(current_database())") ?? 0
    }
    opened.close()
    return FleetFigures(
        engine: engine, loggers: loggers, days: days, reads: reads, leaves: leaves, buildSeconds: buildSeconds, uploadMs: median(uploads),
        historyMs: median(history), historySamples: historySamples, reportMs: median(report), overviewMs: median(overview),
        overviewBytes: overviewBytes, lotStatusMs: median(lotStatus), verifySeconds: verifySeconds, bytesOnDisk: bytes)
}
