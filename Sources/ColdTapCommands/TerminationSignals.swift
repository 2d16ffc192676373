import ColdTapBase
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// SIGINT and SIGTERM, caught once for the whole process. `serve` awaits them to stop
/// gracefully; a private pcscd (the demo's) is registered to be stopped first. With nobody
/// waiting, a signal stops the registered daemons and ends the process with status 130.
final class TerminationSignals: Sendable {
    static let shared = TerminationSignals()
    private struct State: @unchecked Sendable {
        var waiters: [CheckedContinuation<String, Never>] = []
        var daemons: [ObjectIdentifier: PrivatePCSCD] = [:]
        /// Kept alive while the process runs; only touched under the lock.
        var sources: [any DispatchSourceSignal] = []
    }
    private let state = LockedValue(State())

    /// Waits for SIGTERM or SIGINT (or `fire`) and returns its name.
    func wait() async -> String {
        installHandlers()
        return await withCheckedContinuation { continuation in
            state.withLock { $0.waiters.append(continuation) }
        }
    }

    /// Wakes everyone waiting, as a signal would (`reason` is what they are told).
    func fire(_ reason: String) {
        let waiting = state.withLock { state in
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiting { waiter.resume(returning: reason) }
    }

    /// Stops `daemon` if the process is interrupted before `forget(_:)`.
    func stopOnSignal(_ daemon: PrivatePCSCD) {
        installHandlers()
        state.withLock { $0.daemons[ObjectIdentifier(daemon)] = daemon }
    }

    func forget(_ daemon: PrivatePCSCD) {
        _ = state.withLock { $0.daemons.removeValue(forKey: ObjectIdentifier(daemon)) }
    }

    private func received(_ name: String) {
        let (daemons, anyoneWaiting) = state.withLock { (Array($0.daemons.values), !$0.waiters.isEmpty) }
        daemons.forEach { $0.stop() }
        if anyoneWaiting { fire(name) } else { exit(130) }
    }

    private func installHandlers() {
        state.withLock { state in
            guard state.sources.isEmpty else { return }
            for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue(label: "coldtap.signals"))
                source.setEventHandler { [weak self] in self?.received(name) }
                source.resume()
                state.sources.append(source)
            }
        }
    }
}
