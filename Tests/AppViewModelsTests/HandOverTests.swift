import ColdChain
import ColdTapBase
import Foundation
import LoggerFormats
import Testing

@testable import AppViewModels
@testable import StationClient

/// A station that answers the hand-over screen from closures, and notes the moves asked.
struct FakeLotStation: LotStation {
    var lotsAnswer: @Sendable () throws -> [StationLot]
    var moveAnswer: @Sendable (HandOverScreen.MoveRequest) throws -> StationLotMove
    let asked = LockedValue([HandOverScreen.MoveRequest]())

    init(
        lots: @escaping @Sendable () throws -> [StationLot] = { [] },
        move: @escaping @Sendable (HandOverScreen.MoveRequest) throws -> StationLotMove = { _ in throw StationClientError.unreachable("x") }
    ) {
        lotsAnswer = lots
        moveAnswer = move
    }

    func lots() async throws -> [StationLot] { try lotsAnswer() }

    func recordMove(lot: String, logger: String?, at: Date, place: String?) async throws -> StationLotMove {
        let request = HandOverScreen.MoveRequest(lot: lot, logger: logger, at: at, place: place)
        asked.withLock { $0.append(request) }
        return try moveAnswer(request)
    }
}

func lot(_ id: String, _ decision: String?, _ consumed: Double?, quantity: Int? = nil) -> StationLot {
    StationLot(lot: id, product: "clinic-vaccine", quantity: quantity, created: t0, decision: decision, consumed: consumed)
}

/// The site's lots in no particular order.
let siteLots = [
    lot("L-0101", "USABLE", 0.1, quantity: 200), lot("L-0302", "REVIEW", 0.85), lot("L-0303", "DISCARD", 1.2), lot("L-0404", "INCONCLUSIVE", 0.3),
    lot("L-0405", "USABLE", 0.5), lot("L-0501", "DISCARD", 1.2), lot("L-0600", "SOMETHING-NEW", nil),
]

let recordedMove = StationLotMove(
    move: 2, kind: "logger", logger: "E004015012345678", at: t0, place: "depot", by: "token #3", recorded: t0.addingTimeInterval(5))

/// A screen with the site's lots loaded, for the logger `E004015012345678`.
func choosingScreen() -> HandOverScreen {
    var screen = HandOverScreen(loggerID: "E004015012345678", now: t0, locale: usEnglish)
    screen.loaded(.success(siteLots))
    return screen
}

@Suite struct HandOverScreenTests {
    @Test func theLoggerIsTheOneTheUploadNamed() {
        #expect(makeRead(makeLog([4], logger: .init(tagUID: "E0040150", serial: "A1"))).stationLoggerID == "E0040150")
        #expect(makeRead(makeLog([4], logger: .init(serial: " A1 "))).stationLoggerID == "test:A1")
        #expect(makeRead(makeLog([4])).stationLoggerID == nil)
        // What the upload sends as the logger's id is what the hand-over names.
        let log = makeLog([4], logger: .init(tagUID: "E0040150"))
        #expect(StoredRead.upload(raw: Data([1]), log: log).loggerID == makeRead(log).stationLoggerID)
    }

    @Test func theLotsLoadWorstFirstWithTheirDecisionAndWhatTheyUsed() {
        var screen = HandOverScreen(loggerID: "E004015012345678", now: t0, locale: usEnglish)
        #expect(screen.phase == .loading)
        #expect(screen.needsLots)
        #expect(!screen.showsChoices)
        #expect(screen.progressText == "Loading the station's lots…")
        #expect(!screen.canSend)
        #expect(screen.title == "Hand over a lot")
        #expect(screen.loggerLine == "To logger E004015012345678")
        screen.loaded(.success(siteLots))
        #expect(screen.phase == .choosing)
        #expect(screen.progressText == nil)
        #expect(screen.showsChoices && !screen.choicesLocked)
        // Discard, then inconclusive (an unknown decision counts as one), review, usable;
        // the most used first; alike lots in the station's order.
        #expect(screen.rows.map(\.id) == ["L-0303", "L-0501", "L-0404", "L-0600", "L-0302", "L-0405", "L-0101"])
        let usable = screen.rows.last
        #expect(usable?.decision == "Usable")
        #expect(usable?.tone == .good)
        #expect(usable?.consumed == "10% used")
        #expect(usable?.detailLine == "Usable · 10% used")
        #expect(usable?.productLine == "clinic-vaccine, 200 units")
        #expect(screen.rows[0].decision == "Discard")
        #expect(screen.rows[0].tone == .alarm)
        #expect(screen.rows[0].consumed == "120% used")
        #expect(screen.rows[0].productLine == "clinic-vaccine")
        #expect(screen.rows[3].decision == "SOMETHING-NEW")
        #expect(screen.rows[3].consumed == "— used")
        #expect(screen.rows[4].decision == "Review")
        #expect(screen.rows[2].decision == "Inconclusive")
        #expect(screen.emptyNote == nil)
    }

    @Test func theSearchFiltersOnTheLotsID() {
        var screen = choosingScreen()
        screen.search = " l-04"
        #expect(screen.rows.map(\.id) == ["L-0404", "L-0405"])
        screen.search = "zz"
        #expect(screen.rows.isEmpty)
        #expect(screen.emptyNote == "No lot matches “zz”.")
        var empty = HandOverScreen(loggerID: "x", now: t0)
        empty.loaded(.success([]))
        #expect(empty.emptyNote == "The station has no lots for this site yet.")
    }

    @Test func aPickedLotIsSentWithThePlaceAndTimeThenDone() async throws {
        var screen = choosingScreen()
        #expect(!screen.canSend)
        #expect(screen.startSending() == nil)
        screen.pick("L-0302")
        #expect(screen.rows.filter(\.selected).map(\.id) == ["L-0302"])
        // Filtered out of the list, the lot stays picked.
        screen.search = "0101"
        #expect(screen.canSend)
        screen.place = "  depot "
        screen.at = t0.addingTimeInterval(-3600)
        let sending = screen.startSending()
        let request = try #require(sending)
        #expect(request == HandOverScreen.MoveRequest(lot: "L-0302", logger: "E004015012345678", at: t0.addingTimeInterval(-3600), place: "depot"))
        #expect(screen.phase == .sending)
        #expect(screen.progressText == "Recording the hand-over…")
        #expect(screen.showsChoices && screen.choicesLocked)
        #expect(!screen.canSend)
        #expect(screen.startSending() == nil)
        let station = FakeLotStation(move: { _ in recordedMove })
        screen.sent(await HandOverScreen.record(request, at: station))
        #expect(station.asked.current == [request])
        #expect(screen.phase == .done(recordedMove))
        #expect(!screen.showsChoices)
        #expect(screen.doneText == "Recorded as move 2 of lot L-0302: it travels with logger E004015012345678.")
        #expect(!screen.canRetry)
        screen.handOverAnother(now: t0)
        #expect(screen.phase == .loading)
        #expect(screen.selectedLot == nil)
        #expect(screen.place == "")
    }

    @Test func noPlaceIsSentAsNone() {
        var screen = choosingScreen()
        screen.pick("L-0101")
        screen.place = "   "
        #expect(screen.startSending()?.place == nil)
    }

    /// Each way a move fails, and its words.
    static let moveFailures: [(StationClientError, String)] = [
        (
            StationClientError.unreachable("timed out"),
            "The station cannot be reached. The hand-over may have been recorded before the answer was lost: check the lot's moves on the station before recording it again."
        ),
        (
            .refused(status: 404, error: "not found", detail: "this site has no such logger."),
            "The station does not know logger E004015012345678 yet. Upload the read first (Settings › Station › Upload now), then record the hand-over."
        ),
        (.refused(status: 404, error: "not found", detail: "this site has no such lot."), "The station has no lot L-0302 for this site."),
        (.refused(status: 409, error: "lot closed", detail: "L-0302 was closed at …"), "Lot L-0302 is closed: it takes no more moves."),
        (.refused(status: 401, error: "unauthorized", detail: "token unknown"), "The station refused the token. Check it under Settings › Station."),
        (.refused(status: 403, error: "forbidden", detail: "read scope"), "The station refused the token. Check it under Settings › Station."),
        (.refused(status: 422, error: "bad time", detail: "at is in the future"), "The station refused: at is in the future"),
        (.unreadableAnswer("not JSON"), "The station's answer could not be read: not JSON"),
    ]

    @Test(arguments: moveFailures)
    func aFailedMoveSaysWhy(error: StationClientError, words: String) async throws {
        var screen = choosingScreen()
        screen.pick("L-0302")
        let sending = screen.startSending()
        let request = try #require(sending)
        let station = FakeLotStation(move: { _ in throw error })
        screen.sent(await HandOverScreen.record(request, at: station))
        #expect(screen.problemText == words)
        #expect(screen.canRetry)
        // Back to the choice, the lot still picked: nothing is sent again by itself.
        screen.retry()
        #expect(screen.phase == .choosing)
        #expect(screen.selectedLot == "L-0302")
        #expect(station.asked.current.count == 1)
    }

    @Test func aFailedLoadSaysWhyAndLoadsAgain() async {
        func loaded(_ error: Error) async -> HandOverScreen {
            var screen = HandOverScreen(loggerID: "E0", now: t0)
            screen.loaded(await HandOverScreen.fetchLots(from: FakeLotStation(lots: { throw error })))
            return screen
        }
        #expect(await loaded(StationClientError.unreachable("x")).problemText == "The station cannot be reached. Check the network and try again.")
        #expect(await loaded(URLError(.notConnectedToInternet)).problemText == "The station cannot be reached. Check the network and try again.")
        #expect(
            await loaded(StationClientError.refused(status: 404, error: "not found", detail: "there is no such path on this station")).problemText
                == "This station keeps no lots yet. Ask whoever runs it to update it.")
        var screen = await loaded(StationClientError.refused(status: 401, error: "unauthorized", detail: ""))
        #expect(screen.problemText == "The station refused the token. Check it under Settings › Station.")
        screen.retry()
        #expect(screen.needsLots)
        screen.loaded(await HandOverScreen.fetchLots(from: FakeLotStation(lots: { siteLots })))
        #expect(screen.rows.count == siteLots.count)

        var noStation = HandOverScreen(loggerID: "E0", now: t0)
        noStation.loaded(await HandOverScreen.fetchLots(from: nil))
        #expect(noStation.problemText == "Set a station under Settings › Station first.")
    }

    @Test func aReadThatNamesNoLoggerCannotHandOver() {
        var screen = HandOverScreen(loggerID: makeRead(makeLog([4])).stationLoggerID, now: t0)
        #expect(
            screen.problemText
                == "This read names no logger (no serial number, no tag UID), so the station cannot tell which logger the lot went to.")
        #expect(!screen.canRetry)
        #expect(!screen.needsLots)
        screen.loaded(.success(siteLots))
        #expect(screen.lots.isEmpty)
        screen.retry()
        #expect(screen.phase == .failed(.noLoggerID))
    }

    /// Every text the hand-over can show (CatalogTests checks their keys).
    static func wordEverything() {
        for decision in LotDecision.allCases { _ = decision.title }
        let problems: [HandOverProblem] = [
            .noStation, .noLoggerID, .offline(whileSending: true), .offline(whileSending: false), .loggerNotOnStation("x"), .unknownLot("x"),
            .lotClosed("x"), .tokenRefused, .stationWithoutLots, .refused("x"), .unreadableAnswer("x"),
        ]
        for problem in problems { _ = problem.message }
        var screen = choosingScreen()
        _ = (screen.title, screen.loggerLine, screen.sendTitle, screen.rows)
        screen.search = "zz"
        _ = screen.emptyNote
        screen.search = ""
        screen.pick("L-0101")
        _ = screen.startSending()
        _ = screen.progressText
        screen.sent(.success(recordedMove))
        _ = screen.doneText
        var empty = HandOverScreen(loggerID: "x", now: t0)
        _ = empty.progressText
        empty.loaded(.success([]))
        _ = empty.emptyNote
    }
}
