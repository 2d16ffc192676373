import Foundation
import Testing

@testable import StationClient

/// What the station answers to Olli's sign-in from "ward 3 phone".
let olliSignIn = DeviceSignIn(
    token: "ct_7_0123456789abcdef", tokenID: 7, user: "olli", fullName: "Olli Berg", role: "operator", site: "north", device: "ward 3 phone")

/// `StationClient.signIn` against a stub: what it sends, and each answer of the station as
/// its error.
@Suite struct StationSignInClientTests {
    static let answer = """
        {"token": "ct_7_0123456789abcdef", "id": 7, "device": "ward 3 phone", "user": "olli", "fullName": "Olli Berg",
         "role": "operator", "site": "north"}
        """

    @Test func theSignInIsPostedAsJSONWithoutAnyToken() async throws {
        let (client, host) = StationStub.client(answering: .status(201, Self.answer), base: "/station/")
        let signIn = try await client.signIn(user: "olli", password: "pass \"word\"", device: "ward 3 phone")
        #expect(signIn == olliSignIn)
        let asked = try #require(StationStub.requests(to: host).first)
        #expect(asked.method == "POST")
        #expect(asked.path == "/station/api/v1/device-tokens")
        #expect(asked.headers["Content-Type"] == "application/json")
        // Even a client that has a token signs in without it.
        #expect(asked.headers["Authorization"] == nil)
        let body = try #require(try JSONSerialization.jsonObject(with: asked.body) as? [String: String])
        #expect(body == ["user": "olli", "password": "pass \"word\"", "device": "ward 3 phone"])
    }

    @Test func aClientWithoutATokenSendsNoAuthorization() async throws {
        let (client, host) = StationStub.client(answering: .status(401, #"{"error": "unauthorized", "detail": "a token is needed"}"#), token: nil)
        await #expect(throws: StationClientError.refused(status: 401, error: "unauthorized", detail: "a token is needed")) {
            try await client.lots()
        }
        #expect(StationStub.requests(to: host).first?.headers["Authorization"] == nil)
    }

    static func error(answering answer: StationStub.Answer) async -> StationSignInError? {
        let (client, _) = StationStub.client(answering: answer, token: nil)
        do {
            _ = try await client.signIn(user: "olli", password: "pw", device: "phone")
            return nil
        } catch {
            return error as? StationSignInError
        }
    }

    @Test func eachAnswerIsItsOwnError() async throws {
        #expect(
            await Self.error(answering: .status(401, #"{"error": "unauthorized", "detail": "the user name or password is wrong."}"#))
                == .wrongNameOrPassword)
        let locked =
            #"{"error": "locked", "detail": "this account is locked after repeated wrong passwords until 2026-04-09T00:05:00.250Z; try again then, or ask an admin to reset it."}"#
        #expect(await Self.error(answering: .status(423, locked)) == .locked(until: t0.addingTimeInterval(300.25)))
        let wholeSeconds = #"{"error": "locked", "detail": "locked until 2026-04-09T00:05:00Z"}"#
        #expect(await Self.error(answering: .status(423, wholeSeconds)) == .locked(until: t0.addingTimeInterval(300)))
        #expect(await Self.error(answering: .status(423, #"{"error": "locked", "detail": "locked for now"}"#)) == .locked(until: nil))
        let forbidden: [(String, StationSignInError.NotAllowed)] = [
            ("this account is disabled.", .disabled),
            ("this account has no password yet: open its set-up link first.", .noPasswordYet),
            ("vera is a viewer; a device uploads reads, which needs the operator role or above.", .viewer),
            ("not from this network.", .other),
        ]
        for (detail, reason) in forbidden {
            #expect(
                await Self.error(answering: .status(403, #"{"error": "forbidden", "detail": "\#(detail)"}"#)) == .notAllowed(reason, detail: detail))
        }
        #expect(
            await Self.error(answering: .status(404, #"{"error": "not found", "detail": "no such path"}"#))
                == .refused(status: 404, error: "not found", detail: "no such path"))
        #expect(await Self.error(answering: .status(503, "busy")) == .refused(status: 503, error: "HTTP 503", detail: "busy"))
        guard case .badAnswer = await Self.error(answering: .status(201, #"{"token": "ct_1_ab"}"#)) else {
            Issue.record("an answer without the user was read")
            return
        }
        let noToken = Self.answer.replacingOccurrences(of: "ct_7_0123456789abcdef", with: "")
        #expect(await Self.error(answering: .status(201, noToken)) == .badAnswer("the answer holds no token"))
        guard case .unreachable = await Self.error(answering: .failure) else {
            Issue.record("no answer was not unreachable")
            return
        }
    }

    @Test func theLockEndIsReadFromTheStationsWords() {
        #expect(StationSignInError.lockEnd(in: "locked until 2026-04-09T00:05:00Z, then") == t0.addingTimeInterval(300))
        #expect(StationSignInError.lockEnd(in: "locked until tomorrow") == nil)
        #expect(StationSignInError.lockEnd(in: "locked") == nil)
    }
}
