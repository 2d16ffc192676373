import Foundation

/// NFC Forum URI record (RTD-URI 1.0, well-known type `U`).
///
/// Payload: one identifier code naming an abbreviated prefix, then the rest of the URI in
/// UTF-8. Codes 0x24–0xFF are reserved and mean "no prefix". A URI field holding a control
/// character (U+0000–U+001F, U+007F) is malformed: RFC 3987 allows none in an IRI.
public struct URIRecord: Sendable, Equatable, Hashable {
    /// The well-known type name of URI records.
    public static let wellKnownType = WellKnownType("U")

    /// The 36 abbreviations of RTD-URI, indexed by identifier code 0x00–0x23.
    public static let prefixes: [String] = [
        "", "http://www.", "https://www.", "http://", "https://", "tel:", "mailto:",
        "ftp://anonymous:anonymous@", "ftp://ftp.", "ftps://", "sftp://", "smb://", "nfs://", "ftp://",
        "dav://", "news:", "telnet://", "imap:", "rtsp://", "urn:", "pop:", "sip:", "sips:", "tftp:",
        "btspp://", "btl2cap://", "btgoep://", "tcpobex://", "irdaobex://", "file://", "urn:epc:id:",
        "urn:epc:tag:", "urn:epc:pat:", "urn:epc:raw:", "urn:epc:", "urn:nfc:",
    ]

    /// The full URI, prefix expanded.
    public var uri: String
    /// The identifier code as written (a reserved code is kept, and expands to nothing).
    public var identifierCode: UInt8
    /// The URI field as written after the identifier code.
    public var remainder: String

    /// Builds a record choosing the longest matching prefix abbreviation.
    public init(uri: String) {
        var best: (code: Int, length: Int) = (0, 0)
        for (code, prefix) in URIRecord.prefixes.enumerated() where !prefix.isEmpty {
            if uri.utf8.starts(with: prefix.utf8) && prefix.utf8.count > best.length {
                best = (code, prefix.utf8.count)
            }
        }
        self.uri = uri
        self.identifierCode = UInt8(best.code)
        self.remainder = String(decoding: uri.utf8.dropFirst(best.length), as: UTF8.self)
    }

    /// Decodes a URI record payload strictly.
    /// - Throws: `NDEFError` (offset relative to the payload) for an empty payload or a URI
    ///   field that is not valid UTF-8 or holds a control character.
    public init(payload: Data) throws {
        var warnings: [NDEFWarning] = []
        try self.init(payload: payload, mode: .strict, warnings: &warnings)
    }

    /// Decodes a URI record payload; in lenient mode problems become `warnings`.
    /// - Throws: `NDEFError` (offset relative to the payload), strict mode only.
    public init(payload: Data, mode: NDEFParsingMode, warnings: inout [NDEFWarning]) throws {
        var diagnostics = Diagnostics(mode: mode)
        self = try URIRecord.decode(payload, &diagnostics)
        warnings.append(contentsOf: diagnostics.warnings)
    }

    static func decode(_ payload: Data, _ diagnostics: inout Diagnostics) throws -> URIRecord {
        try payload.withUnsafeBytes { try check($0, &diagnostics) }
        let code = payload.first ?? 0
        let rest = String(decoding: payload.dropFirst(), as: UTF8.self)
        return URIRecord(identifierCode: code, remainder: rest)
    }

    /// A record with an explicit identifier code (any value; reserved codes expand to nothing).
    public init(identifierCode: UInt8, remainder: String) {
        self.identifierCode = identifierCode
        self.remainder = remainder
        let prefix = Int(identifierCode) < URIRecord.prefixes.count ? URIRecord.prefixes[Int(identifierCode)] : ""
        self.uri = prefix + remainder
    }

    /// True when a strict `check` would find nothing wrong (the strict fast path's test).
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !bytes.isEmpty else { return false }
        return ByteChecks.isCleanUTF8WithoutControls(UnsafeRawBufferPointer(rebasing: bytes[1...]))
    }

    static func check(_ bytes: UnsafeRawBufferPointer, _ diagnostics: inout Diagnostics) throws {
        guard let code = bytes.first else {
            try diagnostics.violation(
                .invalidPayload("a URI record has an empty payload (no identifier code)"), at: 0,
                recovery: "it is shown as an empty URI")
            return
        }
        if Int(code) >= URIRecord.prefixes.count && !diagnostics.isStrict {
            diagnostics.warnings.append(
                NDEFWarning(
                    offset: diagnostics.map.absolute(0),
                    message: String(format: "a URI record uses the reserved identifier code 0x%02X; it is read as no prefix", code)))
        }
        let field = UnsafeRawBufferPointer(rebasing: bytes[1...])
        // Both problems are reported in lenient mode; strict mode throws the earlier one.
        var problems: [(offset: Int, kind: NDEFError.Kind, recovery: String)] = []
        if let bad = ByteChecks.firstInvalidUTF8(field) {
            problems.append(
                (
                    1 + bad, .invalidPayload("a URI record's URI field is not valid UTF-8"),
                    "invalid bytes are shown as U+FFFD"
                ))
        }
        if let control = ByteChecks.firstControlCharacter(field) {
            let detail = String(format: "a URI record's URI field holds the control character U+%04X", field[control])
            problems.append((1 + control, .invalidPayload(detail), "it is kept as written"))
        }
        for problem in problems.sorted(by: { $0.offset < $1.offset }) {
            try diagnostics.violation(problem.kind, at: problem.offset, recovery: problem.recovery)
        }
    }

    /// True when the identifier code is one of the reserved values (0x24–0xFF).
    public var usesReservedCode: Bool { Int(identifierCode) >= URIRecord.prefixes.count }

    /// The record payload: identifier code, then the URI field in UTF-8.
    public var payload: Data {
        var out = Data([identifierCode])
        out.append(contentsOf: Array(remainder.utf8))
        return out
    }

    /// The well-known `U` record carrying this URI.
    public var record: NDEFRecord { NDEFRecord(wellKnown: Self.wellKnownType, payload: payload) }
}

extension NDEFRecord {
    /// The decoded URI view when this is a well-known `U` record with a valid payload.
    public var uriRecord: URIRecord? {
        guard isWellKnown(URIRecord.wellKnownType) else { return nil }
        return try? URIRecord(payload: payload)
    }
}
