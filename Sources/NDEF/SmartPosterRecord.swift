import Foundation

/// NFC Forum Smart Poster record (Smart Poster RTD 1.0, well-known type `Sp`).
///
/// Its payload is itself an NDEF message: exactly one URI record, any number of Text
/// records as titles (at most one per language), and at most one each of the local types
/// `act` (action), `s` (size of the target in bytes) and `t` (MIME type of the target),
/// plus icons as MIME records of type `image/*` or `video/*`. Other records are ignored.
public struct SmartPosterRecord: Sendable, Equatable, Hashable {
    /// The well-known type name of Smart Poster records.
    public static let wellKnownType = WellKnownType("Sp")
    /// The Smart Poster's local record types: action, size and target type.
    public static let actionType = WellKnownType("act")
    public static let sizeType = WellKnownType("s")
    public static let targetTypeType = WellKnownType("t")

    /// What the reader should do with the URI (`act` record).
    public enum Action: UInt8, Sendable, Equatable, Hashable, CaseIterable {
        /// Do the action (send the SMS, launch the browser, call).
        case exec = 0
        /// Save for later (store the SMS, bookmark the URI).
        case save = 1
        /// Open for editing.
        case edit = 2

        /// `exec`, `save` or `edit`.
        public var name: String {
            switch self {
            case .exec: return "exec"
            case .save: return "save"
            case .edit: return "edit"
            }
        }
    }

    /// An icon: a MIME record of type `image/*` or `video/*`.
    public struct Icon: Sendable, Equatable, Hashable {
        public var mimeType: String
        public var data: Data

        public init(mimeType: String, data: Data) {
            self.mimeType = mimeType
            self.data = data
        }
    }

    /// The URI, prefix expanded (empty only when a lenient decode found no URI record).
    public var uri: String
    /// Titles in the order written; at most one per language (compared case-insensitively).
    public var titles: [TextRecord]
    public var action: Action?
    /// Size of the referenced object in bytes (`s` record).
    public var size: UInt32?
    /// MIME type of the referenced object (`t` record).
    public var targetType: String?
    public var icons: [Icon]

    public init(
        uri: String, titles: [TextRecord] = [], action: Action? = nil, size: UInt32? = nil,
        targetType: String? = nil, icons: [Icon] = []
    ) {
        self.uri = uri
        self.titles = titles
        self.action = action
        self.size = size
        self.targetType = targetType
        self.icons = icons
    }

    /// The title in `language` (case-insensitive), if there is one.
    public func title(for language: String) -> String? {
        titles.first { $0.language.lowercased() == language.lowercased() }?.text
    }

    /// Decodes a Smart Poster payload strictly.
    /// - Throws: `NDEFError` (offsets relative to the payload) when the nested message is
    ///   malformed, has no or several URI records, repeats a title language, or has a
    ///   malformed or repeated action, size or type record.
    public init(payload: Data) throws {
        var warnings: [NDEFWarning] = []
        try self.init(payload: payload, mode: .strict, warnings: &warnings)
    }

    /// Decodes a Smart Poster payload; in lenient mode problems become `warnings`.
    /// - Throws: `NDEFError` (offsets relative to the payload): in strict mode on any
    ///   violation, in lenient mode when the nested message has no record at all.
    public init(payload: Data, mode: NDEFParsingMode, warnings: inout [NDEFWarning]) throws {
        var diagnostics = Diagnostics(mode: mode)
        self = try SmartPosterRecord.decode(payload, &diagnostics)
        warnings.append(contentsOf: diagnostics.warnings)
    }

    /// Smart Posters nested deeper than this are not decoded (bounds recursion on hostile input).
    static let maximumDepth = 4

    static func decode(_ payload: Data, _ diagnostics: inout Diagnostics) throws -> SmartPosterRecord {
        var inner = Diagnostics(mode: diagnostics.mode, map: diagnostics.map)
        inner.depth = diagnostics.depth + 1
        guard inner.depth <= maximumDepth else {
            throw NDEFError(
                .invalidPayload("Smart Posters are nested more than \(maximumDepth) deep"),
                at: diagnostics.map.absolute(0))
        }
        var reader = MessageReader(data: payload, diagnostics: inner, checkingRecordTypes: true, collectingOffsets: true)
        let records = try reader.read()
        diagnostics.warnings.append(contentsOf: reader.diagnostics.warnings)
        let offsets = reader.recordOffsets ?? []

        var poster = SmartPosterRecord(uri: "")
        var sawURI = false
        var sawAction = false, sawSize = false, sawType = false
        var titleLanguages = Set<String>()
        for (index, record) in records.enumerated() {
            let at = index < offsets.count ? offsets[index] : 0
            guard record.tnf == .wellKnown || record.tnf == .media else { continue }
            if record.tnf == .media {
                let type = record.typeName
                if type.lowercased().hasPrefix("image/") || type.lowercased().hasPrefix("video/") {
                    poster.icons.append(Icon(mimeType: type, data: record.payload))
                }
                continue
            }
            var quiet = Diagnostics(mode: .lenient)
            switch SmartPosterRecord.localType(of: record) {
            case .uri?:
                if sawURI {
                    try diagnostics.violation(
                        .invalidPayload("a Smart Poster has more than one URI record"), at: at,
                        recovery: "the first one is used")
                } else {
                    sawURI = true
                    poster.uri = try URIRecord.decode(record.payload, &quiet).uri
                }
            case .title?:
                let title = try TextRecord.decode(record.payload, &quiet)
                if !titleLanguages.insert(title.language.lowercased()).inserted {
                    try diagnostics.violation(
                        .invalidPayload("two Smart Poster titles share the language '\(title.language)'"),
                        at: at, recovery: "the first one is used")
                } else {
                    poster.titles.append(title)
                }
            case .action?:
                if sawAction {
                    try diagnostics.violation(
                        .invalidPayload("a Smart Poster has more than one action record"), at: at,
                        recovery: "the first one is used")
                } else if record.payload.count == 1, let value = record.payload.first, let action = Action(rawValue: value) {
                    sawAction = true
                    poster.action = action
                } else {
                    try diagnostics.violation(
                        .invalidPayload("a Smart Poster action is not one byte of value 0, 1 or 2"),
                        at: at, recovery: "it is ignored")
                }
            case .size?:
                if sawSize {
                    try diagnostics.violation(
                        .invalidPayload("a Smart Poster has more than one size record"), at: at,
                        recovery: "the first one is used")
                } else if record.payload.count == 4 {
                    sawSize = true
                    poster.size = record.payload.reduce(0) { $0 << 8 | UInt32($1) }
                } else {
                    try diagnostics.violation(
                        .invalidPayload("a Smart Poster size record is not 4 bytes"), at: at,
                        recovery: "it is ignored")
                }
            case .targetType?:
                if sawType {
                    try diagnostics.violation(
                        .invalidPayload("a Smart Poster has more than one type record"), at: at,
                        recovery: "the first one is used")
                } else {
                    let problem = record.payload.withUnsafeBytes { ByteChecks.mediaTypeProblem($0) }
                    if problem != nil {
                        try diagnostics.violation(
                            .invalidPayload("a Smart Poster type record is not a MIME type"), at: at,
                            recovery: "it is shown as is")
                    }
                    sawType = true
                    poster.targetType = String(decoding: record.payload, as: UTF8.self)
                }
            case nil:
                continue
            }
        }
        if !sawURI {
            try diagnostics.violation(
                .invalidPayload("a Smart Poster has no URI record"), at: 0,
                recovery: "it is shown without a URI")
        }
        return poster
    }

    /// The records a Smart Poster's nested message gives meaning to.
    enum LocalType {
        case uri, title, action, size, targetType
    }

    /// Which of the Smart Poster's records `record` (well-known) is, by the declared type names.
    static func localType(of record: NDEFRecord) -> LocalType? {
        record.type.withUnsafeBytes { type in
            if URIRecord.wellKnownType.matches(type) { return .uri }
            if TextRecord.wellKnownType.matches(type) { return .title }
            if actionType.matches(type) { return .action }
            if sizeType.matches(type) { return .size }
            if targetTypeType.matches(type) { return .targetType }
            return nil
        }
    }

    /// The nested message: URI, titles, action, size, type, icons in that order.
    public var message: NDEFMessage {
        var records = [URIRecord(uri: uri).record]
        records += titles.map(\.record)
        if let action { records.append(NDEFRecord(wellKnown: Self.actionType, payload: Data([action.rawValue]))) }
        if let size {
            records.append(
                NDEFRecord(
                    wellKnown: Self.sizeType,
                    payload: Data([
                        UInt8(size >> 24), UInt8(size >> 16 & 0xFF),
                        UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF),
                    ])))
        }
        if let targetType { records.append(NDEFRecord(wellKnown: Self.targetTypeType, payload: Data(targetType.utf8))) }
        records += icons.map { NDEFRecord(tnf: .media, type: $0.mimeType, payload: $0.data) }
        return NDEFMessage(records: records)
    }

    /// The record payload (the serialized nested message).
    public var payload: Data { message.serialized() }

    /// The well-known `Sp` record carrying this poster.
    public var record: NDEFRecord { NDEFRecord(wellKnown: Self.wellKnownType, payload: payload) }
}

extension NDEFRecord {
    /// The decoded Smart Poster view when this is a well-known `Sp` record with a valid payload.
    public var smartPosterRecord: SmartPosterRecord? {
        guard isWellKnown(SmartPosterRecord.wellKnownType) else { return nil }
        return try? SmartPosterRecord(payload: payload)
    }
}
