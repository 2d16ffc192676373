import ColdTapBase

/// Why a logger's data could not be decoded. `description` is one sentence for the user
/// that says what is wrong and where (byte offset in the record payload, or character
/// offset in a cuplTag URL parameter).
public struct LoggerFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        // cuplTag categories (docs/formats/cupltag.md §8), in the order the decoder meets them.
        /// The `v` parameter names a codec version other than 2.
        case cupltagVersion(Int)
        /// The `v` parameter names a format code other than 1 (T+RH) or 2 (T only).
        case cupltagFormat(Int)
        /// A parameter is not valid URL-safe base64 (`field` names it).
        case base64
        /// `q` is empty: the logger started its encoder in the error state.
        case noCircularBuffer
        /// `q` has no `~` end marker, or more than one.
        case noEndMarker(count: Int)
        /// The URL or circular buffer does not have the shape the format requires.
        case malformed
        // General.
        /// The sample interval is zero or unknown and the caller gave none (hint `.needsInterval`).
        case intervalUnknown
        /// The log's times carry no zone and the caller gave none (hint `.needsLoggerTimeZone`).
        case timeZoneUnknown
        /// The payload is shorter than a field it must hold.
        case truncated(needed: Int, available: Int)
        /// A header value contradicts the payload (e.g. a ring-buffer index past the end).
        case inconsistent
        /// No record in the message is the one this format needs.
        case recordNotFound
        /// The caller named no known format.
        case unknownLogger
        /// A logger descriptor is invalid; `field` names the JSON field.
        case badDescriptor
        /// Auto-detection found no format; one line per format tried and why it refused.
        case noFormatMatched([FormatRefusal])
    }

    public var kind: Kind
    /// Format name (`cupltag`, `generic16`, a descriptor's name, ...), when known.
    public var format: String?
    /// The field concerned: a URL parameter (`q`), a descriptor path (`samples.width`), ...
    public var field: String?
    /// Byte offset in the record payload, or character offset in the URL parameter.
    public var offset: Int?
    /// The explanation, one sentence (without advice on what to give: that is `hint`).
    public var detail: String
    /// What the caller could give to get past the error; each front end words it.
    public var hint: UserHint?

    public init(
        _ kind: Kind, format: String? = nil, field: String? = nil, offset: Int? = nil, _ detail: String,
        hint: UserHint? = nil
    ) {
        self.kind = kind
        self.format = format
        self.field = field
        self.offset = offset
        self.detail = detail
        self.hint = hint
    }

    public var description: String {
        var prefix = ""
        if let format { prefix += "\(format): " }
        if let offset {
            if let field { prefix += "\(field) at offset \(offset): " } else { prefix += "offset \(offset): " }
        } else if let field, kind != .badDescriptor {
            prefix += "\(field): "
        }
        return prefix + detail
    }
}

/// One format that auto-detection tried, and why it did not take the message.
public struct FormatRefusal: Sendable, Equatable, CustomStringConvertible {
    public var format: String
    public var reason: String

    public init(format: String, reason: String) {
        self.format = format
        self.reason = reason
    }

    public var description: String { "\(format): \(reason)" }
}
