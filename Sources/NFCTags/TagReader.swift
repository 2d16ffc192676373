import Foundation

/// One entry point for reading any supported tag: picks `Type2Tag` or `Type5Tag` by the
/// transport's technology.
public enum TagReader {
    /// Identifies the tag and reads its capability container, TLVs and NDEF message.
    /// - Parameters:
    ///   - transport: a live tag, a `VirtualTag` or a `DumpTransport`.
    ///   - options: strategy, retries, timeout, resume data.
    ///   - progress: bytes read of the total, after each command that brought data.
    /// - Throws: `TagReadError` (`.tagRemoved` says how much was read; nothing partial is
    ///   returned as a complete message).
    public static func read(from transport: any TagTransport, options: TagReadOptions = TagReadOptions(),
                            progress: TagReadProgressHandler? = nil) async throws -> TagReadResult {
        switch transport.technology {
        case .iso14443A: return try await Type2Tag(transport: transport, options: options).readNDEF(progress: progress)
        case .iso15693: return try await Type5Tag(transport: transport, options: options).readNDEF(progress: progress)
        }
    }

    /// Writes a serialized NDEF message to the tag.
    /// - Throws: `TagWriteError` or `TagReadError`.
    @discardableResult
    public static func write(_ message: Data, to transport: any TagTransport,
                             options: TagReadOptions = TagReadOptions()) async throws -> TagWriteResult {
        switch transport.technology {
        case .iso14443A: return try await Type2Tag(transport: transport, options: options).writeNDEF(message)
        case .iso15693: return try await Type5Tag(transport: transport, options: options).writeNDEF(message)
        }
    }

    /// Reads the whole memory into an image.
    /// - Throws: `TagReadError`.
    public static func dump(_ transport: any TagTransport, options: TagReadOptions = TagReadOptions()) async throws -> MemoryDump {
        switch transport.technology {
        case .iso14443A: return try await Type2Tag(transport: transport, options: options).dump()
        case .iso15693: return try await Type5Tag(transport: transport, options: options).dump()
        }
    }
}
