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
    /// The input read as none of the kinds the caller could name: saying which it is may help.
    case nameInputKind
    /// The caller named one kind of input, the bytes are plainly `actual`: name that, or
    /// let the kind be worked out.
    case inputKindContradicted(actual: InputKind)
    /// Taken as the kind the caller named, the input shows nothing; it may be `other`.
    case inputMayBe(InputKind)
    /// The sample times would be estimated from an unknown read time the caller required:
    /// give the read time, or drop the requirement.
    case needsReadTime
    /// The log's times carry no zone (a Berlinger report): the caller must say which zone the
    /// logger's clock ran in; it is never guessed.
    case needsLoggerTimeZone

    /// A kind of input a front end can be told to take a file for.
    public enum InputKind: String, Sendable, Equatable, Hashable, Codable {
        /// A memory dump of an NFC Forum Type 2 tag (pages of 4 bytes from page 0).
        case type2TagDump
        /// A memory dump of an NFC Forum Type 5 tag (blocks from block 0).
        case type5TagDump
    }
}
