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

/// From tag to log: NFCTags reads the NDEF message in as few round trips as the chip and
/// the iPhone allow, LoggerFormats decodes it. A logger that answers commands (NXP NHS31xx)
/// shows an initial message instead: LoggerSessions then reads it out by exchanging
/// messages over the same connection (`NHSTap`). Runs inside the reader session, so the
/// verdict can be shown on the sheet before it closes.
struct ReadPipeline: Sendable {
    /// Why a read gave no log although the tag answered.
    enum PipelineError: Error, CustomStringConvertible {
        case noNDEFMessage(String)

        var description: String {
            switch self {
            case .noNDEFMessage(let why): return "the tag holds no NDEF message ColdTap can decode (\(why))"
            }
        }
    }

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
    ///   `PipelineError`, `LoggerFormatError`, `NHSSessionError`.
    func read(from transport: any TagTransport, resume: PartialRead?,
              progress: @escaping @Sendable (Double) -> Void) async throws -> PipelineRead {
        let options = TagReadOptions(strategy: .fewestRoundTrips, scope: .ndefMessage, maxAttempts: 3,
                                     // Core NFC adds operating-system latency to every command.
                                     commandTimeout: .seconds(2),
                                     // Core NFC addresses ISO 15693 requests anyway.
                                     addressed: transport.technology == .iso15693,
                                     resume: resume, learnedLimits: Self.learnedLimits)
        // A SmarTag's log is bounded by its memory layout, not its NDEF lengths
        // (docs/smartag.md §4.5): seeing its record, the rest of the memory is read too.
        let (result, memory) = try await TagReader.readNDEFThenMemory(from: transport, options: options, progress: { step in
            if let fraction = step.fraction { progress(fraction) }
        }) { result in
            result.ndefMessageBytes.map { SmarTagImage(ndefMessageBytes: $0) != nil } ?? false
        }
        if let memory, let image = SmarTagImage(tagMemory: memory.memory) {
            let uidText = result.uid.map { $0.map { String(format: "%02X", $0) }.joined() }
            let log = try LoggerDecoder.decode(smarTag: image, options: decodeOptions(tagUID: uidText))
            // Kept (and uploaded) as a Flipper file: the memory with the tag's UID, as `coldtap read` keeps it.
            return PipelineRead(log: log, raw: Data(memory.flipperText().utf8), rawKind: .tagMemory)
        }
        guard let message = result.ndefMessage, let bytes = result.ndefMessageBytes else {
            throw PipelineError.noNDEFMessage(result.ndefError.map { "\($0)" } ?? "no NDEF TLV")
        }
        if NHSLoggerSession.isInitialMessage(message) {
            let link: any TagTransport = readLoggersWithoutWriting ? ReadOnlyTransport(transport) : transport
            let tap = try await NHSTap.read(link, initialMessage: bytes, decodeOptions: decodeOptions(tagUID: nil),
                                            options: Self.nhsExchangeOptions, progress: progress)
            return PipelineRead(log: tap.log, raw: Data(tap.transcript.jsonLines.utf8), rawKind: .nhsTranscript,
                                automaticMode: tap.automaticMode)
        }
        return PipelineRead(log: try decode(message, tagUID: result.uid), raw: bytes, rawKind: .ndefMessage)
    }

    private func decodeOptions(tagUID: String?) -> DecodeOptions {
        DecodeOptions(readTime: Date(), readTimeSource: .tagRead, tagUID: tagUID)
    }

    /// Decodes a message with the secret key matching the logger (by serial number or tag
    /// UID), or the only key when there is just one.
    func decode(_ message: NDEFMessage, tagUID: Data?) throws -> TemperatureLog {
        let uidText = tagUID.map { $0.map { String(format: "%02X", $0) }.joined() }
        var options = decodeOptions(tagUID: uidText)
        options.secret = uidText.flatMap { secrets[$0] } ?? (secrets.count == 1 ? secrets.values.first : nil)
        let log = try LoggerDecoder.decode(message, options: options)
        if options.secret == nil, let serial = log.logger.serial, let secret = secrets[serial] {
            options.secret = secret
            return try LoggerDecoder.decode(message, options: options)
        }
        return log
    }

    /// What a read error means for the session: lost tag (resume), or a final failure
    /// with advice; decoding errors mean the data is not a log ColdTap can read.
    static let classify: @Sendable (Error) -> ReadErrorKind = { error in
        switch error {
        case is LoggerFormatError, is PipelineError, is NDEFError:
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
