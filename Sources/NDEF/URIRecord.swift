import Foundation

/// NFC Forum URI record (RTD-URI 1.0, well-known type `U`).
public struct URIRecord: Sendable, Equatable {
    /// The 36 abbreviations of RTD-URI, indexed by identifier code; codes above 0x23 are
    /// reserved and mean "no prefix".
    public static let prefixes: [String] = [
        "", "http://www.", "https://www.", "http://", "https://", "tel:", "mailto:",
        "ftp://anonymous:anonymous@", "ftp://ftp.", "ftps://", "sftp://", "smb://", "nfs://", "ftp://",
        "dav://", "news:", "telnet://", "imap:", "rtsp://", "urn:", "pop:", "sip:", "sips:", "tftp:",
        "btspp://", "btl2cap://", "btgoep://", "tcpobex://", "irdaobex://", "file://", "urn:epc:id:",
        "urn:epc:tag:", "urn:epc:pat:", "urn:epc:raw:", "urn:epc:", "urn:nfc:",
    ]

    /// The full URI, prefix expanded.
    public var uri: String
    public var identifierCode: UInt8
    /// The URI field as written after the identifier code.
    public var remainder: String

    /// Builds a record choosing the longest matching prefix abbreviation.
    public init(uri: String) {
        var best: (code: Int, length: Int) = (0, 0)
        for (code, prefix) in URIRecord.prefixes.enumerated() where !prefix.isEmpty {
            if uri.hasPrefix(prefix) && prefix.count > best.length { best = (code, prefix.count) }
        }
        self.uri = uri
        self.identifierCode = UInt8(best.code)
        self.remainder = String(uri.dropFirst(best.length))
    }

    /// Decodes a URI record payload.
    /// - Throws: `NDEFError` (offset relative to the payload) for an empty payload or a URI
    ///   field that is not valid UTF-8.
    public init(payload: Data) throws {
        guard let code = payload.first else {
            throw NDEFError(.invalidPayload("a URI record has an empty payload (no identifier code)"), at: 0)
        }
        guard let rest = String(validating: Array(payload.dropFirst()), as: UTF8.self) else {
            throw NDEFError(.invalidPayload("a URI record's URI field is not valid UTF-8"), at: 1)
        }
        let prefix = Int(code) < URIRecord.prefixes.count ? URIRecord.prefixes[Int(code)] : ""
        self.identifierCode = code
        self.remainder = rest
        self.uri = prefix + rest
    }

    /// True when the identifier code is one of the reserved values (0x24–0xFF).
    public var usesReservedCode: Bool { Int(identifierCode) >= URIRecord.prefixes.count }

    public var payload: Data {
        var out = Data([identifierCode])
        out.append(contentsOf: Array(remainder.utf8))
        return out
    }

    public var record: NDEFRecord { NDEFRecord(tnf: .wellKnown, type: "U", payload: payload) }
}

extension NDEFRecord {
    /// The decoded URI view when this is a well-known `U` record with a valid payload.
    public var uriRecord: URIRecord? {
        guard isWellKnown("U") else { return nil }
        return try? URIRecord(payload: payload)
    }
}
