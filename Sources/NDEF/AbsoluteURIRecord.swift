import Foundation

/// A record whose type is an absolute URI (TNF 3, RFC 3986), e.g.
/// `http://example.com/schema/v1`; the payload's meaning is defined by that URI.
public struct AbsoluteURIRecord: Sendable, Equatable, Hashable {
    /// The absolute URI that names the payload's type.
    public var uri: String
    public var payload: Data

    public init(uri: String, payload: Data = Data()) {
        self.uri = uri
        self.payload = payload
    }

    /// The TNF 3 record carrying this payload.
    public var record: NDEFRecord { NDEFRecord(tnf: .absoluteURI, type: uri, payload: payload) }
}

extension NDEFRecord {
    /// The absolute-URI view when this record has TNF 3.
    public var absoluteURIRecord: AbsoluteURIRecord? {
        guard tnf == .absoluteURI else { return nil }
        return AbsoluteURIRecord(uri: typeName, payload: payload)
    }
}
