import Foundation

/// An NFC Forum tag platform behind a transport, with the verbs every tag type shares (the
/// shape of nfcpy's tag classes): a reader who knows one type knows them all. `Type2Tag` and
/// `Type5Tag` implement it; `TagReader` picks the type by the transport's technology.
public protocol NFCForumTag: Sendable {
    /// The air interface this tag type speaks.
    static var technology: TagTechnology { get }

    init(transport: any TagTransport, options: TagReadOptions)

    /// Which chip it is (and its UID, version or system information).
    /// - Throws: `TagReadError.tagRemoved` when the tag leaves the field.
    func identify() async throws -> TagIdentity

    /// Reads the capability container, the TLVs and the first NDEF message, only as far as
    /// the NDEF TLV needs.
    /// - Parameter progress: called with bytes read of the total after each command.
    /// - Throws: `TagReadError` (`.tagRemoved` says how much was read).
    func readNDEF(progress: TagReadProgressHandler?) async throws -> TagReadResult

    /// Writes a serialized NDEF message as the NDEF TLV; the length goes in last, so a
    /// torn write leaves an empty message, never a truncated one.
    /// - Throws: `TagWriteError`; `TagReadError` while reading the layout.
    func writeNDEF(_ message: Data) async throws -> TagWriteResult

    /// Reads the whole memory into an image.
    /// - Throws: `TagReadError`.
    func dump() async throws -> MemoryDump

    /// Empties the NDEF area: an NDEF TLV of length 0 (and a terminator) where the message
    /// was, Lock and Memory Control TLVs kept. The capability container must be there.
    /// - Throws: as `writeNDEF`.
    func format() async throws -> TagWriteResult
}

extension NFCForumTag {
    public func format() async throws -> TagWriteResult {
        try await writeNDEF(Data())
    }
}
