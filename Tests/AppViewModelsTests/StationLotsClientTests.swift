import ColdTapBase
import Foundation
import Testing

@testable import AppViewModels
@testable import StationClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Answers requests for the station at one host, as the test says, and keeps what was asked;
/// each test uses a host of its own, so tests running at once never see each other's.
final class StationStub: URLProtocol {
    struct Asked: Sendable {
        var method: String
        /// As sent, percent-escapes kept.
        var path: String
        var headers: [String: String]
        var body: Data
    }

    /// The answer: a status and JSON text, or a failure (no answer).
    enum Answer: Sendable {
        case status(Int, String)
        case failure
    }

    private static let answers = LockedValue([String: Answer]())
    private static let asked = LockedValue([String: [Asked]]())

    /// A client (with `token`) for a new station host answering `answer`, with the path prefix `base`.
    static func client(answering answer: Answer, base: String = "", token: String? = "tok-123") -> (client: StationClient, host: String) {
        let host = "station-\(UUID().uuidString.lowercased()).test"
        answers.withLock { $0[host] = answer }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StationStub.self]
        let url = URL(string: "https://\(host)\(base)")!
        return (StationClient(baseURL: url, token: token, configuration: configuration), host)
    }

    static func requests(to host: String) -> [Asked] { asked.withLock { $0[host] ?? [] } }

    override class func canInit(with request: URLRequest) -> Bool { request.url?.host?.hasSuffix(".test") == true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url, let host = url.host else { return }
        var body = request.httpBody ?? Data()
        if body.isEmpty, let stream = request.httpBodyStream {
            stream.open()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while stream.hasBytesAvailable {
                let count = stream.read(&buffer, maxLength: buffer.count)
                if count <= 0 { break }
                body.append(contentsOf: buffer[0..<count])
            }
            stream.close()
        }
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        let seen = Asked(method: request.httpMethod ?? "GET", path: path, headers: request.allHTTPHeaderFields ?? [:], body: body)
        Self.asked.withLock { $0[host, default: []].append(seen) }
        switch Self.answers.withLock({ $0[host] }) {
        case .status(let status, let text):
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: Data(text.utf8))
            client?.urlProtocolDidFinishLoading(self)
        case .failure, nil:
            client?.urlProtocol(self, didFailWithError: URLError(.notConnectedToInternet))
        }
    }

    override func stopLoading() {}
}

@Suite struct StationLotsClientTests {
    static let lotsJSON = """
        [{"lot": "L-0303", "product": "clinic-vaccine", "productVersion": 2, "productSHA256": "ab12", "quantity": null, "note": "",
          "created": "2026-03-02T07:00:00Z", "createdBy": "token #3", "decision": "DISCARD", "consumed": 1.25},
         {"lot": "L-0302", "product": "clinic-vaccine", "productVersion": 1, "productSHA256": "cd34", "quantity": 200, "note": "box 4",
          "created": "2026-03-02T07:00:00.250Z", "createdBy": "token #3", "decision": "USABLE", "consumed": 0.5}]
        """

    @Test func theLotsAreAskedWithTheTokenAndDecoded() async throws {
        let (client, host) = StationStub.client(answering: .status(200, Self.lotsJSON), base: "/station/")
        let lots = try await client.lots()
        #expect(lots.map(\.lot) == ["L-0303", "L-0302"])
        #expect(lots[0].quantity == nil)
        #expect(lots[0].decision == "DISCARD")
        #expect(lots[0].consumed == 1.25)
        #expect(lots[1].quantity == 200)
        #expect(lots[1].note == "box 4")
        #expect(lots[1].productVersion == 1)
        #expect(lots[1].created == Date(timeIntervalSince1970: 1_772_434_800.25))
        let asked = try #require(StationStub.requests(to: host).first)
        #expect(asked.method == "GET")
        #expect(asked.path == "/station/api/v1/lots")
        #expect(asked.headers["Authorization"] == "Bearer tok-123")
        #expect(asked.headers["Accept"] == "application/json")
    }

    @Test func aMoveIsPostedAsJSONToTheLotsEncodedPath() async throws {
        let answer = """
            {"move": 2, "kind": "logger", "logger": "depot-fridge", "at": "2026-03-02T22:00:00Z", "reason": null, "place": "depot",
             "by": "token #3", "recorded": "2026-03-02T22:00:04Z", "origin": "station"}
            """
        let (client, host) = StationStub.client(answering: .status(201, answer))
        let at = try #require(ISO8601Time.parse("2026-03-02T22:00:00Z"))
        let move = try await client.recordMove(lot: "L 03/2é?#", logger: "depot-fridge", at: at.addingTimeInterval(0.4), place: "depot")
        #expect(
            move
                == StationLotMove(
                    move: 2, kind: "logger", logger: "depot-fridge", at: at, place: "depot", by: "token #3", recorded: at.addingTimeInterval(4)))
        let asked = try #require(StationStub.requests(to: host).first)
        #expect(asked.method == "POST")
        // Unreserved characters, ':' and '@' kept; every other byte escaped, as the station's links.
        #expect(asked.path == "/api/v1/lots/L%2003%2F2%C3%A9%3F%23/moves")
        #expect(asked.headers["Authorization"] == "Bearer tok-123")
        #expect(asked.headers["Content-Type"] == "application/json")
        let body = try #require(try JSONSerialization.jsonObject(with: asked.body) as? [String: Any])
        #expect(body.count == 3)
        #expect(body["logger"] as? String == "depot-fridge")
        #expect(body["at"] as? String == "2026-03-02T22:00:00Z")
        #expect(body["place"] as? String == "depot")
    }

    @Test func aHandOverToNoLoggerSendsNullAndNoPlace() async throws {
        let answer = """
            {"move": 3, "kind": "none", "logger": null, "at": "2026-03-02T20:00:00Z", "reason": null, "place": "",
             "by": "token #3", "recorded": "2026-03-02T20:00:01Z", "origin": "station"}
            """
        let (client, host) = StationStub.client(answering: .status(201, answer))
        let move = try await client.recordMove(lot: "L-0302:a@b~", logger: nil, at: Date(timeIntervalSince1970: 1_772_481_600), place: "")
        #expect(move.kind == "none")
        #expect(move.logger == nil)
        let asked = try #require(StationStub.requests(to: host).first)
        #expect(asked.path == "/api/v1/lots/L-0302:a@b~/moves")
        let body = try #require(try JSONSerialization.jsonObject(with: asked.body) as? [String: Any])
        #expect(Set(body.keys) == ["logger", "at"])
        #expect(body["logger"] is NSNull)
    }

    @Test func aLotsStatusIsDecoded() async throws {
        let answer = """
            {"lot": "L-0302", "product": "clinic-vaccine", "consumed": 0.5, "consumedBy": "allowances",
             "bands": [{"band": "8 °C < T ≤ 25 °C", "seconds": 64800, "allowanceSeconds": 259200}],
             "kineticsConsumed": null, "unknownSeconds": 7200,
             "legs": [{"logger": "depot-fridge", "from": "2026-03-02T07:00:00Z", "to": "2026-03-02T20:00:00Z", "consumed": 0.1, "unknownSeconds": 0},
                      {"logger": null, "from": "2026-03-02T20:00:00Z", "to": "2026-03-02T22:00:00Z", "consumed": 0, "unknownSeconds": 7200}],
             "discardEvents": [{"time": "2026-03-03T01:00:00Z", "temperature": -0.5, "rule": "≤ 0.0 °C"}],
             "decision": "INCONCLUSIVE", "reasons": ["2 h unknown."]}
            """
        let (client, host) = StationStub.client(answering: .status(200, answer))
        let status = try await client.lotStatus(lot: "L-0302")
        #expect(status.decision == "INCONCLUSIVE")
        #expect(status.legs.map(\.logger) == ["depot-fridge", nil])
        #expect(status.legs[1].unknownSeconds == 7200)
        #expect(status.bands.first?.allowanceSeconds == 259_200)
        #expect(status.kineticsConsumed == nil)
        #expect(status.discardEvents.first?.temperature == -0.5)
        #expect(status.reasons == ["2 h unknown."])
        let asked = try #require(StationStub.requests(to: host).first)
        #expect(asked.method == "GET")
        #expect(asked.path == "/api/v1/lots/L-0302")
    }

    @Test func errorsAreTheClientsUsualOnes() async throws {
        let (refusing, _) = StationStub.client(answering: .status(409, #"{"error": "lot closed", "detail": "L-0302 was closed."}"#))
        await #expect(throws: StationClientError.refused(status: 409, error: "lot closed", detail: "L-0302 was closed.")) {
            try await refusing.recordMove(lot: "L-0302", logger: "x", at: t0)
        }
        let (plain, _) = StationStub.client(answering: .status(502, "Bad Gateway"))
        await #expect(throws: StationClientError.refused(status: 502, error: "HTTP 502", detail: "Bad Gateway")) {
            try await plain.lots()
        }
        let (offline, _) = StationStub.client(answering: .failure)
        do {
            _ = try await offline.lotStatus(lot: "L-0302")
            Issue.record("no error")
        } catch let error as StationClientError {
            guard case .unreachable = error else {
                Issue.record("not unreachable: \(error)")
                return
            }
            #expect(error.retryable)
        }
        let (garbled, _) = StationStub.client(answering: .status(200, #"{"lots": []}"#))
        do {
            _ = try await garbled.lots()
            Issue.record("no error")
        } catch let error as StationClientError {
            guard case .unreadableAnswer = error else {
                Issue.record("not unreadable: \(error)")
                return
            }
            #expect(!error.retryable)
        }
    }

    @Test func theScreenLoadsFromTheClient() async {
        let (client, _) = StationStub.client(answering: .status(200, Self.lotsJSON))
        var screen = HandOverScreen(loggerID: "depot-fridge", now: t0, locale: usEnglish)
        screen.loaded(await HandOverScreen.fetchLots(from: client))
        #expect(screen.rows.map(\.consumed) == ["125% used", "50% used"])
        let (unauthorized, _) = StationStub.client(answering: .status(401, #"{"error": "unauthorized", "detail": "no such token"}"#))
        var refused = HandOverScreen(loggerID: "depot-fridge", now: t0)
        refused.loaded(await HandOverScreen.fetchLots(from: unauthorized))
        #expect(refused.phase == .failed(.tokenRefused))
    }
}
