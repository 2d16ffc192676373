import Foundation

/// Runs blocking work on a thread of its own, off Swift's cooperative pool (a test that
/// waits for a lock must not starve the other tests).
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try body() })
        }
    }
}
