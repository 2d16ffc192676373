import Foundation

/// One entry point for reading any supported tag: the `NFCForumTag` type that speaks the
/// transport's technology does the work.
public enum TagReader {
    /// The tag types ColdTap knows, one per technology.
    public static let tagTypes: [any NFCForumTag.Type] = [Type2Tag.self, Type5Tag.self]

    /// The tag behind `transport`, as the type for its technology.
    public static func tag(_ transport: any TagTransport, options: TagReadOptions = TagReadOptions()) -> any NFCForumTag {
        let type = tagTypes.first { $0.technology == transport.technology } ?? Type2Tag.self
        return type.init(transport: transport, options: options)
    }

    /// Identifies the tag and reads its capability container, TLVs and NDEF message.
    /// - Parameters:
    ///   - transport: a live tag, a `VirtualTag` or a `DumpTransport`.
    ///   - options: strategy, retries, timeout, resume data.
    ///   - progress: bytes read of the total, after each command that brought data.
    /// - Throws: `TagReadError` (`.tagRemoved` says how much was read; nothing partial is
    ///   returned as a complete message).
    public static func read(
        from transport: any TagTransport, options: TagReadOptions = TagReadOptions(),
        progress: TagReadProgressHandler? = nil
    ) async throws -> TagReadResult {
        try await tag(transport, options: options).readNDEF(progress: progress)
    }

    /// Writes a serialized NDEF message to the tag.
    /// - Throws: `TagWriteError` or `TagReadError`.
    @discardableResult
    public static func write(
        _ message: Data, to transport: any TagTransport,
        options: TagReadOptions = TagReadOptions()
    ) async throws -> TagWriteResult {
        try await tag(transport, options: options).writeNDEF(message)
    }

    /// Reads the NDEF message and, when `wantsMemory` says so after seeing it, the whole
    /// memory: on a Type 5 tag in the same session (nothing read twice), on a Type 2 tag by a
    /// second pass.
    /// - Throws: `TagReadError`.
    public static func readNDEFThenMemory(
        from transport: any TagTransport, options: TagReadOptions = TagReadOptions(),
        progress: TagReadProgressHandler? = nil,
        wantsMemory: (TagReadResult) -> Bool
    ) async throws -> (TagReadResult, MemoryDump?) {
        if transport.technology == .iso15693 {
            return try await Type5Tag(transport: transport, options: options).readNDEFThenMemory(progress: progress, wantsMemory: wantsMemory)
        }
        let result = try await read(from: transport, options: options, progress: progress)
        guard wantsMemory(result) else { return (result, nil) }
        return (result, try await dump(transport, options: options))
    }

    /// Reads the whole memory into an image.
    /// - Throws: `TagReadError`.
    public static func dump(_ transport: any TagTransport, options: TagReadOptions = TagReadOptions()) async throws -> MemoryDump {
        try await tag(transport, options: options).dump()
    }
}
