import Foundation

/// A value that several threads share, reachable only while its lock is held: ColdTap's one
/// lock type. Every access goes through `withLock`, so no path can forget to unlock, and the
/// lock and the state it guards cannot drift apart.
///
/// It lives in ColdTapBase, the lowest target, so that every layer can use it (NFCTags, PCSC,
/// the Core NFC transports, the station, its client and the commands). Built on `NSLock` (every platform and OS
/// version the package supports; `Mutex` from Synchronization needs iOS 18).
public final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock; what `body` changes is kept.
    /// `body` must not call back into the same `LockedValue` (the lock is not recursive).
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value as it is now.
    public var current: Value {
        withLock { $0 }
    }

    /// Replaces the value and returns the one it had.
    @discardableResult
    public func exchange(_ newValue: Value) -> Value {
        withLock { value in
            defer { value = newValue }
            return value
        }
    }
}
