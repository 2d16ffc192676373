import Foundation

/// An NFC Forum Type 5 tag (ISO 15693: ICODE SLIX/SLIX2, ST25DV/ST25TV, TI RF430, …)
/// behind a transport: the `NFCForumTag` verbs over ISO 15693 commands (`Type5Engine`):
/// identify with GET_SYSTEM_INFO; read the capability container (4 or 8 bytes), the TLVs and
/// the first NDEF message in READ_MULTIPLE_BLOCKS of the largest working count (halved on
/// error, never across a 32-block sector on ST chips), extended commands past block 255,
/// READ_SINGLE_BLOCK when the CC has no MBREAD; write with WRITE_SINGLE_BLOCK, the length last.
public struct Type5Tag: EngineBackedTag {
    public static let technology = TagTechnology.iso15693
    typealias Engine = Type5Engine
    public let transport: any TagTransport
    public var options: TagReadOptions

    public init(transport: any TagTransport, options: TagReadOptions = TagReadOptions()) {
        self.transport = transport
        self.options = options
    }

    /// Reads the NDEF message and, when `wantsMemory` asks for it, then the rest of the
    /// memory in the same session: the blocks the first read brought are not read again.
    /// For loggers that write the tag's memory themselves, whose NDEF lengths lag their data.
    /// - Throws: `TagReadError`.
    public func readNDEFThenMemory(
        progress: TagReadProgressHandler? = nil,
        wantsMemory: (TagReadResult) -> Bool
    ) async throws -> (TagReadResult, MemoryDump?) {
        let engine = makeEngine(progress: progress)
        let result = try await engine.read()
        guard wantsMemory(result) else { return (result, nil) }
        return (result, try await engine.dump(afterRead: true))
    }
}
