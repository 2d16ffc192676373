import Foundation

/// The empty record (TNF 0): no type, no ID, no payload. A message of one empty record is
/// how an empty NDEF message is written to a tag.
public struct EmptyRecord: Sendable, Equatable, Hashable {
    public init() {}

    /// The TNF 0 record.
    public var record: NDEFRecord { NDEFRecord(tnf: .empty) }

    /// A message of one empty record (bytes D0 00 00).
    public static var message: NDEFMessage { NDEFMessage(records: [EmptyRecord().record]) }
}
