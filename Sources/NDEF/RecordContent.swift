import Foundation

/// What a record holds, decoded by the typed view for its TNF and type.
public enum NDEFRecordContent: Sendable, Equatable, Hashable {
    /// TNF 0.
    case empty
    /// Well-known `T`.
    case text(TextRecord)
    /// Well-known `U`.
    case uri(URIRecord)
    /// Well-known `Sp`.
    case smartPoster(SmartPosterRecord)
    /// A well-known type this library has no view for (e.g. `Hs`); the type name is given.
    case otherWellKnown(String)
    /// TNF 2.
    case mime(MIMERecord)
    /// TNF 3.
    case absoluteURI(AbsoluteURIRecord)
    /// TNF 4.
    case external(ExternalRecord)
    /// TNF 5 (and TNF 6/7 records read leniently).
    case unknown(UnknownRecord)

    /// A short name for the kind of record: `Text`, `URI`, `Smart Poster`, `MIME`, ...
    public var kindName: String {
        switch self {
        case .empty: return "Empty"
        case .text: return "Text"
        case .uri: return "URI"
        case .smartPoster: return "Smart Poster"
        case .otherWellKnown: return "Well-known"
        case .mime: return "MIME"
        case .absoluteURI: return "Absolute URI"
        case .external: return "External"
        case .unknown: return "Unknown"
        }
    }
}

extension NDEFRecord {
    /// Decodes the record with the typed view for its TNF and type.
    /// - Returns: the content and, in lenient mode, what was recovered from (offsets relative
    ///   to the payload; type-name problems at offset 0).
    /// - Throws: `NDEFError` in strict mode on any violation of the record-type
    ///   specification, and in lenient mode only for a Smart Poster whose nested message has
    ///   no record at all.
    public func decodedContent(mode: NDEFParsingMode = .strict) throws -> (content: NDEFRecordContent, warnings: [NDEFWarning]) {
        var diagnostics = Diagnostics(mode: mode)
        switch tnf {
        case .unchanged:
            try diagnostics.violation(
                .chunkViolation("a record has TNF 6 (unchanged) outside a chunked record"), at: 0,
                recovery: "it is read as an unknown-type record")
        case .reserved:
            try diagnostics.violation(.reservedTNF, at: 0, recovery: "it is read as an unknown-type record")
        default:
            try type.withUnsafeBytes { typeBytes in
                try RecordTypeChecks.checkType(tnf: tnf, type: typeBytes, typeOffset: 0, diagnostics: &diagnostics)
            }
        }
        let content: NDEFRecordContent
        switch tnf {
        case .empty:
            if !type.isEmpty || !id.isEmpty || !payload.isEmpty {
                try diagnostics.violation(
                    .tnfContradiction("an empty record (TNF 0) has a type, ID or payload"), at: 0,
                    recovery: "they are ignored")
            }
            content = .empty
        case .wellKnown:
            if isWellKnown(TextRecord.wellKnownType) {
                content = .text(try TextRecord.decode(payload, &diagnostics))
            } else if isWellKnown(URIRecord.wellKnownType) {
                content = .uri(try URIRecord.decode(payload, &diagnostics))
            } else if isWellKnown(SmartPosterRecord.wellKnownType) {
                content = .smartPoster(try SmartPosterRecord.decode(payload, &diagnostics))
            } else {
                content = .otherWellKnown(typeName)
            }
        case .media: content = .mime(MIMERecord(mimeType: typeName, data: payload))
        case .absoluteURI: content = .absoluteURI(AbsoluteURIRecord(uri: typeName, payload: payload))
        case .external:
            let (domain, name) = ExternalRecord.split(typeName)
            content = .external(ExternalRecord(domain: domain, name: name, payload: payload))
        case .unknown, .unchanged, .reserved: content = .unknown(UnknownRecord(payload: payload))
        }
        return (content, diagnostics.warnings)
    }

    /// The lenient decode of this record; nil only for a Smart Poster whose nested message
    /// has no record at all.
    public var content: NDEFRecordContent? {
        try? decodedContent(mode: .lenient).content
    }
}

extension ExternalRecord {
    /// Splits `domain:type` at the first colon (no colon: all of it is the name).
    static func split(_ type: String) -> (String, String) {
        guard let colon = type.firstIndex(of: ":") else { return ("", type) }
        return (String(type[..<colon]), String(type[type.index(after: colon)...]))
    }
}

/// The record-type checks the parser runs on every record (strict: throw; lenient: warn).
enum RecordTypeChecks {
    /// Checks the type name against its TNF's syntax.
    static func checkType(
        tnf: TypeNameFormat, type: UnsafeRawBufferPointer, typeOffset: Int,
        diagnostics: inout Diagnostics
    ) throws {
        guard !type.isEmpty else { return }
        let problem: String?
        switch tnf {
        case .wellKnown: problem = ByteChecks.wellKnownTypeProblem(type)
        case .media: problem = ByteChecks.mediaTypeProblem(type)
        case .absoluteURI: problem = ByteChecks.absoluteURIProblem(type)
        case .external: problem = ByteChecks.externalTypeProblem(type)
        default: problem = nil
        }
        if let problem {
            try diagnostics.violation(.invalidType(problem), absolute: typeOffset, recovery: "it is shown as is")
        }
    }

    /// Checks type and payload of one (reassembled) record. `diagnostics.map` maps payload
    /// offsets to the input.
    static func check(
        tnf: TypeNameFormat, type: UnsafeRawBufferPointer, typeOffset: Int,
        payload: UnsafeRawBufferPointer, payloadData: @autoclosure () -> Data,
        diagnostics: inout Diagnostics
    ) throws {
        try checkType(tnf: tnf, type: type, typeOffset: typeOffset, diagnostics: &diagnostics)
        guard tnf == .wellKnown else { return }
        if TextRecord.wellKnownType.matches(type) {
            try TextRecord.check(payload, &diagnostics)
        } else if URIRecord.wellKnownType.matches(type) {
            try URIRecord.check(payload, &diagnostics)
        } else if SmartPosterRecord.wellKnownType.matches(type) {
            do {
                _ = try SmartPosterRecord.decode(payloadData(), &diagnostics)
            } catch let error as NDEFError where !diagnostics.isStrict {
                diagnostics.warnings.append(
                    NDEFWarning(
                        error.kind, at: error.offset,
                        recovery: "the Smart Poster is shown as raw bytes"))
            }
        }
    }
}
