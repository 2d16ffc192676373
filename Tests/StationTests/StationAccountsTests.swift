import Archive
import ArchiveKit
import ArchiveTestSupport
import ColdTapBase
import Digest
import Foundation
import PDFSigning
import Station
import StationTestSupport
import TestSupport
import Testing

/// Named people on the station over HTTP (docs/accounts.md): sessions that end on the server,
/// the token sign-in retired once users exist, acknowledgements that are signatures, a site's
/// audit trail that shows nothing of another site, the overview's review column.
@Suite("Station accounts", .serialized)
struct StationAccountsTests {
    static let password = "correct horse battery"
    static let excursionStart = Reads.start.addingTimeInterval(Double(50 * Reads.interval))

    static func origin(_ station: TestStation) -> [String: String] { ["Origin": "http://127.0.0.1:\(station.port)"] }

    static func upload(_ station: TestStation, _ body: Data, logger: String, site: String = "north", readTime: String = Reads.readTime) async throws {
        let answer = try await request(
            station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: station.tokens["\(site)-upload"],
            headers: [UploadHeader.readTime: readTime, UploadHeader.loggerID: logger, "Content-Type": "application/octet-stream"], body: body)
        #expect(answer.status == 201, "upload \(logger): \(answer.text)")
    }

    /// Adds users as `coldtap user add --password-stdin` does.
    static func addUsers(_ station: TestStation, _ users: [(name: String, fullName: String, site: String, role: UserRole)]) throws {
        let opened = try station.archive.open()
        defer { opened.close() }
        let store = try StationStore(archive: opened)
        for user in users {
            let site = try #require(try store.site(named: user.site))
            _ = try store.addUser(name: user.name, fullName: user.fullName, site: site, role: user.role, by: "os:test", password: password)
        }
    }

    static func signIn(_ station: TestStation, _ name: String, password: String = password) throws -> String {
        let answer = try page(station, "POST", "/login", form: [("user", name), ("password", password)], headers: origin(station))
        #expect(answer.status == 303, "sign-in of \(name): \(answer.status) \(answer.body.prefix(400))")
        let cookie = try #require(answer.headers("Set-Cookie").first { $0.hasPrefix("coldtap_session=") }, "no session cookie: \(answer.head)")
        let value = String(cookie.split(separator: ";")[0])
        #expect(value.hasPrefix("coldtap_session=cs_") && value.count == "coldtap_session=".count + 67, "\(value)")
        return value
    }

    static func formToken(_ cookie: String) -> String { SHA256Digest.hex(text: "coldtap web form\n" + String(cookie.dropFirst("coldtap_session=".count))) }

    @Test("before users, a token's sign-in opens a session: sign-out ends it on the server, and the token is no cookie", arguments: Engine.allCases)
    func tokenSessions(engine: Engine) async throws {
        let station = try await TestStation(engine)
        defer { station.stop() }
        let token = try #require(station.tokens["north-read"])
        #expect(try page(station, "GET", "/", cookie: "coldtap_session=\(token)").status == 303)
        let cookie = try signInWithToken(station, token)
        #expect(!cookie.contains(token))
        #expect(try page(station, "GET", "/", cookie: cookie).status == 200)
        let out = try page(station, "POST", "/logout", cookie: cookie, form: [("form", Self.formToken(cookie))], headers: Self.origin(station))
        #expect(out.status == 303 && out.headers("Set-Cookie").contains { $0.contains("Max-Age=0") })
        // Replayed after signing out: refused, on this station and any other of the archive.
        let replay = try page(station, "GET", "/", cookie: cookie)
        #expect(replay.status == 303 && replay.header("Location") == "/login")

        // Once the station has users, the token form is gone and token sessions end.
        let kept = try signInWithToken(station, token)
        try Self.addUsers(station, [("dana", "Dana Reviewer", "north", .reviewer)])
        #expect(try page(station, "GET", "/", cookie: kept).status == 303)
        let login = try page(station, "GET", "/login")
        #expect(login.body.contains("name=\"user\"") && login.body.contains("name=\"password\"") && !login.body.contains("name=\"token\""))
        let byToken = try page(station, "POST", "/login", form: [("token", token)], headers: Self.origin(station))
        #expect(byToken.status == 401 && byToken.headers("Set-Cookie").isEmpty)
    }

    @Test("an acknowledgement over the API is a signature once users exist; the review column and the audit follow", arguments: Engine.allCases)
    func signedAcknowledgementOverTheAPI(engine: Engine) async throws {
        let station = try await TestStation(engine)
        defer { station.stop() }
        try await Self.upload(station, try Reads.alarm(), logger: "fridge-1")
        try Self.addUsers(
            station, [("olli", "Olli Operator", "north", .operator), ("dana", "Dana Reviewer", "north", .reviewer), ("sam", "Sam South", "south", .admin)])
        let url = station.base.appendingPathComponent("api/v1/loggers/fridge-1/acknowledgements")
        func acknowledge(_ fields: [String: Any]) async throws -> Answer {
            try await request(
                url, method: "POST", token: station.tokens["north-upload"], headers: ["Content-Type": "application/json"],
                body: try JSONSerialization.data(withJSONObject: fields))
        }
        let base: [String: Any] = ["excursion": Self.excursionStart.isoUTC, "comment": "Door left open; stock checked."]
        // A typed name is no signature any more; a wrong password, or another site's user, is refused.
        #expect(try await acknowledge(base.merging(["by": "A. Nurse"]) { $1 }).status == 400)
        #expect(try await acknowledge(base.merging(["user": "olli", "password": "wrong password!"]) { $1 }).status == 401)
        #expect(try await acknowledge(base.merging(["user": "sam", "password": Self.password]) { $1 }).status == 401)
        let signed = try await acknowledge(base.merging(["user": "olli", "password": Self.password]) { $1 })
        #expect(signed.status == 201, "\(signed.text)")
        let ack = try #require(try signed.json()["acknowledgement"] as? [String: Any])
        #expect(ack["by"] as? String == "Olli Operator")

        let list = try await request(station.base.appendingPathComponent("api/v1/loggers/fridge-1/signatures"), token: station.tokens["north-read"])
        let signatures = try #require(try list.json()["signatures"] as? [[String: Any]])
        #expect(signatures.count == 1)
        let signature = try #require(signatures.first)
        #expect(signature["meaning"] as? String == "acknowledged" && signature["subject"] as? String == "acknowledgement")
        #expect(signature["printedName"] as? String == "Olli Operator" && signature["role"] as? String == "operator")
        #expect((signature["reads"] as? [Int])?.count == 1 && (signature["statementSHA256"] as? String)?.count == 64)

        // A review on the page: the overview says the newest data is reviewed, then that a newer read is not.
        let dana = try Self.signIn(station, "dana")
        #expect(try page(station, "GET", "/", cookie: dana).body.contains("not reviewed"))
        let logger = try page(station, "GET", "/loggers/fridge-1?period=all", cookie: dana)
        let from = try #require(firstMatch("name=\"from\" value=\"([^\"]+)\"", in: logger.body))
        let to = try #require(firstMatch("name=\"to\" value=\"([^\"]+)\"", in: logger.body))
        let review = try page(
            station, "POST", "/loggers/fridge-1/reviews", cookie: dana,
            form: [
                ("form", Self.formToken(dana)), ("from", from), ("to", to), ("meaning", "approved"), ("comment", "Excursion handled."),
                ("user", "dana"), ("password", Self.password),
            ], headers: Self.origin(station))
        #expect(review.status == 303, "\(review.body.prefix(600))")
        #expect(try page(station, "GET", "/", cookie: dana).body.contains("✓ Approved"))
        // The review says what its signer saw: the verdict and the excursions acknowledged.
        #expect(try page(station, "GET", "/loggers/fridge-1?period=all", cookie: dana).body.contains("1 excursion, 1 acknowledged"))
        try await Self.checkSignedReport(station, from: from, to: to)
        try await Self.upload(station, try Reads.cold(first: 144), logger: "fridge-1", readTime: Reads.readTime(first: 144, count: 144))
        let after = try page(station, "GET", "/", cookie: dana).body
        #expect(after.contains("reviewed up to") && after.contains("newer data not reviewed"), "\(after.suffix(2000))")

        // The audit trail: north's events, none of south's, no unknown name's.
        _ = try page(station, "POST", "/login", form: [("user", "nobody-at-all"), ("password", "whatever it is")], headers: Self.origin(station))
        let audit = try page(station, "GET", "/audit.json", cookie: dana)
        #expect(audit.status == 200)
        let events = try #require(try JSONSerialization.jsonObject(with: Data(audit.body.utf8)) as? [String: Any])["events"] as? [[String: Any]]
        let kinds = Set((events ?? []).compactMap { $0["kind"] as? String })
        #expect(kinds.isSuperset(of: ["signature", "upload", "sign_in", "sign_in_failed", "user_added", "password_set", "token_created"]), "\(kinds)")
        let text = audit.body
        #expect(!text.contains("sam") && !text.contains("Sam South") && !text.contains("nobody-at-all"))
        let csv = try page(station, "GET", "/audit.csv?user=olli", cookie: dana)
        #expect(csv.status == 200 && csv.header("Content-Type")?.hasPrefix("text/csv") == true)
        #expect(csv.body.contains("signed acknowledged") && !csv.body.contains("Dana Reviewer"))
        let sam = try Self.signIn(station, "sam")
        let southAudit = try page(station, "GET", "/audit.json", cookie: sam).body
        #expect(!southAudit.contains("fridge-1") && !southAudit.contains("olli") && !southAudit.contains("dana"))
        // An operator may not read it.
        let olli = try Self.signIn(station, "olli")
        #expect(try page(station, "GET", "/audit", cookie: olli).status == 403)

        let opened = try station.archive.open()
        defer { opened.close() }
        let report = try await opened.verify(decoder: ArchivedReads.decoder)
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    /// The period's report: its PDF shows both signatures, and is itself signed (PAdES) with
    /// the reason "approved", which pyHanko validates; the HTML shows them too.
    static func checkSignedReport(_ station: TestStation, from: String, to: String) async throws {
        var url = URLComponents(url: station.base.appendingPathComponent("api/v1/loggers/fridge-1/report.pdf"), resolvingAgainstBaseURL: false)
        url?.queryItems = [URLQueryItem(name: "from", value: from), URLQueryItem(name: "to", value: to)]
        let pdf = try await request(try #require(url?.url), token: station.tokens["north-read"])
        #expect(pdf.status == 200 && pdf.body.starts(with: Data("%PDF".utf8)))
        try SignedReports.check(pdf.body, folder: URL(fileURLWithPath: station.archive.location).deletingLastPathComponent(), reason: "approved")
        #expect(try PDFSignatureCheck.signatures(in: pdf.body).first?.location == "north")
        let text = try BrowserSessionTests.pdfText(pdf.body, folder: station.archive.folder)
        for words in ["Dana Reviewer", "Olli Operator", "Excursion handled.", "Page 1 of"] {
            #expect(text.contains(words), "the report's PDF lacks \(words)")
        }
        let html = try await request(
            station.base.appendingPathComponent("api/v1/loggers/fridge-1/report.html"), token: station.tokens["north-read"])
        #expect(html.text.contains("Dana Reviewer") && html.text.contains("Olli Operator"))
    }
}
