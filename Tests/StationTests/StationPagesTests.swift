import Archive
import ArchiveKit
import ArchiveTestSupport
import CairoCanvas
import ColdTapBase
import Digest
import Foundation
import Station
import StationTestSupport
import TempChart
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Headless Chromium over a page saved from the station: a screenshot, or the DOM after
/// the page ran. The profile and HOME are in `folder`; the process is always ended.
enum Chromium {
    static let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @discardableResult
    static func run(_ arguments: [String], folder: URL, output: URL? = nil) throws -> String {
        let binary = try #require(path, "headless Chromium is missing: install the Debian package chromium (make deps does)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--disable-extensions", "--user-data-dir=\(folder.appendingPathComponent("profile-\(UUID().uuidString)").path)",
            ] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder.path
        process.environment = environment
        let out = folder.appendingPathComponent("chromium-\(UUID().uuidString).out")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        let handle = try FileHandle(forWritingTo: out)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        if ended.wait(timeout: .now() + 90) == .timedOut { process.terminate() }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "chromium \(arguments.last ?? "") ended with \(process.terminationStatus)")
        return (try? String(contentsOf: out, encoding: .utf8)) ?? ""
    }

    static func screenshot(_ html: URL, to png: URL, width: Int, height: Int, dark: Bool, folder: URL) throws -> (width: Int, height: Int, pixels: [UInt32]) {
        var arguments = ["--screenshot=\(png.path)", "--window-size=\(width),\(height)", "--virtual-time-budget=3000"]
        if dark { arguments += ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"] }
        try run(arguments + [html.absoluteString], folder: folder)
        return try CairoCanvas.readPNG(png)
    }
}

/// Counts pixels of (nearly) one colour.
func pixelCount(
    _ image: (width: Int, height: Int, pixels: [UInt32]), _ color: ChartColor, tolerance: Int = 0,
    rows: ClosedRange<Int>? = nil
) -> Int {
    let r = Int((color.red * 255).rounded()), g = Int((color.green * 255).rounded()), b = Int((color.blue * 255).rounded())
    var count = 0
    for (index, pixel) in image.pixels.enumerated() {
        if let rows, !rows.contains(index / image.width) { continue }
        let pr = Int(pixel >> 16 & 0xFF), pg = Int(pixel >> 8 & 0xFF), pb = Int(pixel & 0xFF)
        if abs(pr - r) <= tolerance, abs(pg - g) <= tolerance, abs(pb - b) <= tolerance { count += 1 }
    }
    return count
}

@Suite(.serialized) struct StationPagesTests {
    static let hostile = "<img src=x onerror=alert(1)>"
    static let script = "<script>alert(1)</script>"

    /// Seeds `north` with an OK fridge, an ALARM fridge, a logger named with markup, a
    /// rejected upload; `south` with one logger.
    func seed(_ station: TestStation) async throws {
        func upload(_ body: Data, logger: String, site: String = "north", source: String = "web test") async throws {
            let answer = try await request(
                station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: station.tokens["\(site)-upload"],
                headers: [
                    UploadHeader.readTime: Reads.readTime, UploadHeader.loggerID: logger, UploadHeader.source: source,
                    "Content-Type": "application/octet-stream",
                ], body: body)
            #expect(answer.status == 201, "upload \(logger): \(answer.text)")
        }
        try await upload(try Reads.cold(), logger: "fridge-ok")
        try await upload(try Reads.alarm(), logger: "fridge-alarm")
        // The station takes no such name with an upload; an archive filled by the command line
        // may hold one, and the pages must escape it.
        let refused = try await request(
            station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: station.tokens["north-upload"],
            headers: [
                UploadHeader.readTime: Reads.readTime, UploadHeader.loggerID: StationPagesTests.hostile,
                UploadHeader.source: StationPagesTests.script, "Content-Type": "application/octet-stream",
            ],
            body: try Reads.cold())
        #expect(refused.status == 400, "\(refused.text)")
        // Kept as `coldtap archive add --logger-id` keeps it, which takes any id.
        let hostileUpload = Upload(
            raw: try Reads.cold(), readTime: ISO8601Time.parse(Reads.readTime), source: nil, loggerID: StationPagesTests.hostile, secret: nil,
            siteName: "north")
        let kept = try await RuleBook.newRead(from: hostileUpload, profile: .vaccineFridge, timeZone: .gmt)
        let opened = try station.archive.open()
        defer { opened.close() }
        _ = try opened.add(kept)
        try station.claim(StationPagesTests.hostile, for: "north")
        try await upload(try Reads.alarm(), logger: "south-1", site: "south")
        let rejected = try await request(
            station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: station.tokens["north-upload"],
            headers: [UploadHeader.source: "broken phone", "Content-Type": "application/octet-stream"],
            body: Data([0x01, 0x02, 0x03, 0x04, 0xFF]))
        #expect(rejected.status == 422, "\(rejected.text)")
    }

    func signIn(_ station: TestStation, scope: String = "upload", site: String = "north") throws -> String {
        let answer = try page(
            station, "POST", "/login", form: [("token", try #require(station.tokens["\(site)-\(scope)"]))],
            headers: ["Origin": "http://127.0.0.1:\(station.port)"])
        #expect(answer.status == 303)
        #expect(answer.header("Location") == "/")
        let cookie = try #require(answer.headers("Set-Cookie").first { $0.hasPrefix("coldtap_session=") }, "no session cookie: \(answer.head)")
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && !cookie.contains("Secure"), "\(cookie)")
        return String(cookie.split(separator: ";")[0])
    }

    @Test func signInOverviewLoggerAcknowledgeSignOut() async throws {
        try await withStation(.sqlite) { station in
            try await seed(station)
            // Not signed in: the pages send to the form; the form posts one field.
            let anonymous = try page(station, "GET", "/")
            #expect(anonymous.status == 303 && anonymous.header("Location") == "/login")
            let login = try page(station, "GET", "/login")
            #expect(login.status == 200)
            #expect(login.body.contains("<form method=\"post\" action=\"/login\">") && login.body.contains("name=\"token\""))
            let csp = try #require(login.header("Content-Security-Policy"))
            #expect(csp.contains("script-src 'nonce-") && csp.contains("default-src 'none'") && csp.contains("form-action 'self'"))
            let nonce = try #require(firstMatch("style-src 'nonce-([0-9a-f]+)'", in: csp))
            #expect(login.body.contains("<style nonce=\"\(nonce)\">"))
            #expect(!login.body.contains("<script"))
            let wrong = try page(station, "POST", "/login", form: [("token", "not-a-token")])
            #expect(wrong.status == 401 && wrong.body.contains("unknown or revoked"))
            #expect(wrong.headers("Set-Cookie").isEmpty)
            let crossSite = try page(
                station, "POST", "/login", form: [("token", try #require(station.tokens["north-read"]))],
                headers: ["Origin": "https://evil.example"])
            #expect(crossSite.status == 403 && crossSite.headers("Set-Cookie").isEmpty)

            let cookie = try signIn(station)
            // Overview: every north logger, worst first, none of south's; markup shown as text.
            let overview = try page(station, "GET", "/", cookie: cookie)
            #expect(overview.status == 200)
            let body = overview.body
            let alarmAt = try #require(body.range(of: "/loggers/fridge-alarm\"")?.lowerBound)
            let okAt = try #require(body.range(of: "/loggers/fridge-ok\"")?.lowerBound)
            #expect(alarmAt < okAt, "ALARM is listed first")
            #expect(!body.contains("south-1"))
            #expect(body.contains("&lt;img src=x onerror=alert(1)&gt;") && !body.contains(StationPagesTests.hostile))
            #expect(body.contains("class=\"spark\"") && body.contains("class=\"verdict v-ALARM\""))
            #expect(body.contains("2026-01-01"), "absolute times in the site's zone")

            // The logger page, period by period.
            let day = try page(station, "GET", "/loggers/fridge-alarm?period=day", cookie: cookie)
            #expect(day.status == 200)
            #expect(day.body.contains("<svg class=\"chart\"") && day.body.contains("class=\"s-beyond\""))
            #expect(day.body.contains("banner v-ALARM"))
            #expect(day.body.contains("<strong>Day</strong>"))
            for period in ["week", "month", "year", "all"] {
                let other = try page(station, "GET", "/loggers/fridge-alarm?period=\(period)", cookie: cookie)
                #expect(other.status == 200, "period \(period)")
            }
            let custom = try page(station, "GET", "/loggers/fridge-alarm?from=2026-01-01&to=2026-01-01", cookie: cookie)
            #expect(custom.status == 200 && custom.body.contains("<strong>Custom</strong>") && custom.body.contains("value=\"2026-01-01\""))
            let backwards = try page(station, "GET", "/loggers/fridge-alarm?from=2026-02-01&to=2026-01-01", cookie: cookie)
            #expect(backwards.status == 400)
            #expect(day.body.contains("web test"), "the reads that built the record, with their source")
            #expect(day.body.contains("/loggers/fridge-alarm/report.pdf?") && day.body.contains("/loggers/fridge-alarm/samples.csv?"))

            // Downloads are the API's answers for the session.
            let csvPath = try #require(firstMatch("href=\"(/loggers/fridge-alarm/samples\\.csv[^\"]*)\"", in: day.body)).replacingOccurrences(
                of: "&amp;", with: "&")
            let csv = try page(station, "GET", csvPath, cookie: cookie)
            #expect(csv.status == 200 && csv.header("Content-Type")?.hasPrefix("text/csv") == true && csv.body.hasPrefix("time,temperature_c"))

            // Acknowledge the excursion from the page's form.
            let formToken = try #require(firstMatch("name=\"form\" value=\"([0-9a-f]{64})\"", in: day.body))
            let excursion = try #require(firstMatch("name=\"excursion\" value=\"([^\"]+)\"", in: day.body))
            #expect(day.body.contains("not acknowledged"))
            let beforeForms = try station.archive.fingerprint()
            let forged = try page(
                station, "POST", "/loggers/fridge-alarm/acknowledgements", cookie: cookie,
                form: [("form", String(repeating: "0", count: 64)), ("excursion", excursion), ("by", "Mallory"), ("comment", "forged")])
            #expect(forged.status == 403)
            let otherOrigin = try page(
                station, "POST", "/loggers/fridge-alarm/acknowledgements", cookie: cookie,
                form: [("form", formToken), ("excursion", excursion), ("by", "Mallory"), ("comment", "forged")],
                headers: ["Origin": "http://evil.example"])
            #expect(otherOrigin.status == 403)
            // Issue 43 item 14: a post with neither Origin nor Referer comes from no page of
            // ours (a script); without Origin, the Referer must be a page of the station.
            for (name, headers) in [
                ("neither", ["Referer": ""]), ("a foreign Referer", ["Referer": "http://evil.example/loggers/fridge-alarm"]),
                ("a Referer that only starts like the station", ["Referer": "http://127.0.0.1:\(station.port)0/"]),
            ] {
                let scripted = try page(
                    station, "POST", "/loggers/fridge-alarm/acknowledgements", cookie: cookie,
                    form: [("form", formToken), ("excursion", excursion), ("by", "Script"), ("comment", "scripted")], headers: headers)
                #expect(scripted.status == 403, "\(name): \(scripted.status)")
            }
            #expect(try station.archive.fingerprint() == beforeForms, "no refused form kept anything")
            let acked = try page(
                station, "POST", "/loggers/fridge-alarm/acknowledgements", cookie: cookie,
                form: [
                    ("form", formToken), ("excursion", excursion), ("by", "Ana Ruiz"), ("comment", "Door closed; \(StationPagesTests.script)"),
                    ("back", "?period=day"),
                ],
                headers: ["Origin": "http://127.0.0.1:\(station.port)"])
            #expect(acked.status == 303)
            let injected = try page(
                station, "POST", "/loggers/fridge-alarm/acknowledgements", cookie: cookie,
                form: [
                    ("form", formToken), ("excursion", excursion), ("by", "Ana Ruiz"), ("comment", "again"), ("again", "1"),
                    ("back", "?period=day\r\nSet-Cookie: x=1"),
                ])
            #expect(injected.status == 303 && injected.header("Location") == "/loggers/fridge-alarm#excursions" && injected.headers("Set-Cookie").isEmpty)
            #expect(acked.header("Location") == "/loggers/fridge-alarm?period=day#excursions")
            let after = try page(station, "GET", "/loggers/fridge-alarm?period=day", cookie: cookie)
            #expect(after.body.contains("<strong>Ana Ruiz</strong>"))
            #expect(after.body.contains("Door closed; &lt;script&gt;alert(1)&lt;/script&gt;") && !after.body.contains(StationPagesTests.script))
            #expect(!after.body.contains("not acknowledged"))
            let overviewAfter = try page(station, "GET", "/", cookie: cookie)
            #expect(overviewAfter.status == 200)

            // A read token sees the pages but cannot acknowledge.
            let readCookie = try signIn(station, scope: "read")
            let readOnly = try page(station, "GET", "/loggers/fridge-alarm?period=day", cookie: readCookie)
            #expect(readOnly.status == 200 && readOnly.body.contains("needs an upload or admin token") && !readOnly.body.contains("name=\"excursion\""))
            // Posted anyway (the form token is the session's), the same rule as the API refuses it.
            let readForm = SHA256Digest.hex(text: "coldtap web form\n" + String(readCookie.dropFirst("coldtap_session=".count)))
            let readPost = try page(
                station, "POST", "/loggers/fridge-alarm/acknowledgements", cookie: readCookie,
                form: [("form", readForm), ("excursion", excursion), ("by", "Eve"), ("comment", "read token")])
            #expect(readPost.status == 403 && readPost.body.contains("upload scope"))
            // An excursion the record does not have: the API's 422 sentence, on the page.
            let noSuchExcursion = try page(
                station, "POST", "/loggers/fridge-alarm/acknowledgements", cookie: cookie,
                form: [("form", formToken), ("excursion", "2001-01-01T00:00:00Z"), ("by", "Ana Ruiz"), ("comment", "no such")])
            #expect(noSuchExcursion.status == 422 && noSuchExcursion.body.contains("has no excursion") && noSuchExcursion.body.contains("role=\"alert\""))

            // Another site's logger and an unknown one: 404, the same page.
            let southLogger = try page(station, "GET", "/loggers/south-1", cookie: cookie)
            let unknown = try page(station, "GET", "/loggers/no-such-logger", cookie: cookie)
            #expect(southLogger.status == 404 && unknown.status == 404)
            func main(_ answer: PageAnswer) -> String? { firstMatch("(<main>.*</main>)", in: answer.body) }
            #expect(main(southLogger) != nil && main(southLogger) == main(unknown))
            #expect(try page(station, "GET", "/loggers/south-1/samples.csv", cookie: cookie).status == 404)

            // The reads page: the site's uploads and the rejected one, with why; the source as text.
            let reads = try page(station, "GET", "/reads", cookie: cookie)
            #expect(reads.status == 200)
            #expect(reads.body.contains("broken phone") && reads.body.contains("422") && reads.body.contains("read does not decode"))
            #expect(reads.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !reads.body.contains(StationPagesTests.script))
            #expect(!reads.body.contains("south-1"))

            // Languages: Accept-Language, then the switch (kept in a cookie).
            let japanese = try page(station, "GET", "/", cookie: cookie, headers: ["Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"])
            #expect(japanese.body.contains("<html lang=\"ja\">") && japanese.body.contains("概要"))
            let chinese = try page(station, "GET", "/?lang=zh-Hans", cookie: cookie)
            #expect(chinese.body.contains("<html lang=\"zh-Hans\">") && chinese.body.contains("总览") && chinese.body.contains("报警"))
            #expect(chinese.headers("Set-Cookie").contains { $0.hasPrefix("coldtap_lang=zh-Hans") })
            let kept = try page(station, "GET", "/reads", cookie: cookie + "; coldtap_lang=zh-Hans")
            #expect(kept.body.contains("被拒绝的上传"))

            // Signing out clears the cookie.
            let out = try page(station, "POST", "/logout", cookie: cookie, form: [("form", formToken)], headers: ["Origin": "http://127.0.0.1:\(station.port)"])
            #expect(out.status == 303 && out.header("Location") == "/login")
            #expect(out.headers("Set-Cookie").contains { $0.hasPrefix("coldtap_session=;") && $0.contains("Max-Age=0") })
            // A revoked token's cookie no longer signs in.
            let revoked = try station.archive.open()
            defer { revoked.close() }
            let store = try StationStore(archive: revoked)
            let uploadToken = try #require(station.tokens["north-upload"])
            let upload = try #require(try store.authenticate(uploadToken))
            #expect(try store.revokeToken(id: upload.id))
            let afterRevoke = try page(station, "GET", "/", cookie: cookie)
            #expect(afterRevoke.status == 303 && afterRevoke.header("Location") == "/login", "\(afterRevoke.head)")
        }
    }

    @Test func chromiumShowsVerdictColoursAndTheCurveInLightAndDark() async throws {
        try await withStation(.sqlite) { station in
            try await seed(station)
            let cookie = try signIn(station)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-pages-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let shots = ProcessInfo.processInfo.environment["COLDTAP_KEEP_SCREENSHOTS"].map { URL(fileURLWithPath: $0) }
            func save(_ path: String, as name: String) throws -> URL {
                let answer = try page(station, "GET", path, cookie: cookie)
                #expect(answer.status == 200, "\(path)")
                let file = folder.appendingPathComponent(name)
                try Data(answer.body.utf8).write(to: file)
                return file
            }
            let overview = try save("/", as: "overview.html")
            let logger = try save("/loggers/fridge-alarm?period=day", as: "logger.html")
            for dark in [false, true] {
                let theme = dark ? ChartTheme.dark : ChartTheme.light
                let overviewShot = folder.appendingPathComponent("overview-\(dark ? "dark" : "light").png")
                let image = try Chromium.screenshot(overview, to: overviewShot, width: 1200, height: 700, dark: dark, folder: folder)
                let loggerShot = folder.appendingPathComponent("logger-\(dark ? "dark" : "light").png")
                let loggerImage = try Chromium.screenshot(logger, to: loggerShot, width: 1200, height: 1400, dark: dark, folder: folder)
                if let shots {
                    try? FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
                    for file in [overviewShot, loggerShot] {
                        try? FileManager.default.removeItem(at: shots.appendingPathComponent(file.lastPathComponent))
                        try FileManager.default.copyItem(at: file, to: shots.appendingPathComponent(file.lastPathComponent))
                    }
                }
                // The page's background is the theme's.
                #expect(pixelCount(image, theme.background) > image.pixels.count / 3, "\(dark ? "dark" : "light") background")
                // The verdict colours: the ALARM and OK badges and row markers.
                #expect(pixelCount(image, theme.fail) > 150, "ALARM colour on the overview (\(dark ? "dark" : "light"))")
                #expect(pixelCount(image, theme.pass) > 150, "OK colour on the overview (\(dark ? "dark" : "light"))")
                // Sparklines: the curve's colour and the beyond-limit red.
                #expect(pixelCount(image, theme.curve, tolerance: 30) > 100, "sparkline curve (\(dark ? "dark" : "light"))")
                // The logger page: the banner, the chart's curve within limits and beyond them.
                #expect(pixelCount(loggerImage, theme.fail) > 10_000, "ALARM banner (\(dark ? "dark" : "light"))")
                #expect(pixelCount(loggerImage, theme.curve, tolerance: 30) > 400, "curve (\(dark ? "dark" : "light"))")
                #expect(pixelCount(loggerImage, theme.beyond, tolerance: 30) > 100, "beyond-limit curve (\(dark ? "dark" : "light"))")
                #expect(pixelCount(loggerImage, theme.limit, tolerance: 30) > 100, "limit lines (\(dark ? "dark" : "light"))")
            }
            // Markup from a tag or a person is text in the DOM Chromium builds.
            let dom = try Chromium.run(["--dump-dom", overview.absoluteString], folder: folder)
            #expect(dom.contains("fridge-alarm"), "the DOM was dumped: \(dom.prefix(200))")
            #expect(!dom.contains("<img src=\"x\"") && !dom.contains("onerror=\"alert"))
            #expect(dom.contains("&lt;img src=x onerror=alert(1)&gt;"))
            let readsFile = try save("/reads", as: "reads.html")
            let readsDOM = try Chromium.run(["--dump-dom", readsFile.absoluteString], folder: folder)
            #expect(readsDOM.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !readsDOM.contains("<script>alert(1)</script>"))
        }
    }

    /// The overview's verdict is the record's over its last 24 hours, as the logger page's is
    /// over the period it shows: two OK reads with a 10-hour hole between them are INCONCLUSIVE
    /// on both (the newest read alone said OK) (issue 31 §5).
    @Test func theOverviewAndTheLoggerPageJudgeTheSameRecord() async throws {
        try await withStation(.sqlite) { station in
            for (first, count) in [(0, 36), (100, 44)] {
                let answer = try await request(
                    station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: station.tokens["north-upload"],
                    headers: [UploadHeader.readTime: Reads.readTime, UploadHeader.loggerID: "gap-fridge"],
                    body: try Reads.cold(first: first, count: count))
                #expect(answer.status == 201, "\(answer.text)")
                #expect(try answer.json()["verdict"] as? String == "OK")
            }
            let cookie = try signIn(station)
            let overview = try page(station, "GET", "/", cookie: cookie)
            #expect(overview.body.contains("<tr class=\"r-INCONCLUSIVE\"><td><a href=\"/loggers/gap-fridge\""), "\(overview.body.prefix(3000))")
            #expect(overview.body.contains("Verdict, last 24 h"))
            let day = try page(station, "GET", "/loggers/gap-fridge?period=day", cookie: cookie)
            #expect(day.body.contains("class=\"banner v-INCONCLUSIVE\""))
        }
    }

    /// Every logger id listed on an overview page, in its order.
    static func listed(_ body: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: "<tr class=\"r-[A-Za-z]+\"><td><a href=\"/loggers/([^\"]+)\"") else { return [] }
        return regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap { match in
            Range(match.range(at: 1), in: body).map { String(body[$0]) }
        }
    }

    /// The overview in pages of 100, worst first, with filters by verdict, review state and
    /// text, and the whole site's counts on every page (issue 30); ordered, counted and
    /// filtered by the kept overview rows, which `archive verify` computes again.
    @Test("overview pages, filters and whole-site counts", arguments: Engine.allCases)
    func overviewPagesFiltersAndCounts(engine: Engine) async throws {
        try await withStation(engine) { station in
            func upload(_ body: Data, logger: String, site: String = "north") async throws {
                let answer = try await request(
                    station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: station.tokens["\(site)-upload"],
                    headers: [UploadHeader.readTime: Reads.readTime, UploadHeader.loggerID: logger, "Content-Type": "application/octet-stream"],
                    body: body)
                #expect(answer.status == 201, "upload \(logger): \(answer.text)")
            }
            // North: three ALARM loggers (a freeze each) and 201 OK ones: three pages. South: two.
            for index in 0..<3 { try await upload(try Reads.alarm(), logger: "alarm-\(index)") }
            for index in 0...200 { try await upload(try Reads.cold(), logger: String(format: "ok-%03d", index)) }
            try await upload(try Reads.alarm(), logger: "south-alarm", site: "south")
            try await upload(try Reads.cold(), logger: "south-ok", site: "south")
            let cookie = try signIn(station)
            func get(_ path: String, status: Int = 200, language: String? = nil) throws -> PageAnswer {
                let answer = try page(station, "GET", path, cookie: cookie, headers: language.map { ["Accept-Language": $0] } ?? [:])
                #expect(answer.status == status, "\(path): \(answer.status) \(answer.body.prefix(300))")
                return answer
            }
            let first = try get("/")
            #expect(Self.listed(first.body).count == 100)
            #expect(Array(Self.listed(first.body).prefix(3)).sorted() == ["alarm-0", "alarm-1", "alarm-2"], "ALARM first")
            #expect(Array(Self.listed(first.body).dropFirst(3)) == (0..<97).map { String(format: "ok-%03d", $0) })
            #expect(first.body.contains("204 loggers match · Page 1 of 3"))
            #expect(first.body.contains("href=\"/?page=2\" rel=\"next\"") && first.body.contains("href=\"/?page=3\" rel=\"last\""))
            #expect(!first.body.contains("south-"))

            // An acknowledgement moves its logger from "needs attention" to "acknowledged".
            let ack = try await request(
                station.base.appendingPathComponent("api/v1/loggers/alarm-1/acknowledgements"), method: "POST", token: station.tokens["north-upload"],
                headers: ["Content-Type": "application/json"],
                body: Data(#"{"excursion": "2026-01-01T08:20:00Z", "by": "Ana Ruiz", "comment": "door closed"}"#.utf8))
            #expect(ack.status == 201 || ack.status == 200, "\(ack.text)")

            // Counts are the whole site's, on every page and under every filter.
            func counts(_ body: String) -> String {
                let verdicts = ["ALARM", "INCONCLUSIVE", "none", "OK"].map { key in
                    "\(key)=\(firstMatch("class=\"verdict v-\(key)\">[^<]*</span></a> ([0-9]+)", in: body) ?? "0")"
                }
                let review = ["Needs attention", "Acknowledged", "No excursions"].map { name in
                    "\(name)=\(firstMatch(">\(name)</a> (?:<strong class=\"bad\">)?([0-9]+)", in: body) ?? "?")"
                }
                return (verdicts + review).joined(separator: " ")
            }
            let page2 = try get("/?page=2")
            let whole = counts(page2.body)
            #expect(whole == "ALARM=3 INCONCLUSIVE=0 none=0 OK=201 Needs attention=2 Acknowledged=1 No excursions=201", "\(whole)")
            #expect(counts(try get("/").body) == whole)
            // Worst first: the verdict, then open excursions (the acknowledged ALARM after the others).
            #expect(Array(Self.listed(try get("/").body).prefix(3)) == ["alarm-0", "alarm-2", "alarm-1"])
            #expect(page2.body.contains("204 loggers</span>"))
            // Paging: the next 100 in the same order, the last page, a page past the end.
            #expect(Self.listed(page2.body) == (97..<197).map { String(format: "ok-%03d", $0) })
            #expect(
                page2.body.contains("Page 2 of 3") && page2.body.contains("href=\"/\" rel=\"first\"") && page2.body.contains("href=\"/?page=3\" rel=\"next\""))
            let last = try get("/?page=3")
            #expect(Self.listed(last.body) == (197...200).map { String(format: "ok-%03d", $0) })
            #expect(last.body.contains("Page 3 of 3") && !last.body.contains("rel=\"next\""))
            let past = try get("/?page=999")
            #expect(Self.listed(past.body) == Self.listed(last.body) && past.body.contains("Page 3 of 3"), "clamped to the last page")

            // Each filter, with the counts still the whole site's.
            let alarms = try get("/?verdict=ALARM")
            #expect(Self.listed(alarms.body) == ["alarm-0", "alarm-2", "alarm-1"] && alarms.body.contains("3 loggers match · Page 1 of 1"))
            #expect(counts(alarms.body) == whole)
            let okPage = try get("/?verdict=ok&page=2")
            #expect(Self.listed(okPage.body).first == "ok-100" && okPage.body.contains("201 loggers match · Page 2 of 3"))
            #expect(okPage.body.contains("<option value=\"OK\" selected>"))
            #expect(try get("/?verdict=none").body.contains("No logger matches these filters."))
            let attention = try get("/?review=attention")
            #expect(Self.listed(attention.body) == ["alarm-0", "alarm-2"])
            #expect(counts(attention.body) == whole)
            #expect(Self.listed(try get("/?review=acknowledged").body) == ["alarm-1"])
            #expect(Self.listed(try get("/?review=clear").body).count == 100)
            #expect(Self.listed(try get("/?q=ALARM-2").body) == ["alarm-2"], "text in any case")
            #expect(Self.listed(try get("/?q=ok-19").body) == (190...199).map { String(format: "ok-%03d", $0) })
            for literal in ["%", "_", "\\"] {
                #expect(
                    try get("/?q=\(literal.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")").body.contains("0 loggers match"),
                    "\(literal) is itself")
            }
            // Paging links keep the filters.
            let filtered = try get("/?verdict=OK&review=clear&q=ok")
            #expect(filtered.body.contains("201 loggers match · Page 1 of 3"))
            #expect(filtered.body.contains("href=\"/?verdict=OK&amp;review=clear&amp;q=ok&amp;page=2\" rel=\"next\""), "\(filtered.body.suffix(800))")
            #expect(filtered.body.contains("value=\"ok\""))
            let filteredLast = try get("/?verdict=OK&review=clear&q=ok&page=3")
            #expect(filteredLast.body.contains("href=\"/?verdict=OK&amp;review=clear&amp;q=ok&amp;page=2\" rel=\"prev\""))

            // The other languages.
            let japanese = try get("/?page=2", language: "ja")
            #expect(japanese.body.contains("該当 204 台 · 2 / 3 ページ") && japanese.body.contains("要対応") && japanese.body.contains("全 204 台"))
            let chinese = try get("/?verdict=OK", language: "zh-Hans")
            #expect(chinese.body.contains("符合条件：201 台 · 第 1 / 3 页") && chinese.body.contains("下一页"))

            // Bad parameters: a 400 that says why, never a 500.
            for query in [
                "page=0", "page=-1", "page=abc", "page=99999999999", "page=1.5", "verdict=GREEN", "review=reviewed", "review=%00",
                "q=" + String(repeating: "x", count: 101),
            ] {
                let bad = try get("/?\(query)", status: 400)
                #expect(bad.status != 500)
            }

            // Another site never sees north's loggers or counts, nor north south's.
            let southCookie = try signIn(station, site: "south")
            let south = try page(station, "GET", "/", cookie: southCookie)
            #expect(Self.listed(south.body) == ["south-alarm", "south-ok"])
            #expect(south.body.contains("2 loggers match · Page 1 of 1") && !south.body.contains("alarm-0") && !south.body.contains("ok-0"))
            #expect(Self.listed(try page(station, "GET", "/?q=ok", cookie: southCookie).body) == ["south-ok"])
            #expect(try get("/?q=south").body.contains("0 loggers match"))

            // What changed after a view reaches the next one through the record's leaves after
            // the site's watermark: a new logger.
            try await upload(try Reads.alarm(), logger: "late-freezer")
            #expect(Self.listed(try get("/?verdict=ALARM").body) == ["alarm-0", "alarm-2", "late-freezer", "alarm-1"])
            #expect(try get("/").body.contains("205 loggers match"))

            // The kept rows are derived: `archive verify` computes them again, and names one edited.
            let opened = try station.archive.open()
            defer { opened.close() }
            #expect(try opened.engine.scalarInt("SELECT COUNT(*) FROM logger_overview") == 207)
            #expect(
                try opened.engine.scalarInt("SELECT record_size FROM overview_watermarks WHERE site_id = 1")
                    == opened.engine.scalarInt("SELECT MAX(leaf_index) + 1 FROM record_leaves"))
            let clean = try await opened.verify(decoder: ArchivedReads.decoder)
            #expect(clean.problems.isEmpty, "\(clean.problems)")
            try opened.engine.execute("UPDATE logger_overview SET verdict = 'OK', open_excursions = 0, review = 'clear' WHERE logger_id = 'alarm-0'")
            let edited = try await opened.verify(decoder: ArchivedReads.decoder)
            #expect(edited.problems.count == 1 && edited.problems.first?.contains("logger alarm-0: its overview row") == true, "\(edited.problems)")
            // A row removed would never be judged again under the watermark: verify names it.
            try opened.engine.execute("DELETE FROM logger_overview WHERE logger_id = 'ok-007'")
            let removed = try await opened.verify(decoder: ArchivedReads.decoder)
            #expect(removed.problems.contains { $0.contains("logger ok-007: its site's overview counts its row") }, "\(removed.problems)")
        }
    }

    @Test func loggerPageStaysSmallForAYearOfSamples() async throws {
        try await withStation(.sqlite) { station in
            // A year of 10-minute samples, in reads of 4,000 with an excursion now and then.
            let perRead = 4000
            for chunk in 0..<14 {
                let first = chunk * perRead
                let temperatures = (first..<(first + perRead)).map { index -> Double in
                    index % 5000 < 20 ? 9.5 : ((5 + 2 * sin(Double(index) / 72)) * 10).rounded() / 10
                }
                // Placed so that the year ends before the read time (a read time may not lie ahead).
                let body = try Reads.generic(first: first - 14 * perRead, temperatures: temperatures)
                let answer = try await request(
                    station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: station.tokens["north-upload"],
                    headers: [
                        UploadHeader.readTime: Reads.readTime, UploadHeader.loggerID: "year-fridge",
                        "Content-Type": "application/octet-stream",
                    ], body: body)
                #expect(answer.status == 201, "\(answer.text)")
            }
            let cookie = try signIn(station)
            for period in ["period=day", "period=week", "period=month", "period=year", "period=all", "from=2025-03-01&to=2025-09-30"] {
                let answer = try page(station, "GET", "/loggers/year-fridge?\(period)", cookie: cookie)
                #expect(answer.status == 200, "\(period)")
                #expect(answer.body.utf8.count < 200_000, "\(period): \(answer.body.utf8.count) bytes")
                #expect(answer.body.contains("<svg class=\"chart\""))
            }
        }
    }
}
