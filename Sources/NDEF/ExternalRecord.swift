import Foundation

/// An NFC Forum external type record (TNF 4, RTD 1.0): an application-defined type named
/// `domain:type`, e.g. `example.com:temp`. Type names compare case-insensitively.
public struct ExternalRecord: Sendable, Equatable, Hashable {
    /// The domain that owns the type, e.g. `example.com`.
    public var domain: String
    /// The type name inside the domain, e.g. `temp`.
    public var name: String
    public var payload: Data

    public init(domain: String, name: String, payload: Data) {
        self.domain = domain
        self.name = name
        self.payload = payload
    }

    /// A record from the full type text `domain:type`.
    /// - Throws: `NDEFError(.invalidType)` at offset 0 when `type` is not `domain:type` in
    ///   visible ASCII with a domain of letters, digits, '.' and '-'.
    public init(type: String, payload: Data) throws {
        let bytes = Array(type.utf8)
        if let problem = bytes.withUnsafeBytes({ ByteChecks.externalTypeProblem($0) }) {
            throw NDEFError(.invalidType(problem), at: 0)
        }
        let parts = type.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        self.init(domain: String(parts[0]), name: parts.count > 1 ? String(parts[1]) : "", payload: payload)
    }

    /// `domain:type`, as written in the record.
    public var typeName: String { domain + ":" + name }

    /// The TNF 4 record carrying this payload.
    public var record: NDEFRecord { NDEFRecord(tnf: .external, type: typeName, payload: payload) }
}

extension NDEFRecord {
    /// The external-type view when this record has TNF 4 and a `domain:type` type.
    public var externalRecord: ExternalRecord? {
        guard tnf == .external else { return nil }
        return try? ExternalRecord(type: typeName, payload: payload)
    }
}
