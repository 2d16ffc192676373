import Foundation
import NDEF

/// Everything a read of a tag (or a dump) found.
public struct TagReadResult: Sendable {
    public var technology: TagTechnology
    public var chip: TagChip
    /// UID in display order (Type 5: `E0` first); `nil` when unknown (raw Type 5 dumps).
    public var uid: Data?
    /// The GET_VERSION answer (Type 2) when the tag gave one.
    public var version: Data?
    /// The GET_SYSTEM_INFO answer (Type 5) when the tag gave one.
    public var systemInfo: Type5SystemInfo?
    /// Bytes per page (4) or block.
    public var unitSize: Int
    /// `nil` when the tag is not NDEF-formatted.
    public var capabilityContainer: CapabilityContainer?
    /// Byte range of the data area (TLVs), from the start of tag memory.
    public var dataArea: Range<Int>?
    /// TLVs in memory order, as far as the read went.
    public var tlvs: [TLVEntry]
    /// The value of the first NDEF TLV, reserved bytes skipped; `nil` when there is no
    /// complete NDEF TLV. Empty for a formatted but empty tag.
    public var ndefMessageBytes: Data?
    /// The message when `ndefMessageBytes` parses strictly.
    public var ndefMessage: NDEFMessage?
    /// Why `ndefMessageBytes` did not parse strictly.
    public var ndefError: NDEFError?
    /// Anything odd: CC/chip mismatches, TLVs running past the data area, bytes after the terminator.
    public var anomalies: [TagAnomaly]
    /// Commands sent, retries included.
    public var commandCount: Int
    /// Bytes of tag memory read.
    public var bytesRead: Int
    /// True when the CC forbids writing.
    public var isReadOnly: Bool { capabilityContainer.map { !$0.isWritable } ?? false }

    /// "page 40" / "block 300" for a byte address.
    public func location(of offset: Int) -> String {
        MemoryAddressing(technology: technology, unitSize: unitSize).describe(offset)
    }
}

/// Names byte addresses the way the tag type counts memory.
struct MemoryAddressing {
    var technology: TagTechnology
    var unitSize: Int

    var unitName: String { technology == .iso14443A ? "page" : "block" }

    func describe(_ offset: Int) -> String {
        let size = max(1, unitSize)
        return "\(unitName) \(offset / size), byte \(offset % size)"
    }
}
