import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The whole-request deadline libmicrohttpd lacks (it times out only idle connections, so a
/// client sending a byte every few seconds stays forever). Each connection's current request
/// is timed from the connection's start, or from the end of its previous answer, until the
/// request has been read whole; one still incomplete past the deadline has its socket shut
/// down, which the library then closes as a failed connection. A request being handled or
/// answered is never cut (suspended requests wait for a handler thread, not for the client).
final class RequestDeadline: @unchecked Sendable {
    let seconds: TimeInterval
    private let condition = NSCondition()
    private var reading: [UInt: (socket: Int32, since: Date)] = [:]
    private var stopped = false
    private var thread: Thread?
    /// Connections cut so far (for tests and the log).
    private(set) var cut = 0

    init(seconds: TimeInterval) {
        self.seconds = seconds
    }

    func start() {
        let thread = Thread { [self] in watch() }
        thread.name = "coldtap request deadline"
        self.thread = thread
        thread.start()
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// A connection opened: its first request's time starts now.
    func opened(_ connection: UInt, socket: Int32) { set(connection, (socket, Date())) }

    /// The connection's request has been read whole: no deadline while it is handled.
    func requestRead(_ connection: UInt) {
        condition.lock()
        reading[connection] = nil
        condition.unlock()
    }

    /// The answer was sent: the next request on the connection is timed from now.
    func answered(_ connection: UInt, socket: Int32) { set(connection, (socket, Date())) }

    /// The library closed the connection (called before it closes the socket, so a socket
    /// is never shut down after its number was given to another connection).
    func closed(_ connection: UInt) { requestRead(connection) }

    var cutCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return cut
    }

    private func set(_ connection: UInt, _ entry: (socket: Int32, since: Date)) {
        guard entry.socket >= 0 else { return }
        condition.lock()
        reading[connection] = entry
        condition.signal()
        condition.unlock()
    }

    private func watch() {
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            let now = Date()
            var next = now.addingTimeInterval(seconds)
            for (connection, entry) in reading {
                let due = entry.since.addingTimeInterval(seconds)
                if due <= now {
                    // The library sees the shut-down socket fail and closes the connection.
                    shutdown(entry.socket, Int32(SHUT_RDWR))
                    reading[connection] = nil
                    cut += 1
                } else if due < next {
                    next = due
                }
            }
            _ = condition.wait(until: next)
        }
    }
}
