import Foundation

/// The radio technology a transport reaches.
public enum TagTechnology: String, Sendable, Codable {
    /// ISO/IEC 14443-A (NFC Forum Type 2 tags: NTAG21x, NTAG I2C).
    case iso14443A = "ISO 14443-A"
    /// ISO/IEC 15693 (NFC Forum Type 5 tags: ICODE, ST25DV/TV, RF430).
    case iso15693 = "ISO 15693"
}

/// What a link between the host and a tag can carry. A phone and a PC/SC reader differ.
public struct LinkLimits: Sendable, Equatable {
    /// Largest command, in bytes, without CRC.
    public var maxCommandBytes: Int
    /// Largest answer, in bytes, without CRC (for Type 5 including the response flags byte).
    public var maxResponseBytes: Int
    /// Command codes the link can carry. `nil` means any raw command is passed through;
    /// a set means only these (for example a storage-card reader that offers READ BINARY
    /// only, translated from READ / READ_SINGLE_BLOCK by the transport).
    public var supportedCommands: Set<UInt8>?

    public init(maxCommandBytes: Int, maxResponseBytes: Int, supportedCommands: Set<UInt8>? = nil) {
        self.maxCommandBytes = maxCommandBytes
        self.maxResponseBytes = maxResponseBytes
        self.supportedCommands = supportedCommands
    }

    /// True when the link passes the command with this code.
    public func carries(_ commandCode: UInt8) -> Bool {
        supportedCommands?.contains(commandCode) ?? true
    }
}

/// Why a single tag command did not get an answer.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer within the per-command timeout.
    case timeout
    /// The tag left the field (or the reader lost it).
    case tagRemoved
    /// The link refused the command (too long, or a command it cannot carry).
    case unsupported(String)
    /// Any other failure of the link, with the reader's own words.
    case linkFailure(String)

    public var description: String {
        switch self {
        case .timeout: return "the tag did not answer in time"
        case .tagRemoved: return "the tag was removed from the reader"
        case .unsupported(let detail): return "the reader cannot send this command: \(detail)"
        case .linkFailure(let detail): return "the reader failed: \(detail)"
        }
    }
}

/// Sends one raw tag command and returns the tag's answer.
///
/// Commands and answers are the tag's own frames without CRC (the link adds and checks it):
/// for Type 2 e.g. `3A 04 0F` (FAST_READ) → 48 bytes, or a 1-byte NAK; for Type 5 the
/// request flags, command code and parameters → the response flags and data. Core NFC,
/// PC/SC readers, dumps and virtual tags all sit behind this protocol.
public protocol TagTransport: Sendable {
    var technology: TagTechnology { get }
    var limits: LinkLimits { get }
    /// The tag's UID as the anticollision saw it (Type 5: LSB first as on the air), if known.
    var uid: Data? { get }
    /// Sends `command` and waits at most `timeout` for the answer.
    /// - Throws: `TransportError`.
    func send(_ command: Data, timeout: Duration) async throws -> Data
}
