import ColdTapBase
import Foundation
import NFCTags

/// A tag the reader session found, reduced to what ColdTap can drive.
public enum DetectedTag: Sendable {
    /// ISO 14443-A, MIFARE Ultralight family: NFC Forum Type 2.
    case type2(any MiFareTagLink)
    /// ISO 15693: NFC Forum Type 5.
    case type5(any ISO15693TagLink)
    /// Anything else the session reports (FeliCa, ISO 7816, MIFARE DESFire/Plus), by name.
    case unsupported(kind: String)

    /// The UID in the order the transport reports it, when known.
    public var uid: Data? {
        switch self {
        case .type2(let link): return link.identifier
        case .type5(let link): return Type5CoreNFCTransport.airOrderUID(link.identifier)
        case .unsupported: return nil
        }
    }
}

/// What `NFCTagReaderSessionDelegate` reports, in order.
public enum TagSessionEvent: Sendable {
    case becameActive
    case detected([DetectedTag])
    case invalidated(CoreNFCFailure)
}

/// The calls the controller makes on `NFCTagReaderSession`.
public protocol TagReaderSessionLink: Sendable {
    /// Sets `alertMessage` (the text on the system sheet).
    func setAlertMessage(_ message: String)
    /// `connect(to:)`.
    /// - Throws: `CoreNFCFailure`.
    func connect(to tag: DetectedTag) async throws
    /// `restartPolling()`: forget the connected tag and look again.
    func restartPolling()
    /// Shows `message` with the success mark and ends the session (`alertMessage` then `invalidate()`).
    func invalidate(successMessage: String)
    /// Shows `message` as an error and ends the session (`invalidate(errorMessage:)`).
    func invalidate(errorMessage: String)
}

/// How a read that did not finish failed, and what the person should do.
public struct ReadFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var advice: ReaderAdvice
    /// The Core NFC code when Core NFC ended the session.
    public var code: ReaderErrorCode?
    /// The technical detail, for logs.
    public var detail: String

    public init(advice: ReaderAdvice, code: ReaderErrorCode? = nil, detail: String) {
        self.advice = advice
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(advice.englishSentence) (\(detail))" }
}

/// What an error thrown by the read means for the session.
public enum ReadErrorKind: Sendable, Equatable {
    /// The tag left the field: wait for it and resume inside the session.
    case linkLost
    /// The read cannot succeed; end the session with this advice.
    case failed(ReaderAdvice)
}

/// Texts for the sheet. The app passes localized ones; `english` is the default.
public struct SessionMessages: Sendable {
    /// Shown when the session starts.
    public var holdNear: @Sendable () -> String
    /// Progress, percent 0–100.
    public var reading: @Sendable (_ percent: Int) -> String
    /// Progress with the session's remaining seconds, once the warning is due.
    public var readingWithTimeLeft: @Sendable (_ percent: Int, _ secondsLeft: Int) -> String
    /// A sentence for an advice.
    public var advice: @Sendable (ReaderAdvice) -> String
    /// Shown while waiting for the tag again after it was lost; percent read so far.
    public var resume: @Sendable (_ advice: ReaderAdvice, _ percent: Int) -> String

    public init(
        holdNear: @escaping @Sendable () -> String,
        reading: @escaping @Sendable (Int) -> String,
        readingWithTimeLeft: @escaping @Sendable (Int, Int) -> String,
        advice: @escaping @Sendable (ReaderAdvice) -> String,
        resume: @escaping @Sendable (ReaderAdvice, Int) -> String
    ) {
        self.holdNear = holdNear
        self.reading = reading
        self.readingWithTimeLeft = readingWithTimeLeft
        self.advice = advice
        self.resume = resume
    }

    public static let english = SessionMessages(
        holdNear: { "Hold the top of your iPhone near the logger." },
        reading: { "Reading… \($0) %" },
        readingWithTimeLeft: { "Reading… \($0) % — \($1) s left, keep holding still." },
        advice: { $0.englishSentence },
        resume: { "\($0.englishSentence) Resuming at \($1) %." }
    )
}

/// Limits of a session.
public struct SessionPolicy: Sendable, Equatable {
    /// Core NFC ends every session after 60 s (error 201); nothing extends it.
    public var sessionLimit: Double
    /// The sheet warns this many seconds before the limit.
    public var warningLead: Double
    /// A lost read is resumed only with at least this many seconds left; otherwise the
    /// controller ends the session with advice to scan again rather than be cut off.
    public var minimumTimeToResume: Double
    /// How many times a lost tag is waited for and the read resumed.
    public var maxResumes: Int
    /// Seconds `connect(to:)` may take: Core NFC may never call back (the session ended
    /// mid-connect), and the sheet must not stay on "Reading…".
    public var connectTimeout: Double
    /// Seconds to wait before polling again after two tags or an unsupported one: a card kept
    /// in the phone case would otherwise be detected, refused and polled for in a tight loop.
    public var refusedTagPollDelay: Double

    public init(
        sessionLimit: Double = 60, warningLead: Double = 15, minimumTimeToResume: Double = 5, maxResumes: Int = 4,
        connectTimeout: Double = 3, refusedTagPollDelay: Double = 0.5
    ) {
        self.sessionLimit = sessionLimit
        self.warningLead = warningLead
        self.minimumTimeToResume = minimumTimeToResume
        self.maxResumes = maxResumes
        self.connectTimeout = connectTimeout
        self.refusedTagPollDelay = refusedTagPollDelay
    }
}

/// What the caller learns about a finished session besides the value.
public struct SessionReport: Sendable, Equatable {
    /// How many times the read was resumed after losing the tag.
    public var resumes: Int
    /// Bytes of tag memory read before the last loss and handed to the resumed read (not read again).
    public var bytesCarriedOver: Int
    /// Seconds from start to the end of the session on the session clock.
    public var elapsed: Double
    /// True when the time warning was shown.
    public var warnedAboutTime: Bool
}

/// Drives one `NFCTagReaderSession` read: connects to the tag, runs the caller's read over
/// a `TagTransport`, shows progress on the sheet, resumes inside the open session when the
/// tag is lost, warns before the 60-second limit and shows the verdict (or what to do)
/// when done.
///
/// Resuming is NFCTags' own mechanism, and the only one: when a read fails with
/// `TagReadError.tagRemoved` or `.noAnswer`, the `PartialRead` it carries is handed to the
/// next attempt on the same tag (pass it as `TagReadOptions.resume`), so pages and blocks
/// already read are not read again.
public struct TagReadSessionController: Sendable {
    public let session: any TagReaderSessionLink
    public let clock: any SessionClock
    public let policy: SessionPolicy
    public let messages: SessionMessages
    /// CRC framing learned per Type 2 chip; share one across sessions.
    public let miFareFraming: MiFareFramingMemory
    /// Sorts an error thrown by the read: the tag was lost (wait for it and resume) or the
    /// read failed for good (with what to tell the person). The app adds its planner's and
    /// decoder's errors; `defaultClassification` knows the transport's.
    public let classify: @Sendable (Error) -> ReadErrorKind

    public init(
        session: any TagReaderSessionLink, clock: any SessionClock = SystemSessionClock(),
        policy: SessionPolicy = SessionPolicy(), messages: SessionMessages = .english,
        miFareFraming: MiFareFramingMemory = MiFareFramingMemory(),
        classify: @escaping @Sendable (Error) -> ReadErrorKind = TagReadSessionController.defaultClassification
    ) {
        self.session = session
        self.clock = clock
        self.policy = policy
        self.messages = messages
        self.miFareFraming = miFareFraming
        self.classify = classify
    }

    /// What an interrupted NFCTags read got, to hand to the next attempt.
    static func partialRead(in error: Error) -> PartialRead? {
        switch error as? TagReadError {
        case .tagRemoved(let stop)?, .noAnswer(_, _, let stop)?: return stop.partial
        default: return nil
        }
    }

    /// NFCTags' `TagReadError.tagRemoved`/`.noAnswer`, `TransportError.tagRemoved`/`.timeout`
    /// and retryable Core NFC failures are link losses; a link that cannot carry a command
    /// means the tag is not supported; malformed memory is unreadable data; a non-retryable
    /// Core NFC failure carries its own advice; anything else is the tag refusing the read.
    public static let defaultClassification: @Sendable (Error) -> ReadErrorKind = { error in
        if let tagError = error as? TagReadError {
            switch tagError {
            case .tagRemoved, .noAnswer: return .linkLost
            case .refused: return .failed(.tagRefused)
            case .unsupportedByLink, .outOfReach: return .failed(.tagNotSupported)
            case .malformed: return .failed(.unreadableData)
            }
        }
        if let transport = error as? TransportError {
            switch transport {
            case .tagRemoved, .timeout: return .linkLost
            case .unsupported: return .failed(.tagNotSupported)
            case .linkFailure: return .failed(.tagRefused)
            }
        }
        if let failure = error as? CoreNFCFailure {
            return failure.readerError?.isWorthRetrying == true ? .linkLost : .failed(failure.advice)
        }
        return .failed(.tagRefused)
    }

    /// Progress callback handed to the read: fraction done, 0…1.
    public typealias Progress = @Sendable (Double) -> Void

    /// Runs the session until the read succeeds or the session ends.
    ///
    /// - Parameters:
    ///   - events: the delegate's events; the controller starts counting the 60 s now.
    ///   - read: reads the tag over the transport, continuing from the partial read when one
    ///     is given (nil on the first attempt), reporting progress (fraction 0…1).
    ///   - verdict: the sentence shown on the sheet with the success mark.
    /// - Returns: the value and a report, or a `ReadFailure` saying what to do.
    public func run<Value: Sendable>(
        events: AsyncStream<TagSessionEvent>,
        read: @escaping @Sendable (any TagTransport, PartialRead?, @escaping Progress) async throws -> Value,
        verdict: @escaping @Sendable (Value) -> String
    ) async -> (result: Result<Value, ReadFailure>, report: SessionReport) {
        let start = clock.now()
        let (inputs, feed) = AsyncStream<SessionInput<Value>>.makeStream()
        let pump = Task {
            for await event in events { feed.yield(.session(event)) }
            feed.yield(.sessionEnded)
        }
        let clock = self.clock
        let warningAt = start + policy.sessionLimit - policy.warningLead
        let sessionEnd = start + policy.sessionLimit
        // The sheet's countdown: the warning, then one update a second until Core NFC's limit,
        // so "N s left" counts down instead of standing still (issue 45 item 4).
        let watchdog = Task {
            do {
                var next = warningAt
                while next < sessionEnd {
                    try await clock.sleep(until: next)
                    feed.yield(.timeWarning)
                    next += 1
                }
            } catch {}
        }
        let run = TagReadRun(controller: self, start: start, feed: feed, read: read, verdict: verdict)
        for await input in inputs {
            if await run.handle(input) { break }
        }
        run.readTask?.cancel()
        run.delayedPoll?.cancel()
        watchdog.cancel()
        pump.cancel()
        feed.finish()
        return (
            run.outcome ?? .failure(ReadFailure(advice: .scanAgain, detail: "the reader session ended without a result")),
            run.report
        )
    }
}

/// One run of the controller: what it has seen so far (the tag being read, what an
/// interrupted read got, how often the tag was lost) and what it does on each input. Lives
/// inside `run`'s loop only, so it is never shared between tasks.
private final class TagReadRun<Value: Sendable> {
    typealias Read = @Sendable (any TagTransport, PartialRead?, @escaping TagReadSessionController.Progress) async throws -> Value

    let controller: TagReadSessionController
    let start: Double
    let feed: AsyncStream<SessionInput<Value>>.Continuation
    let read: Read
    let verdict: @Sendable (Value) -> String
    let alert: AlertComposer

    var readTask: Task<Void, Never>?
    /// Polling asked to start again after `SessionPolicy.refusedTagPollDelay`.
    var delayedPoll: Task<Void, Never>?
    /// The tag first connected to: another one found later is not read.
    var expectedUID: Data?
    /// What an interrupted read got, handed to the next attempt.
    var resume: PartialRead?
    var resumes = 0
    var outcome: Result<Value, ReadFailure>?

    init(
        controller: TagReadSessionController, start: Double, feed: AsyncStream<SessionInput<Value>>.Continuation,
        read: @escaping Read, verdict: @escaping @Sendable (Value) -> String
    ) {
        self.controller = controller
        self.start = start
        self.feed = feed
        self.read = read
        self.verdict = verdict
        alert = AlertComposer(messages: controller.messages, session: controller.session)
    }

    private var session: any TagReaderSessionLink { controller.session }
    private var messages: SessionMessages { controller.messages }
    private var policy: SessionPolicy { controller.policy }

    var report: SessionReport {
        SessionReport(
            resumes: resumes, bytesCarriedOver: resume?.byteCount ?? 0,
            elapsed: controller.clock.now() - start, warnedAboutTime: alert.warned)
    }

    private func remaining() -> Double { policy.sessionLimit - (controller.clock.now() - start) }

    /// Ends the run with `failure`, closing the sheet with its advice when the session is still open.
    private func finish(_ failure: ReadFailure, invalidate: Bool) -> Bool {
        outcome = .failure(failure)
        if invalidate { session.invalidate(errorMessage: messages.advice(failure.advice)) }
        return true
    }

    /// Reacts to one input; `true` when the run is over.
    func handle(_ input: SessionInput<Value>) async -> Bool {
        switch input {
        case .session(.becameActive):
            alert.show(messages.holdNear())
            return false
        case .session(.detected(let tags)):
            return await detected(tags)
        case .readFinished(.success(let value)):
            readTask = nil
            outcome = .success(value)
            session.invalidate(successMessage: verdict(value))
            return true
        case .readFinished(.failure(let error)):
            readTask = nil
            return readFailed(error)
        case .timeWarning:
            alert.warn(secondsLeft: Int(remaining().rounded()))
            return false
        case .pollAgainDue:
            delayedPoll = nil
            session.restartPolling()
            return false
        case .session(.invalidated(let failure)):
            readTask?.cancel()
            readTask = nil
            return finish(ReadFailure(advice: failure.advice, code: failure.readerError, detail: failure.description), invalidate: false)
        case .sessionEnded:
            return finish(ReadFailure(advice: .scanAgain, detail: "the reader session ended without a result"), invalidate: false)
        }
    }

    /// One tag, the one being read if any, supported: connect to it and start reading.
    private func detected(_ tags: [DetectedTag]) async -> Bool {
        guard readTask == nil else { return false }
        guard tags.count == 1, let tag = tags.first else { return pollAgain(.oneTagOnly, after: policy.refusedTagPollDelay) }
        if case .unsupported = tag { return pollAgain(.tagNotSupported, after: policy.refusedTagPollDelay) }
        if let expectedUID, tag.uid != expectedUID { return pollAgain(.otherTag) }
        if let stop = await connect(tag) { return stop }
        let transport: any TagTransport
        switch tag {
        case .type2(let link): transport = Type2CoreNFCTransport(link: link, framing: controller.miFareFraming)
        case .type5(let link): transport = Type5CoreNFCTransport(link: link)
        case .unsupported: return false
        }
        expectedUID = transport.uid
        startReading(transport)
        return false
    }

    private func pollAgain(_ advice: ReaderAdvice, after delay: Double = 0) -> Bool {
        alert.show(messages.advice(advice))
        guard delay > 0 else {
            session.restartPolling()
            return false
        }
        // The deadline is taken now, so a clock that moves on before the task starts still
        // counts from the refusal.
        let clock = controller.clock, due = clock.now() + delay, feed = self.feed
        delayedPoll?.cancel()
        delayedPoll = Task {
            do {
                try await clock.sleep(until: due)
                feed.yield(.pollAgainDue)
            } catch {}
        }
        return false
    }

    /// Connects, bounded like a command (a connect that never calls back counts as a lost
    /// tag); `nil` when connected, else whether the run is over.
    private func connect(_ tag: DetectedTag) async -> Bool? {
        do {
            try await runWithDeadline(.milliseconds(Int(policy.connectTimeout * 1000)), mapErrors: false) { [session] in
                try await session.connect(to: tag)
            }
            return nil
        } catch {
            let failure = error as? CoreNFCFailure
            if let failure, failure.readerError?.endsSession == true {
                return finish(ReadFailure(advice: failure.advice, code: failure.readerError, detail: failure.description), invalidate: true)
            }
            resumes += 1
            if resumes > policy.maxResumes {
                return finish(ReadFailure(advice: .movePhone, code: failure?.readerError, detail: "could not connect: \(error)"), invalidate: true)
            }
            return pollAgain(failure?.advice ?? .holdStill)
        }
    }

    private func startReading(_ transport: any TagTransport) {
        let (read, feed, alert, partial) = (self.read, self.feed, self.alert, resume)
        readTask = Task {
            do {
                let value = try await read(transport, partial) { fraction in alert.progress(fraction) }
                feed.yield(.readFinished(.success(value)))
            } catch {
                feed.yield(.readFinished(.failure(error)))
            }
        }
    }

    /// A lost tag is waited for and the read resumed where it stopped, while resumes and
    /// time are left; any other failure ends the run with its advice.
    private func readFailed(_ error: Error) -> Bool {
        let kind = controller.classify(error)
        if kind == .linkLost {
            if let partial = TagReadSessionController.partialRead(in: error) { resume = partial }
            resumes += 1
            if resumes > policy.maxResumes {
                return finish(ReadFailure(advice: .movePhone, detail: "the tag was lost \(resumes) times: \(error)"), invalidate: true)
            }
            if remaining() < policy.minimumTimeToResume {
                return finish(
                    ReadFailure(advice: .sessionTimedOut, detail: "the tag was lost with \(Int(remaining())) s of the session left"),
                    invalidate: true)
            }
            alert.showResume(.holdStill)
            session.restartPolling()
            return false
        }
        let advice: ReaderAdvice
        if case .failed(let given) = kind { advice = given } else { advice = .tagRefused }
        return finish(
            ReadFailure(advice: advice, code: (error as? CoreNFCFailure)?.readerError, detail: String(describing: error)),
            invalidate: true)
    }
}

/// Everything the controller reacts to, merged into one ordered stream.
private enum SessionInput<Value: Sendable>: Sendable {
    case session(TagSessionEvent)
    case sessionEnded
    case readFinished(Result<Value, Error>)
    case timeWarning
    case pollAgainDue
}

/// Composes the sheet's text from progress and the time warning, sending it only when it
/// changes (every command reports progress; the sheet needs whole percents).
final class AlertComposer: @unchecked Sendable {
    private struct State {
        var percent = 0
        var secondsLeft: Int?
        var lastShown: String?
    }
    private let state = LockedValue(State())
    private let messages: SessionMessages
    private let session: any TagReaderSessionLink

    init(messages: SessionMessages, session: any TagReaderSessionLink) {
        self.messages = messages
        self.session = session
    }

    var warned: Bool { state.withLock { $0.secondsLeft != nil } }

    func show(_ text: String) {
        state.withLock { $0.lastShown = text }
        session.setAlertMessage(text)
    }

    func progress(_ fraction: Double) {
        let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        let changed = state.withLock { state -> String? in
            state.percent = Int((clamped * 100).rounded(.down))
            let text = compose(state)
            guard text != state.lastShown else { return nil }
            state.lastShown = text
            return text
        }
        if let changed { session.setAlertMessage(changed) }
    }

    func warn(secondsLeft: Int) {
        let text = state.withLock { state -> String in
            state.secondsLeft = max(secondsLeft, 0)
            let text = compose(state)
            state.lastShown = text
            return text
        }
        session.setAlertMessage(text)
    }

    func showResume(_ advice: ReaderAdvice) {
        let text = state.withLock { state -> String in
            let text = messages.resume(advice, state.percent)
            state.lastShown = text
            return text
        }
        session.setAlertMessage(text)
    }

    private func compose(_ state: State) -> String {
        if let secondsLeft = state.secondsLeft { return messages.readingWithTimeLeft(state.percent, secondsLeft) }
        return messages.reading(state.percent)
    }
}
