import ColdTapBase
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
final class RequestDeadline: Sendable {
    let seconds: TimeInterval
    private struct Watch {
        var reading: [UInt: (socket: Int32, since: Date)] = [:]
        var stopped = false
        /// Connections cut so far (for tests and the log).
        var cut = 0
    }
    private let watch = WaitableValue(Watch())

    init(seconds: TimeInterval) {
        self.seconds = seconds
    }

    func start() {
        let thread = Thread { [self] in cutOverdue() }
        thread.name = "coldtap request deadline"
        thread.start()
    }

    func stop() {
        watch.update { $0.stopped = true }
    }

    /// A connection opened: its first request's time starts now.
    func opened(_ connection: UInt, socket: Int32) { set(connection, (socket, Date())) }

    /// The connection's request has been read whole: no deadline while it is handled.
    func requestRead(_ connection: UInt) {
        watch.update { $0.reading[connection] = nil }
    }

    /// The answer was sent: the next request on the connection is timed from now.
    func answered(_ connection: UInt, socket: Int32) { set(connection, (socket, Date())) }

    /// The library closed the connection (called before it closes the socket, so a socket
    /// is never shut down after its number was given to another connection).
    func closed(_ connection: UInt) { requestRead(connection) }

    var cutCount: Int { watch.read { $0.cut } }

    private func set(_ connection: UInt, _ entry: (socket: Int32, since: Date)) {
        guard entry.socket >= 0 else { return }
        watch.update { $0.reading[connection] = entry }
    }

    /// Shuts down every connection whose request is overdue, then sleeps until the next one
    /// falls due (or a change, or `stop`).
    private func cutOverdue() {
        var next = Date().addingTimeInterval(seconds)
        while true {
            let stopped = watch.wait(until: { $0.stopped }, deadline: next, waking: .none) { watch, _ -> Bool in
                guard !watch.stopped else { return true }
                let now = Date()
                next = now.addingTimeInterval(seconds)
                for (connection, entry) in watch.reading {
                    let due = entry.since.addingTimeInterval(seconds)
                    if due <= now {
                        // The library sees the shut-down socket fail and closes the connection.
                        shutdown(entry.socket, Int32(SHUT_RDWR))
                        watch.reading[connection] = nil
                        watch.cut += 1
                    } else if due < next {
                        next = due
                    }
                }
                return false
            }
            if stopped { return }
        }
    }
}
