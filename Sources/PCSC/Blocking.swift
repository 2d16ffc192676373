import ColdTapBase
import Dispatch
import Foundation
import NFCTags

/// Thrown by `BlockingWorker.run(timeout:_:)` when the work did not finish in time.
struct BlockingTimeout: Error {}

/// One thread of its own that runs blocking calls (PC/SC, sockets) one after another, so
/// that they hold neither one of the few cooperative threads nor one of Dispatch's
/// global-queue threads (as many as there are cores: other blocking work there would delay
/// them). Each open reader (`PCSCChannel`) and each `PCSCContext` has one; the thread ends
/// when the worker is released and its last job has returned.
final class BlockingWorker: Sendable {
    private let jobs = JobQueue()

    /// - Parameter name: the thread's name, as debuggers and `top -H` show it (Linux keeps
    ///   15 bytes of it).
    init(name: String) {
        let jobs = self.jobs
        // Named from inside: on Linux a new thread otherwise keeps its creator's name.
        Thread {
            Thread.current.name = name
            jobs.runUntilClosed()
        }.start()
    }

    deinit {
        jobs.close()
    }

    /// Runs `body` on the worker's thread and returns its result.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            jobs.add { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Like `run(_:)`, but gives up after `timeout` and throws `BlockingTimeout`. The blocking
    /// call itself cannot be interrupted (SCardTransmit to a silent card never returns): it
    /// goes on in the background, its result is dropped, and later jobs wait behind it.
    func run<T: Sendable>(timeout: Duration, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let once = ResumeOnce(continuation)
            jobs.add { once.resume(with: Result { try body() }) }
            once.startTimer(
                Task {
                    try? await Task.sleep(for: timeout)
                    if !Task.isCancelled { once.resume(with: .failure(BlockingTimeout())) }
                })
        }
    }
}

/// The jobs waiting for a worker's thread, and whether the worker was told to close.
private final class JobQueue: Sendable {
    private let state = WaitableValue((jobs: [@Sendable () -> Void](), closed: false))

    func add(_ job: @escaping @Sendable () -> Void) {
        state.update(waking: .one) { $0.jobs.append(job) }
    }

    func close() {
        state.update { $0.closed = true }
    }

    /// Runs the jobs in order; returns once closed and every job given before was run.
    func runUntilClosed() {
        while true {
            let next: (@Sendable () -> Void)? = state.wait(until: { !$0.jobs.isEmpty || $0.closed }, waking: .none) { state, _ in
                state.jobs.isEmpty ? nil : state.jobs.removeFirst()
            }
            guard let next else { return }
            next()
        }
    }
}

/// Resumes a continuation exactly once, whichever of the work or the timer comes first, and
/// stops the timer when the work wins.
private final class ResumeOnce<T: Sendable>: Sendable {
    private let state: LockedValue<(continuation: CheckedContinuation<T, any Error>?, timer: Task<Void, Never>?)>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        state = LockedValue((continuation, nil))
    }

    func startTimer(_ timer: Task<Void, Never>) {
        let finished = state.withLock { state in
            state.timer = timer
            return state.continuation == nil
        }
        if finished { timer.cancel() }
    }

    func resume(with result: Result<T, any Error>) {
        let (pending, timer) = state.withLock { state in
            defer { state = (nil, nil) }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        pending?.resume(with: result)
    }
}

extension Duration {
    /// Whole milliseconds, at least 0.
    var wholeMilliseconds: Int64 {
        max(0, components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }
}
