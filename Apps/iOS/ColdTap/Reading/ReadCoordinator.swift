import ColdChain
import CoreNFCTransport
import Foundation
import LoggerFormats

/// Runs one scan: opens the Core NFC session, drives it with the transport's session
/// controller and the read pipeline, and returns the log or what to tell the person.
@MainActor
struct ReadCoordinator {
    struct Finished: Sendable {
        var log: TemperatureLog
        var resumes: Int
        var seconds: Double
    }

    let profile: Profile
    let timeZone: TimeZone
    let secrets: [String: String]

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
        let controller = TagReadSessionController(session: session, messages: SessionTexts.messages,
                                                  miFareFraming: Self.miFareFraming, classify: ReadPipeline.classify)
        let pipeline = ReadPipeline(secrets: secrets)
        let profile = self.profile, timeZone = self.timeZone
        guard session.begin(alertMessage: SessionTexts.holdNear) else { return .failure(Self.problem(.nfcUnavailable)) }
        let (result, report) = await controller.run(events: session.events, read: { transport, resume, progress in
            try await pipeline.read(from: transport, resume: resume, progress: progress)
        }, verdict: { log in
            VerdictText.sheet(for: Assessor.assess(log, profile: profile, timeZone: timeZone))
        })
        switch result {
        case .success(let log):
            return .success(Finished(log: log, resumes: report.resumes, seconds: report.elapsed))
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
            .run(events: session.events, verdict: { message in
                guard let log = try? pipeline.decode(message, tagUID: nil) else {
                    return SessionTexts.advice(.unreadableData)
                }
                return VerdictText.sheet(for: Assessor.assess(log, profile: profile, timeZone: timeZone))
            })
        switch result {
        case .success(let message):
            do {
                let log = try pipeline.decode(message, tagUID: nil)
                return .success(Finished(log: log, resumes: 0, seconds: Date().timeIntervalSince(start)))
            } catch {
                return .failure(Self.problem(.unreadableData, detail: SessionTexts.detail(of: error)))
            }
        case .failure(let failure):
            return .failure(Self.problem(failure.advice, detail: failure.detail))
        }
    }

    static func problem(_ advice: ReaderAdvice, detail: String? = nil) -> AppModel.ReadProblem {
        AppModel.ReadProblem(message: SessionTexts.advice(advice), detail: detail, cancelled: advice == .cancelled)
    }
}
