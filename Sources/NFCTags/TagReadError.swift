import Foundation

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
