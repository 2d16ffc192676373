import Foundation

/// A record whose type is an RFC 2046 media type (TNF 2), e.g. `application/json`.
public struct MIMERecord: Sendable, Equatable, Hashable {
    /// The media type, e.g. `text/plain` or `application/vnd.example+json`.
    public var mimeType: String
    /// The payload, uninterpreted.
    public var data: Data

    public init(mimeType: String, data: Data) {
        self.mimeType = mimeType
        self.data = data
    }

    /// The payload as text, when the media type is textual (`text/*`, JSON, XML) and the
    /// payload is valid UTF-8; nil otherwise.
    public var text: String? {
        let type = mimeType.lowercased()
        let textual =
            type.hasPrefix("text/") || type.hasSuffix("json") || type.hasSuffix("xml")
            || type.contains("+json") || type.contains("+xml")
        guard textual else { return nil }
        // Checked here rather than with `String(validating:as:)`, which needs iOS 18 / macOS 15.
        guard data.withUnsafeBytes({ ByteChecks.firstInvalidUTF8($0) }) == nil else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The TNF 2 record carrying this payload.
    public var record: NDEFRecord { NDEFRecord(tnf: .media, type: mimeType, payload: data) }
}

extension NDEFRecord {
    /// The MIME view when this record has TNF 2 (media type).
    public var mimeRecord: MIMERecord? {
        guard tnf == .media else { return nil }
        return MIMERecord(mimeType: typeName, data: payload)
    }
}
