import Dispatch
import Foundation

/// Thrown by `runBlocking(timeout:_:)` when the work did not finish in time.
struct BlockingTimeout: Error {}

/// Resumes a continuation exactly once, whichever of the work or the timer comes first.
private final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?

    init(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation = continuation
    }

    func resume(with result: Result<T, any Error>) {
        let pending: CheckedContinuation<T, any Error>? = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        pending?.resume(with: result)
    }
}

/// Runs a blocking call (PC/SC, sockets) on a thread of its own, so that it holds neither one
/// of the few cooperative threads nor one of Dispatch's global-queue threads (as many as there
/// are cores: other blocking work there would delay it), and returns its result.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// Like `runBlocking(_:)`, but gives up after `timeout` and throws `BlockingTimeout`. The
/// blocking call itself cannot be interrupted (SCardTransmit to a silent card never returns):
/// it goes on in the background and its result is dropped.
func runBlocking<T: Sendable>(timeout: Duration, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let once = ResumeOnce(continuation)
        Thread { once.resume(with: Result { try body() }) }.start()
        let nanoseconds = max(0, timeout.components.seconds) * 1_000_000_000
            + max(0, timeout.components.attoseconds) / 1_000_000_000
        // A private serial queue gets a thread even when the global queues are busy.
        DispatchQueue(label: "coldtap.blocking-timeout").asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) {
            once.resume(with: .failure(BlockingTimeout()))
        }
    }
}

extension Duration {
    /// Whole milliseconds, at least 0.
    var wholeMilliseconds: Int64 {
        max(0, components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }
}
