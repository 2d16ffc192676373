import Foundation

/// One TLV block found in the data area.
public struct TLVEntry: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case null, lockControl, memoryControl, ndef, proprietary, terminator
        case unknown(UInt8)

        public var name: String {
            switch self {
            case .null: return "NULL"
            case .lockControl: return "Lock Control"
            case .memoryControl: return "Memory Control"
            case .ndef: return "NDEF Message"
            case .proprietary: return "Proprietary"
            case .terminator: return "Terminator"
            case .unknown(let tag): return String(format: "unknown 0x%02X", tag)
            }
        }

        init(tag: UInt8) {
            switch tag {
            case 0x00: self = .null
            case 0x01: self = .lockControl
            case 0x02: self = .memoryControl
            case 0x03: self = .ndef
            case 0xFD: self = .proprietary
            case 0xFE: self = .terminator
            default: self = .unknown(tag)
            }
        }
    }

    public var kind: Kind
    /// Byte address of the T field, counted from the start of tag memory (page 0 / block 0).
    public var offset: Int
    /// Value length in bytes (0 for NULL and Terminator).
    public var length: Int
    /// Byte address of the first value byte.
    public var valueOffset: Int
    /// The value of a Lock/Memory Control TLV (3 bytes); empty for the others.
    public var controlValue: Data
    /// The bytes a Lock/Memory Control TLV reserves (skipped by the NDEF area).
    public var reservedArea: Range<Int>?
}
