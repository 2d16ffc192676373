import Archive
import ArchiveKit
import ColdChain
import ColdTapBase
import Digest
import Foundation
import JSONOutput
import LoggerFormats
import Passwords
import TempChart

/// The station's web pages (README "Station web pages"): server-rendered HTML over the same
/// archive and rules as the API, for people with a browser instead of curl. Signing in (a
/// user's name and password, or before a station has users a site's token) opens a session
/// in the archive, so every station of it knows it; the HttpOnly, SameSite=Strict cookie
/// holds the session's random id, and signing out, the idle time-out, the absolute limit or
/// a password change end it on the server (docs/accounts.md). Forms that change something
/// carry a form token derived from the session and are refused when the browser says they
/// come from another origin. Downloads are the API's own answers for the session's caller.
extension Station {
    static let sessionCookie = "coldtap_session"
    static let languageCookie = "coldtap_lang"

    static let webDownloads: Set<String> = ["report.pdf", "report.html", "report.png", "report.svg", "samples.csv", "samples.json"]

    /// What one page request knows about its reader.
    struct WebContext {
        var request: HTTPRequest
        var language: ReportLanguage
        var text: WebText
        var nonce: String
        var zone: TimeZone
        var formatter: ChartFormatter
        var caller: Caller?
        var now: Date

        /// The form token of this session: not guessable without the cookie, the same on
        /// every station of the archive.
        var formToken: String {
            guard let cookie = Station.cookie(Station.sessionCookie, in: request) else { return "" }
            return SHA256Digest.hex(text: "coldtap web form\n" + cookie)
        }
    }

    /// What a page knows about its reader (`caller` as the router found it), and its query as `Query`.
    func webContext<Query: RequestFields>(_ context: RequestContext, query: Query.Type) throws -> (web: WebContext, query: Query) {
        let request = context.request
        let fields = try request.typedQuery(Query.self)
        return (pageContext(request, caller: context.caller), fields)
    }

    private func pageContext(_ request: HTTPRequest, caller: Caller?) -> WebContext {
        let language = WebText.negotiate(
            query: request.query("lang"), cookie: Station.cookie(Station.languageCookie, in: request),
            acceptLanguage: request.header("Accept-Language"))
        let zone = configuration.timeZone
        return WebContext(
            request: request, language: language, text: .forLanguage(language), nonce: HTML.nonce(), zone: zone,
            formatter: ChartFormatter(timeZone: zone, language: language), caller: caller, now: Date())
    }

    /// A page asked for without a session: a GET goes to the sign-in, a form is refused
    /// with the sign-in form.
    func signInFirst(_ request: HTTPRequest) throws -> HTTPResponse {
        if request.method == "GET" || request.method == "HEAD" {
            return HTTPResponse(status: 303, headers: [("Location", "/login"), ("Cache-Control", "no-store")])
        }
        let context = pageContext(request, caller: nil)
        return page(context, status: 401, title: context.text.signInTitle, body: try loginForm(context, error: context.text.badToken))
    }

    // MARK: Sessions

    static func cookie(_ name: String, in request: HTTPRequest) -> String? {
        guard let header = request.header("Cookie") else { return nil }
        for item in header.split(separator: ";") {
            let pair = item.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == name {
                return pair[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    func sessionCaller(_ request: HTTPRequest) throws -> Caller? {
        guard let cookie = Station.cookie(Station.sessionCookie, in: request), !cookie.isEmpty, cookie.count <= 200 else { return nil }
        let limits = configuration.sessionLimits
        return try pool.with { store -> Caller? in
            switch try store.session(cookie: cookie, limits: limits) {
            case .user(let session, let user):
                return try store.site(id: user.siteID).map { Caller(user: user, site: $0, session: session) }
            case .token(let session, let token):
                // A station that has users takes no token's session (docs/accounts.md, "Moving to users").
                return try store.hasUsers() ? nil : Caller(token: token, session: session)
            case .none:
                return nil
            }
        }
    }

    private var secureAttribute: String { configuration.http.tlsCertificate != nil ? "; Secure" : "" }

    private func sessionCookieHeader(_ value: String, maxAge: Int) -> (String, String) {
        ("Set-Cookie", "\(Station.sessionCookie)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict\(secureAttribute)")
    }

    /// A form is taken only from this station's own pages: its `Origin` (browsers send one on
    /// every POST) must name this station (the Host it was asked under); without one, its
    /// `Referer` must be a page of it. A post with neither comes from no page of ours (a
    /// script, a form on another site whose browser hides both) and is refused.
    func sameOrigin(_ request: HTTPRequest) -> Bool {
        guard let host = request.header("Host") else { return false }
        let scheme = configuration.http.tlsCertificate != nil ? "https" : "http"
        let station = "\(scheme)://\(host)"
        if let origin = request.header("Origin") { return origin == station }
        if let referer = request.header("Referer") { return referer == station || referer.hasPrefix(station + "/") }
        return false
    }

    func signIn(_ context: WebContext) throws -> HTTPResponse {
        let text = context.text
        guard sameOrigin(context.request) else {
            return page(context, status: 403, title: text.signInTitle, body: try loginForm(context, error: "cross-origin sign-in refused"))
        }
        let fields = try context.request.formBody(SignInForm.self)
        let cookie: String
        if try pool.with({ try $0.hasUsers() }) {
            let name = (fields.user ?? "").trimmingCharacters(in: .whitespaces)
            let user: StationUser
            switch try passwordOutcome(name: String(name.prefix(200)), password: fields.password ?? "", purpose: "web") {
            case .success(let found):
                user = found
            case .failure(let refusal):
                // Each refusal in the page's language; a lock says until when in the site's zone.
                let words = text.accounts
                let (status, message): (Int, String)
                switch refusal {
                case .locked(let until): (status, message) = (423, words.locked(context.formatter.dateTime(until) + " " + context.zone.identifier))
                case .disabled: (status, message) = (401, words.disabled)
                case .noPasswordYet: (status, message) = (401, words.noPasswordYet)
                case .wrongNameOrPassword: (status, message) = (401, words.badLogin)
                }
                return page(context, status: status, title: text.signInTitle, body: try loginForm(context, error: message))
            }
            cookie = try pool.with { try $0.startSession(user: user) }
        } else {
            let token = (fields.token ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty, token.count <= 200, let found = try pool.with({ try $0.authenticate(token) }), found.site != nil else {
                return page(context, status: 401, title: text.signInTitle, body: try loginForm(context, error: text.badToken))
            }
            cookie = try pool.with { try $0.startSession(token: found) }
        }
        return HTTPResponse(
            status: 303,
            headers: [
                ("Location", "/"), ("Cache-Control", "no-store"), sessionCookieHeader(cookie, maxAge: Int(configuration.sessionLimits.absolute)),
            ])
    }

    /// Ends the session on the server (its cookie is refused from now on, wherever it is
    /// replayed) and clears it in the browser.
    func signOut(_ context: WebContext) throws -> HTTPResponse {
        var headers = [("Location", "/login"), ("Cache-Control", "no-store")]
        guard sameOrigin(context.request) else { return HTTPResponse(status: 303, headers: headers) }
        _ = try context.request.formBody(SignOutForm.self)
        if let cookie = Station.cookie(Station.sessionCookie, in: context.request), cookie.count <= 200 {
            try pool.with { store in
                try store.endSession(cookie: cookie)
                signRecord(store)
            }
        }
        headers.append(sessionCookieHeader("", maxAge: 0))
        return HTTPResponse(status: 303, headers: headers)
    }

    /// `/setup/{token}`: the one-time link of a new or reset user sets their password.
    func setupPage(_ context: WebContext, token: String) throws -> HTTPResponse {
        let words = context.text.accounts
        guard let user = try pool.with({ try $0.user(setupToken: token) }) else {
            return page(
                context, status: 404, title: words.setupTitle,
                body: "<h1>\(HTML.escape(words.setupTitle))</h1><p class=\"error bad\">\(HTML.escape(words.setupExpired))</p>")
        }
        var error: String?
        if context.request.method == "POST" {
            let fields = try context.request.formBody(SetupForm.self)
            let password = fields.password ?? ""
            if !sameOrigin(context.request) {
                error = "cross-origin form refused"
            } else if password != fields.repeat {
                error = words.passwordsDiffer
            } else if let problem = PasswordHash.problem(with: password) {
                error = problem.description
            } else {
                _ = try pool.with { store in
                    let done = try store.setPassword(setupToken: token, password: password)
                    signRecord(store)
                    return done
                }
                return page(
                    context, status: 200, title: words.setupTitle,
                    body:
                        "<h1>\(HTML.escape(words.setupTitle))</h1><p class=\"good\">\(HTML.escape(words.setupDone))</p><p><a href=\"/login\">\(HTML.escape(context.text.signIn))</a></p>"
                )
            }
        }
        var body = "<div class=\"login\"><h1>\(HTML.escape(words.setupTitle))</h1><p>\(HTML.escape(user.fullName)) (\(HTML.escape(user.name)))</p>"
        if let error { body += "<p class=\"error bad\" role=\"alert\">\(HTML.escape(error))</p>" }
        body += "<form method=\"post\" action=\"/setup/\(HTML.escape(Station.pathSegment(token)))\">"
        body +=
            "<label for=\"password\">\(HTML.escape(words.newPassword))</label><input type=\"password\" id=\"password\" name=\"password\" autocomplete=\"new-password\" minlength=\"12\" required autofocus>"
        body +=
            "<label for=\"repeat\">\(HTML.escape(words.repeatPassword))</label><input type=\"password\" id=\"repeat\" name=\"repeat\" autocomplete=\"new-password\" minlength=\"12\" required>"
        body += "<p class=\"muted\">\(HTML.escape(words.passwordRule))</p><button type=\"submit\">\(HTML.escape(words.setPassword))</button></form></div>"
        return page(context, status: error == nil ? 200 : 400, title: words.setupTitle, body: body)
    }

    // MARK: Frame

    /// The path and query of this page with `lang` replaced.
    private func languageLink(_ context: WebContext, _ code: String) -> String {
        Station.link(context.request, query: context.request.query.filter { $0.0 != "lang" } + [("lang", code)])
    }

    func page(_ context: WebContext, status: Int, title: String, body: String) -> HTTPResponse {
        let text = context.text
        var out = "<!doctype html><html lang=\"\(text.languageTag)\"><head><meta charset=\"utf-8\">"
        out += "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><meta name=\"color-scheme\" content=\"light dark\">"
        out += "<title>\(HTML.escape(title)) · \(HTML.escape(text.station))</title><style nonce=\"\(context.nonce)\">\(HTML.stylesheet)</style></head><body>"
        out += "<header><span class=\"site\">\(HTML.escape(text.station))"
        if let caller = context.caller {
            out += " · \(HTML.escape(caller.site.name))"
            if let user = caller.user {
                out += " · \(HTML.escape(user.fullName)) (\(HTML.escape(text.role(user.role))))"
            }
        }
        out += "</span>"
        if context.caller != nil {
            out += "<nav><a href=\"/\">\(HTML.escape(text.overview))</a><a href=\"/reads\">\(HTML.escape(text.reads))</a>"
            if Station.mayReadAudit(context.caller) { out += "<a href=\"/audit\">\(HTML.escape(text.accounts.audit))</a>" }
            out += "</nav>"
        }
        out += "<div class=\"right\"><span class=\"langs\">"
        for (code, name) in [("en", "English"), ("zh-Hans", "中文"), ("ja", "日本語")] {
            out +=
                code == context.language.rawValue
                ? "<strong>\(name)</strong> " : "<a href=\"\(HTML.escape(languageLink(context, code)))\" hreflang=\"\(code)\">\(name)</a> "
        }
        out += "</span>"
        if context.caller != nil {
            out +=
                "<form method=\"post\" action=\"/logout\" class=\"inline\"><input type=\"hidden\" name=\"form\" value=\"\(context.formToken)\"><button type=\"submit\">\(HTML.escape(text.signOut))</button></form>"
        }
        out += "</div></header><main>\(body)</main></body></html>\n"
        var headers = HTML.headers(nonce: context.nonce)
        if let code = context.request.query("lang").flatMap(WebText.language(for:)) {
            headers.append(("Set-Cookie", "\(Station.languageCookie)=\(code.rawValue); Path=/; Max-Age=31536000; SameSite=Lax\(secureAttribute)"))
        }
        return HTTPResponse(status: status, headers: headers, body: Data(out.utf8))
    }

    /// The sign-in form: user name and password once the station has users, a site's token before.
    func loginForm(_ context: WebContext, error: String?) throws -> String {
        let text = context.text
        var out = "<div class=\"login\"><h1>\(HTML.escape(text.signInTitle))</h1>"
        if let error { out += "<p class=\"error bad\" role=\"alert\">\(HTML.escape(error))</p>" }
        out += "<form method=\"post\" action=\"/login\">"
        if try pool.with({ try $0.hasUsers() }) {
            let words = text.accounts
            out += "<label for=\"user\">\(HTML.escape(words.userLabel))</label>"
            out += "<input type=\"text\" id=\"user\" name=\"user\" autocomplete=\"username\" required autofocus maxlength=\"64\">"
            out += "<label for=\"password\">\(HTML.escape(words.passwordLabel))</label>"
            out += "<input type=\"password\" id=\"password\" name=\"password\" autocomplete=\"current-password\" required>"
            out += "<p class=\"muted\">\(HTML.escape(words.signInHint))</p>"
        } else {
            out += "<label for=\"token\">\(HTML.escape(text.tokenLabel))</label>"
            out += "<input type=\"password\" id=\"token\" name=\"token\" autocomplete=\"current-password\" required autofocus>"
            out += "<p class=\"muted\">\(HTML.escape(text.tokenHint))</p>"
        }
        return out + "<button type=\"submit\">\(HTML.escape(text.signIn))</button></form></div>"
    }

    func notFoundPage(_ context: WebContext) -> HTTPResponse {
        let text = context.text
        return page(
            context, status: 404, title: text.notFound,
            body: "<h1>\(HTML.escape(text.notFound))</h1><p>\(HTML.escape(text.notFoundDetail))</p><p><a href=\"/\">\(HTML.escape(text.back))</a></p>")
    }

    // MARK: Pieces

    static func verdictBadge(_ verdict: String?, _ text: WebText) -> String {
        let strings = text.report
        let (key, label): (String, String)
        switch verdict {
        case Verdict.alarm.rawValue?: (key, label) = ("ALARM", strings.verdictAlarm)
        case Verdict.ok.rawValue?: (key, label) = ("OK", strings.verdictOK)
        case Verdict.inconclusive.rawValue?: (key, label) = ("INCONCLUSIVE", strings.verdictInconclusive)
        default: (key, label) = ("none", strings.verdictNone)
        }
        return "<span class=\"verdict v-\(key)\">\(HTML.escape(label))</span>"
    }

    static func verdictKey(_ verdict: String?) -> String {
        switch verdict {
        case Verdict.alarm.rawValue?: return "ALARM"
        case Verdict.ok.rawValue?: return "OK"
        case Verdict.inconclusive.rawValue?: return "INCONCLUSIVE"
        default: return "none"
        }
    }

    /// "3 h 5 min ago" in the page's language.
    static func relative(_ date: Date, now: Date, context: WebContext) -> String {
        let seconds = now.timeIntervalSince(date)
        if seconds < 60 { return context.text.justNow }
        let rounded = seconds >= 86400 ? (seconds / 3600).rounded(.down) * 3600 : (seconds / 60).rounded(.down) * 60
        return context.text.ago(context.formatter.duration(rounded))
    }

    /// `<time>` with the absolute time in the site's zone and how long ago.
    static func timeCell(_ date: Date?, context: WebContext) -> String {
        guard let date else { return HTML.escape(context.text.never) }
        return
            "<time datetime=\"\(date.isoUTC)\">\(HTML.escape(relative(date, now: context.now, context: context)))</time><br><span class=\"muted\">\(HTML.escape(context.formatter.dateTime(date)))</span>"
    }

    static func loggerLink(_ id: String, query: String = "") -> String {
        "/loggers/\(Station.pathSegment(id))" + query
    }

    func profile(for summary: LoggerSummary?) -> Profile {
        RuleBook.profile(for: summary, default: configuration.defaultProfile)
    }
}
