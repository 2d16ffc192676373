/// Process exit statuses (DESIGN.md, sysexits-style).
public enum ExitStatus: Int32, Sendable {
    case success = 0
    case failure = 1
    /// The verdict is one that `--fail-on` names (everything was printed and written).
    case verdict = 2
    /// The command line is wrong.
    case usage = 64
    /// The input data is malformed (the message names the byte offset or page).
    case dataError = 65
    /// An input that should be there is not (an archive a reading command was given).
    case noInput = 66
    /// No reader, no tag, pcscd not running.
    case unavailable = 69
    /// The tag went away or failed mid-read.
    case ioError = 74
    /// Worth trying again later: the station could not be reached, the reads wait in the queue.
    case temporaryFailure = 75
    /// The station refused the credentials (a wrong, revoked or expired token, or its scope).
    case noPermission = 77
}

/// An error that ends a command: one clear sentence for stderr and the exit status.
public struct CommandError: Error, Sendable, CustomStringConvertible {
    public var status: ExitStatus
    public var message: String

    public init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    public static func usage(_ message: String) -> CommandError { CommandError(.usage, message) }
    public static func data(_ message: String) -> CommandError { CommandError(.dataError, message) }

    public var description: String { message }
}
