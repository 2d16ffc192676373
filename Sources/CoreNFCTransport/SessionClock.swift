import Foundation

/// The time source of a reader session: the 60-second limit and its warning are measured
/// on it. Tests inject a manual clock.
public protocol SessionClock: Sendable {
    /// Seconds since an arbitrary fixed origin.
    func now() -> Double
    /// Suspends until `now() >= deadline`.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    func sleep(until deadline: Double) async throws
}

/// The monotonic system clock.
public struct SystemSessionClock: SessionClock {
    private let origin = ContinuousClock.now

    public init() {}

    public func now() -> Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    public func sleep(until deadline: Double) async throws {
        let remaining = deadline - now()
        if remaining > 0 {
            try await Task.sleep(for: .milliseconds(Int64((remaining * 1000).rounded(.up))))
        }
    }
}
