import AppViewModels
import ColdChain
import CoreNFCTransport
import Foundation
import LoggerFormats
import LoggerSessions
import StationClient

#if canImport(Combine)
    import Combine
#else
    import CombineStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// The app's state: settings, history, secrets and the read in progress.
@MainActor
final class AppModel: ObservableObject {
    /// Where the scan stands, and why a scan produced no log (AppViewModels, tested on Linux).
    typealias ScanState = AppViewModels.ScanState
    typealias ReadProblem = AppViewModels.ReadProblem

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
            let read = finished.read
            keep(
                FinishedRead(
                    log: read.log, raw: read.raw, rawKind: StoredRead.RawKind(rawValue: read.rawKind.rawValue) ?? .ndefMessage,
                    automaticMode: read.automaticMode, resumes: finished.resumes, seconds: finished.seconds))
            if case .finished(let kept) = state, kept.uploadSHA256 != nil { await station.flush() }
        case .failure(let problem):
            state = .after(.failure(problem))
        }
    }

    /// Opens the bundled sample read (`SampleRead`): read, judged and kept as a tapped logger
    /// is, marked as a sample and never queued for the station.
    func openSample() async {
        if case .reading = state { return }
        state = .reading
        do {
            keep(try await SampleRead.read())
        } catch {
            state = .after(.failure(SampleRead.problem(error)))
        }
    }

    /// Queues the read for the station (never the sample; `ReadKeeping`) before it is kept, so
    /// the history can show it waiting, then shows it.
    private func keep(_ finished: FinishedRead) {
        let read = ReadKeeping.keep(
            finished, profileName: settings.profile.name, timeZoneIdentifier: settings.timeZone.identifier,
            enqueue: { station.enqueue($0) })
        history.add(read)
        state = .finished(read)
    }

    /// Configures (erasing it) or starts the NHS31xx the person holds the iPhone to.
    func send(_ command: ReadCoordinator.LoggerCommand) async {
        guard !sendingLoggerCommand else { return }
        sendingLoggerCommand = true
        let coordinator = ReadCoordinator(profile: settings.profile, timeZone: settings.timeZone, secrets: [:])
        let outcome = await coordinator.send(command)
        sendingLoggerCommand = false
        loggerCommandOutcome = CommandOutcomeDisplay.kept(outcome)
    }

    /// The assessment of a stored read with the current settings' time zone and the read's
    /// own profile (or the current one if that profile no longer exists).
    func assessment(of read: StoredRead) -> Assessment {
        read.assessment(currentProfile: settings.profile, timeZone: settings.timeZone)
    }
}
