import Archive
import ColdChain
import Foundation

/// A lot with its decision and consumed budget judged now: a row of every lots list.
public struct JudgedLot: Sendable {
    public var lot: Lot
    public var status: LotStatus
    /// Whether the lot's journey was closed.
    public var closed: Bool
}

extension RuleBook {
    /// A site's lots, each judged now (docs/stability.md), worst first.
    /// - Parameter siteID: the site's id (0: the lots the command line keeps without a site).
    public static func judgedLots(site siteID: Int64, archive: Archive) throws -> [JudgedLot] {
        try archive.lots(siteID: siteID).map { lot in
            let journey = try archive.lotJourney(lot.id, siteID: siteID)
            return JudgedLot(lot: lot, status: journey.status, closed: journey.moves.contains { $0.kind == .close })
        }.sorted { LotStatus.worstFirst($0.status, $1.status) }
    }
}

/// A hand-over of a lot, or its close, to record.
public struct LotMoveRequest: Sendable {
    public var lotID: String
    /// The lot's site (0: the lots the command line keeps without a site).
    public var siteID: Int64
    public var kind: LotMoveRecord.Kind
    public var loggerID: String?
    public var at: Date
    public var reason: LotMoveRecord.CloseReason?
    public var place: String
    /// Who records it, as the record keeps it (`os:ACCOUNT`, a token).
    public var by: String
    /// Which door it came through ("command line", "station").
    public var origin: String

    public init(
        lotID: String, siteID: Int64, kind: LotMoveRecord.Kind, loggerID: String?, at: Date, reason: LotMoveRecord.CloseReason?, place: String,
        by: String, origin: String
    ) {
        self.lotID = lotID
        self.siteID = siteID
        self.kind = kind
        self.loggerID = loggerID
        self.at = at
        self.reason = reason
        self.place = place
        self.by = by
        self.origin = origin
    }
}

/// Why a move was not recorded, before the archive was asked. Each front end words it.
public enum LotMoveError: Error, Sendable, Equatable {
    /// The site has no such lot.
    case noSuchLot(lotID: String)
    /// The logger named is not the lot's site's (or not kept at all).
    case noSuchLogger(loggerID: String)
}

extension RuleBook {
    /// Records a move of a site's lot: the lot must be the site's, and a logger it travels
    /// with the site's too (a lot kept without a site may travel with any logger kept).
    /// - Throws: `LotMoveError`; `ArchiveError` from the archive: `.conflict` for a closed
    ///   lot, `.invalidRead` for a close before the first move, `.notFound` for a logger not kept.
    /// - Parameter accounts: the archive's station tables when the caller has them open.
    public static func moveLot(_ request: LotMoveRequest, archive: Archive, accounts: StationStore? = nil) throws -> LotMoveRecord {
        guard try archive.lot(request.lotID, siteID: request.siteID) != nil else { throw LotMoveError.noSuchLot(lotID: request.lotID) }
        if let loggerID = request.loggerID, request.siteID != 0 {
            let store = try accounts ?? StationStore(archive: archive)
            guard try store.siteID(ofLogger: loggerID) == request.siteID else { throw LotMoveError.noSuchLogger(loggerID: loggerID) }
        }
        return try archive.recordMove(
            lot: request.lotID, siteID: request.siteID, kind: request.kind, loggerID: request.loggerID, at: request.at, reason: request.reason,
            place: request.place, by: request.by, origin: request.origin)
    }
}
