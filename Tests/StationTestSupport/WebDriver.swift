import ColdTapBase
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Headless Chromium driven through chromedriver over the W3C WebDriver protocol (JSON over
/// HTTP on 127.0.0.1): the browser tests sign in, fill forms and click as a person would.
///
/// Everything it starts lives in one temporary folder (chromedriver's log, Chromium's
/// profile, its HOME and TMPDIR), and `close()` ends chromedriver and every process under it
/// by process id and removes the folder, whatever happened before. Use `withBrowser`, which
/// does so when its body throws too.
public final class WebDriver: @unchecked Sendable {
    /// A WebDriver command refused (the protocol's error code and message) or a driver that
    /// could not start.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        /// The protocol's error code (`no such element`, `stale element reference`…), if any.
        public var code: String?

        init(description: String, code: String? = nil) {
            self.description = description
            self.code = code
        }
    }

    /// An element of the current page, as the driver names it.
    public struct Element: Sendable, Equatable {
        public let id: String
    }

    /// A cookie as the browser holds it (HttpOnly ones included: the driver sees them all).
    public struct Cookie: Sendable, Equatable {
        public var name: String
        public var value: String
        public var path: String?
        public var httpOnly: Bool
        public var secure: Bool
        public var sameSite: String?

        public init(name: String, value: String, path: String? = "/", httpOnly: Bool = false, secure: Bool = false, sameSite: String? = nil) {
            self.name = name
            self.value = value
            self.path = path
            self.httpOnly = httpOnly
            self.secure = secure
            self.sameSite = sameSite
        }
    }

    /// Where the Debian packages `chromium` and `chromium-driver` install them (and where a
    /// Mac keeps Chromium and Homebrew's chromedriver).
    static let browserPaths = ["/usr/bin/chromium", "/Applications/Chromium.app/Contents/MacOS/Chromium"]
    static let driverPaths = ["/usr/bin/chromedriver", "/opt/homebrew/bin/chromedriver", "/usr/local/bin/chromedriver"]

    /// The W3C name of an element reference in JSON.
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    public let folder: URL
    let driver: Process
    let exited: WaitableValue<Bool>
    let port: UInt16
    private let state = LockedValue<(session: String?, closed: Bool)>((nil, false))
    /// Chromium's own process id, as chromedriver reports it.
    private let browserProcess = LockedValue<pid_t?>(nil)

    private init(folder: URL, driver: Process, exited: WaitableValue<Bool>, port: UInt16) {
        self.folder = folder
        self.driver = driver
        self.exited = exited
        self.port = port
    }

    deinit { close() }

    // MARK: Starting and stopping

    /// Starts chromedriver on a free loopback port and opens a headless Chromium session.
    /// - Throws: `Failure` when Chromium or chromedriver is missing on Debian (where
    ///   `make test-deps` installs them) or does not start; elsewhere a missing one skips the test.
    public static func start() async throws -> WebDriver {
        let browser = try installed(browserPaths, package: "chromium")
        let driverBinary = try installed(driverPaths, package: "chromium-driver")
        // A short name: Chromium's sockets go in it (its TMPDIR), and a socket's path has at
        // most 107 bytes.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ctwd-\(UUID().uuidString.prefix(8))")
        guard folder.path.utf8.count <= 48 else {
            throw Failure(description: "the temporary folder \(folder.path) is too long a path for Chromium's sockets: set TMPDIR to a shorter one")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var lastProblem = ""
        // A port found free may be taken before chromedriver binds it: try another.
        for _ in 0..<3 {
            let port: UInt16
            do {
                port = try freePort()
            } catch {
                try? FileManager.default.removeItem(at: folder)
                throw error
            }
            let started: WebDriver
            do {
                started = try launch(driverBinary, folder: folder, port: port)
            } catch {
                try? FileManager.default.removeItem(at: folder)
                throw error
            }
            do {
                try await started.waitUntilReady()
                try await started.openSession(browser: browser)
                return started
            } catch {
                lastProblem = "\(error)"
                await started.quit()
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
        }
        try? FileManager.default.removeItem(at: folder)
        throw Failure(description: "chromedriver did not start a Chromium session: \(lastProblem)")
    }

    /// The first of `paths` that can run; on Debian none is a failure saying how to install
    /// it, elsewhere the test is skipped with that reason.
    static func installed(_ paths: [String], package: String) throws -> String {
        if let path = paths.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return path }
        let reason = "the browser tests need the Debian package \(package) (none of \(paths.joined(separator: ", ")) runs): run make test-deps"
        guard FileManager.default.fileExists(atPath: "/etc/debian_version") else {
            try Test.cancel("skipped: \(reason)")
        }
        throw Failure(description: reason)
    }

    /// A port of 127.0.0.1 nothing listens on now.
    static func freePort() throws -> UInt16 {
        #if os(Linux)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "no socket for a free port (errno \(errno))") }
        defer { closeDescriptor(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, address.sin_port != 0 else { throw Failure(description: "cannot bind 127.0.0.1:0 (errno \(errno))") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// chromedriver on `port`, its log, HOME and TMPDIR in `folder` (Chromium inherits them).
    static func launch(_ binary: String, folder: URL, port: UInt16) throws -> WebDriver {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--port=\(port)", "--log-path=\(folder.appendingPathComponent("chromedriver.log").path)"]
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder.path
        environment["TMPDIR"] = folder.path
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let exited = WaitableValue(false)
        process.terminationHandler = { _ in exited.update { $0 = true } }
        do {
            try process.run()
        } catch {
            throw Failure(description: "chromedriver (\(binary)) cannot run: \(error)")
        }
        return WebDriver(folder: folder, driver: process, exited: exited, port: port)
    }

    /// Polls `/status` until chromedriver says it is ready (or has ended, or 60 s passed).
    func waitUntilReady() async throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if exited.read({ $0 }) { throw Failure(description: "chromedriver ended at once: \(logTail)") }
            if let status = try? await command("GET", "/status", timeout: 5) as? [String: Any], status["ready"] as? Bool == true { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(description: "chromedriver was not ready within 60 s: \(logTail)")
    }

    func openSession(browser: String) async throws {
        let arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
            "--window-size=1280,1000", "--no-first-run", "--disable-extensions", "--password-store=basic",
        ]
        let capabilities: [String: Any] = [
            "capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": ["binary": browser, "args": arguments]]]
        ]
        let value = try await command("POST", "/session", capabilities, timeout: 120)
        guard let object = value as? [String: Any], let session = object["sessionId"] as? String else {
            throw Failure(description: "chromedriver opened no session: \(value)")
        }
        state.withLock { $0.session = session }
        let granted = object["capabilities"] as? [String: Any]
        browserProcess.withLock { $0 = (granted?["goog:processID"] as? Int).map { pid_t($0) } }
    }

    /// Ends the browser session politely, then `close()`.
    public func quit() async {
        if let session = state.withLock({ $0.closed ? nil : $0.session }) {
            _ = try? await command("DELETE", "/session/\(session)", timeout: 30)
        }
        close()
    }

    /// Ends chromedriver and every process it started (Chromium and its helpers, found by
    /// their parent process ids), waits for them, and removes the folder. Safe to call again.
    public func close() {
        let wasClosed = state.withLock { value -> Bool in
            let was = value.closed
            value.closed = true
            return was
        }
        guard !wasClosed else { return }
        let root = driver.processIdentifier
        // The browser too, should chromedriver have lost it (it then is no child of chromedriver's).
        let browser = browserProcess.current
        var pids = WebDriver.descendants(of: root)
        if let browser, !pids.contains(browser), kill(browser, 0) == 0 { pids += [browser] + WebDriver.descendants(of: browser) }
        if !exited.read({ $0 }) {
            kill(root, SIGTERM)
            pids.append(root)
        }
        for pid in pids where pid != root { kill(pid, SIGTERM) }
        if !WebDriver.waitUntilGone(pids, exited: exited, root: root, seconds: 5) {
            for pid in pids { kill(pid, SIGKILL) }
            _ = WebDriver.waitUntilGone(pids, exited: exited, root: root, seconds: 5)
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Every process below `root` (children, their children…), read from /proc.
    static func descendants(of root: pid_t) -> [pid_t] {
        #if os(Linux)
            var parents: [pid_t: pid_t] = [:]
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                    let nameEnd = stat.lastIndex(of: ")")
                else { continue }
                // After the command's name in parentheses: state, then the parent's id.
                let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
                if fields.count > 1, let parent = pid_t(fields[1]) { parents[pid] = parent }
            }
            var found: [pid_t] = []
            var frontier = [root]
            while let next = frontier.popLast() {
                let children = parents.filter { $0.value == next }.map(\.key)
                found += children
                frontier += children
            }
            return found
        #else
            return []
        #endif
    }

    /// Whether every one of `pids` has ended (a zombie counts as ended) within `seconds`.
    static func waitUntilGone(_ pids: [pid_t], exited: WaitableValue<Bool>, root: pid_t, seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        func alive(_ pid: pid_t) -> Bool {
            if pid == root { return !exited.read { $0 } }
            guard kill(pid, 0) == 0 else { return false }
            #if os(Linux)
                let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
                if let nameEnd = stat.lastIndex(of: ")"), stat[stat.index(after: nameEnd)...].split(separator: " ").first == "Z" { return false }
            #endif
            return true
        }
        while Date() < deadline {
            if !pids.contains(where: alive) {
                // chromedriver's exit is also seen by Foundation's handler, which reaps it.
                return exited.wait(until: { $0 || !pids.contains(root) }, deadline: deadline) { _, ready in ready }
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// The end of chromedriver's log, for a failure's message.
    var logTail: String {
        let log = (try? String(contentsOf: folder.appendingPathComponent("chromedriver.log"), encoding: .utf8)) ?? ""
        return String(log.suffix(1500))
    }

    // MARK: The protocol

    /// One WebDriver command; its `value`. A refusal throws the protocol's error and message.
    @discardableResult
    func command(_ method: String, _ path: String, _ body: [String: Any]? = nil, timeout: TimeInterval = 120) async throws -> Any {
        let json = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if body != nil { request += "Content-Type: application/json; charset=utf-8\r\n" }
        request += "Content-Length: \(json.count)\r\n\r\n"
        let port = self.port
        let bytes = Array(request.utf8) + Array(json)
        // Not URLSession: Foundation's on Linux refuses chromedriver's answers, whose header
        // lines have no space after the colon (`Content-Length:252`), with "Failed writing
        // header". On a thread of its own, so that a page's load holds no Swift concurrency thread.
        let (status, data) = try Self.answer(await rawExchangeOnThread(port: port, bytes, timeout: timeout), timeout: timeout, asked: "\(method) \(path)")
        let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any]
        let value: Any = object?["value"] ?? NSNull()
        guard status == 200 else {
            let error = (value as? [String: Any])?["error"] as? String ?? "HTTP \(status)"
            let message =
                ((value as? [String: Any])?["message"] as? String ?? String(decoding: data.prefix(300), as: UTF8.self))
                .split(separator: "\n").first.map(String.init) ?? ""
            throw Failure(description: "\(method) \(path): \(error): \(message)", code: error)
        }
        return value
    }

    /// The status and body of chromedriver's answer, whole (its `Content-Length` read).
    static func answer(_ exchange: (status: Int?, response: String), timeout: TimeInterval, asked: String) throws -> (Int, Data) {
        guard let status = exchange.status, let split = exchange.response.range(of: "\r\n\r\n") else {
            throw Failure(description: "\(asked): no HTTP answer within \(Int(timeout)) s: \(exchange.response.prefix(80))")
        }
        let body = Data(exchange.response[split.upperBound...].utf8)
        let declared = exchange.response[..<split.lowerBound].lowercased().split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
        if let declared, body.count < declared { throw Failure(description: "\(asked): the answer ended after \(body.count) of \(declared) bytes") }
        return (status, body)
    }

    private func sessionPath(_ tail: String) throws -> String {
        guard let session = state.withLock({ $0.closed ? nil : $0.session }) else { throw Failure(description: "the browser session is closed") }
        return "/session/\(session)\(tail)"
    }

    // MARK: Pages

    /// Opens `url` and waits for it to load.
    public func navigate(to url: URL) async throws {
        try await command("POST", try sessionPath("/url"), ["url": url.absoluteString])
    }

    public func refresh() async throws { try await command("POST", try sessionPath("/refresh"), [:]) }

    public func currentURL() async throws -> URL {
        let text = try await command("GET", try sessionPath("/url")) as? String ?? ""
        guard let url = URL(string: text) else { throw Failure(description: "the browser's URL '\(text)' is not one") }
        return url
    }

    public func title() async throws -> String { try await command("GET", try sessionPath("/title")) as? String ?? "" }

    /// The DOM as HTML now.
    public func source() async throws -> String { try await command("GET", try sessionPath("/source")) as? String ?? "" }

    /// Polls `condition` until it holds or `seconds` pass; `false` then.
    public func wait(seconds: TimeInterval = 30, until condition: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        } while Date() < deadline
        return try await condition()
    }

    /// Waits until the browser shows `path` (the path alone, query and fragment aside).
    @discardableResult
    public func waitForPath(_ path: String, seconds: TimeInterval = 30) async throws -> Bool {
        try await wait(seconds: seconds) { try await currentURL().path == path }
    }

    // MARK: Elements

    /// The first element `css` selects.
    /// - Throws: `Failure` ("no such element") when none does.
    public func element(_ css: String, in parent: Element? = nil) async throws -> Element {
        let path = parent.map { "/element/\($0.id)/element" } ?? "/element"
        let value = try await command("POST", try sessionPath(path), ["using": "css selector", "value": css])
        guard let id = (value as? [String: Any])?[WebDriver.elementKey] as? String else { throw Failure(description: "no element for \(css): \(value)") }
        return Element(id: id)
    }

    /// Every element `css` selects, in document order.
    public func elements(_ css: String, in parent: Element? = nil) async throws -> [Element] {
        let path = parent.map { "/element/\($0.id)/elements" } ?? "/elements"
        let value = try await command("POST", try sessionPath(path), ["using": "css selector", "value": css])
        return ((value as? [[String: Any]]) ?? []).compactMap { ($0[WebDriver.elementKey] as? String).map(Element.init(id:)) }
    }

    /// Types `text` into the element (after what it holds).
    public func type(_ text: String, into element: Element) async throws {
        try await command("POST", try sessionPath("/element/\(element.id)/value"), ["text": text])
    }

    public func clear(_ element: Element) async throws { try await command("POST", try sessionPath("/element/\(element.id)/clear"), [:]) }

    /// Clicks the element as a pointer would (a submit button submits its form and the
    /// driver waits for the page it loads).
    public func click(_ element: Element) async throws { try await command("POST", try sessionPath("/element/\(element.id)/click"), [:]) }

    /// Clicks a form's submit button or a link and waits until the browser has left the
    /// page it was on (the driver's click does not always wait for the navigation a form's
    /// submission starts; the next page may have the same address).
    /// - Throws: `Failure` when the page is still the same after `seconds`.
    public func clickAndWaitForNewPage(_ element: Element, seconds: TimeInterval = 30) async throws {
        let page = try await self.element("html")
        try await click(element)
        let left = try await wait(seconds: seconds) {
            do {
                _ = try await property("tagName", of: page)
                return false
            } catch let failure as Failure where failure.code != nil {
                // The old page's element is gone: stale, unknown, or (Chromium) "does not
                // belong to the document", depending on how far the new page got.
                return true
            }
        }
        guard left else { throw Failure(description: "the browser is still on the same page \(seconds) s after the click") }
    }

    /// The element's rendered text.
    public func text(of element: Element) async throws -> String {
        try await command("GET", try sessionPath("/element/\(element.id)/text")) as? String ?? ""
    }

    /// A DOM property of the element (`value`, `type`, `required`…), `nil` when it has none.
    public func property(_ name: String, of element: Element) async throws -> Any? {
        let value = try await command("GET", try sessionPath("/element/\(element.id)/property/\(name)"))
        return value is NSNull ? nil : value
    }

    /// Fills the field `css` selects (within `parent`) with `text`.
    public func fill(_ css: String, with text: String, in parent: Element? = nil) async throws {
        let field = try await element(css, in: parent)
        try await clear(field)
        try await type(text, into: field)
    }

    // MARK: Cookies

    /// The cookies the browser would send to the current page, HttpOnly ones included.
    public func cookies() async throws -> [Cookie] {
        let value = try await command("GET", try sessionPath("/cookie"))
        return ((value as? [[String: Any]]) ?? []).compactMap { object in
            guard let name = object["name"] as? String, let value = object["value"] as? String else { return nil }
            return Cookie(
                name: name, value: value, path: object["path"] as? String, httpOnly: object["httpOnly"] as? Bool ?? false,
                secure: object["secure"] as? Bool ?? false, sameSite: object["sameSite"] as? String)
        }
    }

    /// Adds a cookie for the current page's host (a page of it must be open).
    public func addCookie(_ cookie: Cookie) async throws {
        var object: [String: Any] = ["name": cookie.name, "value": cookie.value, "httpOnly": cookie.httpOnly, "secure": cookie.secure]
        if let path = cookie.path { object["path"] = path }
        if let sameSite = cookie.sameSite { object["sameSite"] = sameSite }
        try await command("POST", try sessionPath("/cookie"), ["cookie": object])
    }

    public func deleteAllCookies() async throws { try await command("DELETE", try sessionPath("/cookie")) }
}

private func closeDescriptor(_ fd: Int32) { close(fd) }

/// Runs `body` with a headless Chromium; the browser, chromedriver and their folder are gone
/// afterwards, also when `body` throws.
public func withBrowser(_ body: (WebDriver) async throws -> Void) async throws {
    let browser = try await WebDriver.start()
    defer { browser.close() }
    do {
        try await body(browser)
    } catch {
        await browser.quit()
        throw error
    }
    await browser.quit()
}
