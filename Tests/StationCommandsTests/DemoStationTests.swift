import CommandTestSupport
import Foundation
import Station
import StationTestSupport
import Testing

/// `coldtap demo` as a way into the station's pages.
@Suite struct DemoStationTests {
    /// `coldtap demo` ends with the command that serves its archive and a token that signs
    /// in; served as printed, the pages show the demo logger.
    @Test func demoPrintsTheServeCommandAndAToken() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-pages-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let demo = await coldtap(["demo", "--in-process", "--out", folder.path])
        #expect(demo.status == 0, "\(demo.err)")
        let lines = demo.out.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let serve = try #require(lines.first { $0.hasSuffix("--listen 127.0.0.1:8080") && $0.contains(" serve --archive ") }, "\(demo.out)")
        #expect(lines.contains { $0.contains("http://127.0.0.1:8080/login") })
        let token = try #require(lines.last { $0.hasPrefix("ct_") }, "no token in \(demo.out)")
        let archivePath = try #require(firstMatch("--archive (\\S+)", in: serve))
        #expect(archivePath == folder.appendingPathComponent("archive.sqlite").path)
        var configuration = Station.Configuration(archive: archivePath)
        configuration.http.port = 0
        let station = Station(configuration: configuration, logLine: { _ in })
        try station.start()
        defer { station.stop(grace: 1) }
        let signIn = station.handle(
            HTTPRequest(
                method: "POST", path: "/login", headers: ["Content-Type": "application/x-www-form-urlencoded", "Host": "station", "Origin": "http://station"],
                body: Data("token=\(token)".utf8)))
        #expect(signIn.status == 303)
        let cookie = try #require(signIn.headers.first { $0.0 == "Set-Cookie" && $0.1.hasPrefix("coldtap_session=") }?.1.split(separator: ";").first)
        let overview = station.handle(HTTPRequest(method: "GET", path: "/", headers: ["Cookie": String(cookie)]))
        let html = String(decoding: overview.body, as: UTF8.self)
        #expect(overview.status == 200)
        #expect(html.contains("href=\"/loggers/"), "the demo logger is listed: \(html.suffix(600))")
        #expect(html.contains("class=\"spark\""))
    }
}
