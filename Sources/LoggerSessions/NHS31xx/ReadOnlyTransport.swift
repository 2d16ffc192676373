import Foundation
import NFCTags

/// A transport that reads but never writes: every write command is answered as the tag
/// would refuse it (Type 2 WRITE with a NAK, Type 5 writes with the error flag), and
/// reaches the tag never. An NHS31xx read through it runs in automatic mode
/// (docs/nhs31xx.md §4.2) and is left exactly as it was — how the iPhone app's automatic
/// mode fallback is checked on a device (Apps/iOS/README.md).
public struct ReadOnlyTransport: TagTransport {
    public let base: any TagTransport

    public init(_ base: any TagTransport) {
        self.base = base
    }

    public var technology: TagTechnology { base.technology }
    public var limits: LinkLimits { base.limits }
    public var uid: Data? { base.uid }

    /// Type 2 WRITE (A2) and COMPATIBILITY WRITE (A0); Type 5 WRITE_SINGLE_BLOCK (21),
    /// WRITE_MULTIPLE_BLOCKS (24), LOCK_BLOCK (22) and their extended forms (31, 34, 32).
    static func isWrite(_ command: Data, technology: TagTechnology) -> Bool {
        switch technology {
        case .iso14443A:
            guard let code = command.first else { return false }
            return code == 0xA2 || code == 0xA0
        default:
            guard command.count >= 2 else { return false }
            return [0x21, 0x22, 0x24, 0x31, 0x32, 0x34].contains(command[command.startIndex + 1])
        }
    }

    public func send(_ command: Data, timeout: Duration) async throws -> Data {
        guard Self.isWrite(command, technology: technology) else { return try await base.send(command, timeout: timeout) }
        // Type 2: a 4-bit NAK; Type 5: error flag with "block is locked" (0x12).
        return technology == .iso14443A ? Data([0x00]) : Data([0x01, 0x12])
    }
}
