import Archive
import ArchiveKit
import ColdChain
import ColdTapBase
import ColdTapKit
import Foundation
import JSONOutput
import TempChart

/// Lots of product and their journeys (docs/stability.md) over the API: a site's lots live in
/// the token's site, as its loggers do; another site's lot, and another site's logger named
/// in a move, are answered exactly as unknown ones. The JSON is ArchiveKit's `LotJSON`, the
/// one schema of `coldtap lot` and the pages.
extension Station {
    /// Anything about a lot that is not the caller's site's: one answer, no name in it.
    static let noSuchLot = HTTPFailure.notFound("this site has no such lot.")

    /// A lot's decision and consumed fraction now, with the lot: a row of the lots list.
    struct LotRow {
        var lot: Lot
        var status: LotStatus
        var closed: Bool

        /// `LotJSON.listed`: the lot with the decision and the consumed fraction computed now.
        var json: JSONValue { LotJSON.listed(lot, status: status) }
    }

    /// The site's lots, each judged now, worst first.
    func lotRows(siteID: Int64) throws -> [LotRow] {
        try pool.with { try RuleBook.judgedLots(site: siteID, archive: $0.archive) }.map { LotRow(lot: $0.lot, status: $0.status, closed: $0.closed) }
    }

    /// The journey of the caller's site's lot `id` as of `at` (its close, else now).
    func lotJourney(_ id: String, siteID: Int64, at: Date?) throws -> LotJourney {
        try pool.with { try Station.lotJourney(id, siteID: siteID, at: at, in: $0) }
    }

    /// The journey on `store`'s connection; an unknown lot is the one 404 of every lot route.
    static func lotJourney(_ id: String, siteID: Int64, at: Date?, in store: StationStore) throws -> LotJourney {
        do {
            return try store.archive.lotJourney(id, siteID: siteID, at: at)
        } catch let error as ArchiveError where error.kind == .notFound {
            throw Station.noSuchLot
        }
    }

    /// A lot's name from a path or a body: `Product.isValidName`.
    static func checkLotName(_ text: String, field: String) throws -> String {
        guard Product.isValidName(text) else {
            throw HTTPFailure.badRequest(
                "\(field) must be a lot's name: 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.")
        }
        return text
    }

    /// `?at=`: the time of a lot's status, or `nil` for now (its close, once closed).
    static func lotStatusTime(_ text: String?) throws -> Date? {
        guard let text else { return nil }
        guard let time = Station.parseTime(text) else {
            throw HTTPFailure.badRequest("at '\(text.prefix(64))' is not an ISO 8601 time with a zone, e.g. 2026-03-04T22:00:00Z.")
        }
        return time
    }

    /// Who a write of the station is recorded as (`Caller.actor`): a device token's writes
    /// are its user's, read from `store` as kept now, with the token and the device.
    static func recordedBy(_ caller: Caller, in store: StationStore) throws -> String {
        let tokenUser = try caller.token?.createdByUser.flatMap { try store.user(id: $0) }
        return caller.actor(tokenUser: tokenUser).text
    }

    /// The earliest time a move may give; the latest is a day after the request.
    static let earliestMoveTime = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01T00:00:00Z
}

extension Station {
    /// Text a person wrote, up to `maxLength` characters, without control characters (but
    /// line breaks and tabs where `newlines`); `nil` when not given.
    static func checkText(_ text: String?, field: String, maxLength: Int, newlines: Bool) throws -> String? {
        guard let text else { return nil }
        let allowed: Set<Unicode.Scalar> = newlines ? ["\n", "\t", "\r"] : []
        guard text.unicodeScalars.count <= maxLength,
            text.unicodeScalars.allSatisfy({ allowed.contains($0) || !($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) })
        else {
            throw HTTPFailure.badRequest("\"\(field)\" must be text of at most \(maxLength) characters, without control characters.")
        }
        return text
    }
}
