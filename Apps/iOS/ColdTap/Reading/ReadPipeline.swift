import ColdTapBase
import ColdTapKit
import CoreNFCTransport
import Foundation
import LoggerFormats
import LoggerSessions
import NDEF
import NFCTags

/// What one read gave: the log, and the raw read it was decoded from (kept for the station).
struct PipelineRead: Sendable {
    enum Raw: String, Codable, Sendable {
        /// The NDEF message bytes as read.
        case ndefMessage
        /// An NHS31xx exchange transcript, JSON Lines (docs/nhs31xx.md §7).
        case nhsTranscript
        /// The whole memory of a logger that writes its tag itself (ST SmarTag, docs/smartag.md),
        /// as a Flipper file.
        case tagMemory
    }

    var log: TemperatureLog
    var raw: Data
    var rawKind: Raw
    /// An NHS31xx read in automatic mode (its write was refused): read-only, successive reads.
    var automaticMode = false
}

/// From tag to log: ColdTapKit's `LoggerReader`, the same reading as `coldtap read` (the
/// NDEF message in as few round trips as the chip and the iPhone allow, a SmarTag's memory,
/// an NHS31xx read out over the same connection), with the iPhone's timeouts and the keys
/// typed in Settings. Runs inside the reader session, so the verdict can be shown on the
/// sheet before it closes.
struct ReadPipeline: Sendable {
    /// Secret keys by label (logger serial number or tag UID), as typed in Settings.
    let secrets: [String: String]
    /// Read NHS31xx loggers through `ReadOnlyTransport`: never written, so read in automatic mode.
    let readLoggersWithoutWriting: Bool

    /// An NHS31xx exchange over Core NFC: the firmware's answer time before each poll, and
    /// the per-command timeout of the other reads (Core NFC adds operating-system latency).
    static let nhsExchangeOptions = NDEFExchangeOptions(
        pollDelay: NHSTap.pollDelay,
        tagOptions: TagReadOptions(strategy: .fewestRoundTrips, scope: .ndefMessage, maxAttempts: 3, commandTimeout: .seconds(2)))

    /// Learned multi-block read counts per chip, kept while the app runs.
    private static let learnedLimits = LearnedReadLimits()

    init(secrets: [String: String], readLoggersWithoutWriting: Bool = false) {
        self.secrets = secrets
        self.readLoggersWithoutWriting = readLoggersWithoutWriting
    }

    /// Reads and decodes one logger.
    /// - Parameters:
    ///   - resume: what an interrupted read of this tag got; the session controller hands
    ///     it over when the tag is found again.
    ///   - progress: fraction of the NDEF message (or of the NHS31xx readout) read, 0…1.
    /// - Throws: `TagReadError` (the session resumes on `.tagRemoved` / `.noAnswer`),
    ///   `LoggerReadError`, `InputError`, `NHSSessionError`.
    func read(
        from transport: any TagTransport, resume: PartialRead?,
        progress: @escaping @Sendable (Double) -> Void
    ) async throws -> PipelineRead {
        let tagOptions = TagReadOptions(
            strategy: .fewestRoundTrips, scope: .ndefMessage, maxAttempts: 3,
            // Core NFC adds operating-system latency to every command.
            commandTimeout: .seconds(2),
            // Core NFC addresses ISO 15693 requests anyway.
            addressed: transport.technology == .iso15693,
            resume: resume, learnedLimits: Self.learnedLimits)
        let reader = LoggerReader(
            secrets: SecretKeys(byLabel: secrets), tagOptions: tagOptions,
            exchangeOptions: Self.nhsExchangeOptions, readLoggersWithoutWriting: readLoggersWithoutWriting)
        let read = try await reader.read(
            from: transport,
            progress: { step in
                if let fraction = step.fraction { progress(fraction) }
            })
        guard let (raw, kind) = read.rawRead else { throw LoggerReadError.noNDEFMessage(chip: read.result.chip.displayName) }
        switch kind {
        case .nhsTranscript:
            return PipelineRead(log: read.log, raw: raw, rawKind: .nhsTranscript, automaticMode: read.automaticMode)
        case .flipper:
            // Kept (and uploaded) as a Flipper file: the memory with the tag's UID, as `coldtap read` keeps it.
            return PipelineRead(log: read.log, raw: raw, rawKind: .tagMemory)
        default:
            return PipelineRead(log: read.log, raw: raw, rawKind: .ndefMessage)
        }
    }

    /// Decodes a message Core NFC read itself, with the key filed for the logger (by serial
    /// number or tag UID), or the only key when there is just one.
    func decode(_ message: NDEFMessage, tagUID: Data?) throws -> TemperatureLog {
        try LoggerReader(secrets: SecretKeys(byLabel: secrets)).decode(message, readTime: Date(), tagUID: tagUID?.hexString())
    }

    /// What a read error means for the session: lost tag (resume), or a final failure
    /// with advice; decoding errors mean the data is not a log ColdTap can read.
    static let classify: @Sendable (Error) -> ReadErrorKind = { error in
        switch error {
        case is InputError, is LoggerReadError, is LoggerFormatError, is NDEFError:
            return .failed(.unreadableData)
        case let nhs as NHSSessionError:
            return nhsKind(nhs)
        default:
            // NFCTags' and the transport's errors.
            return TagReadSessionController.defaultClassification(error)
        }
    }

    /// An NHS31xx session's failure: a lost tag is read again from the start when it comes
    /// back (the firmware shows its initial message again); the rest ends the session.
    static func nhsKind(_ error: NHSSessionError) -> ReadErrorKind {
        switch error {
        case .exchange(.tagRemoved), .exchange(.noAnswer): return .linkLost
        case .exchange(.writeFailed): return .failed(.tagReadOnly)
        case .exchange(.readFailed), .refused: return .failed(.tagRefused)
        case .malformed, .notNHS31xx: return .failed(.unreadableData)
        }
    }
}
