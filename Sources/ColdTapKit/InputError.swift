import ColdTapBase
import LoggerFormats

/// Why an input is not a read ColdTap can decode: one sentence in the library's words and,
/// as a value, what the caller could supply to get past it. Each front end adds its own
/// words for the hint (the command line names an option, the station a header or query
/// parameter, the app a setting), so nothing here speaks of any of them.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The bytes are malformed or not a logger's read (the command line's status 65, an HTTP 422).
        case malformed
        /// The caller asked for something the input cannot be (a format that does not fit it): status 64.
        case misuse
    }

    public var kind: Kind
    /// The problem, naming the input and the offset or field, without the closing full stop.
    public var problem: String
    /// What the caller could give to get past it.
    public var hint: UserHint?
    /// For an error of a logger decoder: its kind, which picks the wording that reads best
    /// for the hint after it.
    public var decodingKind: LoggerFormatError.Kind?

    public init(_ kind: Kind, _ problem: String, hint: UserHint? = nil, decodingKind: LoggerFormatError.Kind? = nil) {
        self.kind = kind
        self.problem = problem
        self.hint = hint
        self.decodingKind = decodingKind
    }

    /// A decoder's error, prefixed with `context` (the input's name) when given.
    public init(decoding error: LoggerFormatError, context: String? = nil) {
        self.init(
            error.kind == .unknownLogger ? .misuse : .malformed, (context.map { "\($0): " } ?? "") + error.description,
            hint: error.hint, decodingKind: error.kind)
    }

    /// The problem alone, as a sentence (no hint worded).
    public var description: String { problem + "." }
}
