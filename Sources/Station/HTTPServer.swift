import CMicroHTTPD
import ColdTapBase
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server over GNU libmicrohttpd: its parser, thread pool, connection limits
/// and timeouts; HTTPS through its GnuTLS support when a certificate is given. The socket is
/// bound here (so that port 0 gives an ephemeral port the caller can read back) and handed
/// to the library. Each request is read whole (up to `maxBody`) by the library's threads and
/// passed to `handler` on one of `HandlerThreads` while its connection is suspended.
public final class HTTPServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        /// An IPv4 or IPv6 address (`127.0.0.1`, `::1`, `0.0.0.0`).
        public var host: String = "127.0.0.1"
        /// 0: an ephemeral port (read `port` after `start`).
        public var port: UInt16 = 8080
        /// PEM text of the certificate (chain) and its key; both or neither.
        public var tlsCertificate: String?
        public var tlsKey: String?
        /// Bodies above this get 413 without being kept.
        public var maxBody: Int = 1 << 20
        /// Requests handled at once (a handler may wait for a commit).
        public var threads: Int = 8
        /// The library's threads, which only read and write the connections (and TLS).
        public var ioThreads: Int = 2
        public var connectionLimit: Int = 512
        /// Connections one client address may hold at once, so that one cannot take them all.
        public var connectionsPerAddress: Int = 64
        /// Seconds a connection may stay idle (a slow client) before it is closed.
        public var connectionTimeout: Int = 15
        /// Seconds a request may take to arrive whole (headers and body), however busy the
        /// client keeps the connection: a byte every few seconds is not a request.
        public var requestDeadline: Int = 30
        /// Bytes of header and buffers per connection (huge headers get 431 from the library).
        public var connectionMemory: Int = 64 * 1024

        public init() {}
    }

    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    public let configuration: Configuration
    let handler: Handler
    private var daemon: OpaquePointer?
    private var listenSocket: Int32 = -1
    public private(set) var port: UInt16 = 0
    /// Requests being handled or answered.
    private let inFlight = WaitableValue(0)
    private var handlerThreads: HandlerThreads?
    private var certificate: UnsafeMutablePointer<CChar>?
    private var key: UnsafeMutablePointer<CChar>?
    let deadline: RequestDeadline
    /// True when serving HTTPS (answers then carry Strict-Transport-Security).
    var tls: Bool { certificate != nil }

    public init(configuration: Configuration, handler: @escaping Handler) {
        self.configuration = configuration
        self.handler = handler
        deadline = RequestDeadline(seconds: TimeInterval(max(1, configuration.requestDeadline)))
    }

    /// Connections cut because their request did not arrive whole within the deadline.
    public var connectionsCutAtDeadline: Int { deadline.cutCount }

    deinit { stop(grace: 0) }

    public struct StartError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Binds, listens and starts the thread pool.
    /// - Throws: `StartError` saying what went wrong (address in use, bad certificate, …).
    public func start() throws {
        let socket = try HTTPServer.bind(host: configuration.host, port: configuration.port)
        listenSocket = socket.fd
        port = socket.port
        var flags = MHD_USE_AUTO_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if configuration.tlsCertificate != nil || configuration.tlsKey != nil {
            guard let certificatePEM = configuration.tlsCertificate, let keyPEM = configuration.tlsKey else {
                close(socket.fd)
                throw StartError(description: "HTTPS needs both a certificate and its key.")
            }
            flags |= MHD_USE_TLS.rawValue
            certificate = strdup(certificatePEM)
            key = strdup(keyPEM)
        }
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: MHD_OPTION.LISTEN_SOCKET, value: Int(socket.fd), ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.THREAD_POOL_SIZE, value: max(1, configuration.ioThreads), ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.CONNECTION_LIMIT, value: max(1, configuration.connectionLimit), ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.PER_IP_CONNECTION_LIMIT, value: max(1, configuration.connectionsPerAddress), ptr_value: nil),
            MHD_OptionItem(
                option: MHD_OPTION.NOTIFY_CONNECTION, value: unsafeBitCast(httpConnectionNotified as MHD_NotifyConnectionCallback, to: Int.self),
                ptr_value: Unmanaged.passUnretained(self).toOpaque()),
            MHD_OptionItem(option: MHD_OPTION.CONNECTION_TIMEOUT, value: max(1, configuration.connectionTimeout), ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.CONNECTION_MEMORY_LIMIT, value: max(8192, configuration.connectionMemory), ptr_value: nil),
            MHD_OptionItem(
                option: MHD_OPTION.NOTIFY_COMPLETED, value: unsafeBitCast(httpRequestCompleted as MHD_RequestCompletedCallback, to: Int.self),
                ptr_value: Unmanaged.passUnretained(self).toOpaque()),
            // The path stays as sent, so that routes split it before decoding (an id holding
            // `%2F` is one segment); query arguments are decoded by `arguments(_:)`.
            MHD_OptionItem(option: MHD_OPTION.UNESCAPE_CALLBACK, value: unsafeBitCast(httpKeepEscapes as UnescapeCallback, to: Int.self), ptr_value: nil),
        ]
        if let certificate, let key {
            options.append(MHD_OptionItem(option: MHD_OPTION.HTTPS_MEM_CERT, value: 0, ptr_value: UnsafeMutableRawPointer(certificate)))
            options.append(MHD_OptionItem(option: MHD_OPTION.HTTPS_MEM_KEY, value: 0, ptr_value: UnsafeMutableRawPointer(key)))
        }
        options.append(MHD_OptionItem(option: MHD_OPTION.END, value: 0, ptr_value: nil))
        let context = Unmanaged.passUnretained(self).toOpaque()
        let handlers = HandlerThreads(count: configuration.threads, name: "coldtap http")
        handlerThreads = handlers
        let started: OpaquePointer? = options.withUnsafeMutableBufferPointer { items in
            withVaList([Int32(MHD_OPTION.ARRAY.rawValue), items.baseAddress!, Int32(MHD_OPTION.END.rawValue)]) { list in
                MHD_start_daemon_va(flags, 0, nil, nil, httpAccess, context, list)
            }
        }
        guard let started else {
            deadline.stop()
            handlers.stop()
            handlerThreads = nil
            close(socket.fd)
            listenSocket = -1
            throw StartError(
                description: certificate == nil
                    ? "libmicrohttpd could not start on \(configuration.host):\(port)."
                    : "libmicrohttpd could not start HTTPS on \(configuration.host):\(port): check that the certificate and key are PEM files that belong together."
            )
        }
        daemon = started
        deadline.start()
    }

    /// Stops accepting, lets requests in flight finish (up to `grace` seconds), then stops.
    public func stop(grace: TimeInterval = 10) {
        guard let daemon else { return }
        let socket = MHD_quiesce_daemon(daemon)
        waitForRequestsInFlight(until: Date().addingTimeInterval(grace))
        // Past the grace, requests still waiting for a handler are answered 503 and those
        // being handled finish; their answers then get a moment to be sent (a client that
        // reads slowly cannot hold the stop for longer).
        handlerThreads?.finishRefusingNew()
        waitForRequestsInFlight(until: Date().addingTimeInterval(2))
        MHD_stop_daemon(daemon)
        deadline.stop()
        handlerThreads?.stop()
        handlerThreads = nil
        self.daemon = nil
        if socket >= 0 { close(socket) } else if listenSocket >= 0 { close(listenSocket) }
        listenSocket = -1
        free(certificate)
        free(key)
        certificate = nil
        key = nil
    }

    public var isRunning: Bool { daemon != nil }

    private func waitForRequestsInFlight(until deadline: Date) {
        inFlight.wait(until: { $0 == 0 }, deadline: deadline) { _, _ in }
    }

    /// Waits until at least `count` requests have begun and are not answered yet (their
    /// headers read): an event a caller can wait on instead of sleeping.
    /// - Returns: false when `timeout` passed first.
    public func waitUntilRequestsInFlight(atLeast count: Int, timeout: TimeInterval) -> Bool {
        inFlight.wait(until: { $0 >= count }, deadline: Date().addingTimeInterval(timeout)) { _, ready in ready }
    }

    // MARK: Requests

    /// What one request has sent so far.
    final class Exchange: @unchecked Sendable {
        var body = Data()
        var tooLarge = false
        var counted = false
        var answered = false
        /// Set by a handler thread before it resumes the connection, taken by the library's.
        private let response = LockedValue<HTTPResponse?>(nil)

        func answer(_ response: HTTPResponse) {
            self.response.withLock { $0 = response }
        }

        func takeAnswer() -> HTTPResponse? {
            response.exchange(nil)
        }
    }

    /// Runs `request`'s handler on a handler thread; the connection waits suspended.
    func handle(_ request: HTTPRequest, exchange: Exchange, on connection: OpaquePointer) -> MHD_Result {
        deadline.requestRead(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))))
        guard let handlerThreads else { return queue(HTTPServer.stopping, on: connection) }
        MHD_suspend_connection(connection)
        let suspended = SuspendedConnection(connection)
        handlerThreads.submit { [handler] refused in
            exchange.answer(refused ? HTTPServer.stopping : handler(request))
            MHD_resume_connection(suspended.connection)
        }
        return MHD_Result.YES
    }

    /// A suspended connection's handle, handed to the handler thread that resumes it.
    private struct SuspendedConnection: @unchecked Sendable {
        let connection: OpaquePointer
        init(_ connection: OpaquePointer) { self.connection = connection }
    }

    static let stopping = HTTPResponse.error(503, "stopping", "The station is stopping; send the request again when it is back.")

    func begin() {
        inFlight.update { $0 += 1 }
    }

    func end() {
        inFlight.update { $0 -= 1 }
    }

    static func values(_ connection: OpaquePointer, kind: MHD_ValueKind) -> [(String, String)] {
        final class Box { var pairs: [(String, String)] = [] }
        let box = Box()
        let unmanaged = Unmanaged.passUnretained(box)
        MHD_get_connection_values(
            connection, kind,
            { cls, _, key, value in
                guard let cls, let key else { return MHD_Result.YES }
                let box = Unmanaged<Box>.fromOpaque(cls).takeUnretainedValue()
                box.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
                return MHD_Result.YES
            }, unmanaged.toOpaque())
        return box.pairs
    }

    /// The query's arguments, percent-decoded (libmicrohttpd has turned `+` into spaces already;
    /// an argument whose escapes are not UTF-8 is kept as sent).
    static func arguments(_ connection: OpaquePointer) -> [(String, String)] {
        values(connection, kind: MHD_ValueKind.GET_ARGUMENT_KIND).map { ($0.0.removingPercentEncoding ?? $0.0, $0.1.removingPercentEncoding ?? $0.1) }
    }

    /// The headers every answer carries, whatever route made it: `nosniff`; a policy for an
    /// HTML answer that sets none (the API's report.html: its inline styles and SVG, nothing
    /// else); HSTS under TLS.
    static func securityHeaders(of response: HTTPResponse, tls: Bool) -> [(String, String)] {
        var headers = response.headers
        if response.header("X-Content-Type-Options") == nil { headers.append(("X-Content-Type-Options", "nosniff")) }
        if response.header("Content-Type")?.lowercased().hasPrefix("text/html") == true, response.header("Content-Security-Policy") == nil {
            headers.append(
                (
                    "Content-Security-Policy",
                    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
                ))
        }
        if tls, response.header("Strict-Transport-Security") == nil { headers.append(("Strict-Transport-Security", "max-age=31536000")) }
        return headers
    }

    func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        var response = response
        response.headers = HTTPServer.securityHeaders(of: response, tls: tls)
        return HTTPServer.queue(response, on: connection)
    }

    /// Why a request's framing is refused before anything reads its body, or `nil`: a body's
    /// length must be said once and one way (two `Content-Length`s, or one beside
    /// `Transfer-Encoding`, let a proxy and this server disagree on where a request ends);
    /// `chunked` is the only transfer coding. Headers that say who asks (Authorization,
    /// Cookie, Origin) or what a read is (X-ColdTap-*) are taken once only.
    static func framingProblem(_ headers: [(String, String)]) -> String? {
        let lengths = headers.filter { $0.0.lowercased() == "content-length" }.map { $0.1.trimmingCharacters(in: .whitespaces) }
        let codings = headers.filter { $0.0.lowercased() == "transfer-encoding" }.map { $0.1.trimmingCharacters(in: .whitespaces) }
        if lengths.count > 1 { return "the request has \(lengths.count) Content-Length headers (a duplicate); send one." }
        if let length = lengths.first, length.isEmpty || !length.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            return "Content-Length must be a decimal number of bytes."
        }
        if !codings.isEmpty, !lengths.isEmpty { return "the request has both Content-Length and Transfer-Encoding; send one." }
        if codings.count > 1 || codings.contains(where: { $0.lowercased() != "chunked" }) {
            return "the only transfer coding taken is a single 'Transfer-Encoding: chunked'."
        }
        // Who is asking, and what a read is, must be said once: two values would let one
        // reader of the request take the first and another the last.
        for name in ["authorization", "cookie", "origin"] where headers.filter({ $0.0.lowercased() == name }).count > 1 {
            return "the request has more than one \(name.capitalized) header; send one."
        }
        let coldTapHeaders = headers.map { $0.0.lowercased() }.filter { $0.hasPrefix("x-coldtap-") }
        if let twice = coldTapHeaders.first(where: { name in coldTapHeaders.filter { $0 == name }.count > 1 }) {
            return "the request has the header \(twice) more than once; send it once."
        }
        return nil
    }

    static func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made: OpaquePointer? = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
        guard let made else { return MHD_Result.NO }
        for (name, value) in response.headers {
            // Header injection: a value with a line break is dropped, never sent.
            guard !name.contains(where: { $0 == "\r" || $0 == "\n" }), !value.contains(where: { $0 == "\r" || $0 == "\n" }) else { continue }
            MHD_add_response_header(made, name, value)
        }
        let result = MHD_queue_response(connection, UInt32(response.status), made)
        MHD_destroy_response(made)
        return result
    }

    // MARK: Socket

    static func bind(host: String, port: UInt16) throws -> (fd: Int32, port: UInt16) {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
        } else {
            throw StartError(description: "'\(host)' is not an IP address; listen on an address and port, e.g. 127.0.0.1:8080.")
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw StartError(description: "cannot open a socket: \(String(cString: strerror(errno))).") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32 =
            family == AF_INET
            ? withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            : withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        guard bound == 0, listen(fd, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw StartError(description: "cannot listen on \(host):\(port): \(reason).")
        }
        var storage = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let actual =
            family == AF_INET
            ? withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) } }
            : UInt16(bigEndian: storage.sin6_port)
        return (fd, actual)
    }
}

private typealias UnescapeCallback = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int

/// libmicrohttpd's unescaper, made to leave the text as it is (its length unchanged).
private func httpKeepEscapes(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ text: UnsafeMutablePointer<CChar>?) -> Int {
    guard let text else { return 0 }
    return strlen(text)
}

/// libmicrohttpd calls this for a new request (with `*context` empty), then once per piece of
/// body, then once more with no body left: the request is answered then.
private func httpAccess(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadSize: UnsafeMutablePointer<Int>?, _ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let context, let uploadSize else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    guard let pointer = context.pointee else {
        let exchange = HTTPServer.Exchange()
        exchange.counted = true
        server.begin()
        context.pointee = Unmanaged.passRetained(exchange).toOpaque()
        let headers = HTTPServer.values(connection, kind: MHD_ValueKind.HEADER_KIND)
        if let problem = HTTPServer.framingProblem(headers) {
            // Answered before the body is read, and the connection closed: where this
            // request ends is not known.
            exchange.answered = true
            server.deadline.requestRead(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))))
            return server.queue(.error(400, "bad request", problem, headers: [("Connection", "close")]), on: connection)
        }
        // A declared length over the limit is refused before any of the body is read.
        if let length = MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, "Content-Length").flatMap({ Int(String(cString: $0)) }),
            length > server.configuration.maxBody
        {
            exchange.tooLarge = true
            exchange.answered = true
            var request = HTTPRequest(
                method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "/",
                query: HTTPServer.arguments(connection),
                headers: Dictionary(HTTPServer.values(connection, kind: MHD_ValueKind.HEADER_KIND), uniquingKeysWith: { a, _ in a }))
            request.bodyTooLarge = true
            server.deadline.requestRead(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))))
            return server.queue(server.handler(request), on: connection)
        }
        return MHD_Result.YES
    }
    let exchange = Unmanaged<HTTPServer.Exchange>.fromOpaque(pointer).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        if !exchange.tooLarge, let uploadData {
            if exchange.body.count + uploadSize.pointee > server.configuration.maxBody {
                exchange.tooLarge = true
                exchange.body = Data()
            } else {
                exchange.body.append(UnsafeRawPointer(uploadData).assumingMemoryBound(to: UInt8.self), count: uploadSize.pointee)
            }
        }
        uploadSize.pointee = 0
        return MHD_Result.YES
    }
    // Resumed with the handler's answer, or answered already at the first call.
    if exchange.answered {
        guard let response = exchange.takeAnswer() else { return MHD_Result.YES }
        return server.queue(response, on: connection)
    }
    exchange.answered = true
    var headers: [String: String] = [:]
    for (name, value) in HTTPServer.values(connection, kind: MHD_ValueKind.HEADER_KIND) { headers[name.lowercased()] = value }
    var request = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "/",
        query: HTTPServer.arguments(connection), headers: headers, body: exchange.body)
    request.bodyTooLarge = exchange.tooLarge
    exchange.body = Data()
    return server.handle(request, exchange: exchange, on: connection)
}

private func httpRequestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ reason: MHD_RequestTerminationCode
) {
    guard let cls else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    // The next request on a kept-alive connection is timed from here.
    if let connection, reason == MHD_RequestTerminationCode.REQUEST_TERMINATED_COMPLETED_OK {
        server.deadline.answered(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))), socket: coldtap_connection_fd(connection))
    }
    guard let context, let pointer = context.pointee else { return }
    let exchange = Unmanaged<HTTPServer.Exchange>.fromOpaque(pointer).takeRetainedValue()
    context.pointee = nil
    if exchange.counted { server.end() }
}

/// libmicrohttpd's word that a connection opened or closed: the request deadline's clock.
private func httpConnectionNotified(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    if code == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED {
        server.deadline.opened(key, socket: coldtap_connection_fd(connection))
    } else {
        server.deadline.closed(key)
    }
}
