import ColdChain
import Foundation
import LoggerFormats
import NDEF
import NFCTags
import PCSC
#if canImport(Glibc)
import Glibc
#endif

/// Stops private daemons when the user interrupts the demo.
final class StopOnSignal: Sendable {
    static let shared = StopOnSignal()
    private struct State: @unchecked Sendable {
        var stacks: [ObjectIdentifier: PrivatePCSCD] = [:]
        /// Kept alive while the process runs; only touched under the lock.
        var sources: [any DispatchSourceSignal] = []
    }
    private let state = LockedValue(State())

    func register(_ stack: PrivatePCSCD) {
        state.withLock { state in
            state.stacks[ObjectIdentifier(stack)] = stack
            guard state.sources.isEmpty else { return }
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: DispatchQueue(label: "coldtap.signals"))
                source.setEventHandler { [self] in
                    let pending = self.state.withLock { Array($0.stacks.values) }
                    pending.forEach { $0.stop() }
                    exit(130)
                }
                source.resume()
                state.sources.append(source)
            }
        }
    }

    func unregister(_ stack: PrivatePCSCD) {
        _ = state.withLock { $0.stacks.removeValue(forKey: ObjectIdentifier(stack)) }
    }
}
