import Archive
import ArchiveTestSupport
import ColdTapBase
import CommandTestSupport
import Foundation
import LoggerFormats
import Station
import StationTestSupport
import Testing

/// Issue 27's reproductions, each as an attacker holding a token would send it, with two
/// sites on both engines (docs/security.md names the test of each item).
@Suite("Station security") struct StationSecurityTests {
    static let hostilePaths = ["/etc/passwd", "../../../../etc/passwd", "/dev/zero", "archive.sqlite", "x.json", "%2Fetc%2Fpasswd", "a b", ""]

    func url(_ station: TestStation, _ pathAndQuery: String) throws -> URL {
        try #require(URL(string: "http://127.0.0.1:\(station.port)\(pathAndQuery)"))
    }

    func upload(
        _ station: TestStation, site: String, body: Data, loggerID: String? = nil, readTime: String = Reads.readTime,
        type: String = "application/octet-stream"
    ) async throws -> Answer {
        var headers = [UploadHeader.readTime: readTime, "Content-Type": type]
        headers[UploadHeader.loggerID] = loggerID
        return try await request(
            station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: station.tokens["\(site)-upload"],
            headers: headers, body: body)
    }

    func cuplTag(serial: String, count: Int = 40) throws -> Data {
        try Reads.cuplTagURL(CuplTagEncoder(variant: .temperatureOnly, serial: serial, intervalMinutes: 10), count: count, wave: 5)
    }

    @Test("a report's profile is a name: no path reaches a file; a site's registered profile is its own", arguments: Engine.allCases)
    func profilesAreNames(engine: Engine) async throws {
        try await withStation(engine) { station in
            #expect(try await upload(station, site: "north", body: try Reads.alarm(), loggerID: "fridge-1").status == 201)
            let token = station.tokens["north-read"]
            var paths = StationSecurityTests.hostilePaths
            if engine == .sqlite { paths.append(station.archive.location) }
            for path in paths {
                var items = URLComponents()
                items.queryItems = [URLQueryItem(name: "profile", value: path)]
                let answer = try await request(try url(station, "/api/v1/loggers/fridge-1/report.svg?\(items.percentEncodedQuery ?? "")"), token: token)
                #expect(answer.status == 400, "\(path): \(answer.status) \(answer.text.prefix(200))")
                #expect(!answer.text.contains("JSON") && !answer.text.contains("root:"), "\(path): \(answer.text.prefix(200))")
            }
            for zone in ["../../../../dev/zero", "/etc/passwd", "Europe/../../../dev/zero"] {
                var items = URLComponents()
                items.queryItems = [URLQueryItem(name: "tz", value: zone)]
                let answer = try await request(try url(station, "/api/v1/loggers/fridge-1/report.svg?\(items.percentEncodedQuery ?? "")"), token: token)
                #expect(answer.status == 400, "\(zone): \(answer.status)")
            }
            // Uploads still work after all of that (the archive file was never opened a second time).
            #expect(try await upload(station, site: "north", body: try Reads.cold(first: 200), loggerID: "fridge-1").status == 201)
            // A profile registered for north: north's reports name it, south's cannot, and
            // south's error lists only the built-in ones.
            let file = station.archive.path("ward-profile.json")
            try Data(#"{"name": "ward3", "summary": "Ward 3: 2–6 °C", "band": {"min": 2, "max": 6}, "rules": []}"#.utf8).write(to: URL(fileURLWithPath: file))
            let added = await coldtap(["profile", "add", file, "--site", "north", "--name", "ward3-band", "--archive", station.archive.location])
            #expect(added.status == 0, "\(added.err)")
            let named = try await request(try url(station, "/api/v1/loggers/fridge-1/report.svg?profile=ward3-band"), token: token)
            #expect(named.status == 200, "\(named.text.prefix(300))")
            #expect(named.text.contains("6"), "the band's upper limit is drawn")
            #expect(try await upload(station, site: "south", body: try Reads.cold(), loggerID: "south-1").status == 201)
            let foreign = try await request(try url(station, "/api/v1/loggers/south-1/report.svg?profile=ward3-band"), token: station.tokens["south-read"])
            #expect(foreign.status == 400)
            // South's own request is echoed; the names it is offered are the built-in ones only.
            let offered = try #require(foreign.text.components(separatedBy: "it has").last)
            #expect(!offered.contains("ward3"), "\(foreign.text)")
            let listed = await coldtap(["profile", "list", "--archive", station.archive.location])
            #expect(listed.out.contains("ward3-band") && listed.out.contains("north"), "\(listed.out)")
            // A registered profile edited in the database is named by verify.
            #expect(await coldtap(["archive", "verify", "--archive", station.archive.location]).status == 0)
            let archive = try Archive.open(station.archive.location)
            try archive.engine.execute(
                "UPDATE site_profiles SET profile_json = $1",
                [.text(#"{"name": "ward3", "summary": "Ward 3: 2–60 °C", "band": {"min": 2, "max": 60}, "rules": []}"#)])
            archive.close()
            let verified = await coldtap(["archive", "verify", "--archive", station.archive.location])
            #expect(verified.status != 0)
            #expect((verified.out + verified.err).contains("site profile ward3-band v1"), "\(verified.out) \(verified.err)")
        }
    }

    @Test("a site cannot claim, block or learn another site's loggers", arguments: Engine.allCases)
    func sitesCannotClaimEachOthersLoggers(engine: Engine) async throws {
        try await withStation(engine) { station in
            // South names its own logger with north's future identity: refused, nothing kept.
            let before = try station.archive.fingerprint()
            let squat = try await upload(station, site: "south", body: try cuplTag(serial: "SOUTH001"), loggerID: "cupltag:FUTURE01", type: "text/plain")
            #expect(squat.status == 422, "\(squat.text)")
            #expect(try station.archive.fingerprint() == before)
            // North's real FUTURE01, uploaded without an id, is north's.
            let real = try await upload(station, site: "north", body: try cuplTag(serial: "FUTURE01"), type: "text/plain")
            #expect(real.status == 201, "\(real.text)")
            #expect((try real.json()["logger"] as? [String: Any])?["id"] as? String == "cupltag:FUTURE01")
            // North keeps serial WARD0003 under a name of its own; south names the same serial
            // (a logger that moved) under its own name: both keep working without ids.
            #expect(
                try await upload(station, site: "north", body: try cuplTag(serial: "WARD0003"), loggerID: "ward3-pfizer-fridge", type: "text/plain").status
                    == 201)
            #expect(
                try await upload(station, site: "south", body: try cuplTag(serial: "WARD0003", count: 45), loggerID: "b-x1", type: "text/plain").status == 201)
            let northAgain = try await upload(station, site: "north", body: try cuplTag(serial: "WARD0003", count: 50), type: "text/plain")
            #expect(northAgain.status == 201, "\(northAgain.text)")
            #expect((try northAgain.json()["logger"] as? [String: Any])?["id"] as? String == "ward3-pfizer-fridge")
            let southAgain = try await upload(station, site: "south", body: try cuplTag(serial: "WARD0003", count: 55), type: "text/plain")
            #expect(southAgain.status == 201, "\(southAgain.text)")
            #expect((try southAgain.json()["logger"] as? [String: Any])?["id"] as? String == "b-x1")
            // South naming north's logger, or uploading north's identity: the nameless 404.
            let unknown = try await request(station.base.appendingPathComponent("api/v1/loggers/nothing-here"), token: station.tokens["south-read"])
            for answer in [
                try await upload(station, site: "south", body: try Reads.cold(), loggerID: "ward3-pfizer-fridge"),
                try await upload(station, site: "south", body: try cuplTag(serial: "FUTURE01", count: 60), type: "text/plain"),
                try await request(station.base.appendingPathComponent("api/v1/loggers/ward3-pfizer-fridge"), token: station.tokens["south-read"]),
            ] {
                #expect(answer.status == 404)
                #expect(try answer.json()["error"] as? String == unknown.json()["error"] as? String)
                #expect(!answer.text.contains("ward3") && !answer.text.contains("FUTURE01") && !answer.text.contains("north"), "\(answer.text)")
            }
            // Within a site, a name joins only its own logger.
            let other = try await upload(station, site: "north", body: try cuplTag(serial: "OTHER001"), loggerID: "ward3-pfizer-fridge", type: "text/plain")
            #expect(other.status == 422)
            #expect(other.text.contains("cupltag:WARD0003") && other.text.contains("cupltag:OTHER001"), "\(other.text)")
            // Two names of one serial in north: north is told its own two names, never south's.
            #expect(try await upload(station, site: "north", body: try cuplTag(serial: "TWICE001"), loggerID: "first-name", type: "text/plain").status == 201)
            #expect(
                try await upload(station, site: "north", body: try cuplTag(serial: "TWICE001", count: 45), loggerID: "second-name", type: "text/plain").status
                    == 201)
            let ambiguous = try await upload(station, site: "north", body: try cuplTag(serial: "TWICE001", count: 50), type: "text/plain")
            #expect(ambiguous.status == 422)
            #expect(ambiguous.text.contains("first-name") && ambiguous.text.contains("second-name") && !ambiguous.text.contains("b-x1"))
        }
    }

    @Test("read times outside [2000-01-01, arrival + 1 day] are refused; no time text wraps", arguments: Engine.allCases)
    func readTimesAreChecked(engine: Engine) async throws {
        try await withStation(engine) { station in
            let before = try station.archive.fingerprint()
            let soon = Date().addingTimeInterval(3 * 86_400).isoUTC
            for text in [
                "99999-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "292277026596-12-04T15:30:07Z", "1999-12-31T23:59:59Z", soon,
                "-292277026596-12-04T15:30:07Z", "+10000-01-01T00:00:00Z",
            ] {
                let answer = try await upload(station, site: "north", body: try Reads.cold(), loggerID: "fridge-t", readTime: text)
                #expect(answer.status == 422, "\(text): \(answer.status) \(answer.text)")
                #expect(answer.text.contains(UploadHeader.readTime), "\(text): \(answer.text)")
            }
            for text in ["2026-13-01T00:00:00Z", "yesterday", String(repeating: "9", count: 400)] {
                #expect(try await upload(station, site: "north", body: try Reads.cold(), loggerID: "fridge-t", readTime: text).status == 400, "\(text)")
            }
            #expect(try station.archive.fingerprint() == before)
            let tomorrow = Date().addingTimeInterval(12 * 3600)
            let accepted = try await upload(
                station, site: "north", body: try Reads.cold(), loggerID: "fridge-t",
                readTime: Date(timeIntervalSince1970: tomorrow.timeIntervalSince1970.rounded(.down)).isoUTC)
            #expect(accepted.status == 201, "\(accepted.text)")
            // Where the read time came from is kept as it was: sent by the device, or the
            // station's arrival standing in for it (an estimate).
            #expect((try accepted.json()["read"] as? [String: Any])?["readTimeSource"] as? String == "given by the uploading device")
            let headers = ["Content-Type": "application/octet-stream", UploadHeader.loggerID: "fridge-u"]
            let untimed = try await request(
                station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: station.tokens["north-upload"],
                headers: headers, body: try Reads.cold(first: 300))
            #expect(
                (try untimed.json()["read"] as? [String: Any])?["readTimeSource"] as? String == "the station's arrival time (no read time sent)",
                "\(untimed.text)")
            // Every other reader of times in a request: refused or read as written, never wrapped.
            let token = station.tokens["north-upload"]
            for text in ["292277026596-12-04T15:30:07Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "0000-01-01", "99999-01-01"] {
                for path in [
                    "/api/v1/loggers/fridge-t/samples?from=", "/api/v1/loggers/fridge-t/samples?to=", "/api/v1/loggers/fridge-t/samples?cursor=",
                    "/api/v1/loggers/fridge-t/report.svg?from=",
                ] {
                    let answer = try await request(try url(station, path + text), token: token)
                    #expect([200, 400, 404].contains(answer.status), "\(path)\(text): \(answer.status) \(answer.text.prefix(200))")
                }
                let ack = try await request(
                    station.base.appendingPathComponent("api/v1/loggers/fridge-t/acknowledgements"), method: "POST", token: token,
                    headers: ["Content-Type": "application/json"],
                    body: Data(#"{"excursion": "\#(text)", "by": "N", "comment": "c"}"#.utf8))
                #expect([400, 422].contains(ack.status), "ack \(text): \(ack.status)")
            }
        }
    }

    @Test("logger ids holding '/', '%' or spaces are encoded in links and reachable; names outside the set are refused", arguments: Engine.allCases)
    func oddLoggerIDsAreReachable(engine: Engine) async throws {
        try await withStation(engine) { station in
            for name in ["a/b", "../x", "a b", "a%2Fb", "<x>", "-lead", String(repeating: "x", count: 201)] {
                #expect(try await upload(station, site: "north", body: try Reads.cold(), loggerID: name).status == 400, "\(name)")
            }
            // Kept by the command line under an id the station would not take from an upload.
            let odd = "ward 3/fridge%1?#"
            let file = station.archive.path("odd.ndef")
            try Reads.cold().write(to: URL(fileURLWithPath: file))
            let added = await coldtap(["archive", "add", file, "--logger-id", odd, "--read-time", Reads.readTime, "--archive", station.archive.location])
            #expect(added.status == 0, "\(added.err)")
            try station.claim(odd, for: "north")
            let encoded = "ward%203%2Ffridge%251%3F%23"
            let token = station.tokens["north-read"]
            for suffix in ["", "/samples", "/report.svg"] {
                let answer = try await request(try url(station, "/api/v1/loggers/\(encoded)\(suffix)"), token: token)
                #expect(answer.status == 200, "\(suffix): \(answer.text.prefix(200))")
            }
            let listed = try await request(station.base.appendingPathComponent("api/v1/loggers"), token: token)
            #expect((try listed.json()["loggers"] as? [[String: Any]])?.contains { $0["id"] as? String == odd } == true)
            // The pages link to it encoded, and the link works.
            let login = try page(station, "POST", "/login", form: [("token", try #require(token))], headers: ["Origin": "http://127.0.0.1:\(station.port)"])
            let cookie = String(try #require(login.headers("Set-Cookie").first { $0.hasPrefix("coldtap_session=") }).split(separator: ";")[0])
            let overview = try page(station, "GET", "/", cookie: cookie)
            #expect(overview.body.contains("href=\"/loggers/\(encoded)"), "the overview links to the encoded id")
            #expect(try page(station, "GET", "/loggers/\(encoded)", cookie: cookie).status == 200)
            #expect(try page(station, "GET", "/loggers/\(encoded)/samples.csv", cookie: cookie).status == 200)
        }
    }

    @Test("/healthz says only ok; /metrics needs the operator's token; tokens expire", arguments: Engine.allCases)
    func operatorAndExpiry(engine: Engine) async throws {
        try await withStation(engine) { station in
            #expect(try await upload(station, site: "north", body: try Reads.cold(), loggerID: "fridge-h").status == 201)
            let health = try await request(station.base.appendingPathComponent("healthz"))
            #expect(health.status == 200)
            #expect(health.text == "{\"status\":\"ok\"}\n")
            for name in ["north-admin", "north-upload", "north-read"] {
                #expect(try await request(station.base.appendingPathComponent("metrics"), token: station.tokens[name]).status == 403, "\(name)")
            }
            #expect(try await request(station.base.appendingPathComponent("metrics"), token: station.tokens["operator"]).status == 200)
            // An operator token is made without a site and refused with one.
            let withSite = await coldtap(["token", "create", "--scope", "operator", "--site", "north", "--archive", station.archive.location])
            #expect(withSite.status != 0)
            // Expiry: a token past its time answers 401; list shows when and that it expired.
            let made = await coldtap(["token", "create", "--site", "north", "--scope", "read", "--expires", "90d", "--archive", station.archive.location])
            #expect(made.status == 0, "\(made.err)")
            #expect(made.err.contains("until"), "\(made.err)")
            let logger = station.base.appendingPathComponent("api/v1/loggers/fridge-h")
            #expect(try await request(logger, token: made.out.trimmingCharacters(in: .whitespacesAndNewlines)).status == 200)
            let archive = try Archive.open(station.archive.location)
            let store = try StationStore(archive: archive)
            let site = try #require(try store.site(named: "north"))
            let hourAgo = Date().addingTimeInterval(-3600)
            let expired = try store.createToken(site: site, scope: .read, expires: hourAgo.addingTimeInterval(60), now: hourAgo)
            archive.close()
            let refused = try await request(logger, token: expired.token)
            #expect(refused.status == 401)
            #expect(refused.text.contains("expired"))
            let list = await coldtap(["token", "list", "--archive", station.archive.location])
            #expect(list.out.contains("(expired)") && list.out.contains("expires") && list.out.contains("(station)"), "\(list.out)")
            let bad = await coldtap(["token", "create", "--site", "north", "--scope", "read", "--expires", "forever", "--archive", station.archive.location])
            #expect(bad.status != 0)
        }
    }
}
