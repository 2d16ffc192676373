import Foundation

/// State that threads share and wait on: a `LockedValue` whose holders can sleep until the
/// state is what they need. ColdTap's one condition variable, for the thread-based side (the
/// station's handler threads, request deadline, write batches, webhook queue and server);
/// the tag side waits with async/await instead. A change wakes every waiter unless the caller
/// says one (or none) is enough; each waiter looks again at the state, so no wake-up is lost.
/// Built on `NSCondition` (every platform and OS version the package supports).
public final class WaitableValue<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Who a change wakes: every waiter; one (a queue that gained one job, which any waiter
    /// can take: waking them all would only send the others back to sleep); or none (a change
    /// no waiter waits for, such as taking a job).
    public enum Wake: Sendable {
        case all, one, none
    }

    /// Runs `body` with the value under the lock and wakes the waiters (it may have changed
    /// what they wait for). `body` must not call back into the same `WaitableValue`.
    @discardableResult
    public func update<Result>(waking wake: Wake = .all, _ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            notify(wake)
            condition.unlock()
        }
        return try body(&value)
    }

    /// Reads under the lock without waking anyone.
    public func read<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body(value)
    }

    /// Sleeps until `ready` holds for the value or `deadline` passes (`nil`: no deadline),
    /// then runs `body` under the same lock with whether `ready` held, and wakes the waiters.
    @discardableResult
    public func wait<Result>(
        until ready: (Value) -> Bool, deadline: Date? = nil, waking wake: Wake = .all,
        then body: (inout Value, _ ready: Bool) throws -> Result
    ) rethrows -> Result {
        condition.lock()
        defer {
            notify(wake)
            condition.unlock()
        }
        var isReady = ready(value)
        while !isReady {
            if let deadline {
                guard condition.wait(until: deadline) else { break }
            } else {
                condition.wait()
            }
            isReady = ready(value)
        }
        // A change that came with the deadline still counts.
        if !isReady { isReady = ready(value) }
        return try body(&value, isReady)
    }

    /// Called with the lock held.
    private func notify(_ wake: Wake) {
        switch wake {
        case .all: condition.broadcast()
        case .one: condition.signal()
        case .none: break
        }
    }
}

/// The one bridge from a thread that must block (a libmicrohttpd handler thread, a PC/SC
/// worker, a synchronous protocol method) to async code: runs `body` as a detached task and
/// waits for its result. Never call it from a Swift concurrency thread (it would hold one of
/// the cooperative pool's threads while the task needs one).
public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = WaitableValue<Result<T, Error>?>(nil)
    Task.detached {
        let result: Result<T, Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        outcome.update { $0 = result }
    }
    return try outcome.wait(until: { $0 != nil }) { value, _ in value }!.get()
}
