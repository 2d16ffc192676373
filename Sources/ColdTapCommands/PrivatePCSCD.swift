import ColdChain
import Foundation
import LoggerFormats
import NFCTags
import PCSC

#if canImport(Glibc)
    import Glibc
#endif

/// A pcscd with vpcd in private network and mount namespaces, and `coldtap emulate` as its
/// card: vpcd's port (bound to all addresses) is reachable from nowhere else, and the private
/// /run keeps it apart from any other pcscd on the host.
final class PrivatePCSCD: @unchecked Sendable {
    private let daemon: Process
    private let card: Process
    private static let pcscdPath = "/usr/sbin/pcscd"
    private static let vpcdDriver = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"

    private init(daemon: Process, card: Process) {
        self.daemon = daemon
        self.card = card
    }

    /// Why a private pcscd cannot be started here, or `nil` when it can.
    static func cannotStart() -> String? {
        guard geteuid() == 0 else { return "starting pcscd in a private network namespace needs root" }
        guard FileManager.default.isExecutableFile(atPath: pcscdPath) else { return "pcscd is not installed" }
        guard FileManager.default.fileExists(atPath: vpcdDriver) else { return "vsmartcard-vpcd is not installed" }
        guard tool("unshare") != nil, tool("nsenter") != nil, tool("ip") != nil else {
            return "unshare, nsenter or ip is missing"
        }
        guard selfExecutable() != nil else { return "this program cannot start itself as the card" }
        if ProcessInfo.processInfo.environment["PCSCLITE_CSOCK_NAME"] != nil {
            return "PCSCLITE_CSOCK_NAME points at another pcscd"
        }
        return nil
    }

    /// Starts pcscd and the card, and points this process's PC/SC client at that pcscd.
    /// - Throws: `CommandError(.unavailable)` when either does not come up.
    static func start(logger: DemoLogger) throws -> PrivatePCSCD {
        try start(cardArguments: ["--logger", logger.rawValue])
    }

    /// As `start(logger:)`, the card being `coldtap emulate` with these arguments.
    static func start(cardArguments: [String]) throws -> PrivatePCSCD {
        guard let unshare = tool("unshare"), let nsenter = tool("nsenter"), let me = selfExecutable() else {
            throw CommandError(.unavailable, "unshare, nsenter or coldtap itself cannot be found.")
        }
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: unshare)
        daemon.arguments = [
            "--net", "--mount", "--", "sh", "-c",
            "mount -t tmpfs -o mode=0755 tmpfs /run && ip link set lo up && exec \(pcscdPath) --foreground",
        ]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        do { try daemon.run() } catch {
            throw CommandError(.unavailable, "pcscd could not be started: \(error.localizedDescription).")
        }
        let socket = "/proc/\(daemon.processIdentifier)/root/run/pcscd/pcscd.comm"
        // The PC/SC client library reads this once, before its first connection.
        setenv("PCSCLITE_CSOCK_NAME", socket, 1)
        let card = Process()
        card.executableURL = URL(fileURLWithPath: nsenter)
        card.arguments = ["--net=/proc/\(daemon.processIdentifier)/ns/net", me, "emulate"] + cardArguments
        card.standardOutput = FileHandle.nullDevice
        card.standardError = FileHandle.nullDevice
        let stack = PrivatePCSCD(daemon: daemon, card: card)
        TerminationSignals.shared.stopOnSignal(stack)
        guard waitFor({ FileManager.default.fileExists(atPath: socket) || !daemon.isRunning }), daemon.isRunning else {
            stack.stop()
            throw CommandError(.unavailable, "pcscd did not start; run '\(pcscdPath) --foreground --debug' to see why.")
        }
        // vpcd listens a moment after pcscd's socket appears; its port is visible in pcscd's namespace.
        guard waitFor({ DemoPath.listening(port: DemoPath.vpcdPort, process: String(daemon.processIdentifier)) }) else {
            stack.stop()
            throw CommandError(.unavailable, "pcscd started without vpcd listening on port \(DemoPath.vpcdPort); check /etc/reader.conf.d/vpcd.")
        }
        do { try card.run() } catch {
            stack.stop()
            throw CommandError(.unavailable, "the virtual card could not be started: \(error.localizedDescription).")
        }
        return stack
    }

    /// Stops the card and pcscd (SIGTERM, then SIGKILL after 3 s). Safe to call more than once.
    func stop() {
        for process in [card, daemon] where process.isRunning {
            process.terminate()
            if !PrivatePCSCD.waitFor({ !process.isRunning }, seconds: 3) {
                kill(process.processIdentifier, SIGKILL)
            }
        }
        TerminationSignals.shared.forget(self)
    }

    private static func waitFor(_ condition: () -> Bool, seconds: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/sbin:/usr/bin:/sbin:/bin"
        return (path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/bin", "/sbin", "/bin"])
            .map { ($0 as NSString).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// This program, when it is the `coldtap` executable (not a test runner).
    static func selfExecutable() -> String? {
        let path = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        return (path as NSString).lastPathComponent == "coldtap" ? path : nil
    }
}
