import AppViewModels
import ColdChain
import CoreNFCTransport
import Foundation
import LoggerFormats
import LoggerSessions
import NDEF
import NFCTags

/// Runs one scan: opens the Core NFC session, drives it with the transport's session
/// controller and the read pipeline, and returns the log or what to tell the person.
@MainActor
struct ReadCoordinator {
    struct Finished: Sendable {
        var read: PipelineRead
        var resumes: Int
        var seconds: Double

        var log: TemperatureLog { read.log }
    }

    let profile: Profile
    let timeZone: TimeZone
    let secrets: [String: String]
    var readLoggersWithoutWriting = false

    /// Which CRC framing each Type 2 chip answered, kept while the app runs.
    private static let miFareFraming = MiFareFramingMemory()

    static var isReadingAvailable: Bool {
        CoreNFCTagSession.isReadingAvailable || CoreNFCNDEFSession.isReadingAvailable
    }

    /// Tag session (ISO 14443 + ISO 15693): raw Type 2 / Type 5 commands, progress and the
    /// verdict on the sheet, resume inside the session.
    func readWithTagSession() async -> Result<Finished, AppModel.ReadProblem> {
        guard CoreNFCTagSession.isReadingAvailable else { return .failure(Self.problem(.nfcUnavailable)) }
        let session = CoreNFCTagSession()
        let controller = TagReadSessionController(
            session: session, messages: SessionTexts.messages,
            miFareFraming: Self.miFareFraming, classify: ReadPipeline.classify)
        let pipeline = ReadPipeline(secrets: secrets, readLoggersWithoutWriting: readLoggersWithoutWriting)
        let profile = self.profile, timeZone = self.timeZone
        guard session.begin(alertMessage: SessionTexts.holdNear) else { return .failure(Self.problem(.nfcUnavailable)) }
        let (result, report) = await controller.run(
            events: session.events,
            read: { transport, resume, progress in
                try await pipeline.read(from: transport, resume: resume, progress: progress)
            },
            verdict: { read in
                VerdictText.sheet(for: Assessor.assess(read.log, profile: profile, timeZone: timeZone))
            })
        switch result {
        case .success(let read):
            return .success(Finished(read: read, resumes: report.resumes, seconds: report.elapsed))
        case .failure(let failure):
            return .failure(Self.problem(failure.advice, detail: failure.detail))
        }
    }

    /// Plain NDEF session: Core NFC reads the message itself.
    func readWithNDEFSession() async -> Result<Finished, AppModel.ReadProblem> {
        guard CoreNFCNDEFSession.isReadingAvailable else { return .failure(Self.problem(.nfcUnavailable)) }
        let session = CoreNFCNDEFSession()
        let pipeline = ReadPipeline(secrets: secrets)
        let profile = self.profile, timeZone = self.timeZone
        let start = Date()
        // Kept open after the first message so the verdict can be shown before it closes.
        session.begin(alertMessage: SessionTexts.holdNear, invalidateAfterFirstRead: false)
        let result = await NDEFReadSessionController(session: session, messages: SessionTexts.messages)
            .run(
                events: session.events,
                verdict: { message in
                    if NHSLoggerSession.isInitialMessage(message) { return SessionTexts.nhsNeedsTagCommands }
                    guard let log = try? pipeline.decode(message, tagUID: nil) else {
                        return SessionTexts.advice(.unreadableData)
                    }
                    return VerdictText.sheet(for: Assessor.assess(log, profile: profile, timeZone: timeZone))
                })
        switch result {
        case .success(let message):
            // An NHS31xx must be written to (or read many times): the NDEF session sees one message only.
            if NHSLoggerSession.isInitialMessage(message) {
                return .failure(AppModel.ReadProblem(message: SessionTexts.nhsNeedsTagCommands))
            }
            do {
                let log = try pipeline.decode(message, tagUID: nil)
                let read = PipelineRead(log: log, raw: message.serialized(), rawKind: .ndefMessage)
                return .success(Finished(read: read, resumes: 0, seconds: Date().timeIntervalSince(start)))
            } catch {
                return .failure(Self.problem(.unreadableData, detail: SessionTexts.detail(of: error)))
            }
        case .failure(let failure):
            return .failure(Self.problem(failure.advice, detail: failure.detail))
        }
    }

    /// What to do on an NHS31xx in a tag session: configure it (SETCONFIG, erasing it) or start it.
    enum LoggerCommand: Sendable {
        case configure(NHSLoggerSetup)
        case start
    }

    /// Sends `command` to the NHS31xx the person holds the iPhone to; the sheet closes
    /// with what was done. A tag that is not an NHS31xx is left untouched.
    func send(_ command: LoggerCommand) async -> Result<String, AppModel.ReadProblem> {
        guard CoreNFCTagSession.isReadingAvailable else { return .failure(Self.problem(.nfcUnavailable)) }
        let session = CoreNFCTagSession()
        let controller = TagReadSessionController(
            session: session, messages: SessionTexts.messages,
            miFareFraming: Self.miFareFraming, classify: ReadPipeline.classify)
        guard session.begin(alertMessage: SessionTexts.holdNear) else { return .failure(Self.problem(.nfcUnavailable)) }
        let (result, _) = await controller.run(
            events: session.events,
            read: { transport, _, progress in
                let shown = try await TagReader.read(from: transport, options: ReadPipeline.nhsExchangeOptions.tagOptions)
                guard let bytes = shown.ndefMessageBytes, let message = shown.ndefMessage, NHSLoggerSession.isInitialMessage(message) else {
                    throw NHSSessionError.notNHS31xx("its NDEF message has no GETVERSION and GETCONFIG answers")
                }
                progress(0.5)
                switch command {
                case .configure(let setup):
                    try await NHSTap.configure(transport, initialMessage: bytes, setup: setup, options: ReadPipeline.nhsExchangeOptions)
                    return SessionTexts.configured(setup)
                case .start:
                    try await NHSTap.start(transport, initialMessage: bytes, options: ReadPipeline.nhsExchangeOptions)
                    return SessionTexts.started
                }
            }, verdict: { done in done })
        switch result {
        case .success(let done): return .success(done)
        case .failure(let failure): return .failure(Self.problem(failure.advice, detail: failure.detail))
        }
    }

    static func problem(_ advice: ReaderAdvice, detail: String? = nil) -> AppModel.ReadProblem {
        AppModel.ReadProblem(message: SessionTexts.advice(advice), detail: detail, cancelled: advice == .cancelled)
    }
}
