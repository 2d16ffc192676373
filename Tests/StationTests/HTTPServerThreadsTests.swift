import Foundation
import Station
import StationTestSupport
import TestSupport
import Testing

/// Handlers run apart from libmicrohttpd's threads: a handler that waits (for a commit, say)
/// neither stalls the other connections of the library's thread nor lets them time out.
@Suite(.serialized) struct HTTPServerThreadsTests {
    /// `/slow` waits for `release` (500 when it does not come within 10 s), or with `hold`
    /// set, simply takes that long; anything else is answered at once.
    private final class SlowHandler: @unchecked Sendable {
        let release = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        var hold: TimeInterval?

        func handle(_ request: HTTPRequest) -> HTTPResponse {
            guard request.path == "/slow" else { return HTTPResponse(status: 200, body: Data("fast\n".utf8)) }
            entered.signal()
            if let hold {
                Thread.sleep(forTimeInterval: hold)
                return HTTPResponse(status: 200, body: Data("slow\n".utf8))
            }
            return HTTPResponse(status: release.wait(timeout: .now() + 10) == .success ? 200 : 500, body: Data("slow\n".utf8))
        }
    }

    private func server(threads: Int, timeout: Int, handler: SlowHandler) throws -> HTTPServer {
        var configuration = HTTPServer.Configuration()
        configuration.port = 0
        configuration.threads = threads
        configuration.ioThreads = 1
        configuration.connectionTimeout = timeout
        let server = HTTPServer(configuration: configuration) { handler.handle($0) }
        try server.start()
        return server
    }

    private func get(_ path: String) -> [UInt8] {
        Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
    }

    /// Sends `path` on its own thread; the answer comes through the returned box.
    private final class Pending: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var status: Int?
    }

    private func send(_ path: String, port: UInt16, timeout: TimeInterval = 15) -> Pending {
        let pending = Pending()
        let bytes = get(path)
        Thread.detachNewThread {
            pending.status = rawExchange(port: port, bytes, timeout: timeout).status
            pending.done.signal()
        }
        return pending
    }

    @Test(.tags(.slow)) func aFastRequestIsAnsweredWhileASlowOneWaitsOnTheSameLibraryThread() throws {
        let handler = SlowHandler()
        let server = try server(threads: 2, timeout: 15, handler: handler)
        defer { server.stop(grace: 1) }
        let slow = send("/slow", port: server.port)
        #expect(handler.entered.wait(timeout: .now() + 10) == .success, "the slow request never reached its handler")
        // One library thread for both connections: before handlers had threads of their own,
        // this answer could come only after the slow handler let go of that thread.
        let fast = rawExchange(port: server.port, get("/fast"), timeout: 8)
        #expect(fast.status == 200, "\(fast.response)")
        handler.release.signal()
        #expect(slow.done.wait(timeout: .now() + 15) == .success)
        #expect(slow.status == 200)
    }

    @Test(.tags(.slow)) func aRequestWaitingForAHandlerLongerThanTheConnectionTimeoutIsStillAnswered() throws {
        let handler = SlowHandler()
        handler.hold = 2.5
        // One handler thread and a 1 s timeout: the second request waits 2.5 s for its handler.
        let server = try server(threads: 1, timeout: 1, handler: handler)
        defer { server.stop(grace: 1) }
        let slow = send("/slow", port: server.port)
        #expect(handler.entered.wait(timeout: .now() + 10) == .success)
        let waiting = rawExchange(port: server.port, get("/fast"), timeout: 10)
        #expect(waiting.status == 200, "closed after waiting: \(waiting.response)")
        #expect(slow.done.wait(timeout: .now() + 15) == .success)
        #expect(slow.status == 200)
    }

    @Test(.tags(.slow)) func stoppingAnswersWaitingRequests503AndLetsTheRunningOneFinish() throws {
        let handler = SlowHandler()
        handler.hold = 3
        let server = try server(threads: 1, timeout: 15, handler: handler)
        let slow = send("/slow", port: server.port)
        #expect(handler.entered.wait(timeout: .now() + 10) == .success)
        let waiting = send("/fast", port: server.port)
        // The waiting request has begun (its headers read) before the stop: an event, not a pause.
        #expect(server.waitUntilRequestsInFlight(atLeast: 2, timeout: 10), "the second request never reached the server")
        server.stop(grace: 0.2)
        #expect(waiting.done.wait(timeout: .now() + 15) == .success)
        #expect(waiting.status == 503)
        #expect(slow.done.wait(timeout: .now() + 15) == .success)
        #expect(slow.status == 200)
        #expect(!server.isRunning)
    }
}
