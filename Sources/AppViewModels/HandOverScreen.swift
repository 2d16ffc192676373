import ColdChain
import Foundation
import StationClient

/// What the hand-over screen needs of a station: its lots and a move recorded.
/// `StationClient` is one; the tests give a fake.
public protocol LotStation: Sendable {
    /// The site's lots. - Throws: `StationClientError` (any other error reads as offline).
    func lots() async throws -> [StationLot]
    /// Records one move of `lot` (not idempotent, see `StationClient.recordMove`).
    /// - Throws: `StationClientError` (any other error reads as offline).
    func recordMove(lot: String, logger: String?, at: Date, place: String?) async throws -> StationLotMove
}

extension StationClient: LotStation {}

extension StoredRead {
    /// The id the station keeps this read's logger under: the tag UID the upload names it
    /// by (`upload(raw:log:)` sends it as the logger's id), else the identity the log
    /// carries (`FORMAT:SERIAL`); `nil` for a log that names no logger.
    public var stationLoggerID: String? {
        if let uid = log.logger.tagUID?.trimmingCharacters(in: .whitespaces), !uid.isEmpty { return uid }
        if let serial = log.logger.serial?.trimmingCharacters(in: .whitespaces), !serial.isEmpty { return "\(log.format.name):\(serial)" }
        return nil
    }
}

/// Why a hand-over could not be loaded or recorded, as the screen words it.
public enum HandOverProblem: Error, Sendable, Equatable {
    /// No station is set in Settings.
    case noStation
    /// The read names no logger, so there is nothing to hand the lot to.
    case noLoggerID
    /// The station could not be reached; `whileSending`: the move may have arrived.
    case offline(whileSending: Bool)
    /// The station does not know the logger (its read was not uploaded yet).
    case loggerNotOnStation(String)
    /// The site has no such lot.
    case unknownLot(String)
    /// The lot is closed and takes no more moves.
    case lotClosed(String)
    /// The station refused the token (401) or its scope (403).
    case tokenRefused
    /// The station answers, but keeps no lots (an older station: no such route).
    case stationWithoutLots
    /// Anything else the station said: its words.
    case refused(String)
    /// The station's answer could not be read.
    case unreadableAnswer(String)

    /// What happened and what to do, in the app's language.
    public var message: String {
        switch self {
        case .noStation: return String(localized: "Set a station under Settings › Station first.")
        case .noLoggerID:
            return String(localized: "This read names no logger (no serial number, no tag UID), so the station cannot tell which logger the lot went to.")
        case .offline(let whileSending):
            return whileSending
                ? String(
                    localized:
                        "The station cannot be reached. The hand-over may have been recorded before the answer was lost: check the lot's moves on the station before recording it again."
                )
                : String(localized: "The station cannot be reached. Check the network and try again.")
        case .loggerNotOnStation(let logger):
            return String(
                localized:
                    "The station does not know logger \(logger) yet. Upload the read first (Settings › Station › Upload now), then record the hand-over."
            )
        case .unknownLot(let lot): return String(localized: "The station has no lot \(lot) for this site.")
        case .lotClosed(let lot): return String(localized: "Lot \(lot) is closed: it takes no more moves.")
        case .tokenRefused: return String(localized: "The station refused the token. Check it under Settings › Station.")
        case .stationWithoutLots: return String(localized: "This station keeps no lots yet. Ask whoever runs it to update it.")
        case .refused(let reason): return String(localized: "The station refused: \(reason)")
        case .unreadableAnswer(let reason): return String(localized: "The station's answer could not be read: \(reason)")
        }
    }

    /// The problem a station error is, loading the lots (`move == nil`) or recording `move`.
    /// A 404 to a move names the logger or the lot in its detail; the logger is the one
    /// looked for first, since the lot came from the station's own list.
    public static func from(_ error: Error, move: HandOverScreen.MoveRequest? = nil) -> HandOverProblem {
        guard let failure = error as? StationClientError else { return .offline(whileSending: move != nil) }
        if failure.credentialsRefused { return .tokenRefused }
        switch failure {
        case .unreachable: return .offline(whileSending: move != nil)
        case .unreadableAnswer(let reason): return .unreadableAnswer(reason)
        case .recordInconsistent(let what): return .refused(what)
        case let .refused(status, error, detail):
            let said = detail.isEmpty ? error : detail
            guard let move else { return status == 404 ? .stationWithoutLots : .refused(said) }
            switch status {
            case 404:
                if detail.lowercased().contains("no such path") { return .stationWithoutLots }
                if let logger = move.logger, detail.lowercased().contains("logger") { return .loggerNotOnStation(logger) }
                return .unknownLot(move.lot)
            case 409: return .lotClosed(move.lot)
            default: return .refused(said)
            }
        }
    }
}

/// The hand-over screen, reached from a read's result: the lot that now travels with the
/// scanned logger is picked from the site's lots (worst first), with where it went and when,
/// and the move is recorded on the station.
///
/// Phases: `loading` the lots, `choosing` one, `sending` the move, `done` (the move as
/// recorded) or `failed` (a worded problem; `retry()` loads again or goes back to the choice).
/// The screen holds no station: the app calls `fetchLots(from:)` and `record(_:at:)` and
/// hands their outcome to `loaded(_:)` and `sent(_:)`, so the typing of the person is never
/// lost across a request.
public struct HandOverScreen: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        case loading
        case choosing
        case sending
        case done(StationLotMove)
        case failed(HandOverProblem)
    }

    /// One lot in the list.
    public struct LotRow: Sendable, Equatable, Identifiable {
        /// The lot's id, shown as its title.
        public var id: String
        /// The product, with the quantity when the lot has one.
        public var productLine: String
        public var decision: String
        public var symbol: String
        public var tone: Tone
        /// "50 % used".
        public var consumed: String
        public var selected: Bool

        /// The row's small line: "USABLE · 50 % used".
        public var detailLine: String { "\(decision) · \(consumed)" }
    }

    /// What `record(_:at:)` sends.
    public struct MoveRequest: Sendable, Equatable {
        public var lot: String
        public var logger: String?
        public var at: Date
        /// `nil` when none was typed.
        public var place: String?
    }

    /// The scanned logger's id on the station (`StoredRead.stationLoggerID`).
    public let loggerID: String?
    public private(set) var phase: Phase
    /// The site's lots, worst first (`sortedWorstFirst`).
    public private(set) var lots: [StationLot] = []
    /// Typed into the search field: lots whose id contains it are listed.
    public var search = ""
    /// The lot picked (its id).
    public var selectedLot: String?
    /// Where the lot went (optional).
    public var place = ""
    /// When it was handed over; now when the screen opened.
    public var at: Date
    let locale: Locale

    /// - Parameters:
    ///   - loggerID: the read's logger as the station knows it (`nil`: the read names none,
    ///     and the screen fails at once with `.noLoggerID`).
    ///   - now: the hand-over's time until the person changes it.
    public init(loggerID: String?, now: Date = Date(), locale: Locale = .autoupdatingCurrent) {
        self.loggerID = loggerID
        self.at = now
        self.locale = locale
        phase = loggerID == nil ? .failed(.noLoggerID) : .loading
    }

    // MARK: What the screen shows

    public var title: String { String(localized: "Hand over a lot") }

    /// "To logger ID": whom the lot goes to.
    public var loggerLine: String {
        let logger = loggerID ?? "—"
        return String(localized: "To logger \(logger)")
    }

    /// The lots to list: those whose id contains the search text (all when it is empty).
    public var rows: [LotRow] {
        let text = search.trimmingCharacters(in: .whitespacesAndNewlines)
        return lots.filter { text.isEmpty || $0.lot.localizedCaseInsensitiveContains(text) }.map(row)
    }

    /// Said instead of the list when it is empty while choosing.
    public var emptyNote: String? {
        guard phase == .choosing, rows.isEmpty else { return nil }
        if lots.isEmpty { return String(localized: "The station has no lots for this site yet.") }
        let text = search.trimmingCharacters(in: .whitespacesAndNewlines)
        return String(localized: "No lot matches “\(text)”.")
    }

    /// Said while the station is asked.
    public var progressText: String? {
        switch phase {
        case .loading: return String(localized: "Loading the station's lots…")
        case .sending: return String(localized: "Recording the hand-over…")
        default: return nil
        }
    }

    /// The recorded move, in words.
    public var doneText: String? {
        guard case .done(let move) = phase, let lot = selectedLot else { return nil }
        let number = move.move.formatted(.number.locale(locale))
        let logger = move.logger ?? loggerID ?? "—"
        return String(localized: "Recorded as move \(number) of lot \(lot): it travels with logger \(logger).")
    }

    public var problemText: String? {
        guard case .failed(let problem) = phase else { return nil }
        return problem.message
    }

    /// The lot must be picked (and still listed by the station) while choosing.
    public var canSend: Bool {
        guard phase == .choosing, let selectedLot, loggerID != nil else { return false }
        return lots.contains { $0.lot == selectedLot }
    }

    public var sendTitle: String { String(localized: "Record hand-over") }

    /// *Try again* is offered after a problem the person or the network can fix.
    public var canRetry: Bool {
        guard case .failed(let problem) = phase else { return false }
        return problem != .noLoggerID
    }

    // MARK: Changes

    /// The lots arrived (sorted worst first) or could not be loaded.
    public mutating func loaded(_ outcome: Result<[StationLot], HandOverProblem>) {
        guard phase == .loading else { return }
        switch outcome {
        case .success(let lots):
            self.lots = Self.sortedWorstFirst(lots)
            if let selectedLot, !self.lots.contains(where: { $0.lot == selectedLot }) { self.selectedLot = nil }
            phase = .choosing
        case .failure(let problem):
            phase = .failed(problem)
        }
    }

    /// Picks `lot` (tapping the picked one again leaves it picked).
    public mutating func pick(_ lot: String) {
        guard phase == .choosing else { return }
        selectedLot = lot
    }

    /// The move to send, and the screen now sending it; `nil` when it cannot be sent.
    public mutating func startSending() -> MoveRequest? {
        guard canSend, let selectedLot else { return nil }
        let trimmed = place.trimmingCharacters(in: .whitespacesAndNewlines)
        phase = .sending
        return MoveRequest(lot: selectedLot, logger: loggerID, at: at, place: trimmed.isEmpty ? nil : trimmed)
    }

    /// The station's answer to the move.
    public mutating func sent(_ outcome: Result<StationLotMove, HandOverProblem>) {
        guard phase == .sending else { return }
        switch outcome {
        case .success(let move): phase = .done(move)
        case .failure(let problem): phase = .failed(problem)
        }
    }

    /// After a problem: back to the choice when the lots are here, else loading them again.
    public mutating func retry() {
        guard canRetry else { return }
        phase = lots.isEmpty ? .loading : .choosing
    }

    /// After a move: another lot to the same logger (the lots are loaded again, since the
    /// one just moved has a new leg).
    public mutating func handOverAnother(now: Date = Date()) {
        guard case .done = phase else { return }
        selectedLot = nil
        place = ""
        at = now
        lots = []
        phase = .loading
    }

    /// True while the app should call `fetchLots(from:)`.
    public var needsLots: Bool { phase == .loading }

    /// The lots, place and time are shown while a lot is chosen and while its move is sent
    /// (then greyed: `choicesLocked`), not while loading, after the move or after a failure.
    public var showsChoices: Bool { phase == .choosing || phase == .sending }

    /// The choices cannot be changed while the move is on its way.
    public var choicesLocked: Bool { phase == .sending }

    // MARK: The station

    /// The site's lots from `station` (`nil`: none is set).
    public static func fetchLots(from station: (any LotStation)?) async -> Result<[StationLot], HandOverProblem> {
        guard let station else { return .failure(.noStation) }
        do {
            return .success(try await station.lots())
        } catch {
            return .failure(HandOverProblem.from(error))
        }
    }

    /// Records `request` on `station` (`nil`: none is set). Sent once: a lost answer is
    /// `.offline(whileSending: true)`, whose words say to look at the lot's moves first.
    public static func record(_ request: MoveRequest, at station: (any LotStation)?) async -> Result<StationLotMove, HandOverProblem> {
        guard let station else { return .failure(.noStation) }
        do {
            return .success(try await station.recordMove(lot: request.lot, logger: request.logger, at: request.at, place: request.place))
        } catch {
            return .failure(HandOverProblem.from(error, move: request))
        }
    }

    /// Worst first: DISCARD, INCONCLUSIVE (which the unknown time could make worse), REVIEW,
    /// USABLE, then the most consumed; a decision this version does not know counts as
    /// INCONCLUSIVE. Lots alike keep the station's order.
    public static func sortedWorstFirst(_ lots: [StationLot]) -> [StationLot] {
        // A decision this app does not know is listed as INCONCLUSIVE is.
        func rank(_ lot: StationLot) -> Int { (lot.decision.flatMap(LotDecision.init(rawValue:)) ?? .inconclusive).worstFirstRank }
        return lots.enumerated().sorted { a, b in
            let (ra, rb) = (rank(a.element), rank(b.element))
            if ra != rb { return ra < rb }
            let (ca, cb) = (a.element.consumed ?? 0, b.element.consumed ?? 0)
            if ca != cb { return ca > cb }
            return a.offset < b.offset
        }.map(\.element)
    }

    func row(_ lot: StationLot) -> LotRow {
        let decision = lot.decision.flatMap(LotDecision.init(rawValue:))
        let product = lot.product
        let productLine: String
        if let quantity = lot.quantity {
            let count = quantity.formatted(.number.locale(locale))
            productLine = String(localized: "\(product), \(count) units")
        } else {
            productLine = product
        }
        let used = lot.consumed.map { Fmt.percent($0, of: 1, locale: locale) } ?? "—"
        return LotRow(
            id: lot.lot, productLine: productLine, decision: decision?.title ?? lot.decision ?? "—",
            symbol: decision?.symbol ?? LotDecision.inconclusive.symbol, tone: decision?.tone ?? .caution,
            consumed: String(localized: "\(used) used"), selected: lot.lot == selectedLot)
    }
}

extension LotDecision {
    /// The decision's name as the hand-over list shows it.
    public var title: String {
        switch self {
        case .usable: return String(localized: "Usable")
        case .review: return String(localized: "Review")
        case .discard: return String(localized: "Discard")
        case .inconclusive: return String(localized: "Inconclusive")
        }
    }

    public var symbol: String {
        switch self {
        case .usable: return "checkmark.seal.fill"
        case .review: return "exclamationmark.triangle.fill"
        case .discard: return "xmark.octagon.fill"
        case .inconclusive: return "questionmark.diamond.fill"
        }
    }

    public var tone: Tone {
        switch self {
        case .usable: return .good
        case .review, .inconclusive: return .caution
        case .discard: return .alarm
        }
    }
}
