import Foundation
import NDEF

/// An NFC Forum Type 2 tag (NTAG21x, NTAG I2C plus, or any tag that speaks READ/WRITE)
/// behind a transport: the `NFCForumTag` verbs over Type 2 commands.
public struct Type2Tag: NFCForumTag {
    public static let technology = TagTechnology.iso14443A
    public let transport: any TagTransport
    public var options: TagReadOptions

    public init(transport: any TagTransport, options: TagReadOptions = TagReadOptions()) {
        self.transport = transport
        self.options = options
    }

    /// Identifies the chip with GET_VERSION; a tag that does not answer it is a generic Type 2 tag.
    /// - Throws: `TagReadError.tagRemoved` when the tag leaves the field.
    public func identify() async throws -> TagIdentity {
        let engine = Type2Engine(session: TagSession(transport: transport, options: options, unitSize: 4, progress: nil))
        return try await engine.identify()
    }

    /// Reads the capability container, the TLVs and the first NDEF message, only as far as
    /// the NDEF TLV needs, in the largest FAST_READ ranges the chip and link allow.
    /// - Parameter progress: called with bytes read of the total after each command.
    /// - Throws: `TagReadError` (tag removed with the bytes read so far, refused, link limits).
    public func readNDEF(progress: TagReadProgressHandler? = nil) async throws -> TagReadResult {
        let engine = Type2Engine(session: TagSession(transport: transport, options: options, unitSize: 4, progress: progress))
        return try await engine.read()
    }

    /// Writes `message` (serialized NDEF) as the NDEF TLV with WRITE, keeping Lock/Memory
    /// Control TLVs. The length is written as 0 first and set last, so a torn write leaves
    /// an empty message, never a truncated one.
    /// - Throws: `TagWriteError.readOnly`, `.doesNotFit` (both sizes), `.notFormatted`,
    ///   `.refused`, `.interrupted`; `TagReadError` while reading the layout.
    @discardableResult
    public func writeNDEF(_ message: Data) async throws -> TagWriteResult {
        let engine = Type2Engine(session: TagSession(transport: transport, options: options, unitSize: 4, progress: nil))
        return try await engine.write(message)
    }

    /// Reads every readable page (known chips) or the pages up to the end of the data area
    /// (generic tags) into a memory image.
    /// - Throws: `TagReadError`.
    public func dump() async throws -> MemoryDump {
        let engine = Type2Engine(session: TagSession(transport: transport, options: options, unitSize: 4, progress: nil))
        return try await engine.dump()
    }
}
