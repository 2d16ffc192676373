import ColdTapBase
import Foundation
import NFCTags

/// One command in flight per tag. A Core NFC call that passed its deadline cannot be
/// cancelled and may still be with the tag; sending the next command (or a retry) then would
/// put two on the air. Until the late call has called back, the tag is treated as lost.
final class CommandInFlight: Sendable {
    private let pending = LockedValue(false)

    /// Marks a command as sent; `false` while an earlier one has not called back.
    func begin() -> Bool {
        pending.withLock { busy in
            if busy { return false }
            busy = true
            return true
        }
    }

    /// The command called back (in time or late).
    func end() { pending.exchange(false) }

    var isBusy: Bool { pending.current }
}

/// Runs one Core NFC call and gives up after `timeout`.
///
/// Core NFC calls cannot be cancelled, so a structured task group would wait for the late
/// answer anyway; here the first of "answer" and "deadline" resumes the caller and the
/// other outcome is dropped. Errors are mapped to `TransportError`. With `inFlight`, a call
/// made while an earlier one is still out (it passed its deadline and has not called back)
/// is not sent: it fails as `tagRemoved`, so that the session polls for the tag again.
/// With `mapErrors` false the operation's own errors pass through unchanged (the session
/// controller tells Core NFC's session errors apart).
/// The deadline's timer is cancelled as soon as the call answers, so a fast command leaves no
/// sleeping task behind; `timerEnded` (tests) is called when the timer task ends either way.
func runWithDeadline<T: Sendable>(
    _ timeout: Duration, inFlight: CommandInFlight? = nil, mapErrors: Bool = true,
    timerEnded: (@Sendable () -> Void)? = nil,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    if let inFlight, !inFlight.begin() { throw TransportError.tagRemoved }
    let gate = OnceGate<T>()
    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
        gate.install(continuation)
        let timer = Task {
            defer { timerEnded?() }
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            // The call itself is left to call back (Core NFC cannot cancel it); `inFlight`
            // stays busy until it does.
            gate.finish(.failure(TransportError.timeout))
        }
        Task {
            do {
                let answer = try await operation()
                inFlight?.end()
                timer.cancel()
                gate.finish(.success(answer))
            } catch {
                inFlight?.end()
                timer.cancel()
                gate.finish(.failure(mapErrors ? mapToTransportError(error) : error))
            }
        }
    }
}

/// Converts anything a link throws into the `TransportError` the planner understands.
func mapToTransportError(_ error: Error) -> Error {
    if let transport = error as? TransportError { return transport }
    if let failure = error as? CoreNFCFailure { return failure.transportError }
    return TransportError.linkFailure(String(describing: error))
}

/// Resumes a continuation exactly once, whichever side comes first.
final class OnceGate<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, Error>?
        var pending: Result<T, Error>?
        var done = false
    }
    private let state = LockedValue(State())

    func install(_ continuation: CheckedContinuation<T, Error>) {
        let pending = state.withLock { state -> Result<T, Error>? in
            if let pending = state.pending { return pending }
            state.continuation = continuation
            return nil
        }
        if let pending { continuation.resume(with: pending) }
    }

    /// Returns true when this call was the first to finish.
    @discardableResult
    func finish(_ result: Result<T, Error>) -> Bool {
        let (first, waiting) = state.withLock { state -> (Bool, CheckedContinuation<T, Error>?) in
            guard !state.done else { return (false, nil) }
            state.done = true
            guard let continuation = state.continuation else {
                state.pending = result
                return (true, nil)
            }
            state.continuation = nil
            return (true, continuation)
        }
        waiting?.resume(with: result)
        return first
    }
}
