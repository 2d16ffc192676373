import ColdTapBase
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One of the site's lots as `GET /api/v1/lots` lists it (docs/stability.md): the lot as
/// kept, with its decision and consumed fraction now.
public struct StationLot: Codable, Sendable, Equatable, Hashable {
    /// The lot's id, e.g. "L-0302".
    public var lot: String
    /// The product's name and the version of its file the lot is judged by.
    public var product: String
    public var productVersion: Int
    /// Hex SHA-256 of that product file.
    public var productSHA256: String
    /// Units in the lot, when given.
    public var quantity: Int?
    public var note: String?
    public var created: Date
    /// Who made the lot, as the station names the caller ("user:olli via token #3 (ward 3 phone)").
    public var createdBy: String
    /// "USABLE", "REVIEW", "DISCARD" or "INCONCLUSIVE" (`nil`: the station gave none).
    public var decision: String?
    /// The consumed fraction of the stability budget (1 = all of it).
    public var consumed: Double?

    public init(
        lot: String, product: String, productVersion: Int = 1, productSHA256: String = "", quantity: Int? = nil, note: String? = nil,
        created: Date, createdBy: String = "", decision: String?, consumed: Double?
    ) {
        self.lot = lot
        self.product = product
        self.productVersion = productVersion
        self.productSHA256 = productSHA256
        self.quantity = quantity
        self.note = note
        self.created = created
        self.createdBy = createdBy
        self.decision = decision
        self.consumed = consumed
    }
}

/// A move as the station recorded it (`POST /api/v1/lots/{lot}/moves`).
public struct StationLotMove: Codable, Sendable, Equatable {
    /// The move's number within its lot (1 for the first).
    public var move: Int
    /// "logger" (the lot travels with `logger`), "none" (nobody logs it) or "close".
    public var kind: String
    public var logger: String?
    /// When the lot moved (as given).
    public var at: Date
    /// Why a lot was closed (`nil` for a move).
    public var reason: String?
    /// Where it went; "" when not given.
    public var place: String
    /// Who recorded it, as the station names the caller.
    public var by: String
    /// When the station recorded it.
    public var recorded: Date
    /// Where it was recorded ("station", "command line", …).
    public var origin: String

    public init(
        move: Int, kind: String, logger: String?, at: Date, reason: String? = nil, place: String = "", by: String = "", recorded: Date,
        origin: String = "station"
    ) {
        self.move = move
        self.kind = kind
        self.logger = logger
        self.at = at
        self.reason = reason
        self.place = place
        self.by = by
        self.recorded = recorded
        self.origin = origin
    }
}

/// A lot's status as `GET /api/v1/lots/{lot}` gives it (ArchiveKit's `LotJSON.status`, the
/// same schema as `coldtap lot status --json`). Seconds are seconds, fractions 1 = all.
public struct StationLotStatus: Codable, Sendable, Equatable {
    /// Time in one of the product's allowance bands, and what the band allows.
    public struct Band: Codable, Sendable, Equatable {
        public var band: String
        public var seconds: Double
        public var allowanceSeconds: Double
    }

    /// A stretch of the journey with one logger (`nil`: nobody logged it).
    public struct Leg: Codable, Sendable, Equatable {
        public var logger: String?
        public var from: Date
        public var to: Date
        public var consumed: Double
        public var unknownSeconds: Double
    }

    /// A valid sample beyond a discard limit.
    public struct DiscardEvent: Codable, Sendable, Equatable {
        public var time: Date
        /// °C.
        public var temperature: Double
        public var rule: String
    }

    public var lot: String
    public var product: String
    public var consumed: Double
    /// "allowances" or "kinetics": which budget decided.
    public var consumedBy: String
    public var bands: [Band]
    public var kineticsConsumed: Double?
    public var unknownSeconds: Double
    public var legs: [Leg]
    public var discardEvents: [DiscardEvent]
    /// "USABLE", "REVIEW", "DISCARD" or "INCONCLUSIVE".
    public var decision: String
    /// English sentences, times in UTC.
    public var reasons: [String]
}

extension StationClient {
    /// The site's lots, in the station's order (worst first).
    /// - Throws: `StationClientError`: `.unreachable`, `.refused` (401/403 for the token, 404
    ///   from a station that keeps no lots), `.unreadableAnswer`.
    public func lots() async throws -> [StationLot] {
        let (data, status) = try await get(try url(segments: ["api", "v1", "lots"]))
        guard status == 200 else { throw Self.refusal(status: status, body: data) }
        return try Self.decode([StationLot].self, from: data)
    }

    /// Records that `lot` was handed over at `at`: to the logger `logger` (its id on the
    /// station), or to someone with no logger when `logger` is `nil` (`"logger": null`).
    ///
    /// Not idempotent: each call that reaches the station records one more move. When the
    /// answer is lost (`.unreachable` after the request may have arrived), sending again may
    /// record the hand-over twice; the lot's moves (its status, `lotStatus(lot:)`) show
    /// whether it was recorded. Nothing here retries.
    /// - Parameter place: where the lot went; left out of the request when `nil` or empty.
    /// - Returns: the move as recorded (201).
    /// - Throws: `StationClientError`: `.unreachable`; `.refused` with 404 for an unknown lot
    ///   or a logger the site does not have (the detail says which), 409 for a closed lot,
    ///   401/403 for the token, 400/422 for a time the station does not take;
    ///   `.unreadableAnswer`.
    public func recordMove(lot: String, logger: String?, at: Date, place: String? = nil) async throws -> StationLotMove {
        var request = URLRequest(url: try url(segments: ["api", "v1", "lots", lot, "moves"]))
        request.httpMethod = "POST"
        request.httpBody = try JSONEncoder().encode(MoveBody(logger: logger, at: at.isoUTCWholeSeconds, place: place.flatMap { $0.isEmpty ? nil : $0 }))
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, status) = try await send(authorized(request))
        guard status == 201 || status == 200 else { throw Self.refusal(status: status, body: data) }
        return try Self.decode(StationLotMove.self, from: data)
    }

    /// The lot's status now: its journey leg by leg, what it consumed, its decision and why.
    /// - Throws: `StationClientError`: `.unreachable`, `.refused` (404 for an unknown lot),
    ///   `.unreadableAnswer`.
    public func lotStatus(lot: String) async throws -> StationLotStatus {
        let (data, status) = try await get(try url(segments: ["api", "v1", "lots", lot]))
        guard status == 200 else { throw Self.refusal(status: status, body: data) }
        return try Self.decode(StationLotStatus.self, from: data)
    }

    /// The body of a move: `logger` is written as `null` when absent (a hand-over to no
    /// logger), `place` is left out.
    struct MoveBody: Encodable {
        var logger: String?
        var at: String
        var place: String?

        enum CodingKeys: String, CodingKey { case logger, at, place }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(logger, forKey: .logger)
            try container.encode(at, forKey: .at)
            try container.encodeIfPresent(place, forKey: .place)
        }
    }

    /// The characters a path segment keeps as they are, as the station's links do: RFC 3986's
    /// unreserved ones, `:` and `@`; every other byte is percent-encoded ("L 03/2" is
    /// `L%2003%2F2`).
    static let pathSegmentCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:@")

    /// `segments` after the station's address, each percent-encoded.
    func url(segments: [String]) throws -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw StationClientError.unreachable("the station's address does not make a URL")
        }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        for segment in segments {
            path += "/" + (segment.addingPercentEncoding(withAllowedCharacters: Self.pathSegmentCharacters) ?? segment)
        }
        components.percentEncodedPath = path
        guard let url = components.url else { throw StationClientError.unreachable("the station's address does not make a URL") }
        return url
    }

    /// The station's error answer (`{"error", "detail"}`) as `.refused`.
    static func refusal(status: Int, body: Data) -> StationClientError {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        return .refused(
            status: status, error: object?["error"] as? String ?? "HTTP \(status)",
            detail: object?["detail"] as? String ?? String(decoding: body.prefix(200), as: UTF8.self))
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISO8601Time.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 time: \(text.prefix(64))")
            }
            return date
        }
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw StationClientError.unreadableAnswer("\(error)")
        }
    }
}
