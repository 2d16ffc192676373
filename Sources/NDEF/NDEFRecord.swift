import Foundation

/// The 3-bit Type Name Format field of an NDEF record header (NFC Forum NDEF 1.0, 3.2.6).
public enum TypeNameFormat: UInt8, Sendable, CaseIterable, Codable {
    /// No type, ID or payload.
    case empty = 0
    /// NFC Forum well-known type (RTD), e.g. `T`, `U`, `Sp`.
    case wellKnown = 1
    /// RFC 2046 media type, e.g. `application/json`.
    case media = 2
    /// RFC 3986 absolute URI naming the type.
    case absoluteURI = 3
    /// NFC Forum external type `domain:type`.
    case external = 4
    /// Payload of unstated type; no type field.
    case unknown = 5
    /// Middle and last chunks of a chunked record only.
    case unchanged = 6
    /// Reserved by NDEF 1.0; read as `unknown`.
    case reserved = 7

    /// How NDEF 1.0 names the value: `empty`, `well-known`, `media type`, ...
    public var name: String {
        switch self {
        case .empty: return "empty"
        case .wellKnown: return "well-known"
        case .media: return "media type"
        case .absoluteURI: return "absolute URI"
        case .external: return "external"
        case .unknown: return "unknown"
        case .unchanged: return "unchanged"
        case .reserved: return "reserved"
        }
    }
}

/// One logical NDEF record. Chunked records are reassembled by the parser, so a record
/// never has TNF `unchanged` once parsed.
///
/// `type`, `id` and `payload` share storage with the parsed input where possible: parsing
/// an unchunked record does not copy its payload. They may be `Data` slices, so index them
/// from their `startIndex`, never from 0.
public struct NDEFRecord: Sendable, Equatable, Hashable {
    /// How `type` is to be read (never `unchanged` or `reserved` after a parse).
    public var tnf: TypeNameFormat
    /// Record type bytes (ASCII for well-known, media, absolute-URI and external types).
    public var type: Data
    /// Record identifier bytes; empty when the record has no ID.
    public var id: Data
    /// The payload bytes, uninterpreted (typed views such as `textRecord` decode them).
    public var payload: Data

    /// A record from its parts; nothing is checked until `NDEFMessage.encoded()`.
    public init(tnf: TypeNameFormat, type: Data = Data(), id: Data = Data(), payload: Data = Data()) {
        self.tnf = tnf
        self.type = type
        self.id = id
        self.payload = payload
    }

    /// Convenience for textual types such as `"T"`, `"U"` or `"application/json"`.
    public init(tnf: TypeNameFormat, type: String, id: Data = Data(), payload: Data = Data()) {
        self.init(tnf: tnf, type: Data(type.utf8), id: id, payload: payload)
    }

    /// The record type as text, as people write it: `T`, `Sp`, `application/json`,
    /// `example.com:temp`. Bytes outside printable ASCII are shown as `\xNN`.
    public var typeName: String {
        var out = ""
        for byte in type {
            if byte >= 0x20 && byte < 0x7F {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += String(format: "\\x%02X", byte)
            }
        }
        return out
    }

    /// True when this is a well-known record of the given type name (for example `"T"`).
    public func isWellKnown(_ name: String) -> Bool {
        tnf == .wellKnown && type.elementsEqual(name.utf8)
    }
}

/// An NDEF message: one or more records, the first carrying MB and the last ME.
public struct NDEFMessage: Sendable, Equatable, Hashable {
    /// The records in order; a valid message has at least one.
    public var records: [NDEFRecord]

    public init(records: [NDEFRecord]) {
        self.records = records
    }
}
