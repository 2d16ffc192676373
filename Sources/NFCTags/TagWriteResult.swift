import Foundation

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
