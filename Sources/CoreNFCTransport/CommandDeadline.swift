import Foundation
import NDEF
import NFCTags

/// Runs one Core NFC call and gives up after `timeout`.
///
/// Core NFC calls cannot be cancelled, so a structured task group would wait for the late
/// answer anyway; here the first of "answer" and "deadline" resumes the caller and the
/// other outcome is dropped. Errors are mapped to `TransportError`.
func runWithDeadline<T: Sendable>(_ timeout: Duration,
                                  _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    let gate = OnceGate<T>()
    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
        gate.install(continuation)
        let work = Task {
            do {
                gate.finish(.success(try await operation()))
            } catch {
                gate.finish(.failure(mapToTransportError(error)))
            }
        }
        Task {
            try? await Task.sleep(for: timeout)
            if gate.finish(.failure(TransportError.timeout)) { work.cancel() }
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
