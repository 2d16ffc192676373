/// The headers of a station upload (`POST /api/v1/reads`, README "The station"): named once
/// for the station that reads them, the client that sends them (the app, `coldtap push`) and
/// the tests.
public enum UploadHeader {
    /// When the device read the tag: ISO 8601 with a zone.
    public static let readTime = "X-ColdTap-Read-Time"
    /// Where the read was made (an app, a desk reader), as the uploader says.
    public static let source = "X-ColdTap-Source"
    /// The logger a read belongs to, for a log that names none.
    public static let loggerID = "X-ColdTap-Logger-Id"
    /// Where the read time came from when it is an estimate: `file-modification-time` (the
    /// time a dump file was written, sent by `coldtap push` when no read time was given).
    /// Without it, a sent read time is the uploader's own.
    public static let readTimeSource = "X-ColdTap-Read-Time-Source"
    /// The zone a logger's clock ran in, for a read whose times carry none (a Berlinger
    /// report, docs/berlinger.md §7): an IANA name (`Europe/Paris`, `UTC`) or `±HH:MM`.
    public static let loggerTimeZone = "X-ColdTap-Logger-TZ"
}
