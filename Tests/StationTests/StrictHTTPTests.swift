import ArchiveTestSupport
import ColdTapBase
import Foundation
import Station
import StationTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The station's HTTP is strict where a proxy and the server could disagree on where a request
/// ends, bounds how long a request may take and how many connections one address holds, and
/// sends its security headers on every answer (issue 27, items 4 and 8; docs/security.md).
@Suite("Strict HTTP") struct StrictHTTPTests {
    static func upload(_ station: TestStation, framing: String, body: String) -> [UInt8] {
        let token = station.tokens["north-upload"] ?? ""
        return Array(
            ("POST /api/v1/reads HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nX-ColdTap-Logger-Id: smuggled\r\n"
                + "X-ColdTap-Read-Time: \(Reads.readTime)\r\nContent-Type: application/octet-stream\r\n\(framing)\r\n\(body)").utf8)
    }

    @Test("ambiguous request framing is refused with 400 before a handler sees it; the archive is unchanged", arguments: Engine.allCases)
    func ambiguousFramingIsRefused(engine: Engine) async throws {
        try await withStation(engine) { station in
            let hex = try Reads.cold().map { String(format: "%02x", $0) }.joined()
            let chunked = String(hex.utf8.count, radix: 16) + "\r\n" + hex + "\r\n0\r\n\r\n"
            let before = try station.archive.fingerprint()
            let cases: [(String, String, String)] = [
                ("two equal lengths", "Content-Length: \(hex.utf8.count)\r\nContent-Length: \(hex.utf8.count)\r\n", hex),
                ("two lengths", "Content-Length: 4\r\nContent-Length: \(hex.utf8.count)\r\n", hex),
                ("length and chunked", "Content-Length: \(chunked.utf8.count)\r\nTransfer-Encoding: chunked\r\n", chunked),
                ("chunked twice", "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", chunked),
                ("chunked, chunked", "Transfer-Encoding: chunked, chunked\r\n", chunked),
                ("gzip, chunked", "Transfer-Encoding: gzip, chunked\r\n", chunked),
                ("identity", "Transfer-Encoding: identity\r\n", hex),
                // Who asks and what the read is, said twice (issue 43 item 15).
                ("two Authorization headers", "Authorization: Bearer other\r\nContent-Length: \(hex.utf8.count)\r\n", hex),
                ("a read time twice", "X-ColdTap-Read-Time: 2026-01-01T00:00:00Z\r\nContent-Length: \(hex.utf8.count)\r\n", hex),
            ]
            for (name, framing, body) in cases {
                let answer = await rawExchangeOnThread(port: station.port, Self.upload(station, framing: framing, body: body))
                #expect(answer.status == 400, "\(name): \(answer.response.prefix(300))")
                #expect(answer.response.contains("\"error\":\"bad request\""), "\(name): \(answer.response.prefix(300))")
            }
            // A length that is not a decimal number: refused by libmicrohttpd itself.
            let signed = await rawExchangeOnThread(port: station.port, Self.upload(station, framing: "Content-Length: +\(hex.utf8.count)\r\n", body: hex))
            #expect(signed.status == 400, "\(signed.response.prefix(200))")
            #expect(try station.archive.fingerprint() == before)
            // The same read framed once is kept.
            let plainBytes = Self.upload(station, framing: "Content-Length: \(hex.utf8.count)\r\nConnection: close\r\n", body: hex)
            // These two reach a handler and the archive: on a loaded machine (the whole suite
            // on two cores) that may take longer than the refusals' 5 s; answers are checked, not speed.
            let plain = await rawExchangeOnThread(port: station.port, plainBytes, timeout: 120)
            #expect(plain.status == 201, "\(plain.response.prefix(300))")
            let single = await rawExchangeOnThread(
                port: station.port, Self.upload(station, framing: "Transfer-Encoding: chunked\r\nConnection: close\r\n", body: chunked),
                timeout: 120)
            #expect(single.status == 200, "the same bytes again: \(single.response.prefix(300))")
        }
    }

    @Test("a request that drips past the deadline is cut while other clients are answered")
    func slowDripIsCut() async throws {
        let station = try await TestStation(.sqlite, connectionTimeout: 30, configure: { $0.requestDeadline = 2 })
        defer { station.stop() }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = station.port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        // Far more bytes than the deadline lets through at a byte every 0.2 s (idle time stays short).
        let request = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: \(String(repeating: "a", count: 100))\r\n\r\n".utf8)
        var sent = 0
        var answeredMeanwhile = false
        for byte in request {
            var one = byte
            if send(fd, &one, 1, Int32(MSG_NOSIGNAL)) != 1 { break }
            sent += 1
            if sent == 5 {
                // Another client is answered while this one drips.
                answeredMeanwhile =
                    await rawExchangeOnThread(port: station.port, Array("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)).status == 200
            }
            // The server closing the socket ends the loop: waiting on the socket, not on a clock.
            var poll = pollfd(fd: fd, events: Int16(POLLIN | POLLHUP), revents: 0)
            if Glibc.poll(&poll, 1, 200) > 0 {
                var buffer = [UInt8](repeating: 0, count: 64)
                if recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) <= 0 { break }
            }
        }
        #expect(sent < request.count, "the dripping request was not cut (\(sent) of \(request.count) bytes sent)")
        #expect(answeredMeanwhile)
        #expect(station.station.connectionsCutAtDeadline >= 1)
    }

    @Test("one address holds at most --connections-per-address connections")
    func connectionsPerAddress() async throws {
        let station = try await TestStation(.sqlite, configure: { $0.connectionsPerAddress = 3 })
        defer { station.stop() }
        var open: [Int32] = []
        defer { open.forEach { close($0) } }
        func connectOne() -> Int32 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = station.port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            return fd
        }
        for _ in 0..<3 { open.append(connectOne()) }
        // The first three are served (one asks; the others wait idle).
        let head = Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        #expect(send(open[0], head, head.count, Int32(MSG_NOSIGNAL)) == head.count)
        var buffer = [UInt8](repeating: 0, count: 512)
        #expect(recv(open[0], &buffer, buffer.count, 0) > 0)
        #expect(String(decoding: buffer.prefix(12), as: UTF8.self) == "HTTP/1.1 200")
        // A fourth from the same address gets no answer: the library closes it at once.
        let fourth = await rawExchangeOnThread(port: station.port, head, timeout: 5)
        #expect(fourth.status == nil, "\(fourth.response.prefix(100))")
        // Once one closes, a new connection is served.
        close(open.removeLast())
        var served = false
        for _ in 0..<50 where !served {
            served = await rawExchangeOnThread(port: station.port, Array("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)).status == 200
            if !served { usleep(20_000) }
        }
        #expect(served)
    }

    @Test("every answer carries nosniff; HTML answers a Content-Security-Policy; the API's report.html too")
    func securityHeadersOnEveryAnswer() async throws {
        try await withStation(.sqlite, maxBody: 4096) { station in
            let token = try #require(station.tokens["north-upload"])
            let uploaded = try await request(
                station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: token,
                headers: [UploadHeader.loggerID: "fridge-h", UploadHeader.readTime: Reads.readTime], body: try Reads.alarm())
            #expect(uploaded.status == 201)
            func head(_ path: String, extra: String = "") async -> String {
                await rawExchangeOnThread(
                    port: station.port,
                    Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\(extra)Connection: close\r\n\r\n".utf8)
                )
                .response.components(separatedBy: "\r\n\r\n").first?.lowercased() ?? ""
            }
            for path in [
                "/healthz", "/api/v1/loggers", "/api/v1/loggers/fridge-h/report.html", "/api/v1/loggers/nothing", "/no-such-path", "/login",
                "/api/v1/loggers/fridge-h/report.svg",
            ] {
                let text = await head(path)
                #expect(text.contains("x-content-type-options: nosniff"), "\(path): \(text)")
                #expect(!text.contains("strict-transport-security"), "\(path): HSTS without TLS")
                if text.contains("content-type: text/html") {
                    #expect(text.contains("content-security-policy: default-src 'none'"), "\(path): \(text)")
                }
            }
            // The report's policy lets it render (inline styles, inline SVG) and nothing else.
            let report = await head("/api/v1/loggers/fridge-h/report.html")
            #expect(report.contains("content-security-policy: default-src 'none'; style-src 'unsafe-inline'"), "\(report)")
            // 413 answered before the body is read.
            let large = await rawExchangeOnThread(
                port: station.port, Array("POST /api/v1/reads HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n".utf8))
            #expect(large.status == 413)
            #expect(large.response.lowercased().contains("x-content-type-options: nosniff"))
        }
    }
}
