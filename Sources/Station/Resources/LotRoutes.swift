import Archive
import ArchiveKit
import ColdChain
import ColdTapBase
import ColdTapKit
import Foundation
import JSONOutput
import TempChart

/// A site's lots and their journeys.
struct LotRoutes: RouteCollection {
    unowned let station: Station

    func register(in router: inout StationRouter) {
        router.get("/api/v1/lots", .site(.read)) { context in
            _ = try context.request.typedQuery(NoFields.self)
            return .json(200, .object([("lots", .array(try station.lotRows(siteID: context.requireCaller().site.id).map(\.json)))]))
        }
        router.post("/api/v1/lots", .site(.upload)) { context in
            _ = try context.request.typedQuery(NoFields.self)
            return try createLot(context.request.jsonBody(LotBody.self), caller: context.requireCaller())
        }
        router.get("/api/v1/lots/{lot}", .site(.read)) { context in
            let lot = try context.parameters.require("lot", as: LotName.self)
            let query = try context.request.typedQuery(LotStatusQuery.self)
            let journey = try station.lotJourney(lot.name, siteID: context.requireCaller().site.id, at: try query.time())
            return .json(200, LotJSON.status(journey.status))
        }
        router.get("/api/v1/lots/{lot}/report.{kind}", .site(.read), label: "/api/v1/lots/{lot}/report") { context in
            let lot = try context.parameters.require("lot", as: LotName.self)
            let kind = try context.parameters.require("kind", as: LotReportFile.self).kind
            return try lotReport(
                context.request.typedQuery(LotReportQuery.self), lotID: lot.name, kind: kind, siteID: context.requireCaller().site.id)
        }
        router.get("/api/v1/lots/{lot}/epcis", .site(.read)) { context in
            let lot = try context.parameters.require("lot", as: LotName.self)
            _ = try context.request.typedQuery(NoFields.self)
            let site = try context.requireCaller().site
            do {
                return .jsonLD(
                    try station.pool.with { store in
                        let request = EPCISExport.LotRequest(lotID: lot.name, siteID: site.id, names: try EPCISExport.Names.of(site: site, in: store))
                        return try EPCISExport.lotDocument(request, archive: store.archive)
                    })
            } catch let error as ArchiveError where error.kind == .notFound {
                throw Station.noSuchLot
            }
        }
        router.post("/api/v1/lots/{lot}/moves", .site(.upload)) { context in
            let lot = try context.parameters.require("lot", as: LotName.self)
            _ = try context.request.typedQuery(NoFields.self)
            return try moveLot(context.request.jsonBody(LotMoveBody.self), lotID: lot.name, caller: context.requireCaller())
        }
        router.post("/api/v1/lots/{lot}/close", .site(.upload)) { context in
            let lot = try context.parameters.require("lot", as: LotName.self)
            _ = try context.request.typedQuery(NoFields.self)
            return try closeLot(context.request.jsonBody(LotCloseBody.self), lotID: lot.name, caller: context.requireCaller())
        }
    }
}

extension LotRoutes {
    /// `report.pdf` or `report.html` of a lot (`?at=`, `?lang=`, `?tz=`): the lot report with
    /// each leg's chain of reads, under the record's checkpoint kept up now.
    func lotReport(_ query: LotReportQuery, lotID: String, kind: LotReportFileKind, siteID: Int64) throws -> HTTPResponse {
        let at = try Station.lotStatusTime(query.at)
        var language = ReportLanguage.english
        if let code = query.lang {
            guard let named = ReportLanguage(languageTag: code) else {
                throw HTTPFailure.badRequest("lang '\(code.prefix(32))' is unknown; use en, zh-Hans or ja (or a tag of one of them: en-GB, zh, zh-CN, ja-JP).")
            }
            language = named
        }
        let zone = try query.tz.map { try station.reportTimeZone($0) } ?? configuration.timeZone
        let content = try pool.with { store -> LotReportContent in
            let journey = try Station.lotJourney(lotID, siteID: siteID, at: at, in: store)
            if let head = recordHead.withLock({ $0 }) { try store.archive.keepCheckpoint(try head.advance(store)) }
            return try LotReportContent.fromArchive(journey, archive: store.archive, timeZone: zone, language: language)
        }
        let body = try LotReportRendering().render(kind, content)
        return HTTPResponse(status: 200, headers: [("Content-Type", kind.contentType)], body: body)
    }

    func createLot(_ body: LotBody, caller: Caller) throws -> HTTPResponse {
        let id = try Station.checkLotName(body.lot, field: "\"lot\"")
        let productName = body.product
        guard Product.isValidName(productName) else {
            throw HTTPFailure.badRequest("\"product\" must be a product's name: 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.")
        }
        if let quantity = body.quantity, !(0...1_000_000_000).contains(quantity) {
            throw HTTPFailure.badRequest("\"quantity\" must be \(LotBody.rule(for: "quantity") ?? "").")
        }
        let quantity = body.quantity
        let note = try Station.checkText(body.note, field: "note", maxLength: 1000, newlines: true) ?? ""
        let siteID = caller.site.id
        let lot = try pool.with { store -> Lot in
            let lot: Lot
            do {
                lot = try store.archive.addLot(id, siteID: siteID, productName: productName, quantity: quantity, note: note, by: Station.recordedBy(caller))
            } catch let error as ArchiveError where error.kind == .notFound && error.hint == .listProducts {
                throw HTTPFailure(
                    422, "unknown product",
                    "this station knows no product '\(productName)'; a product is one of the built-in ones or one its operator registered.")
            } catch let error as ArchiveError where error.kind == .conflict {
                throw HTTPFailure(409, "lot exists", "this site has a lot '\(id)' already; record its moves instead.")
            }
            signRecord(store)
            return lot
        }
        return .json(201, LotJSON.lot(lot), headers: [("Location", "/api/v1/lots/\(Station.pathSegment(lot.id))")])
    }

    private func moveTime(_ text: String) throws -> Date {
        guard let at = Station.parseTime(text) else {
            throw HTTPFailure.badRequest("\"at\" must be an ISO 8601 time with a zone, e.g. 2026-03-02T22:00:00Z.")
        }
        let latest = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 86_400).rounded(.down))
        guard at >= Station.earliestMoveTime, at <= latest else {
            throw HTTPFailure(
                422, "time out of range",
                "\"at\" \(at.isoUTC) is outside the times a move can have happened: from \(Station.earliestMoveTime.isoUTC) to \(latest.isoUTC).")
        }
        return at
    }

    func moveLot(_ body: LotMoveBody, lotID: String, caller: Caller) throws -> HTTPResponse {
        let logger = body.logger
        if let logger, logger.isEmpty || logger.unicodeScalars.count > 400 {
            throw HTTPFailure.badRequest("\"logger\" must be \(LotMoveBody.rule(for: "logger") ?? "").")
        }
        let at = try moveTime(body.at)
        let place = try Station.checkText(body.place, field: "place", maxLength: 200, newlines: false) ?? ""
        return try recordLotMove(lotID: lotID, caller: caller, kind: logger == nil ? .none : .logger, logger: logger, at: at, reason: nil, place: place)
    }

    func closeLot(_ body: LotCloseBody, lotID: String, caller: Caller) throws -> HTTPResponse {
        let reasons = LotMoveRecord.CloseReason.allCases.map(\.rawValue)
        let at = try moveTime(body.at)
        guard let reason = LotMoveRecord.CloseReason(rawValue: body.reason) else {
            throw HTTPFailure.badRequest("\"reason\" must be one of \(reasons.joined(separator: ", ")).")
        }
        return try recordLotMove(lotID: lotID, caller: caller, kind: .close, logger: nil, at: at, reason: reason, place: "")
    }

    /// Keeps one move of the caller's site's lot: the lot and the logger must be the site's
    /// (else the same 404 as unknown ones), and the lot open.
    private func recordLotMove(
        lotID: String, caller: Caller, kind: LotMoveRecord.Kind, logger: String?, at: Date, reason: LotMoveRecord.CloseReason?, place: String
    ) throws -> HTTPResponse {
        let siteID = caller.site.id
        let request = LotMoveRequest(
            lotID: lotID, siteID: siteID, kind: kind, loggerID: logger, at: at, reason: reason, place: place, by: Station.recordedBy(caller),
            origin: "station")
        let move = try pool.with { store -> LotMoveRecord in
            let move: LotMoveRecord
            do {
                move = try RuleBook.moveLot(request, archive: store.archive, accounts: store)
            } catch LotMoveError.noSuchLot {
                throw Station.noSuchLot
            } catch LotMoveError.noSuchLogger {
                throw Station.noSuchLogger
            } catch let error as ArchiveError where error.kind == .conflict {
                throw HTTPFailure(409, "lot closed", error.message)
            } catch let error as ArchiveError where error.kind == .invalidRead {
                throw HTTPFailure(422, "before the journey", error.message)
            } catch let error as ArchiveError where error.kind == .notFound {
                throw logger == nil ? Station.noSuchLot : Station.noSuchLogger
            }
            signRecord(store)
            return move
        }
        return .json(201, LotJSON.move(move))
    }
}
