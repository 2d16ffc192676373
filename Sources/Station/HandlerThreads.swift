import ColdTapBase
import Foundation

/// The threads that run request handlers, apart from libmicrohttpd's own. The library's
/// threads must never block: a handler waiting for a commit on one of them left every other
/// connection of that thread unread, and the library counts such a connection as idle and
/// closes it at its timeout. So a complete request is suspended (a suspended connection
/// never times out), its handler runs here, and the connection is resumed with the answer.
final class HandlerThreads: Sendable {
    /// A request's work: `refused` is true when the server stopped before the work began.
    typealias Job = (_ refused: Bool) -> Void

    private struct Queue {
        var jobs: [Job] = []
        var nextJob = 0
        var running = 0
        var living = 0
        var refusing = false
        var stopping = false

        var hasJob: Bool { nextJob < jobs.count }
    }

    private let queue = WaitableValue(Queue())

    init(count: Int, name: String) {
        let living = max(1, count)
        queue.update { $0.living = living }
        for number in 0..<living {
            let thread = Thread { [self] in work() }
            thread.name = "\(name) \(number + 1)"
            thread.start()
        }
    }

    func submit(_ job: @escaping Job) {
        // One job: one thread is enough to take it.
        queue.update(waking: .one) { $0.jobs.append(job) }
    }

    /// Waits until every job given so far has run; from now on jobs not yet begun are run
    /// with `refused` (they answer at once, without their handler).
    func finishRefusingNew() {
        queue.update { $0.refusing = true }
        queue.wait(until: { !$0.hasJob && $0.running == 0 }) { _, _ in }
    }

    /// Lets the threads end once no job is left, and waits for them.
    func stop() {
        queue.update {
            $0.stopping = true
            $0.refusing = true
        }
        queue.wait(until: { $0.living == 0 }) { _, _ in }
    }

    private func work() {
        while true {
            // Taking a job changes nothing another thread waits for, so it wakes no one.
            let next: (job: Job, refused: Bool)? = queue.wait(until: { $0.hasJob || $0.stopping }, waking: .none) { queue, _ in
                guard queue.hasJob else { return nil }
                let job = queue.jobs[queue.nextJob]
                queue.nextJob += 1
                // The queue empties often; its storage is reused then instead of growing.
                if queue.nextJob == queue.jobs.count {
                    queue.jobs.removeAll(keepingCapacity: true)
                    queue.nextJob = 0
                }
                queue.running += 1
                return (job, queue.refusing)
            }
            guard let next else {
                // `stop` waits for this.
                queue.update { $0.living -= 1 }
                return
            }
            next.job(next.refused)
            queue.update { $0.running -= 1 }
        }
    }
}
