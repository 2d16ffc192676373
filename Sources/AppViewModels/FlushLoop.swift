/// Runs the upload queue's flushes one at a time without losing one asked for meanwhile.
///
/// A flush takes the queue's list once, so a read queued while a flush runs was not in that
/// list; asking for a flush then used to return at once, and the read waited for the next
/// trigger ("Not uploaded yet" while online). Now that request sets a flag, and the running
/// flush goes round again until a pass ends with no request during it (issue 45 item 5).
@MainActor
public final class FlushLoop {
    private var running = false
    private var again = false

    public init() {}

    /// True while a flush runs.
    public var isRunning: Bool { running }

    /// Runs `pass` now, and again for every request made while it ran; returns at once (the
    /// running flush takes the request) when a flush is already running.
    /// - Returns: how many passes this call ran (0 when it handed its request over).
    @discardableResult
    public func run(_ pass: @MainActor () async -> Void) async -> Int {
        guard !running else {
            again = true
            return 0
        }
        running = true
        defer { running = false }
        var passes = 0
        repeat {
            again = false
            await pass()
            passes += 1
        } while again
        return passes
    }
}
