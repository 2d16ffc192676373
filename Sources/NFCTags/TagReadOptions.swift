import ColdTapBase
import Foundation

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

    public init(
        strategy: Strategy = .fewestRoundTrips, scope: Scope = .ndefMessage, maxAttempts: Int = 3,
        commandTimeout: Duration = .milliseconds(100), addressed: Bool = false, resume: PartialRead? = nil,
        learnedLimits: LearnedReadLimits? = nil
    ) {
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
