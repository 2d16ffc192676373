import ColdTapBase
import Foundation

/// How a site names itself and its loggers to the supply chain around it (docs/epcis.md): the
/// URI of the site as a place (a GS1 SGLN, a Digital Link of a GLN, or any URI) and the URI of
/// a logger as a device (a GIAI, or any URI). Each setting is a row of its own, never edited,
/// with who set it and when, and a leaf of the record; the newest per subject holds.
public struct SiteIdentifier: Sendable, Equatable {
    /// What is named: the site as a place, or one of its loggers.
    public enum Subject: Sendable, Equatable, Hashable {
        case location
        case logger(String)

        var stored: String {
            switch self {
            case .location: return "location"
            case .logger(let id): return "logger:" + id
            }
        }

        init(stored: String) {
            self = stored.hasPrefix("logger:") ? .logger(String(stored.dropFirst("logger:".count))) : .location
        }
    }

    public var siteID: Int64
    /// 1, 2, … per site in the order set.
    public var seq: Int64
    public var subject: Subject
    public var uri: String
    public var set: Date
    public var setBy: String

    /// An absolute URI as EPCIS takes one: a scheme (`urn`, `https`, …), then at most 500
    /// printable ASCII characters without spaces. What GS1's schema checks as `format: uri`
    /// is checked again by `make test` on every export.
    public static func isValidURI(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard (3...500).contains(scalars.count), let colon = scalars.firstIndex(of: ":"), colon > 0, colon < scalars.count - 1 else { return false }
        func letter(_ scalar: Unicode.Scalar) -> Bool { (0x41...0x5A).contains(scalar.value) || (0x61...0x7A).contains(scalar.value) }
        func schemeCharacter(_ scalar: Unicode.Scalar) -> Bool {
            letter(scalar) || (0x30...0x39).contains(scalar.value) || "+-.".unicodeScalars.contains(scalar)
        }
        guard letter(scalars[0]), scalars[..<colon].allSatisfy(schemeCharacter) else { return false }
        return scalars.allSatisfy { (0x21...0x7E).contains($0.value) && !"<>\"{}|\\^`".unicodeScalars.contains($0) }
    }
}

struct SiteIdentifierRow {
    enum Column: Int, ArchiveColumns {
        case siteID, seq, subject, uri, set, setBy
        var sqlName: String { ["site_id", "seq", "subject", "uri", "set_ms", "set_by"][rawValue] }
    }

    var identifier: SiteIdentifier

    init(_ identifier: SiteIdentifier) { self.identifier = identifier }

    init(row: any ArchiveRow) {
        identifier = SiteIdentifier(
            siteID: row.int(Column.siteID), seq: row.int(Column.seq), subject: .init(stored: row.text(Column.subject)), uri: row.text(Column.uri),
            set: Date(milliseconds: row.int(Column.set)), setBy: row.text(Column.setBy))
    }
}

extension StationStore {
    /// Names the site, or one of its loggers, by `uri` from now on, kept as a new row and leaf.
    /// - Throws: `ArchiveError(.invalidRead)` for a URI that is not one, or a logger that is
    ///   not the site's.
    @discardableResult
    public func setIdentifier(siteID: Int64, _ subject: SiteIdentifier.Subject, uri: String, by: String, now: Date = Date()) throws -> SiteIdentifier {
        guard SiteIdentifier.isValidURI(uri) else {
            throw ArchiveError(
                .invalidRead, "'\(uri.prefix(80))' is not an absolute URI (e.g. urn:epc:id:sgln:4012345.00005.0 or https://id.gs1.org/414/4012345000054).")
        }
        return try engine.writeTransaction { transaction in
            if case .logger(let loggerID) = subject, try self.siteID(ofLogger: loggerID) != siteID {
                throw ArchiveError(.notFound, "the site has no logger '\(loggerID.prefix(80))'.", hint: .listLoggers(count: nil))
            }
            let seq = (try engine.scalarInt("SELECT MAX(seq) FROM site_identifiers WHERE site_id = $1", [.int(siteID)]) ?? 0) + 1
            let identifier = SiteIdentifier(
                siteID: siteID, seq: seq, subject: subject, uri: uri, set: Date(milliseconds: now.milliseconds), setBy: by)
            try engine.execute(
                "INSERT INTO site_identifiers (\(SiteIdentifierRow.Column.selectList)) VALUES ($1, $2, $3, $4, $5, $6)",
                [.int(siteID), .int(seq), .text(subject.stored), .text(uri), .int(identifier.set.milliseconds), .text(by)])
            try Archive.appendLeaf(.siteIdentifier(identifier), in: transaction)
            return identifier
        }
    }

    /// The URIs a site names itself and its loggers by: the newest setting per subject.
    public func identifiers(siteID: Int64) throws -> [SiteIdentifier.Subject: String] {
        var result: [SiteIdentifier.Subject: String] = [:]
        try engine.query(
            "SELECT \(SiteIdentifierRow.Column.selectList) FROM site_identifiers WHERE site_id = $1 ORDER BY seq", [.int(siteID)]
        ) { row in
            let identifier = SiteIdentifierRow(row: row).identifier
            result[identifier.subject] = identifier.uri
        }
        return result
    }
}

extension RecordLeaf {
    /// A URI a site named itself or one of its loggers by: who set it, when.
    static func siteIdentifier(_ identifier: SiteIdentifier) -> RecordLeaf {
        RecordLeaf(
            .siteIdentifier,
            [
                ("site", text(identifier.siteID)), ("seq", text(identifier.seq)), ("subject", identifier.subject.stored), ("uri", identifier.uri),
                ("set_ms", text(identifier.set.milliseconds)), ("set_by", identifier.setBy),
            ])
    }
}
