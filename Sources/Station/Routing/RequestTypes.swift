import Archive
import ColdTapKit
import Foundation

// The bodies, forms and queries of the station's routes, each the only keys its route takes
// (Sources/Station/openapi.json says the same for the API). Values are checked further by
// the handlers, which word what a value must be.

// MARK: API bodies

/// `POST /api/v1/loggers/{id}/acknowledgements`.
struct AcknowledgementBody: RequestFields {
    var excursion: String
    var by: String?
    var comment: String?
    var again: Bool?
    var user: String?
    var password: String?

    static let shape =
        "{\"excursion\": \"START-TIME\", \"by\": \"NAME\", \"comment\": \"TEXT\"} (and \"again\": true for a follow-up; once the station has users, \"user\" and \"password\" instead of \"by\")"

    static func rule(for field: String) -> String? {
        field == "excursion" ? "the excursion's start as an ISO 8601 time with a zone" : nil
    }
}

/// `POST /api/v1/lots`.
struct LotBody: RequestFields {
    var lot: String
    var product: String
    var quantity: Int64?
    var note: String?

    static let shape = #"{"lot": "L-0302", "product": "clinic-vaccine", "quantity": 200, "note": "TEXT"}"#

    static func rule(for field: String) -> String? {
        switch field {
        case "quantity": return "a whole number from 0 to 1000000000"
        case "note": return "text of at most 1000 characters, without control characters"
        default: return nil
        }
    }
}

/// `POST /api/v1/lots/{lot}/moves`: `logger` must be given, a name or `null`.
struct LotMoveBody: RequestFields {
    var logger: String?
    var at: String
    var place: String?

    static let shape = #"{"logger": "LOGGER-ID" or null, "at": "2026-03-02T22:00:00Z", "place": "TEXT"}"#

    enum CodingKeys: String, CodingKey { case logger, at, place }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        logger = try container.decode(String?.self, forKey: .logger)
        at = try container.decode(String.self, forKey: .at)
        place = try container.decodeIfPresent(String.self, forKey: .place)
    }

    static func rule(for field: String) -> String? {
        switch field {
        case "logger": return "given: a string of 1 to 400 characters, or null"
        case "place": return "text of at most 200 characters, without control characters"
        default: return nil
        }
    }
}

/// `POST /api/v1/lots/{lot}/close`.
struct LotCloseBody: RequestFields {
    var at: String
    var reason: String

    static let shape = #"{"at": "2026-03-04T22:00:00Z", "reason": "used"}"#
}

/// `POST /api/v1/device-tokens`.
struct DeviceTokenBody: RequestFields {
    var user: String
    var password: String
    var device: String

    static let shape = #"{"user": "NAME", "password": "…", "device": "ward 3 phone"}"#
}

// MARK: API queries

/// `?limit=&cursor=` of a list.
struct PageQuery: RequestFields {
    var limit: String?
    var cursor: String?
    static let shape = "limit, cursor"
}

/// `GET /api/v1/checkpoint?since=`.
struct CheckpointQuery: RequestFields {
    var since: String?
    static let shape = "since"
}

/// `GET /api/v1/loggers/{id}/samples`.
struct SamplesQuery: RequestFields {
    var from: String?
    var to: String?
    var limit: String?
    var cursor: String?
    static let shape = "from, to, limit, cursor"
}

/// `GET /api/v1/loggers/{id}/epcis`.
struct EPCISQuery: RequestFields {
    var from: String?
    var to: String?
    static let shape = "from, to"
}

/// `GET /api/v1/loggers/{id}/report.{kind}`.
struct ReportQueryFields: RequestFields {
    var from: String?
    var to: String?
    var profile: String?
    var lang: String?
    var tz: String?
    static let shape = "from, to, profile, lang, tz"
}

/// `GET /api/v1/lots/{lot}?at=`.
struct LotStatusQuery: RequestFields {
    var at: String?
    static let shape = "at"

    /// The time of the status, or `nil` for now (its close, once closed).
    func time() throws -> Date? { try Station.lotStatusTime(at) }
}

/// `GET /api/v1/lots/{lot}/report.{kind}`.
struct LotReportQuery: RequestFields {
    var at: String?
    var lang: String?
    var tz: String?
    static let shape = "at, lang, tz"
}

// MARK: Pages

/// A page that takes nothing but its language.
struct LanguageQuery: RequestFields {
    var lang: String?
    static let shape = "lang"
}

/// The overview's filters.
struct OverviewFields: RequestFields {
    var verdict: String?
    var review: String?
    var q: String?
    var page: String?
    var lang: String?
    static let shape = "verdict, review, q, page, lang"
}

/// A logger page's period.
struct LoggerPageQuery: RequestFields {
    var period: String?
    var from: String?
    var to: String?
    var lang: String?
    static let shape = "period, from, to, lang"
}

/// A logger page's downloads: the API's report or samples of a period (in the station's
/// zone: the page's, so no `tz`).
struct DownloadQuery: RequestFields {
    var from: String?
    var to: String?
    var lang: String?
    var profile: String?
    static let shape = "from, to, lang, profile"
}

/// The audit trail's filters.
struct AuditQuery: RequestFields {
    var user: String?
    var logger: String?
    var from: String?
    var to: String?
    var lang: String?
    static let shape = "user, logger, from, to, lang"
}

/// The sign-in form: a user's name and password, or before users a site's token.
struct SignInForm: RequestFields {
    var user: String?
    var password: String?
    var token: String?
    static let shape = "user and password, or token"
}

/// The sign-out form (its form token).
struct SignOutForm: RequestFields {
    var form: String?
    static let shape = "form"
}

/// A set-up link's form: the new password, twice.
struct SetupForm: RequestFields {
    var password: String?
    var `repeat`: String?
    static let shape = "password, repeat"
}

/// A form of the logger page: its form token, and the page's query to go back to.
protocol PageForm: RequestFields {
    var form: String? { get }
    var back: String? { get }
}

/// The logger page's acknowledgement form.
struct AcknowledgementForm: PageForm {
    var form: String?
    var back: String?
    var excursion: String?
    var by: String?
    var comment: String?
    var again: Bool?
    var user: String?
    var password: String?
    static let shape = "form, back, excursion, by, comment, again, user, password"
}

/// The logger page's review form.
struct ReviewForm: PageForm {
    var form: String?
    var back: String?
    var from: String?
    var to: String?
    var meaning: String?
    var comment: String?
    var user: String?
    var password: String?
    static let shape = "form, back, from, to, meaning, comment, user, password"
}

// MARK: Path parameters

/// A lot's name in a path: `Product.isValidName`, else 400.
struct LotName: PathParameter {
    var name: String
    init(pathSegment: String) throws { name = try Station.checkLotName(pathSegment, field: "the path's lot") }
}

/// `report.{kind}` of a logger: a kind the API draws, else 404.
struct ReportFile: PathParameter {
    var kind: ReportFileKind
    init(pathSegment: String) throws {
        guard let kind = ReportFileKind(rawValue: pathSegment), kind != .csv else {
            throw HTTPFailure.notFound("reports are report.pdf, report.html, report.png and report.svg.")
        }
        self.kind = kind
    }
}

/// `report.{kind}` of a lot, else 404.
struct LotReportFile: PathParameter {
    var kind: LotReportFileKind
    init(pathSegment: String) throws {
        guard let kind = LotReportFileKind(rawValue: pathSegment) else { throw HTTPFailure.notFound("a lot's reports are report.pdf and report.html.") }
        self.kind = kind
    }
}
