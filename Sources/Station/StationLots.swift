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

    func answerLots(_ request: HTTPRequest, route: StationRoute, caller: Caller) throws -> HTTPResponse {
        switch route {
        case .lots:
            if request.method == "POST" {
                try require(caller, .upload)
                return try createLot(request, caller: caller)
            }
            guard request.method == "GET" || request.method == "HEAD" else {
                throw HTTPFailure(
                    405, "method not allowed", "\(request.path) answers GET and POST, not \(request.method.prefix(16)).", headers: [("Allow", "GET, POST")])
            }
            try require(caller, .read)
            return .json(200, .object([("lots", .array(try lotRows(siteID: caller.site.id).map(\.json)))]))
        case .lot(let id):
            try requireMethod(request, "GET")
            try require(caller, .read)
            let lotID = try Station.checkLotName(id, field: "the path's lot")
            return .json(200, LotJSON.status(try lotJourney(lotID, siteID: caller.site.id, at: try lotStatusTime(request)).status))
        case .lotReport(let id, let name):
            try requireMethod(request, "GET")
            try require(caller, .read)
            return try lotReport(request, lotID: try Station.checkLotName(id, field: "the path's lot"), name: name, siteID: caller.site.id)
        case .lotMoves(let id), .lotClose(let id):
            try requireMethod(request, "POST")
            try require(caller, .upload)
            let lotID = try Station.checkLotName(id, field: "the path's lot")
            if case .lotClose = route { return try closeLot(request, lotID: lotID, caller: caller) }
            return try moveLot(request, lotID: lotID, caller: caller)
        default:
            throw Station.noSuchLot
        }
    }

    /// `report.pdf` or `report.html` of a lot (`?at=`, `?lang=`, `?tz=`): the lot report with
    /// each leg's chain of reads, under the record's checkpoint kept up now.
    private func lotReport(_ request: HTTPRequest, lotID: String, name: String, siteID: Int64) throws -> HTTPResponse {
        guard name.hasPrefix("report."), let kind = LotReportFileKind(rawValue: String(name.dropFirst("report.".count))) else {
            throw HTTPFailure.notFound("a lot's reports are report.pdf and report.html.")
        }
        let at = try lotStatusTime(request)
        var language = ReportLanguage.english
        if let code = request.query("lang") {
            guard let named = ReportLanguage(languageTag: code) else {
                throw HTTPFailure.badRequest("lang '\(code.prefix(32))' is unknown; use en, zh-Hans or ja (or a tag of one of them: en-GB, zh, zh-CN, ja-JP).")
            }
            language = named
        }
        let zone = try request.query("tz").map { try reportTimeZone($0) } ?? configuration.timeZone
        let content = try pool.with { store -> LotReportContent in
            let journey = try Station.lotJourney(lotID, siteID: siteID, at: at, in: store)
            if let head = recordHead.withLock({ $0 }) { try store.archive.keepCheckpoint(try head.advance(store)) }
            return try LotReportContent.fromArchive(journey, archive: store.archive, timeZone: zone, language: language)
        }
        let body = try LotReportRendering().render(kind, content)
        return HTTPResponse(status: 200, headers: [("Content-Type", kind.contentType)], body: body)
    }

    /// `?at=`: the time of a lot's status, or `nil` for now (its close, once closed).
    func lotStatusTime(_ request: HTTPRequest) throws -> Date? {
        guard let text = request.query("at") else { return nil }
        guard let time = Station.parseTime(text) else {
            throw HTTPFailure.badRequest("at '\(text.prefix(64))' is not an ISO 8601 time with a zone, e.g. 2026-03-04T22:00:00Z.")
        }
        return time
    }

    /// Who a write of the station is recorded as: the token, by its id.
    static func recordedBy(_ caller: Caller) -> String { caller.actor }

    private func createLot(_ request: HTTPRequest, caller: Caller) throws -> HTTPResponse {
        let body = try JSONBody(
            request, shape: #"{"lot": "L-0302", "product": "clinic-vaccine", "quantity": 200, "note": "TEXT"}"#,
            allowed: ["lot", "product", "quantity", "note"])
        let id = try Station.checkLotName(try body.string("lot"), field: "\"lot\"")
        let productName = try body.string("product")
        guard Product.isValidName(productName) else {
            throw HTTPFailure.badRequest("\"product\" must be a product's name: 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.")
        }
        let quantity = try body.wholeNumber("quantity", in: 0...1_000_000_000)
        let note = try body.text("note", maxLength: 1000, newlines: true) ?? ""
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

    /// The earliest time a move may give; the latest is a day after the request.
    static let earliestMoveTime = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01T00:00:00Z

    private func moveTime(_ body: JSONBody) throws -> Date {
        let text = try body.string("at")
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

    private func moveLot(_ request: HTTPRequest, lotID: String, caller: Caller) throws -> HTTPResponse {
        let body = try JSONBody(
            request, shape: #"{"logger": "LOGGER-ID" or null, "at": "2026-03-02T22:00:00Z", "place": "TEXT"}"#, allowed: ["logger", "at", "place"])
        let logger = try body.nullableString("logger", maxLength: 400)
        let at = try moveTime(body)
        let place = try body.text("place", maxLength: 200, newlines: false) ?? ""
        return try recordLotMove(lotID: lotID, caller: caller, kind: logger == nil ? .none : .logger, logger: logger, at: at, reason: nil, place: place)
    }

    private func closeLot(_ request: HTTPRequest, lotID: String, caller: Caller) throws -> HTTPResponse {
        let reasons = LotMoveRecord.CloseReason.allCases.map(\.rawValue)
        let body = try JSONBody(request, shape: #"{"at": "2026-03-04T22:00:00Z", "reason": "used"}"#, allowed: ["at", "reason"])
        let at = try moveTime(body)
        let text = try body.string("reason")
        guard let reason = LotMoveRecord.CloseReason(rawValue: text) else {
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

/// A JSON object body of the lot routes: each field read with its own type, unknown keys
/// refused, every refusal a 400 naming the field.
struct JSONBody {
    /// A value as written: a whole number apart from a fraction, `true` apart from 1.
    enum Value: Decodable {
        case null, bool(Bool), int(Int64), number(Double), string(String), array, object

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Int64.self) {
                self = .int(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if (try? container.decode([Value].self)) != nil {
                self = .array
            } else {
                _ = try container.decode([String: Value].self)
                self = .object
            }
        }
    }

    let fields: [String: Value]

    /// - Throws: 415 for another content type, 400 for a body that is not a JSON object
    ///   (`shape` says what to send) or holds a key not in `allowed`.
    init(_ request: HTTPRequest, shape: String, allowed: Set<String>) throws {
        try JSONBody.requireJSONType(request)
        guard let fields = try? JSONDecoder().decode([String: Value].self, from: request.body) else {
            throw HTTPFailure.badRequest("the body must be a JSON object \(shape).")
        }
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw HTTPFailure.badRequest("the body has no field \"\(unknown.prefix(64))\"; send \(shape).")
        }
        self.fields = fields
    }

    /// - Throws: 415 when the request says its body is something other than JSON.
    static func requireJSONType(_ request: HTTPRequest) throws {
        if let type = request.header("Content-Type"), !type.lowercased().hasPrefix("application/json") {
            throw UploadRejection(status: 415, "this request's body is JSON (Content-Type: application/json), not \(type.prefix(80)).")
        }
    }

    func string(_ name: String) throws -> String {
        guard case .string(let value)? = fields[name] else { throw HTTPFailure.badRequest("\"\(name)\" must be a string.") }
        return value
    }

    /// A string or `null` (the field must be given).
    func nullableString(_ name: String, maxLength: Int) throws -> String? {
        switch fields[name] {
        case .null?: return nil
        case .string(let value)? where !value.isEmpty && value.unicodeScalars.count <= maxLength: return value
        default: throw HTTPFailure.badRequest("\"\(name)\" must be given: a string of 1 to \(maxLength) characters, or null.")
        }
    }

    /// Text a person wrote, up to `maxLength` characters, without control characters (but
    /// line breaks and tabs where `newlines`); `nil` when not given.
    func text(_ name: String, maxLength: Int, newlines: Bool) throws -> String? {
        guard let value = fields[name] else { return nil }
        let allowed: Set<Unicode.Scalar> = newlines ? ["\n", "\t", "\r"] : []
        guard case .string(let text) = value, text.unicodeScalars.count <= maxLength,
            text.unicodeScalars.allSatisfy({ allowed.contains($0) || !($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) })
        else {
            throw HTTPFailure.badRequest("\"\(name)\" must be text of at most \(maxLength) characters, without control characters.")
        }
        return text
    }

    /// A whole number in `range`; `nil` when not given or `null`.
    func wholeNumber(_ name: String, in range: ClosedRange<Int64>) throws -> Int64? {
        switch fields[name] {
        case nil, .null?: return nil
        case .int(let value)? where range.contains(value): return value
        default: throw HTTPFailure.badRequest("\"\(name)\" must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
    }
}
