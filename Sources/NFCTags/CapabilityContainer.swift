import Foundation

/// The capability container (CC) of an NDEF-formatted tag: Type 2 at page 3, Type 5 at
/// block 0 (4 bytes, or 8 when byte 2 is 0).
public struct CapabilityContainer: Sendable, Equatable {
    /// The CC bytes as stored (4 or 8).
    public var bytes: Data
    /// Byte address of the CC in tag memory (Type 2: 12; Type 5: 0).
    public var offset: Int
    /// `E1` (Type 2 and Type 5 with 1-byte block numbers) or `E2` (Type 5, 2-byte block numbers).
    public var magic: UInt8
    public var majorVersion: Int
    public var minorVersion: Int
    /// Size of the data area in bytes as the CC declares it.
    public var dataAreaSize: Int
    /// Read access condition (Type 2: high nibble of byte 3; Type 5: bits 3–2 of byte 1); 0 = free.
    public var readAccess: UInt8
    /// Write access condition (Type 2: low nibble of byte 3, 0xF read-only; Type 5: bits 1–0, 3 never).
    public var writeAccess: UInt8
    /// Type 5 feature byte (b0 MBREAD, b3 lock block, b4 special frame); 0 for Type 2.
    public var features: UInt8

    /// True when the CC allows writing without a password or lock.
    public var isWritable: Bool { writeAccess == 0 }
    /// Type 5: the CC says READ_MULTIPLE_BLOCKS is supported.
    public var supportsReadMultiple: Bool { features & 0x01 != 0 }
    /// Type 5: block numbers are two bytes wide (magic `E2`), so the extended commands apply.
    public var usesTwoByteBlockNumbers: Bool { magic == 0xE2 }

    /// Parses a Type 2 CC (4 bytes at page 3), `nil` when the magic is not `E1`.
    public static func type2(_ bytes: [UInt8]) -> CapabilityContainer? {
        guard bytes.count >= 4, bytes[0] == 0xE1 else { return nil }
        return CapabilityContainer(
            bytes: Data(bytes[0..<4]), offset: 12, magic: 0xE1,
            majorVersion: Int(bytes[1] >> 4), minorVersion: Int(bytes[1] & 0x0F),
            dataAreaSize: Int(bytes[2]) * 8, readAccess: bytes[3] >> 4,
            writeAccess: bytes[3] & 0x0F, features: 0)
    }

    /// Parses a Type 5 CC from the first bytes of block 0 (at least 4; 8 for the long form),
    /// `nil` when the magic is not `E1`/`E2` or the long form is cut short.
    public static func type5(_ bytes: [UInt8]) -> CapabilityContainer? {
        guard bytes.count >= 4, bytes[0] == 0xE1 || bytes[0] == 0xE2 else { return nil }
        let long = bytes[2] == 0
        if long && bytes.count < 8 { return nil }
        let size = long ? (Int(bytes[6]) << 8 | Int(bytes[7])) * 8 : Int(bytes[2]) * 8
        return CapabilityContainer(
            bytes: Data(bytes[0..<(long ? 8 : 4)]), offset: 0, magic: bytes[0],
            majorVersion: Int(bytes[1] >> 6), minorVersion: Int(bytes[1] >> 4 & 0x03),
            dataAreaSize: size, readAccess: bytes[1] >> 2 & 0x03,
            writeAccess: bytes[1] & 0x03, features: bytes[3])
    }
}
