import Foundation

/// The threads that run request handlers, apart from libmicrohttpd's own. The library's
/// threads must never block: a handler waiting for a commit on one of them left every other
/// connection of that thread unread, and the library counts such a connection as idle and
/// closes it at its timeout. So a complete request is suspended (a suspended connection
/// never times out), its handler runs here, and the connection is resumed with the answer.
final class HandlerThreads: @unchecked Sendable {
    /// A request's work: `refused` is true when the server stopped before the work began.
    typealias Job = (_ refused: Bool) -> Void

    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var nextJob = 0
    private var running = 0
    private var living = 0
    private var refusing = false
    private var stopping = false

    init(count: Int, name: String) {
        living = max(1, count)
        for number in 0..<living {
            let thread = Thread { [self] in work() }
            thread.name = "\(name) \(number + 1)"
            thread.start()
        }
    }

    func submit(_ job: @escaping Job) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Waits until every job given so far has run; from now on jobs not yet begun are run
    /// with `refused` (they answer at once, without their handler).
    func finishRefusingNew() {
        condition.lock()
        refusing = true
        condition.broadcast()
        while nextJob < jobs.count || running > 0 { condition.wait() }
        condition.unlock()
    }

    /// Lets the threads end once no job is left, and waits for them.
    func stop() {
        condition.lock()
        stopping = true
        refusing = true
        condition.broadcast()
        while living > 0 { condition.wait() }
        condition.unlock()
    }

    private func work() {
        condition.lock()
        while true {
            while nextJob == jobs.count, !stopping { condition.wait() }
            guard nextJob < jobs.count else { break }
            let job = jobs[nextJob]
            nextJob += 1
            // The queue empties often; its storage is reused then instead of growing.
            if nextJob == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                nextJob = 0
            }
            let refused = refusing
            running += 1
            condition.unlock()
            job(refused)
            condition.lock()
            running -= 1
            condition.broadcast()
        }
        living -= 1
        condition.broadcast()
        condition.unlock()
    }
}
