import Foundation

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
