import Archive
import ArchiveTestSupport
import ColdTapBase
import Digest
import Foundation
import Station
import StationTestSupport
import Testing

/// The route table through `Station.handle`, without a socket: what a path, a method, a
/// caller, a path parameter, a query, a body or a form that is not the route's is answered.
@Suite("Station routes")
struct StationRouteTests {
    /// A station over a fresh SQLite archive with sites `north` and `south` and their tokens,
    /// never started: requests go through `handle` alone.
    final class Fixture {
        let archive: TestArchive
        let station: Station
        var tokens: [String: String] = [:]

        init() throws {
            archive = try TestArchive(.sqlite)
            var configuration = Station.Configuration(archive: archive.location)
            configuration.signingKey = archive.path("signing-key")
            station = Station(configuration: configuration, logLine: { _ in })
            let opened = try Archive.open(archive.location)
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

        deinit {
            station.stop()
            archive.remove()
        }

        /// `request` answered on a thread of its own, as the server's handler threads answer it
        /// (an upload waits for its decoding, which needs the cooperative pool free).
        func answer(_ request: HTTPRequest) async -> HTTPResponse {
            let station = station
            return await withCheckedContinuation { done in Thread { done.resume(returning: station.handle(request)) }.start() }
        }

        func send(
            _ method: String, _ path: String, query: [(String, String)] = [], token: String? = nil, headers: [String: String] = [:], body: String? = nil
        ) async -> HTTPResponse {
            var all = headers
            if let token { all["Authorization"] = "Bearer \(tokens[token] ?? "")" }
            return await answer(HTTPRequest(method: method, path: path, query: query, headers: all, body: Data((body ?? "").utf8)))
        }

        func json(_ method: String, _ path: String, token: String, _ body: String) async -> HTTPResponse {
            await send(method, path, token: token, headers: ["Content-Type": "application/json"], body: body)
        }

        /// Uploads the alarm read as `fridge-1` of north: one excursion at 08:20.
        func uploadAlarm() async throws {
            let token = try #require(tokens["north-upload"])
            let read = try Reads.alarm()
            let response = await answer(
                HTTPRequest(
                    method: "POST", path: "/api/v1/reads",
                    headers: [
                        "Authorization": "Bearer \(token)", "Content-Type": "application/octet-stream",
                        UploadHeader.readTime: Reads.readTime, UploadHeader.loggerID: "fridge-1",
                    ], body: read))
            #expect(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))")
        }

        /// A browser session of `site`'s token of `scope` (before the station has users).
        func session(_ scope: String, site: String = "north") async throws -> String {
            let token = try #require(tokens["\(site)-\(scope)"])
            let response = await answer(
                HTTPRequest(
                    method: "POST", path: "/login",
                    headers: ["Content-Type": "application/x-www-form-urlencoded", "Host": "station", "Origin": "http://station"],
                    body: Data("token=\(token)".utf8)))
            #expect(response.status == 303)
            let cookie = try #require(response.headers.first { $0.0 == "Set-Cookie" && $0.1.hasPrefix("coldtap_session=") }?.1)
            return String(cookie.split(separator: ";")[0])
        }
    }

    static func detail(_ response: HTTPResponse) -> String {
        ((try? JSONSerialization.jsonObject(with: response.body)) as? [String: String])?["detail"] ?? String(decoding: response.body, as: UTF8.self)
    }

    @Test("a path no route has is 404, on the API and beside the pages")
    func unknownPath() async throws {
        let fixture = try Fixture()
        for path in ["/api/v1/nothing", "/api/v2/loggers", "/loggers", "/api/v1/loggers/x/y/z", "/api/v1/loggers/x/unknown", "", "/audit.xml"] {
            let answer = await fixture.send("GET", path, token: "north-read")
            #expect(answer.status == 404, "\(path): \(answer.status)")
        }
    }

    @Test("a route's path with another method is 405 naming the methods it takes, before any token is read")
    func wrongMethod() async throws {
        let fixture = try Fixture()
        let cases: [(String, String, String)] = [
            ("DELETE", "/api/v1/loggers", "GET"), ("PUT", "/api/v1/lots", "GET, POST"), ("GET", "/api/v1/reads", "POST"),
            ("POST", "/healthz", "GET"), ("PATCH", "/api/v1/loggers/fridge-1/acknowledgements", "POST"), ("DELETE", "/login", "GET, POST"),
            ("GET", "/logout", "POST"), ("POST", "/api/v1/lots/L-1", "GET"),
        ]
        for (method, path, allowed) in cases {
            let answer = await fixture.send(method, path)
            #expect(answer.status == 405, "\(method) \(path): \(answer.status)")
            #expect(answer.header("Allow") == allowed, "\(method) \(path)")
        }
        // HEAD is a GET.
        #expect(await fixture.send("HEAD", "/healthz").status == 200)
    }

    @Test("who may use a route: no token 401, a token of too small a scope 403, the operator's token on a site's route 403")
    func scopes() async throws {
        let fixture = try Fixture()
        #expect(await fixture.send("GET", "/api/v1/loggers").status == 401)
        #expect(await fixture.send("GET", "/api/v1/loggers", headers: ["Authorization": "Bearer nope"]).status == 401)
        #expect(await fixture.send("GET", "/api/v1/loggers", token: "north-read").status == 200)
        #expect(await fixture.send("POST", "/api/v1/reads", token: "north-read", body: "x").status == 403)
        #expect(await fixture.json("POST", "/api/v1/lots", token: "north-read", #"{"lot": "L-1", "product": "clinic-vaccine"}"#).status == 403)
        #expect(await fixture.send("GET", "/metrics", token: "north-admin").status == 403)
        #expect(await fixture.send("GET", "/metrics", token: "operator").status == 200)
        #expect(await fixture.send("GET", "/api/v1/loggers", token: "operator").status == 403)
        // A page without a session: a GET goes to the sign-in, a form is refused with it.
        let anonymous = await fixture.send("GET", "/reads")
        #expect(anonymous.status == 303 && anonymous.header("Location") == "/login")
        #expect(await fixture.send("POST", "/loggers/fridge-1/acknowledgements").status == 401)
    }

    @Test("the audit trail needs a reviewer or an admin: a read token's session is refused")
    func auditRole() async throws {
        let fixture = try Fixture()
        let reader = try await fixture.session("read")
        #expect(await fixture.send("GET", "/audit", headers: ["Cookie": reader]).status == 403)
        #expect(await fixture.send("GET", "/audit.csv", headers: ["Cookie": reader]).status == 403)
        let admin = try await fixture.session("admin")
        #expect(await fixture.send("GET", "/audit", headers: ["Cookie": admin]).status == 200)
        #expect(await fixture.send("GET", "/audit.json", headers: ["Cookie": admin]).status == 200)
    }

    @Test("typed path parameters: a lot's name that is none is 400, a report kind the API has not is 404, another site's logger is 404")
    func pathParameters() async throws {
        let fixture = try Fixture()
        try await fixture.uploadAlarm()
        let badLot = await fixture.send("GET", "/api/v1/lots/-bad%20name", token: "north-read")
        #expect(badLot.status == 400 && Self.detail(badLot).contains("the path's lot"), "\(Self.detail(badLot))")
        #expect(await fixture.send("GET", "/api/v1/lots/L-1/report.png", token: "north-read").status == 404)
        #expect(await fixture.send("GET", "/api/v1/loggers/fridge-1/report.csv", token: "north-read").status == 404)
        #expect(await fixture.send("GET", "/api/v1/loggers/fridge-1", token: "north-read").status == 200)
        #expect(await fixture.send("GET", "/api/v1/loggers/fridge-1", token: "south-read").status == 404)
        #expect(await fixture.send("GET", "/api/v1/loggers/fridge-1/samples", token: "south-read").status == 404)
    }

    @Test("a control character in a name is 400: NUL in a path or a body never names what comes before it")
    func controlCharactersInNames() async throws {
        let fixture = try Fixture()
        try await fixture.uploadAlarm()
        let before = try fixture.archive.fingerprint()
        for path in ["/api/v1/loggers/fridge-1%00xyz", "/api/v1/loggers/fridge-1%01", "/api/v1/lots/L-1%7F"] {
            let answer = await fixture.send("GET", path, token: "north-read")
            #expect(answer.status == 400 && Self.detail(answer).contains("control character"), "\(path): \(Self.detail(answer))")
            #expect(!String(decoding: answer.body, as: UTF8.self).contains("fridge-1\""), "\(path) answered fridge-1's record")
        }
        let lot = await fixture.json("POST", "/api/v1/lots", token: "north-upload", #"{"lot": "L-1\u0000zz", "product": "example-2-8"}"#)
        #expect(lot.status == 400 && Self.detail(lot).contains("control characters"), "\(Self.detail(lot))")
        let ack = await fixture.json(
            "POST", "/api/v1/loggers/fridge-1/acknowledgements", token: "north-upload",
            #"{"excursion": "2026-01-01T08:20:00Z", "by": "Pat\u0000 Admin", "comment": "B"}"#)
        #expect(ack.status == 400, "\(Self.detail(ack))")
        // A form too (a sign-in's name): refused before anything reads it.
        let login = await fixture.answer(
            HTTPRequest(
                method: "POST", path: "/login", headers: ["Content-Type": "application/x-www-form-urlencoded", "Host": "station", "Origin": "http://station"],
                body: Data("token=\(fixture.tokens["north-read"] ?? "")%00zzz".utf8)))
        #expect(login.status == 400 || login.status == 401, "\(login.status)")
        #expect(!login.headers.contains { $0.0 == "Set-Cookie" && $0.1.hasPrefix("coldtap_session=") }, "no session for a name with NUL")
        #expect(try fixture.archive.fingerprint() == before, "a refused request keeps nothing")
        // A comment keeps its line breaks.
        let lines = await fixture.json(
            "POST", "/api/v1/loggers/fridge-1/acknowledgements", token: "north-upload",
            #"{"excursion": "2026-01-01T08:20:00Z", "by": "Pat", "comment": "door open\nclosed at 08:40"}"#)
        #expect(lines.status == 201, "\(Self.detail(lines))")
    }

    @Test("an acknowledgement's body is typed: an unknown key, a wrong type, a key twice are 400 and keep nothing")
    func acknowledgementBody() async throws {
        let fixture = try Fixture()
        try await fixture.uploadAlarm()
        let path = "/api/v1/loggers/fridge-1/acknowledgements"
        let before = try fixture.archive.fingerprint()
        let refused: [(String, String)] = [
            (#"{"excursion": "2026-01-01T08:20:00Z", "by": "A", "comment": "B", "again": "yes"}"#, "\"again\" must be true or false"),
            (#"{"excursion": "2026-01-01T08:20:00Z", "by": "A", "comment": "B", "note": "x"}"#, "has no field \"note\""),
            (#"{"excursion": "2026-01-01T08:20:00Z", "by": 7, "comment": "B"}"#, "\"by\" must be a string"),
            (#"{"excursion": "2026-01-01T08:20:00Z", "by": "A", "by": "C", "comment": "B"}"#, "gives \"by\" twice"),
            (#"{"by": "A", "comment": "B"}"#, "\"excursion\" must be"),
            (#"["excursion"]"#, "must be a JSON object"),
            (#"{"excursion": "2026-01-01T08:20:00Z", "by": "A", "comment": "B"} x"#, "must be a JSON object"),
        ]
        for (body, expected) in refused {
            let answer = await fixture.json("POST", path, token: "north-upload", body)
            #expect(answer.status == 400, "\(body): \(answer.status)")
            #expect(Self.detail(answer).contains(expected), "\(body): \(Self.detail(answer))")
        }
        #expect(try fixture.archive.fingerprint() == before)
        let kept = await fixture.json("POST", path, token: "north-upload", #"{"excursion": "2026-01-01T08:20:00Z", "by": "A", "comment": "B"}"#)
        #expect(kept.status == 201, "\(Self.detail(kept))")
        let twice = await fixture.json(
            "POST", path, token: "north-upload", #"{"excursion": "2026-01-01T08:20:00Z", "by": "A", "comment": "B", "again": false}"#)
        #expect(twice.status == 409)
        let followUp = await fixture.json(
            "POST", path, token: "north-upload", #"{"excursion": "2026-01-01T08:20:00Z", "by": "A", "comment": "C", "again": true}"#)
        #expect(followUp.status == 201, "\(Self.detail(followUp))")
    }

    @Test("lot bodies are typed: a fraction, a string for a number, an unknown key, a missing logger are 400")
    func lotBodies() async throws {
        let fixture = try Fixture()
        let refused = [
            #"{"lot": "L-1", "product": "clinic-vaccine", "quantity": 1.5}"#, #"{"lot": "L-1", "product": "clinic-vaccine", "quantity": "200"}"#,
            #"{"lot": "L-1", "product": "clinic-vaccine", "colour": "red"}"#, #"{"lot": "L-1"}"#, #"{"lot": "L-1", "lot": "L-2", "product": "clinic-vaccine"}"#,
        ]
        for body in refused {
            let answer = await fixture.json("POST", "/api/v1/lots", token: "north-upload", body)
            #expect(answer.status == 400, "\(body): \(answer.status) \(Self.detail(answer))")
        }
        #expect(
            await fixture.json("POST", "/api/v1/lots", token: "north-upload", #"{"lot": "L-1", "product": "example-2-8", "quantity": 200}"#).status == 201)
        let noLogger = await fixture.json("POST", "/api/v1/lots/L-1/moves", token: "north-upload", #"{"at": "2026-01-01T08:00:00Z"}"#)
        #expect(noLogger.status == 400 && Self.detail(noLogger).contains("\"logger\" must be given"), "\(Self.detail(noLogger))")
        #expect(await fixture.json("POST", "/api/v1/lots/L-1/moves", token: "north-upload", #"{"logger": null, "at": "2026-01-01T08:00:00Z"}"#).status == 201)
        let wrongType = await fixture.send("POST", "/api/v1/lots", token: "north-upload", headers: ["Content-Type": "text/plain"], body: "{}")
        #expect(wrongType.status == 415)
    }

    @Test("queries are typed: a parameter the route does not take, or one given twice, is 400")
    func queries() async throws {
        let fixture = try Fixture()
        #expect(await fixture.send("GET", "/api/v1/loggers", query: [("limit", "5")], token: "north-read").status == 200)
        let unknown = await fixture.send("GET", "/api/v1/loggers", query: [("colour", "red")], token: "north-read")
        #expect(unknown.status == 400 && Self.detail(unknown).contains("\"colour\""), "\(Self.detail(unknown))")
        #expect(await fixture.send("GET", "/api/v1/loggers", query: [("limit", "5"), ("limit", "6")], token: "north-read").status == 400)
        #expect(await fixture.send("GET", "/healthz", query: [("x", "1")]).status == 400)
        let reader = try await fixture.session("read")
        #expect(await fixture.send("GET", "/reads", query: [("lang", "ja")], headers: ["Cookie": reader]).status == 200)
        #expect(await fixture.send("GET", "/reads", query: [("sort", "name")], headers: ["Cookie": reader]).status == 400)
    }

    @Test("a logger page's form with a field the page does not send is refused with a page, nothing kept")
    func pageForms() async throws {
        let fixture = try Fixture()
        try await fixture.uploadAlarm()
        let cookie = try await fixture.session("upload")
        let form = SHA256Digest.hex(text: "coldtap web form\n" + String(cookie.dropFirst("coldtap_session=".count)))
        let before = try fixture.archive.fingerprint()
        for extra in ["&again=yes", "&colour=red", "&by=C"] {
            let answer = await fixture.send(
                "POST", "/loggers/fridge-1/acknowledgements",
                headers: ["Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded", "Host": "station", "Origin": "http://station"],
                body: "form=\(form)&excursion=2026-01-01T08%3A20%3A00Z&by=A&comment=B" + extra)
            #expect(answer.status == 400, "\(extra): \(answer.status)")
            #expect(answer.header("Content-Type")?.hasPrefix("text/html") == true)
        }
        #expect(try fixture.archive.fingerprint() == before)
        let kept = await fixture.send(
            "POST", "/loggers/fridge-1/acknowledgements",
            headers: ["Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded", "Host": "station", "Origin": "http://station"],
            body: "form=\(form)&excursion=2026-01-01T08%3A20%3A00Z&by=A&comment=B&again=1")
        #expect(kept.status == 303, "\(String(decoding: kept.body, as: UTF8.self).prefix(500))")
    }
}
