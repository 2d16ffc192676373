import ColdTapCommands
import Foundation
import LoggerFormats
import NDEF
import Station

// The station's web pages on the server (no socket, no browser: the time `Station.handle`
// takes to answer): the overview's first page for a site with 1,000 loggers (two days of
// 10-minute samples each) and for another site of the same station with 10,000, and the
// logger page of a year of 10-minute samples, each the median of nine answers after one
// warm-up (the large site's very first answer, after its uploads, is given apart). References
// in the same run: the API's JSON list of the same 1,000 loggers, and the API's SVG report of
// the same year. Targets: both pages under 100 ms, the large site's overview under 50 ms and
// 300 KB (issue 30); the logger page's HTML under 200 KB. The pages are asked for by a viewer
// of each site signed in through the station's form (BenchSignIn.swift). Part of
// `coldtap-bench station`, and on its own as `coldtap-bench station-pages`.

struct StationPageFigures {
    var loggers: Int
    var overviewMs: Double
    var overviewBytes: Int
    var apiLoggersMs: Double
    var yearSamples: Int
    var loggerPageMs: Double
    var loggerPageBytes: Int
    var reportSVGMs: Double
    var largeLoggers: Int
    var largeOverviewMs: Double
    var largeOverviewBytes: Int
    /// The large site's first answer after its uploads (whatever that answer does once).
    var largeOverviewFirstMs: Double

    var json: [(String, JSONValue)] {
        [
            ("overviewMs", .number((overviewMs * 100).rounded() / 100)), ("loggerPageMs", .number((loggerPageMs * 100).rounded() / 100)),
            (
                "pages",
                .object([
                    ("loggers", .int(loggers)), ("overviewBytes", .int(overviewBytes)), ("apiLoggersMs", .number((apiLoggersMs * 100).rounded() / 100)),
                    ("yearSamples", .int(yearSamples)), ("loggerPageBytes", .int(loggerPageBytes)),
                    ("reportSVGMs", .number((reportSVGMs * 100).rounded() / 100)), ("largeLoggers", .int(largeLoggers)),
                    ("largeOverviewMs", .number((largeOverviewMs * 100).rounded() / 100)), ("largeOverviewBytes", .int(largeOverviewBytes)),
                    ("largeOverviewFirstMs", .number((largeOverviewFirstMs * 100).rounded() / 100)),
                ])
            ),
        ]
    }

    func printLines() {
        print(
            String(
                format: "  pages      overview of %d loggers: %.1f ms (%d KB; API list of the same: %.1f ms)", loggers, overviewMs, overviewBytes / 1024,
                apiLoggersMs))
        print(
            String(
                format: "             overview of %d loggers: %.1f ms (%d KB; its first answer after the uploads: %.1f ms) (targets: < 50 ms, < 300 KB)",
                largeLoggers, largeOverviewMs, largeOverviewBytes / 1024, largeOverviewFirstMs))
        print(
            String(
                format: "             logger page of %d samples: %.1f ms (%d KB; API SVG report of the same: %.1f ms) (targets: < 100 ms, < 200 KB)",
                yearSamples, loggerPageMs, loggerPageBytes / 1024, reportSVGMs))
    }
}

func runStationPagesBench(_ json: Bool) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-bench-pages-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let figures = try await measureStationPages(folder: folder)
    if json {
        print(JSONValue.object(figures.json).serialized(pretty: false))
    } else {
        print("station pages: server-side answer time, median of 9")
        figures.printLines()
    }
}

private func pagesRead(first: Int, count: Int, phase: Int) throws -> Data {
    let start = Date(timeIntervalSince1970: 1_735_689_600 + Double(first) * 600)  // from 2025-01-01: a year that ends before its read time
    let temperatures = (first..<(first + count)).map { n -> Double in
        // A short warm spell every ~35 days gives the year some excursions to list.
        n % 5000 < 12 ? 9.4 : ((5 + 2 * sin(Double(n + phase) / 40)) * 10).rounded() / 10
    }
    let payload = try Generic16Encoder.unixPayload(start: start, temperatures: temperatures, intervalSeconds: 600)
    return try NDEFMessage(records: [Generic16Encoder.record(payload: payload)]).encoded()
}

func measureStationPages(
    folder: URL, loggers: Int = BenchScale.pick(1000, smoke: 5), largeLoggers: Int = BenchScale.pick(10_000, smoke: 10)
) async throws -> StationPageFigures {
    let location = folder.appendingPathComponent("pages.sqlite").path
    /// A site and an upload token of it, as `coldtap site add` and `token create` make them.
    func siteToken(_ site: String) async throws -> String {
        let setup = Console.capturing()
        guard await ColdTap.main(["site", "add", site, "--archive", location], console: setup) == 0,
            await ColdTap.main(["token", "create", "--site", site, "--scope", "upload", "--archive", location], console: setup) == 0
        else {
            throw BenchError.reference("cannot make the pages bench's site \(site): \(setup.errorOutput)")
        }
        return setup.output.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    }
    let token = try await siteToken("pages")
    let largeToken = try await siteToken("pages-large")
    var configuration = Station.Configuration(archive: location)
    configuration.http.port = 0
    let station = Station(configuration: configuration, logLine: { _ in })
    try station.start()
    defer { station.stop(grace: 1) }
    func upload(_ body: Data, logger: String, token: String) throws {
        let answer = station.handle(
            HTTPRequest(
                method: "POST", path: "/api/v1/reads",
                headers: [
                    "Authorization": "Bearer \(token)", "X-ColdTap-Logger-Id": logger, "X-ColdTap-Read-Time": "2026-01-05T00:00:00Z",
                    "Content-Type": "application/octet-stream",
                ], body: body))
        guard answer.status == 201 else {
            throw BenchError.reference("upload for \(logger) answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
    }
    for index in 0..<loggers {
        try upload(try pagesRead(first: 52_000 + (index % 300), count: 288, phase: index), logger: String(format: "fridge-%04d", index), token: token)
    }
    let perRead = 4000, yearSamples = BenchScale.pick(52_560, smoke: 4000)
    var first = 0
    while first < yearSamples {
        try upload(try pagesRead(first: first, count: min(perRead, yearSamples - first), phase: 0), logger: "year-fridge", token: token)
        first += perRead
    }
    // The large site shares the station and its archive with the first one, as sites do.
    for index in 0..<largeLoggers {
        try upload(try pagesRead(first: 52_000 + (index % 300), count: 288, phase: index), logger: String(format: "large-%05d", index), token: largeToken)
    }
    let cookie = ["Cookie": try await BenchSignIn.viewerCookie(station: station, archive: location, site: "pages", user: "bench-pages")]
    let bearer = ["Authorization": "Bearer \(token)"]
    func median(_ request: HTTPRequest) throws -> (ms: Double, bytes: Int) {
        var times: [Double] = []
        var bytes = 0
        for round in 0..<BenchScale.pick(10, smoke: 2) {
            let started = DispatchTime.now().uptimeNanoseconds
            let answer = station.handle(request)
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            guard answer.status == 200 else { throw BenchError.reference("\(request.path) answered \(answer.status)") }
            bytes = answer.body.count
            if round > 0 { times.append(elapsed) }
        }
        times.sort()
        return (times[times.count / 2], bytes)
    }
    let overview = try median(HTTPRequest(method: "GET", path: "/", headers: cookie))
    let largeCookie = [
        "Cookie": try await BenchSignIn.viewerCookie(station: station, archive: location, site: "pages-large", user: "bench-pages-large")
    ]
    let firstStarted = DispatchTime.now().uptimeNanoseconds
    let largeFirst = station.handle(HTTPRequest(method: "GET", path: "/", headers: largeCookie))
    let largeFirstMs = Double(DispatchTime.now().uptimeNanoseconds - firstStarted) / 1e6
    guard largeFirst.status == 200 else { throw BenchError.reference("the large site's overview answered \(largeFirst.status)") }
    let large = try median(HTTPRequest(method: "GET", path: "/", headers: largeCookie))
    let list = try median(HTTPRequest(method: "GET", path: "/api/v1/loggers", query: [("limit", "1000")], headers: bearer))
    let page = try median(HTTPRequest(method: "GET", path: "/loggers/year-fridge", query: [("period", "all")], headers: cookie))
    let svg = try median(HTTPRequest(method: "GET", path: "/api/v1/loggers/year-fridge/report.svg", headers: bearer))
    return StationPageFigures(
        loggers: loggers, overviewMs: overview.ms, overviewBytes: overview.bytes, apiLoggersMs: list.ms,
        yearSamples: yearSamples, loggerPageMs: page.ms, loggerPageBytes: page.bytes, reportSVGMs: svg.ms, largeLoggers: largeLoggers,
        largeOverviewMs: large.ms, largeOverviewBytes: large.bytes, largeOverviewFirstMs: largeFirstMs)
}
