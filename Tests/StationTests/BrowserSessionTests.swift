import Archive
import ArchiveKit
import ArchiveTestSupport
import ColdTapBase
import Digest
import Foundation
import Station
import StationTestSupport
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Named people at the station in a real browser (headless Chromium through chromedriver,
/// Tests/StationTestSupport/WebDriver.swift): signing in and out, the idle time-out, signed
/// acknowledgements and reviews with the password given again, the audit trail, the account
/// lock; and a phone's device token over the API. Each on SQLite and PostgreSQL.
@Suite(.serialized, .tags(.slow)) struct BrowserSessionTests {
    static let passwords = [
        "olli": "olli-cold-chain-1", "dana": "dana-reviews-the-data", "vera": "vera-only-looks-3", "ada": "ada-administers-it",
    ]
    static let logger = "fridge-alarm"
    /// The freeze of `Reads.alarm()`: samples 50–79, ten minutes apart from 2026-01-01T00:00Z.
    static let excursionStart = "2026-01-01T08:20:00Z"

    // MARK: Set-up

    /// Users of site north with their passwords set, as `coldtap user add` makes them.
    @discardableResult
    static func addUsers(_ station: TestStation, _ users: [(name: String, fullName: String, role: UserRole)]) throws -> [String: StationUser] {
        try station.archive.withStore { store in
            let site = try #require(try store.site(named: "north"))
            var made: [String: StationUser] = [:]
            for user in users {
                let password = try #require(passwords[user.name])
                made[user.name] = try store.addUser(name: user.name, fullName: user.fullName, site: site, role: user.role, by: "test", password: password)
                    .user
            }
            return made
        }
    }

    /// An ALARM logger of north (a five-hour freeze), uploaded with north's upload token.
    static func uploadAlarm(_ station: TestStation) async throws {
        let answer = try await request(
            station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: station.tokens["north-upload"],
            headers: [UploadHeader.readTime: Reads.readTime, UploadHeader.loggerID: logger, "Content-Type": "application/octet-stream"],
            body: try Reads.alarm())
        #expect(answer.status == 201, "upload: \(answer.text)")
    }

    /// Fills the sign-in form in the browser and sends it.
    static func signIn(_ browser: WebDriver, _ station: TestStation, _ name: String, password: String? = nil) async throws {
        try await browser.navigate(to: station.base.appendingPathComponent("login"))
        try await browser.fill("#user", with: name)
        try await browser.fill("#password", with: try password ?? #require(passwords[name]))
        try await browser.clickAndWaitForNewPage(try await browser.element("form[action=\"/login\"] button[type=submit]"))
    }

    /// Clicks "Sign out" in the page's header.
    static func signOut(_ browser: WebDriver) async throws {
        try await browser.clickAndWaitForNewPage(try await browser.element("header form[action=\"/logout\"] button[type=submit]"))
        #expect(try await browser.waitForPath("/login"), "signing out ends on the sign-in page")
    }

    /// The browser's session cookie as a `Cookie:` header's value.
    static func sessionCookie(_ browser: WebDriver) async throws -> String {
        let cookie = try #require(try await browser.cookies().first { $0.name == "coldtap_session" }, "the browser holds no session cookie")
        return "coldtap_session=\(cookie.value)"
    }

    /// How the record ended the session of `cookie` (`nil` while it lasts).
    static func endReason(_ station: TestStation, cookie value: String) throws -> String? {
        try station.archive.withStore { store in
            try store.archive.engine.scalarText(
                "SELECT end_reason FROM sessions WHERE session_sha256 = $1", [.text(SHA256Digest.hex(text: value))])
        }
    }

    /// The idle limit of the sign-in test's sessions. Long enough that a loaded machine (the
    /// whole suite on two cores, Chromium signing in) still uses a session well within it.
    static let idleLimit: TimeInterval = 8

    /// Whether a session used every half second (over HTTP with its cookie) stays open for
    /// twice the idle limit, counted from its last use at `since` (or earlier); `nil` when two
    /// uses came closer than 2 s to the limit apart (a machine too loaded to tell).
    static func keptOpen(_ station: TestStation, cookie value: String, since: Date) async throws -> Bool? {
        var previous = since
        while Date().timeIntervalSince(since) < 2 * idleLimit {
            try await Task.sleep(for: .milliseconds(500))
            let sent = Date()
            guard sent.timeIntervalSince(previous) < idleLimit - 2 else { return nil }
            let answer = try page(station, "GET", "/reads", cookie: "coldtap_session=\(value)")
            guard answer.status == 200 else { return false }
            previous = sent
        }
        return true
    }

    static func checkVerifies(_ station: TestStation) async throws {
        let report = try await station.archive.verify()
        #expect(report.problems.isEmpty, "archive verify: \(report.problems)")
    }

    // MARK: 1. Signing in and out

    /// A browser signs in with a name and password; the session cookie is HttpOnly and
    /// SameSite=Strict and no API token; the idle time-out sends it back to the sign-in page;
    /// signing out ends the session on the server, so its old cookie put back is refused.
    @Test("sign-in, idle time-out, sign-out refuses the old cookie", arguments: Engine.allCases)
    func signInIdleTimeOutSignOut(engine: Engine) async throws {
        let station = try await TestStation(engine, sessions: SessionLimits(idle: Self.idleLimit))
        defer { station.stop() }
        try Self.addUsers(station, [("olli", "Olli Operator", .operator)])
        var signIns = 0
        try await withBrowser { browser in
            try await browser.navigate(to: station.base)
            #expect(try await browser.currentURL().path == "/login", "not signed in: the overview sends to the sign-in page")
            #expect(try await browser.title().hasPrefix("Sign in"))
            #expect(try await browser.elements("input[name=token]").isEmpty, "a station with users asks names, not tokens")

            // Signed in, and in use every half second: the session outlives its idle limit.
            var cookie: WebDriver.Cookie
            var keptOpen: Bool?
            repeat {
                // Counted from before the sign-in: the session's last use the station saw may be
                // the sign-in itself, however long the browser then takes to land.
                let signingIn = Date()
                try await Self.signIn(browser, station, "olli")
                signIns += 1
                #expect(try await browser.waitForPath("/"), "signed in: the overview")
                cookie = try #require(try await browser.cookies().first { $0.name == "coldtap_session" })
                keptOpen = try await Self.keptOpen(station, cookie: cookie.value, since: signingIn)
            } while keptOpen == nil && signIns < 3
            #expect(keptOpen == true, "a session in use stays open past its idle limit (nil: two requests came too far apart to tell)")
            let overview = try await browser.source()
            #expect(overview.contains("Olli Operator (Operator)"), "the header names who is signed in")
            #expect(cookie.httpOnly, "a page's scripts cannot read the session cookie")
            #expect(cookie.sameSite == "Strict" && cookie.path == "/" && !cookie.secure, "\(cookie)")
            #expect(!station.tokens.values.contains(cookie.value), "the cookie holds a session, not a site's token")
            let asToken = try await request(station.base.appendingPathComponent("api/v1/loggers"), token: cookie.value)
            #expect(asToken.status == 401, "the session's id is no API token: \(asToken.status)")

            // Idle past the limit: the next page is the sign-in form, and the record says why.
            try await Task.sleep(for: .seconds(Self.idleLimit + 1))
            try await browser.refresh()
            #expect(try await browser.waitForPath("/login"), "after the idle time-out the overview sends to the sign-in page")
            #expect(try Self.endReason(station, cookie: cookie.value) == "idle time-out")

            // Signed in again, then out with the header's button.
            try await Self.signIn(browser, station, "olli")
            #expect(try await browser.waitForPath("/"))
            let second = try #require(try await browser.cookies().first { $0.name == "coldtap_session" })
            #expect(second.value != cookie.value, "a new sign-in is a new session")
            try await Self.signOut(browser)
            #expect(try await browser.cookies().first { $0.name == "coldtap_session" } == nil, "signing out clears the cookie in the browser")
            #expect(try Self.endReason(station, cookie: second.value) == "signed out")

            // The old cookie put back into the browser is refused: the session ended on the server.
            try await browser.addCookie(WebDriver.Cookie(name: "coldtap_session", value: second.value, httpOnly: true, sameSite: "Strict"))
            #expect(try await browser.cookies().contains { $0.name == "coldtap_session" && $0.value == second.value })
            try await browser.navigate(to: station.base)
            #expect(try await browser.currentURL().path == "/login", "the replayed cookie opens nothing")
            // And over plain HTTP, both old cookies: a redirect to the sign-in page, never the overview.
            for old in [cookie.value, second.value] {
                let replay = try page(station, "GET", "/", cookie: "coldtap_session=\(old)")
                #expect(replay.status == 303 && replay.header("Location") == "/login", "\(replay.status) \(replay.head)")
            }
        }
        let events = try station.archive.withStore { store in try store.accountEvents(siteID: try #require(try store.site(named: "north")).id) }
        #expect(events.filter { $0.kind == .signIn }.count == signIns + 1)
        #expect(events.filter { $0.kind == .signedOut }.count == 1)
        try await Self.checkVerifies(station)
    }

    // MARK: 2. Signatures

    /// An operator acknowledges an excursion with a signature (a wrong password first keeps
    /// nothing); a reviewer signs two reviews, the first asking name and password, the second
    /// the password only; the page, the audit trail and its CSV show them all; a viewer gets
    /// no review form and is refused one; the period's PDF report downloads.
    @Test("signed acknowledgement and reviews on the page, the audit trail and the report", arguments: Engine.allCases)
    func signedAcknowledgementAndReview(engine: Engine) async throws {
        let station = try await TestStation(engine)
        defer { station.stop() }
        try await Self.uploadAlarm(station)
        let users = try Self.addUsers(
            station, [("olli", "Olli Operator", .operator), ("dana", "Dana Reviewer", .reviewer), ("vera", "Vera Viewer", .viewer)])
        let loggerURL = station.base.appendingPathComponent("loggers").appendingPathComponent(Self.logger)
        func signatures() throws -> [SignatureRecord] { try station.archive.withStore { try $0.signatures(loggerID: Self.logger) } }
        var danaCookie = ""
        try await withBrowser { browser in
            // The operator acknowledges the freeze.
            try await Self.signIn(browser, station, "olli")
            #expect(try await browser.waitForPath("/"))
            try await browser.navigate(to: loggerURL)
            let form = try await browser.element("form[action$=\"/acknowledgements\"]")
            #expect(try await browser.elements("input[name=user]", in: form).count == 1, "the session's first signature asks the user name")
            #expect(try await browser.elements("input[name=password][type=password]", in: form).count == 1)
            #expect(try await browser.elements("form[action$=\"/reviews\"]").isEmpty, "operators sign no reviews")
            try await browser.fill("input[name=comment]", with: "door closed, stock moved to fridge 2", in: form)
            try await browser.fill("input[name=user]", with: "olli", in: form)
            try await browser.fill("input[name=password]", with: "not-olli-password", in: form)
            try await browser.clickAndWaitForNewPage(try await browser.element("button[type=submit]", in: form))
            #expect(try await browser.wait { try await browser.source().contains("the user name or password is wrong") }, "a wrong password is refused")
            #expect(try await browser.title().hasPrefix("Acknowledge"))
            #expect(try signatures().isEmpty, "a refused signature keeps nothing")
            #expect(try station.archive.withStore { try $0.archive.history(loggerID: Self.logger).acknowledgements.isEmpty })

            try await browser.navigate(to: loggerURL)
            let again = try await browser.element("form[action$=\"/acknowledgements\"]")
            #expect(try await browser.elements("input[name=user]", in: again).count == 1, "a refused signature was not the session's first")
            try await browser.fill("input[name=comment]", with: "door closed, stock moved to fridge 2", in: again)
            try await browser.fill("input[name=user]", with: "olli", in: again)
            try await browser.fill("input[name=password]", with: try #require(Self.passwords["olli"]), in: again)
            try await browser.clickAndWaitForNewPage(try await browser.element("button[type=submit]", in: again))
            #expect(try await browser.waitForPath("/loggers/\(Self.logger)"), "signed: back on the logger page")
            let signed = try await browser.text(of: try await browser.element("#signatures + div.signature"))
            #expect(signed.contains("Acknowledged") && signed.contains("Olli Operator (Operator)"), "\(signed)")
            #expect(signed.contains("door closed, stock moved to fridge 2"))
            let excursions = try await browser.text(of: try await browser.element("#excursions + div table"))
            #expect(excursions.contains("acknowledged by Olli Operator"), "\(excursions)")
            #expect(!excursions.contains("not acknowledged"))
            let kept = try signatures()
            #expect(kept.count == 1 && kept.first?.meaning == .acknowledged && kept.first?.userID == users["olli"]?.id)
            #expect(kept.first?.acknowledgementID != nil, "the signature signs the acknowledgement it kept")
            try await Self.signOut(browser)

            // The reviewer signs the whole record, then the last day: the second asks the password only.
            try await Self.signIn(browser, station, "dana")
            #expect(try await browser.waitForPath("/"))
            danaCookie = try await Self.sessionCookie(browser)
            try await browser.navigate(to: try #require(URL(string: loggerURL.absoluteString + "?period=all")))
            let review = try await browser.element("form[action$=\"/reviews\"]")
            #expect(try await browser.elements("input[name=user]", in: review).count == 1, "the session's first signature asks the user name")
            try await browser.click(try await browser.element("select[name=meaning] option[value=approved]", in: review))
            try await browser.fill("input[name=comment]", with: "whole record checked", in: review)
            try await browser.fill("input[name=user]", with: "dana", in: review)
            try await browser.fill("input[name=password]", with: try #require(Self.passwords["dana"]), in: review)
            try await browser.clickAndWaitForNewPage(try await browser.element("button[type=submit]", in: review))
            #expect(try await browser.waitForPath("/loggers/\(Self.logger)"))
            #expect(try await browser.currentURL().query == "period=all", "back on the period signed")
            #expect(try signatures().count == 2)

            try await browser.navigate(to: try #require(URL(string: loggerURL.absoluteString + "?period=day")))
            let second = try await browser.element("form[action$=\"/reviews\"]")
            #expect(try await browser.elements("input[name=user]", in: second).isEmpty, "a later signature of the session asks the password only")
            try await browser.click(try await browser.element("select[name=meaning] option[value=reviewed]", in: second))
            try await browser.fill("input[name=comment]", with: "last day seen", in: second)
            try await browser.fill("input[name=password]", with: try #require(Self.passwords["dana"]), in: second)
            try await browser.clickAndWaitForNewPage(try await browser.element("button[type=submit]", in: second))
            #expect(try await browser.waitForPath("/loggers/\(Self.logger)"))
            let reviews = try signatures().filter { $0.subject == .review }
            #expect(reviews.map(\.meaning) == [.approved, .reviewed] && reviews.allSatisfy { $0.userID == users["dana"]?.id })
            // The record holds one day: "all" and "day" state the same period, and sign it.
            #expect(reviews.allSatisfy { $0.from.isoUTC == "2026-01-01T00:00:00Z" && $0.to.isoUTC == "2026-01-01T23:50:00Z" }, "\(reviews)")

            // The page's Signatures section shows all three, newest first.
            try await browser.navigate(to: try #require(URL(string: loggerURL.absoluteString + "?period=all")))
            var shown: [String] = []
            for element in try await browser.elements("div.signature") { shown.append(try await browser.text(of: element)) }
            #expect(shown.count == 3, "\(shown)")
            if shown.count == 3 {
                #expect(shown[0].hasPrefix("Reviewed") && shown[0].contains("Dana Reviewer (Reviewer)") && shown[0].contains("last day seen"))
                #expect(shown[1].hasPrefix("Approved") && shown[1].contains("Dana Reviewer (Reviewer)") && shown[1].contains("whole record checked"))
                #expect(shown[2].hasPrefix("Acknowledged") && shown[2].contains("Olli Operator (Operator)"))
            }

            // The audit trail: sign-ins, the refused password, both kinds of signature with who, what and why.
            try await browser.clickAndWaitForNewPage(try await browser.element("header nav a[href=\"/audit\"]"))
            #expect(try await browser.waitForPath("/audit"))
            var rows: [String] = []
            for element in try await browser.elements("table.audit tbody tr") { rows.append(try await browser.text(of: element)) }
            func row(_ parts: String...) -> Bool { rows.contains { row in parts.allSatisfy { row.contains($0) } } }
            #expect(row("olli signed in (web)") && row("dana signed in (web)"), "\(rows)")
            #expect(row("sign-in of olli refused (signature)", "wrong password"), "\(rows)")
            #expect(
                row("Olli Operator (olli, operator)", "signed acknowledged: acknowledgement of the excursion from 2026-01-01 08:20", "door closed"),
                "\(rows)")
            #expect(row("Dana Reviewer (dana, reviewer)", "signed approved: review of", "whole record checked"), "\(rows)")
            #expect(row("Dana Reviewer (dana, reviewer)", "signed reviewed: review of", "last day seen"), "\(rows)")
            #expect(row("olli signed out"), "\(rows)")
        }

        // The same trail as CSV, downloaded with the reviewer's session.
        let csv = try page(station, "GET", "/audit.csv", cookie: danaCookie)
        #expect(csv.status == 200 && csv.header("Content-Type")?.hasPrefix("text/csv") == true, "\(csv.status) \(csv.body.prefix(200))")
        let lines = csv.body.components(separatedBy: "\r\n")
        #expect(lines.first == "time,who,kind,logger,what,why,old,new")
        func line(_ parts: String...) -> Bool { lines.contains { line in parts.allSatisfy { line.contains($0) } } }
        #expect(line(",sign_in,", "olli signed in (web)") && line(",sign_in,", "dana signed in (web)"), "\(csv.body)")
        #expect(line(",sign_in_failed,", "sign-in of olli refused (signature)", "wrong password"))
        #expect(line("Olli Operator (olli, operator)", ",signature,\(Self.logger),", "signed acknowledged", "door closed, stock moved to fridge 2"))
        #expect(line("Dana Reviewer (dana, reviewer)", ",signature,\(Self.logger),", "signed approved", "whole record checked"))
        #expect(line("Dana Reviewer (dana, reviewer)", ",signature,\(Self.logger),", "signed reviewed", "last day seen"))

        // A viewer sees no form to sign and is refused when posting one anyway.
        let viewer = try signInWithPassword(station, user: "vera", password: try #require(Self.passwords["vera"]))
        let viewerPage = try page(station, "GET", "/loggers/\(Self.logger)?period=all", cookie: viewer)
        #expect(viewerPage.status == 200)
        #expect(!viewerPage.body.contains("/reviews\"") && !viewerPage.body.contains("/acknowledgements\""), "no forms to sign for a viewer")
        let formToken = try #require(firstMatch("name=\"form\" value=\"([0-9a-f]{64})\"", in: viewerPage.body))
        let before = try signatures()
        let posted = try page(
            station, "POST", "/loggers/\(Self.logger)/reviews", cookie: viewer,
            form: [
                ("form", formToken), ("back", "?period=all"), ("from", "2026-01-01T00:00:00Z"), ("to", "2026-01-02T00:00:00Z"),
                ("meaning", "approved"), ("comment", "looks fine"), ("user", "vera"), ("password", try #require(Self.passwords["vera"])),
            ], headers: ["Origin": "http://127.0.0.1:\(station.port)"])
        #expect(posted.status == 403, "\(posted.status) \(posted.body.prefix(300))")
        #expect(posted.body.contains("reviews are signed by reviewers and admins"))
        #expect(try signatures() == before, "a refused review keeps nothing")
        #expect(try page(station, "GET", "/audit", cookie: viewer).status == 403, "a viewer does not read the audit trail")

        // The period's report, downloaded as the page links it, with the reviewer's session.
        let reviewerPage = try page(station, "GET", "/loggers/\(Self.logger)?period=all", cookie: danaCookie)
        let pdfLink = try #require(firstMatch("href=\"(/loggers/[^\"]+/report\\.pdf[^\"]*)\"", in: reviewerPage.body))
        let pdfURL = try #require(URL(string: station.base.absoluteString + pdfLink.replacingOccurrences(of: "&amp;", with: "&")))
        let pdf = try await request(pdfURL, headers: ["Cookie": danaCookie])
        #expect(pdf.status == 200 && pdf.header("Content-Type") == "application/pdf", "\(pdf.status) \(pdf.header("Content-Type") ?? "")")
        try Self.checkReportSignatures(pdf: pdf.body, folder: station.archive.folder)
        try await Self.checkVerifies(station)
    }

    /// Issue 44 item 7 and the zone of item 6, in the browser of a station in Tokyo: a form
    /// sent after someone else acknowledged the excursion is refused in the page's words, and
    /// the page then offers a follow-up, which is kept; the logger page's period is exactly
    /// what its review form signs; the audit trail shows the times inside its words in the
    /// page's zone, as "When" is, while its JSON keeps them in UTC.
    @Test("a follow-up on the page, the period shown is the one signed, times in the page's zone", arguments: Engine.allCases)
    func followUpAndThePeriodSigned(engine: Engine) async throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        // The station's zone is set with its other settings (the closure changes any of them).
        let station = try await TestStation(engine, webhooks: { $0.timeZone = tokyo })
        defer { station.stop() }
        try await Self.uploadAlarm(station)
        try Self.addUsers(station, [("olli", "Olli Operator", .operator), ("dana", "Dana Reviewer", .reviewer)])
        let loggerURL = station.base.appendingPathComponent("loggers").appendingPathComponent(Self.logger)
        func acknowledgements() throws -> Int { try station.archive.withStore { try $0.archive.history(loggerID: Self.logger).acknowledgements.count } }
        var danaCookie = ""
        try await withBrowser { browser in
            try await Self.signIn(browser, station, "olli")
            #expect(try await browser.waitForPath("/"))
            try await browser.navigate(to: loggerURL)
            let form = try await browser.element("form[action$=\"/acknowledgements\"]")
            #expect(try await browser.text(of: try await browser.element("button[type=submit]", in: form)) == "Sign acknowledgement")

            // Meanwhile the phone acknowledges the excursion through the API.
            let phone = try await request(
                station.base.appendingPathComponent("api/v1/loggers/\(Self.logger)/acknowledgements"), method: "POST",
                token: station.tokens["north-upload"], headers: ["Content-Type": "application/json"],
                body: Data(
                    #"{"excursion": "\#(Self.excursionStart)", "comment": "fridge door shut", "user": "olli", "password": "\#(try #require(Self.passwords["olli"]))"}"#
                        .utf8))
            #expect(phone.status == 201, "\(phone.text)")

            // The form sent from the older page: refused in the page's words.
            try await browser.fill("input[name=comment]", with: "stock moved to fridge 2", in: form)
            try await browser.fill("input[name=user]", with: "olli", in: form)
            try await browser.fill("input[name=password]", with: try #require(Self.passwords["olli"]), in: form)
            try await browser.clickAndWaitForNewPage(try await browser.element("button[type=submit]", in: form))
            let refusal = try await browser.text(of: try await browser.element("p.error"))
            #expect(refusal.contains("This excursion was acknowledged by Olli Operator at 2026-"), "\(refusal)")
            #expect(refusal.contains("Record a follow-up acknowledgement"), "\(refusal)")
            #expect(!refusal.contains("\"again\"") && !refusal.contains("true"), "no API wording on the page: \(refusal)")
            #expect(try acknowledgements() == 1)

            // The page now offers the follow-up, and keeps it.
            try await browser.navigate(to: loggerURL)
            let followUp = try await browser.element("form.follow-up[action$=\"/acknowledgements\"]")
            #expect(try await browser.text(of: try await browser.element("button[type=submit]", in: followUp)) == "Record a follow-up acknowledgement")
            try await browser.fill("input[name=comment]", with: "stock released by QA", in: followUp)
            if try await !browser.elements("input[name=user]", in: followUp).isEmpty {
                try await browser.fill("input[name=user]", with: "olli", in: followUp)
            }
            try await browser.fill("input[name=password]", with: try #require(Self.passwords["olli"]), in: followUp)
            try await browser.clickAndWaitForNewPage(try await browser.element("button[type=submit]", in: followUp))
            #expect(try await browser.waitForPath("/loggers/\(Self.logger)"), "the follow-up is kept: back on the logger page")
            #expect(try acknowledgements() == 2)
            let excursions = try await browser.text(of: try await browser.element("#excursions + div table"))
            #expect(excursions.contains("fridge door shut") && excursions.contains("stock released by QA"), "\(excursions)")
            try await Self.signOut(browser)

            // The week's page states the record's first to last sample (09:00 to 08:50 in Tokyo)
            // and its review form signs exactly that.
            try await Self.signIn(browser, station, "dana")
            #expect(try await browser.waitForPath("/"))
            danaCookie = try await Self.sessionCookie(browser)
            try await browser.navigate(to: loggerURL)
            let stated = try await browser.text(of: try await browser.element("#period"))
            #expect(stated.hasPrefix("Period: 2026-01-01 09:00 – 2026-01-02 08:50"), "\(stated)")
            let hint = try await browser.text(of: try await browser.element("#review-period"))
            #expect(hint.hasSuffix("2026-01-01 09:00 – 2026-01-02 08:50"), "\(hint)")
            let review = try await browser.element("form[action$=\"/reviews\"]")
            try await browser.fill("input[name=comment]", with: "week seen", in: review)
            try await browser.fill("input[name=user]", with: "dana", in: review)
            try await browser.fill("input[name=password]", with: try #require(Self.passwords["dana"]), in: review)
            try await browser.clickAndWaitForNewPage(try await browser.element("button[type=submit]", in: review))
            #expect(try await browser.waitForPath("/loggers/\(Self.logger)"))
            let signed = try station.archive.withStore { try $0.signatures(loggerID: Self.logger) }.filter { $0.subject == .review }
            #expect(signed.map(\.from.isoUTC) == ["2026-01-01T00:00:00Z"] && signed.map(\.to.isoUTC) == ["2026-01-01T23:50:00Z"], "\(signed)")

            // The audit trail in the page's zone: the excursion from 17:20 (08:20Z), the review of
            // 09:00 – 08:50; no time in UTC's ISO form in what the page shows.
            try await browser.navigate(to: station.base.appendingPathComponent("audit"))
            var rows: [String] = []
            for element in try await browser.elements("table.audit tbody tr") { rows.append(try await browser.text(of: element)) }
            #expect(rows.contains { $0.contains("acknowledgement of the excursion from 2026-01-01 17:20") }, "\(rows)")
            #expect(rows.contains { $0.contains("review of 2026-01-01 09:00 – 2026-01-02 08:50") }, "\(rows)")
            #expect(!rows.contains { $0.contains(/\d{4}-\d\d-\d\dT\d\d:\d\d/) }, "\(rows)")
        }
        let json = try page(station, "GET", "/audit.json", cookie: danaCookie).body
        #expect(json.contains("acknowledgement of the excursion from \(Self.excursionStart)"), "the JSON keeps UTC: \(json.prefix(2000))")
        try await Self.checkVerifies(station)
    }

    /// What the period's PDF report shows of the signatures (issue 28): every signature on
    /// the period with its printed name and comment, and the report itself signed as a PDF
    /// whose reason is the newest signature's meaning, which pyHanko validates.
    static func checkReportSignatures(pdf: Data, folder: URL) throws {
        #expect(pdf.starts(with: Data("%PDF-".utf8)), "not a PDF: \(String(decoding: pdf.prefix(40), as: UTF8.self))")
        let text = squeezed(try pdfText(pdf, folder: folder))
        #expect(text.contains(squeezed(logger)), "the report names its logger")
        for words in [
            "Olli Operator", "door closed, stock moved to fridge 2", "Dana Reviewer", "whole record checked", "last day seen", "Approved", "Reviewed",
        ] {
            #expect(text.contains(squeezed(words)), "the report's signatures lack \(words): \(text.suffix(1500))")
        }
        try SignedReports.check(pdf, folder: folder, reason: "reviewed")
    }

    /// The PDF's text as poppler's pdftotext reads it.
    static func pdfText(_ pdf: Data, folder: URL) throws -> String {
        let file = folder.appendingPathComponent("report-\(UUID().uuidString).pdf")
        try pdf.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        process.arguments = ["-layout", file.path, "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            Issue.record("pdftotext (Debian package poppler-utils: make test-deps) cannot run: \(error)")
            return ""
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Text without white space, so that wrapped table cells still match.
    static func squeezed(_ text: String) -> String {
        text.replacingOccurrences(of: "\\s+", with: "", options: .regularExpression)
    }

    // MARK: 3. Locking

    /// Five wrong passwords in the browser's sign-in form lock the account: the page says so
    /// (a 423), in the page's language; the right password is refused while the lock lasts;
    /// the record still verifies.
    @Test("wrong passwords lock the account", arguments: Engine.allCases)
    func wrongPasswordsLockTheAccount(engine: Engine) async throws {
        let station = try await TestStation(engine)
        defer { station.stop() }
        let users = try Self.addUsers(station, [("olli", "Olli Operator", .operator)])
        let olli = try #require(users["olli"])
        let right = try #require(Self.passwords["olli"])
        try await withBrowser { browser in
            for attempt in 1...StationStore.failuresBeforeLock {
                try await Self.signIn(browser, station, "olli", password: "wrong-password-\(attempt)")
                let alert = try await browser.text(of: try await browser.element("p[role=alert]"))
                if attempt < StationStore.failuresBeforeLock {
                    #expect(alert == "The user name or password is wrong.", "attempt \(attempt): \(alert)")
                } else {
                    #expect(alert.hasPrefix("This account is locked after repeated wrong passwords until"), "attempt \(attempt): \(alert)")
                }
                #expect(try await browser.currentURL().path == "/login")
            }
            // The right password now: still locked.
            try await Self.signIn(browser, station, "olli", password: right)
            let alert = try await browser.text(of: try await browser.element("p[role=alert]"))
            #expect(alert.hasPrefix("This account is locked"), "\(alert)")
            #expect(try await browser.cookies().first { $0.name == "coldtap_session" } == nil, "no session while locked")
        }
        // Over HTTP the refusal is a 423, worded in the reader's language.
        let origin = ["Origin": "http://127.0.0.1:\(station.port)"]
        let english = try page(station, "POST", "/login", form: [("user", "olli"), ("password", right)], headers: origin)
        #expect(english.status == 423 && english.headers("Set-Cookie").isEmpty, "\(english.status)")
        let japanese = try page(
            station, "POST", "/login", form: [("user", "olli"), ("password", right)], headers: origin.merging(["Accept-Language": "ja"]) { $1 })
        #expect(japanese.status == 423 && japanese.body.contains("ロックされています"), "\(japanese.body.suffix(600))")
        let events = try station.archive.withStore { try $0.accountEvents(siteID: olli.siteID) }.filter { $0.userID == olli.id }
        let locks = events.filter { $0.kind == .locked }
        #expect(locks.count == 1 && locks.first?.detail["failures"] == "5", "\(locks)")
        let until = try #require(locks.first?.detail["until_ms"].flatMap(Double.init)) / 1000
        #expect(abs(until - Date().timeIntervalSince1970 - StationStore.firstLock) < 120, "locked for the first lock's length")
        #expect(events.filter { $0.kind == .signIn }.isEmpty, "nobody signed in as olli")
        // The three tries while locked are refused, and recorded once (a run of them is one event).
        #expect(events.filter { $0.kind == .signInFailed && $0.detail["reason"] == "locked" }.count == 1, "\(events.map(\.kind))")
        try await Self.checkVerifies(station)
    }

    // MARK: 4. A phone's token

    /// `POST /api/v1/device-tokens`: a user's name and password give a token for their
    /// device; its uploads are recorded with the user and the device, as the audit trail says.
    @Test("a device token's uploads name the user and the device", arguments: Engine.allCases)
    func deviceTokenUploadsNameUserAndDevice(engine: Engine) async throws {
        let station = try await TestStation(engine)
        defer { station.stop() }
        let users = try Self.addUsers(station, [("olli", "Olli Operator", .operator), ("dana", "Dana Reviewer", .reviewer)])
        let olli = try #require(users["olli"])
        let json = ["Content-Type": "application/json"]
        func ask(_ body: String) async throws -> Answer {
            try await request(station.base.appendingPathComponent("api/v1/device-tokens"), method: "POST", headers: json, body: Data(body.utf8))
        }
        let wrong = try await ask(#"{"user": "olli", "password": "not-the-password", "device": "ward 3 phone"}"#)
        #expect(wrong.status == 401, "\(wrong.text)")
        let made = try await ask(#"{"user": "olli", "password": "\#(try #require(Self.passwords["olli"]))", "device": "ward 3 phone"}"#)
        #expect(made.status == 201, "\(made.text)")
        let object = try made.json()
        let token = try #require(object["token"] as? String)
        #expect(object["user"] as? String == "olli" && object["device"] as? String == "ward 3 phone" && object["site"] as? String == "north")
        #expect(object["role"] as? String == "operator" && object["fullName"] as? String == "Olli Operator")
        let tokenID = try #require(object["id"] as? Int)

        let upload = try await request(
            station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: token,
            headers: [UploadHeader.readTime: Reads.readTime, UploadHeader.loggerID: "ward-3-fridge", "Content-Type": "application/octet-stream"],
            body: try Reads.cold())
        #expect(upload.status == 201, "\(upload.text)")
        let uploads = try station.archive.withStore { try $0.uploads(siteID: olli.siteID) }
        #expect(uploads.count == 1, "\(uploads)")
        let recorded = try #require(uploads.first)
        #expect(recorded.loggerID == "ward-3-fridge" && recorded.newRead)
        #expect(recorded.userID == olli.id && recorded.device == "ward 3 phone" && recorded.tokenID == Int64(tokenID))

        // The audit trail names the user and the device.
        let reviewer = try signInWithPassword(station, user: "dana", password: try #require(Self.passwords["dana"]))
        let audit = try page(station, "GET", "/audit.json", cookie: reviewer)
        #expect(audit.status == 200, "\(audit.status) \(audit.body.prefix(300))")
        let trail = try #require(try JSONSerialization.jsonObject(with: Data(audit.body.utf8)) as? [String: Any])
        let events = try #require(trail["events"] as? [[String: Any]])
        func event(_ kind: String, _ parts: String...) -> [String: Any]? {
            events.first { event in event["kind"] as? String == kind && parts.allSatisfy { (event["what"] as? String ?? "").contains($0) } }
        }
        let uploaded = try #require(event("upload", "uploaded with token #\(tokenID) from ward 3 phone"), "\(events)")
        #expect(uploaded["who"] as? String == "olli" && uploaded["logger"] as? String == "ward-3-fridge")
        #expect(event("token_created", "for the device ward 3 phone of olli")?["who"] as? String == "olli", "\(events)")
        #expect(event("sign_in", "olli signed in (device)") != nil, "\(events)")
        #expect(event("sign_in_failed", "sign-in of olli refused (device)")?["why"] as? String == "wrong password", "\(events)")

        // A lot made, moved and closed with the phone's token is olli's, with the token and
        // the phone, in the lot's record and in the audit trail (issue 44 item 6).
        let example = try StabilityExample.load()
        try station.archive.withStore { _ = try $0.archive.addProduct(json: example.productJSON, addedBy: "os:qa") }
        func post(_ path: String, _ object: [String: Any]) async throws -> Answer {
            try await request(
                station.base.appendingPathComponent(path), method: "POST", token: token, headers: json,
                body: try JSONSerialization.data(withJSONObject: object))
        }
        let phone = "user:olli via token #\(tokenID) (ward 3 phone)"
        let lot = try await post("api/v1/lots", ["lot": "LOT-P2611", "product": example.productName, "quantity": 40])
        #expect(lot.status == 201, "\(lot.text)")
        #expect(try lot.json()["createdBy"] as? String == phone, "\(lot.text)")
        let moved = try await post("api/v1/lots/LOT-P2611/moves", ["logger": "ward-3-fridge", "at": "2026-01-01T01:00:00Z", "place": "ward 3"])
        #expect(moved.status == 201, "\(moved.text)")
        #expect(try moved.json()["by"] as? String == phone, "\(moved.text)")
        let closed = try await post("api/v1/lots/LOT-P2611/close", ["at": "2026-01-01T20:00:00Z", "reason": "used"])
        #expect(closed.status == 201, "\(closed.text)")
        // A lot kept as the token's before the record named its user is shown as the user's too.
        try station.archive.withStore {
            _ = try $0.archive.addLot("LOT-OLD", siteID: olli.siteID, productName: example.productName, by: "token #\(tokenID)")
        }
        func auditEvents(_ query: String) throws -> [[String: Any]] {
            let answer = try page(station, "GET", "/audit.json" + query, cookie: reviewer)
            #expect(answer.status == 200, "\(answer.status) \(answer.body.prefix(300))")
            let object = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
            return object?["events"] as? [[String: Any]] ?? []
        }
        let withLots = try auditEvents("")
        func lotEvent(_ kind: String, _ parts: String...) -> [String: Any]? {
            withLots.first { event in event["kind"] as? String == kind && parts.allSatisfy { (event["what"] as? String ?? "").contains($0) } }
        }
        let via = "with token #\(tokenID) from ward 3 phone"
        let lotMade = lotEvent("lot", "lot LOT-P2611 of \(example.productName) (v1, SHA-256 ", "created, 40 units \(via)")
        #expect(lotMade?["who"] as? String == "olli", "\(withLots)")
        let lotMoved = lotEvent("lot_move", "lot LOT-P2611 travels with ward-3-fridge from 2026-01-01T01:00:00Z at ward 3 (move #1, station) \(via)")
        #expect(lotMoved?["who"] as? String == "olli" && lotMoved?["logger"] as? String == "ward-3-fridge", "\(withLots)")
        #expect(lotEvent("lot_closed", "lot LOT-P2611 closed (used) at 2026-01-01T20:00:00Z", via)?["who"] as? String == "olli", "\(withLots)")
        #expect(lotEvent("lot", "lot LOT-OLD of", via)?["who"] as? String == "olli", "\(withLots)")
        #expect(lotEvent("product", "product \(example.productName) v1 registered (SHA-256 ")?["who"] as? String == "os:qa", "\(withLots)")
        #expect(lotEvent("logger_joined", "logger ward-3-fridge joined the site") != nil, "\(withLots)")
        #expect(!withLots.contains { ($0["who"] as? String ?? "").hasPrefix("token #") }, "every row names the person: \(withLots)")
        // The user filter finds olli's lot rows; the page lists them.
        let olliRows = try auditEvents("?user=olli").compactMap { $0["kind"] as? String }
        #expect(Set(olliRows).isSuperset(of: ["lot", "lot_move", "lot_closed", "upload"]), "\(olliRows)")
        let auditPage = try page(station, "GET", "/audit", cookie: reviewer)
        #expect(auditPage.body.contains("lot LOT-P2611 travels with ward-3-fridge from"), "\(auditPage.body.suffix(3000))")
        try await Self.checkVerifies(station)
    }
}
