import Foundation

/// A record of unknown type (TNF 5): a payload whose type the writer did not state. Records
/// with the reserved TNF 7 are read as unknown, as NDEF 1.0 asks.
public struct UnknownRecord: Sendable, Equatable, Hashable {
    public var payload: Data

    public init(payload: Data) {
        self.payload = payload
    }

    /// The TNF 5 record carrying this payload.
    public var record: NDEFRecord { NDEFRecord(tnf: .unknown, payload: payload) }
}
