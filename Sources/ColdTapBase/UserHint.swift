/// What the caller could supply to get past an error or a doubtful result, as a value:
/// each front end words it its own way (the command line names its options, the iPhone
/// app its settings), so the libraries never speak of command-line flags.
public enum UserHint: Sendable, Equatable, Hashable, Codable {
    /// The data is signed with a secret key the caller did not give (or gave wrongly).
    case needsSecret
    /// The sample interval is unknown (0 or absent): the caller must say what it is.
    case needsInterval
    /// No known layout fits: the caller must name the logger or describe its layout.
    case needsLoggerDescription
    /// The input's kind could not be told from its bytes: the caller must say which of
    /// these it is.
    case wrongInputKind(suggested: [InputKind])

    /// A kind of input a front end can be told to take a file for.
    public enum InputKind: String, Sendable, Equatable, Hashable, Codable {
        /// A memory dump of an NFC Forum Type 2 tag (pages of 4 bytes from page 0).
        case type2TagDump
        /// A memory dump of an NFC Forum Type 5 tag (blocks from block 0).
        case type5TagDump
    }
}
