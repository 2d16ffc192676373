import Foundation
import NDEF

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
        return CapabilityContainer(bytes: Data(bytes[0..<4]), offset: 12, magic: 0xE1,
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
        return CapabilityContainer(bytes: Data(bytes[0..<(long ? 8 : 4)]), offset: 0, magic: bytes[0],
                                   majorVersion: Int(bytes[1] >> 6), minorVersion: Int(bytes[1] >> 4 & 0x03),
                                   dataAreaSize: size, readAccess: bytes[1] >> 2 & 0x03,
                                   writeAccess: bytes[1] & 0x03, features: bytes[3])
    }
}

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

/// Something odd about a tag's memory that did not stop the read.
public struct TagAnomaly: Sendable, Equatable, CustomStringConvertible {
    /// Byte address from the start of tag memory, when the anomaly has one.
    public var offset: Int?
    public var message: String

    public init(offset: Int?, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { offset.map { "byte \($0): \(message)" } ?? message }
}

/// Type 5 GET_SYSTEM_INFO answer.
public struct Type5SystemInfo: Sendable, Equatable {
    /// UID in display order (`E0` first).
    public var uid: Data
    /// Data storage format identifier.
    public var dsfid: UInt8?
    /// Application family identifier.
    public var afi: UInt8?
    /// Bytes per block.
    public var blockSize: Int?
    /// Number of blocks.
    public var blockCount: Int?
    /// IC reference (maker-specific chip revision).
    public var icReference: UInt8?

    /// Parses a GET_SYSTEM_INFO answer (response flags included), `nil` when it is an
    /// error answer or shorter than its info flags promise.
    public static func parse(_ answer: [UInt8]) -> Type5SystemInfo? {
        guard answer.count >= 10, answer[0] & 0x01 == 0 else { return nil }
        let infoFlags = answer[1]
        var info = Type5SystemInfo(uid: Data(answer[2..<10].reversed()))
        var index = 10
        func take(_ count: Int) -> [UInt8]? {
            guard index + count <= answer.count else { return nil }
            defer { index += count }
            return Array(answer[index..<(index + count)])
        }
        if infoFlags & 0x01 != 0 { guard let byte = take(1) else { return nil }; info.dsfid = byte[0] }
        if infoFlags & 0x02 != 0 { guard let byte = take(1) else { return nil }; info.afi = byte[0] }
        if infoFlags & 0x04 != 0 {
            if infoFlags & 0x10 != 0 {
                guard let size = take(3) else { return nil }
                info.blockCount = (Int(size[0]) | Int(size[1]) << 8) + 1
                info.blockSize = Int(size[2] & 0x1F) + 1
            } else {
                guard let size = take(2) else { return nil }
                info.blockCount = Int(size[0]) + 1
                info.blockSize = Int(size[1] & 0x1F) + 1
            }
        }
        if infoFlags & 0x08 != 0 { guard let byte = take(1) else { return nil }; info.icReference = byte[0] }
        return info
    }

    public init(uid: Data, dsfid: UInt8? = nil, afi: UInt8? = nil, blockSize: Int? = nil, blockCount: Int? = nil,
                icReference: UInt8? = nil) {
        self.uid = uid
        self.dsfid = dsfid
        self.afi = afi
        self.blockSize = blockSize
        self.blockCount = blockCount
        self.icReference = icReference
    }
}

/// What identification found out about a tag.
public struct TagIdentity: Sendable, Equatable {
    public var chip: TagChip
    /// UID in display order (Type 2: as anticollision gives it; Type 5: `E0` first).
    public var uid: Data?
    /// The GET_VERSION answer (Type 2), when the tag gave one.
    public var version: Data?
    /// The GET_SYSTEM_INFO answer (Type 5), when the tag gave one.
    public var systemInfo: Type5SystemInfo?
}

/// Bytes read so far, for progress bars and Core NFC's alert message.
public struct TagReadProgress: Sendable, Equatable {
    public var bytesRead: Int
    /// Bytes the read needs in all, once the capability container and the NDEF TLV header
    /// are known (before that, the best known bound or `nil`).
    public var totalBytes: Int?

    /// 0...1, when the total is known.
    public var fraction: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(bytesRead) / Double(totalBytes))
    }
}

/// Called after every command that brought new bytes.
public typealias TagReadProgressHandler = @Sendable (TagReadProgress) -> Void

/// The memory pages/blocks a read got before it was interrupted; pass it back in
/// `TagReadOptions.resume` to continue from the last good page or block.
public struct PartialRead: Sendable, Equatable {
    public var technology: TagTechnology
    /// UID (display order) of the tag the bytes came from; a resume on another tag starts over.
    public var uid: Data?
    /// Bytes per page (Type 2: 4) or block (Type 5).
    public var unitSize: Int
    /// Page/block number → its bytes.
    public var units: [Int: Data]

    /// Bytes held.
    public var byteCount: Int { units.values.reduce(0) { $0 + $1.count } }
}

/// How a read is carried out.
public struct TagReadOptions: Sendable {
    public enum Strategy: Sendable, Equatable {
        /// The largest commands chip and link allow (FAST_READ, READ_MULTIPLE_BLOCKS).
        case fewestRoundTrips
        /// What most apps do: READ of 16 bytes (Type 2), READ_SINGLE_BLOCK (Type 5).
        case naive
    }

    public enum Scope: Sendable, Equatable {
        /// Read only as far as the first NDEF TLV needs.
        case ndefMessage
        /// Read and check the whole data area (TLVs after the NDEF TLV, bytes after the
        /// terminator). Dumps use this: their bytes cost no air time.
        case wholeDataArea
    }

    public var strategy: Strategy
    public var scope: Scope
    /// Attempts per command before the read gives up (timeouts, link failures, garbled answers).
    public var maxAttempts: Int
    /// Per-command timeout handed to the transport.
    public var commandTimeout: Duration
    /// Type 5: send addressed requests (UID in every request), as Core NFC does.
    public var addressed: Bool
    /// Continue an interrupted read of the same tag.
    public var resume: PartialRead?
    /// Remembers the largest working READ_MULTIPLE_BLOCKS count per chip across reads.
    public var learnedLimits: LearnedReadLimits?

    public init(strategy: Strategy = .fewestRoundTrips, scope: Scope = .ndefMessage, maxAttempts: Int = 3,
                commandTimeout: Duration = .milliseconds(100), addressed: Bool = false, resume: PartialRead? = nil,
                learnedLimits: LearnedReadLimits? = nil) {
        self.strategy = strategy
        self.scope = scope
        self.maxAttempts = max(1, maxAttempts)
        self.commandTimeout = commandTimeout
        self.addressed = addressed
        self.resume = resume
        self.learnedLimits = learnedLimits
    }
}

/// The largest READ_MULTIPLE_BLOCKS block count that worked, per chip, shared between reads.
public final class LearnedReadLimits: Sendable {
    private let counts = LockedValue<[TagChip: Int]>([:])

    public init() {}

    /// The learned count for `chip`, if any.
    public func blocksPerRead(for chip: TagChip) -> Int? { counts.withLock { $0[chip] } }

    func remember(_ count: Int, for chip: TagChip) { counts.withLock { $0[chip] = count } }
}

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

/// A read that could not finish; `partial` holds what was read.
public struct TagReadInterruption: Sendable, Equatable {
    /// Bytes of tag memory read before the interruption.
    public var bytesRead: Int
    /// Bytes the read needed in all, when known.
    public var bytesNeeded: Int?
    public var commandsSent: Int
    /// Where the read stopped ("page 60", "block 288").
    public var stoppedAt: String
    /// Pass as `TagReadOptions.resume` to continue.
    public var partial: PartialRead

    var amount: String {
        if let bytesNeeded, bytesNeeded > 0 {
            let percent = min(100, bytesRead * 100 / bytesNeeded)
            return "\(bytesRead) of \(bytesNeeded) bytes (\(percent) %)"
        }
        return "\(bytesRead) bytes"
    }
}

/// Why a tag read failed. Nothing partial is ever returned as a complete message.
public enum TagReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The tag left the field before the read finished.
    case tagRemoved(TagReadInterruption)
    /// A command got no usable answer after every retry.
    case noAnswer(command: String, attempts: Int, TagReadInterruption)
    /// The tag answered a read with an error (NAK or an ISO 15693 error code).
    case refused(command: String, location: String, status: String)
    /// The link cannot carry a command the read needs.
    case unsupportedByLink(String)
    /// Tag memory contradicts itself so that reading cannot go on (names the byte address).
    case malformed(String, offset: Int)
    /// The data lies where the read cannot reach (NTAG I2C plus 2k sector 1).
    case outOfReach(String)

    public var description: String {
        switch self {
        case .tagRemoved(let stop):
            return "the tag was removed after \(stop.amount) had been read (stopped at \(stop.stoppedAt)); "
                + "hold the reader still against the tag and read again to resume"
        case .noAnswer(let command, let attempts, let stop):
            return "the tag did not answer \(command) after \(attempts) attempts, with \(stop.amount) read "
                + "(stopped at \(stop.stoppedAt)); move the reader closer and read again to resume"
        case .refused(let command, let location, let status):
            return "the tag refused \(command) at \(location) (\(status))"
        case .unsupportedByLink(let detail):
            return "the reader cannot send a command this tag needs: \(detail)"
        case .malformed(let detail, let offset):
            return "byte \(offset): \(detail)"
        case .outOfReach(let detail):
            return detail
        }
    }
}

/// Why writing an NDEF message failed.
public enum TagWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The capability container or lock bits forbid writing.
    case readOnly(String)
    /// The message (with its TLV header) is larger than the free NDEF area.
    case doesNotFit(messageBytes: Int, capacityBytes: Int)
    /// The tag has no capability container (not NDEF-formatted).
    case notFormatted
    /// The tag answered a write with NAK or an ISO 15693 error.
    case refused(location: String, status: String)
    /// The tag went away mid-write. The NDEF length was written last, so the tag reads as
    /// empty (or keeps its old message) rather than holding a torn one.
    case interrupted(bytesWritten: Int, of: Int)

    public var description: String {
        switch self {
        case .readOnly(let why): return "the tag is read-only (\(why)); use another tag"
        case .doesNotFit(let message, let capacity):
            return "the message is \(message) bytes but the tag holds at most \(capacity) bytes; shorten it or use a larger tag"
        case .notFormatted: return "the tag is not NDEF-formatted (no capability container)"
        case .refused(let location, let status): return "the tag refused the write at \(location) (\(status))"
        case .interrupted(let written, let total):
            return "the tag was removed after \(written) of \(total) bytes were written; the message on it is empty, write again"
        }
    }
}

/// Counters of a finished write.
public struct TagWriteResult: Sendable, Equatable {
    /// Commands sent, the reads before the write and retries included.
    public var commandCount: Int
    /// Bytes programmed (whole pages/blocks; the length page counts twice).
    public var bytesWritten: Int
}
