/// Why a PC/SC operation failed, in terms a user can act on.
public enum PCSCError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The PC/SC daemon (pcscd) is not running or cannot be reached.
    case serviceNotRunning
    /// PC/SC works but no reader is connected.
    case noReaders
    /// No reader matches the name the user gave; the known names are attached.
    case unknownReader(String, available: [String])
    /// Waiting for a tag (or its removal) took longer than the timeout.
    case timeout
    /// There is no tag on the reader.
    case noCard
    /// The tag left the reader while it was being used.
    case cardRemoved
    /// PC/SC is not available in this build (a platform without pcsc-lite or PCSC.framework).
    case unavailable(String)
    /// Any other PC/SC status, with the function that returned it.
    case failure(function: String, code: UInt32)

    public var description: String {
        switch self {
        case .serviceNotRunning:
            return "pcscd is not running; start it (e.g. 'sudo systemctl start pcscd' or '/usr/sbin/pcscd') and try again"
        case .noReaders:
            return "no PC/SC reader is connected; plug in a contactless reader and try again"
        case .unknownReader(let name, let available):
            return "no reader matches '\(name)'; readers: \(available.joined(separator: ", "))"
        case .timeout:
            return "no tag was presented in time"
        case .noCard:
            return "there is no tag on the reader"
        case .cardRemoved:
            return "the tag was removed from the reader"
        case .unavailable(let detail):
            return "PC/SC is not available: \(detail)"
        case .failure(let function, let code):
            return "\(function) failed with PC/SC status 0x\(String(code, radix: 16, uppercase: true))"
        }
    }

    /// Maps a PC/SC return code to an error (`nil` for success).
    /// The codes are compared as 32-bit patterns so that the same table works where `LONG` is
    /// 64-bit and positive (pcsc-lite) and where it is 32-bit and negative (macOS).
    public static func check(_ code: UInt32, _ function: String) -> PCSCError? {
        switch code {
        case 0: return nil
        case PCSCStatus.noService, PCSCStatus.serviceStopped: return .serviceNotRunning
        case PCSCStatus.noReadersAvailable: return .noReaders
        case PCSCStatus.timeout: return .timeout
        case PCSCStatus.noSmartcard: return .noCard
        case PCSCStatus.removedCard, PCSCStatus.notTransacted, PCSCStatus.resetCard,
            PCSCStatus.unpoweredCard, PCSCStatus.unresponsiveCard:
            return .cardRemoved
        default: return .failure(function: function, code: code)
        }
    }
}

/// PC/SC status codes ColdTap distinguishes (winscard.h / pcsclite.h), as 32-bit patterns.
public enum PCSCStatus {
    public static let cancelled: UInt32 = 0x8010_0002
    public static let unknownReader: UInt32 = 0x8010_0009
    public static let timeout: UInt32 = 0x8010_000A
    public static let sharingViolation: UInt32 = 0x8010_000B
    public static let noSmartcard: UInt32 = 0x8010_000C
    public static let notTransacted: UInt32 = 0x8010_0016
    public static let readerUnavailable: UInt32 = 0x8010_0017
    public static let noService: UInt32 = 0x8010_001D
    public static let serviceStopped: UInt32 = 0x8010_001E
    public static let noReadersAvailable: UInt32 = 0x8010_002E
    public static let unresponsiveCard: UInt32 = 0x8010_0066
    public static let unpoweredCard: UInt32 = 0x8010_0067
    public static let resetCard: UInt32 = 0x8010_0068
    public static let removedCard: UInt32 = 0x8010_0069
}
