import Foundation

/// What a tag type's engine does in one session: the commands behind the `NFCForumTag` verbs.
protocol TagEngine {
    init(session: TagExchange)
    func identify() async throws -> TagIdentity
    func read() async throws -> TagReadResult
    func write(_ message: Data) async throws -> TagWriteResult
    func dump() async throws -> MemoryDump
}

/// A tag type whose verbs each run its engine over a fresh session of 4-byte units: the one
/// implementation of `identify`, `readNDEF`, `writeNDEF` and `dump` for Type 2 and Type 5.
protocol EngineBackedTag: NFCForumTag {
    associatedtype Engine: TagEngine
    var transport: any TagTransport { get }
    var options: TagReadOptions { get }
}

extension EngineBackedTag {
    func makeEngine(progress: TagReadProgressHandler?) -> Engine {
        Engine(session: TagExchange(transport: transport, options: options, unitSize: 4, progress: progress))
    }

    /// Which chip it is (and its UID, version or system information).
    /// - Throws: `TagReadError.tagRemoved` when the tag leaves the field.
    public func identify() async throws -> TagIdentity {
        try await makeEngine(progress: nil).identify()
    }

    /// Reads the capability container, the TLVs and the first NDEF message, only as far as
    /// the NDEF TLV needs, in the largest reads the chip and link allow.
    /// - Parameter progress: called with bytes read of the total after each command.
    /// - Throws: `TagReadError` (tag removed with the bytes read so far, refused, link limits).
    public func readNDEF(progress: TagReadProgressHandler? = nil) async throws -> TagReadResult {
        try await makeEngine(progress: progress).read()
    }

    /// Writes `message` (serialized NDEF) as the NDEF TLV, keeping Lock/Memory Control TLVs.
    /// The length goes in last, so a torn write leaves an empty message, never a truncated one.
    /// - Throws: `TagWriteError` (read-only, does not fit with both sizes, not formatted,
    ///   refused, interrupted); `TagReadError` while reading the layout.
    @discardableResult
    public func writeNDEF(_ message: Data) async throws -> TagWriteResult {
        try await makeEngine(progress: nil).write(message)
    }

    /// Reads every readable unit (known chips) or the units up to the end of the data area
    /// (generic tags) into a memory image.
    /// - Throws: `TagReadError`.
    public func dump() async throws -> MemoryDump {
        try await makeEngine(progress: nil).dump()
    }
}

extension Type2Engine: TagEngine {}

extension Type5Engine: TagEngine {
    func dump() async throws -> MemoryDump { try await dump(afterRead: false) }
}
