import ColdChain
import Foundation
import LoggerFormats
import NFCTags
import PCSC

#if canImport(Glibc)
    import Glibc
#endif

/// How the demo reaches its virtual logger.
enum DemoPath: Equatable {
    /// A pcscd is running here with vpcd listening: serve the card from this process.
    case systemPCSCD
    /// No usable pcscd, but this process may start one (root, pcscd and vpcd installed).
    case privatePCSCD
    /// Straight to the virtual tag, no PC/SC.
    case inProcess(String)

    static let vpcdReader = "Virtual PCD 00 00"
    static let vpcdPort: UInt16 = 35963

    /// The PC/SC client library fixes its socket path at the first connection, so pcscd is
    /// only asked when vpcd already listens here; otherwise a private pcscd can still be
    /// pointed to with PCSCLITE_CSOCK_NAME.
    static func choose() -> DemoPath {
        if listening(port: vpcdPort) {
            return runningVPCDReaderIsFree()
                ? .systemPCSCD
                : .inProcess("vpcd listens here but pcscd's \(vpcdReader) is not free")
        }
        if let reason = PrivatePCSCD.cannotStart() { return .inProcess(reason) }
        return .privatePCSCD
    }

    /// True when pcscd answers and lists vpcd's reader without a card.
    private static func runningVPCDReaderIsFree() -> Bool {
        guard let context = try? PCSCContext(), let states = try? context.status(of: [vpcdReader]) else { return false }
        return states.first?.cardPresent == false
    }

    /// True when a TCP socket listens on `port` in the network namespace of `process`
    /// (`self` = this process).
    static func listening(port: UInt16, process: String = "self") -> Bool {
        let hexPort = String(format: ":%04X", port)
        for table in ["/proc/\(process)/net/tcp", "/proc/\(process)/net/tcp6"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // local_address is field 1, state field 3 (0A = LISTEN).
                if fields.count > 3, fields[1].hasSuffix(hexPort), fields[3] == "0A" { return true }
            }
        }
        return false
    }
}
