import ColdChain
import Combine
import CoreNFCTransport
import Foundation
import LoggerFormats
import LoggerSessions
import StationClient

/// The app's state: settings, history, secrets and the read in progress.
@MainActor
final class AppModel: ObservableObject {
    enum ScanState {
        case idle
        case reading
        case finished(StoredRead)
        case failed(ReadProblem)
    }

    /// Why a scan produced no log, in words for the person.
    struct ReadProblem: Error, Equatable {
        /// What to do next.
        var message: String
        /// Technical detail for the curious (shown small).
        var detail: String?
        /// True when the person cancelled; nothing to show.
        var cancelled: Bool = false
    }

    let settings = SettingsStore()
    let history = HistoryStore()
    let keychain = KeychainStore()
    let station = StationUploader()
    @Published var state: ScanState = .idle
    /// The last Configure or Start on an NHS31xx: what was done, or why not.
    @Published var loggerCommandOutcome: Result<String, ReadProblem>?
    @Published var sendingLoggerCommand = false

    /// True when this iPhone can read NFC tags at all.
    var canReadTags: Bool { ReadCoordinator.isReadingAvailable }

    /// Reads a logger with the chosen reading mode and keeps the result in the history.
    func scan() async {
        if case .reading = state { return }
        state = .reading
        let secrets = (try? keychain.allSecrets()) ?? [:]
        let coordinator = ReadCoordinator(
            profile: settings.profile, timeZone: settings.timeZone, secrets: secrets,
            readLoggersWithoutWriting: settings.readLoggersWithoutWriting)
        let outcome: Result<ReadCoordinator.Finished, ReadProblem>
        switch settings.readingMode {
        case .tagSession: outcome = await coordinator.readWithTagSession()
        case .ndefOnly: outcome = await coordinator.readWithNDEFSession()
        }
        switch outcome {
        case .success(let finished):
            // Queued before it is kept, so the history can show it waiting for the station.
            // The tag UID names the logger on the station when the log itself names none.
            let upload = PendingUpload(
                raw: finished.read.raw, readTime: finished.log.readTime, source: "ColdTap iPhone",
                loggerID: finished.log.logger.tagUID)
            let queued = station.enqueue(upload)
            let read = StoredRead(
                id: UUID(), readAt: finished.log.readTime, log: finished.log,
                profileName: settings.profile.name, timeZoneIdentifier: settings.timeZone.identifier,
                resumes: finished.resumes, seconds: finished.seconds,
                uploadSHA256: queued, rawKind: finished.read.rawKind,
                automaticMode: finished.read.rawKind == .nhsTranscript ? finished.read.automaticMode : nil)
            history.add(read)
            state = .finished(read)
            if queued != nil { await station.flush() }
        case .failure(let problem):
            state = problem.cancelled ? .idle : .failed(problem)
        }
    }

    /// Configures (erasing it) or starts the NHS31xx the person holds the iPhone to.
    func send(_ command: ReadCoordinator.LoggerCommand) async {
        guard !sendingLoggerCommand else { return }
        sendingLoggerCommand = true
        let coordinator = ReadCoordinator(profile: settings.profile, timeZone: settings.timeZone, secrets: [:])
        let outcome = await coordinator.send(command)
        sendingLoggerCommand = false
        if case .failure(let problem) = outcome, problem.cancelled {
            loggerCommandOutcome = nil
        } else {
            loggerCommandOutcome = outcome
        }
    }

    /// The assessment of a stored read with the current settings' time zone and the read's
    /// own profile (or the current one if that profile no longer exists).
    func assessment(of read: StoredRead) -> Assessment {
        let profile = Profile.builtIn(named: read.profileName) ?? settings.profile
        return Assessor.assess(read.log, profile: profile, timeZone: settings.timeZone)
    }
}
