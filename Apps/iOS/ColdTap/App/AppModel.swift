import Combine
import ColdChain
import CoreNFCTransport
import Foundation
import LoggerFormats

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
    @Published var state: ScanState = .idle

    /// True when this iPhone can read NFC tags at all.
    var canReadTags: Bool { ReadCoordinator.isReadingAvailable }

    /// Reads a logger with the chosen reading mode and keeps the result in the history.
    func scan() async {
        if case .reading = state { return }
        state = .reading
        let secrets = (try? keychain.allSecrets()) ?? [:]
        let coordinator = ReadCoordinator(profile: settings.profile, timeZone: settings.timeZone, secrets: secrets)
        let outcome: Result<ReadCoordinator.Finished, ReadProblem>
        switch settings.readingMode {
        case .tagSession: outcome = await coordinator.readWithTagSession()
        case .ndefOnly: outcome = await coordinator.readWithNDEFSession()
        }
        switch outcome {
        case .success(let finished):
            let read = StoredRead(id: UUID(), readAt: finished.log.readTime, log: finished.log,
                                  profileName: settings.profile.name, timeZoneIdentifier: settings.timeZone.identifier,
                                  resumes: finished.resumes, seconds: finished.seconds)
            history.add(read)
            state = .finished(read)
        case .failure(let problem):
            state = problem.cancelled ? .idle : .failed(problem)
        }
    }

    /// The assessment of a stored read with the current settings' time zone and the read's
    /// own profile (or the current one if that profile no longer exists).
    func assessment(of read: StoredRead) -> Assessment {
        let profile = Profile.builtIn(named: read.profileName) ?? settings.profile
        return Assessor.assess(read.log, profile: profile, timeZone: settings.timeZone)
    }
}
