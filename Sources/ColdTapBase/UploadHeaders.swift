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
}
