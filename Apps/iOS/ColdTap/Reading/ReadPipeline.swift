import CoreNFCTransport
import Foundation
import LoggerFormats
import NDEF
import NFCTags

/// From tag to log: NFCTags reads the NDEF message in as few round trips as the chip and
/// the iPhone allow, LoggerFormats decodes it. Runs inside the reader session, so the
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
    /// What an interrupted read got, handed back to NFCTags when the tag is found again.
    private let resume = ResumeBox()

    /// Learned multi-block read counts per chip, kept while the app runs.
    private static let learnedLimits = LearnedReadLimits()

    init(secrets: [String: String]) {
        self.secrets = secrets
    }

    /// Reads and decodes one logger.
    /// - Parameter progress: fraction of the NDEF message read, 0…1.
    /// - Throws: `TagReadError` (the session resumes on `.tagRemoved` / `.noAnswer`),
    ///   `PipelineError`, `LoggerFormatError`.
    func read(from transport: any TagTransport, progress: @escaping @Sendable (Double) -> Void) async throws -> TemperatureLog {
        let options = TagReadOptions(strategy: .fewestRoundTrips, scope: .ndefMessage, maxAttempts: 3,
                                     // Core NFC adds operating-system latency to every command.
                                     commandTimeout: .seconds(2),
                                     // Core NFC addresses ISO 15693 requests anyway.
                                     addressed: transport.technology == .iso15693,
                                     resume: resume.partial, learnedLimits: Self.learnedLimits)
        let result: TagReadResult
        do {
            result = try await TagReader.read(from: transport, options: options) { step in
                if let fraction = step.fraction { progress(fraction) }
            }
        } catch let error as TagReadError {
            switch error {
            case .tagRemoved(let stop), .noAnswer(_, _, let stop): resume.partial = stop.partial
            default: break
            }
            throw error
        }
        guard let message = result.ndefMessage else {
            throw PipelineError.noNDEFMessage(result.ndefError.map { "\($0)" } ?? "no NDEF TLV")
        }
        return try decode(message, tagUID: result.uid)
    }

    /// Decodes a message with the secret key matching the logger (by serial number or tag
    /// UID), or the only key when there is just one.
    func decode(_ message: NDEFMessage, tagUID: Data?) throws -> TemperatureLog {
        let uidText = tagUID.map { $0.map { String(format: "%02X", $0) }.joined() }
        var options = DecodeOptions(readTime: Date(), readTimeSource: .tagRead, tagUID: uidText)
        options.secret = uidText.flatMap { secrets[$0] } ?? (secrets.count == 1 ? secrets.values.first : nil)
        let log = try LoggerDecoder.decode(message, options: options)
        if options.secret == nil, let serial = log.logger.serial, let secret = secrets[serial] {
            options.secret = secret
            return try LoggerDecoder.decode(message, options: options)
        }
        return log
    }

    /// What a read error means for the session: lost tag (resume), or a final failure
    /// with advice.
    static let classify: @Sendable (Error) -> ReadErrorKind = { error in
        switch error {
        case let tagError as TagReadError:
            switch tagError {
            case .tagRemoved, .noAnswer: return .linkLost
            case .refused: return .failed(.tagRefused)
            case .unsupportedByLink, .outOfReach: return .failed(.tagNotSupported)
            case .malformed: return .failed(.unreadableData)
            }
        case is LoggerFormatError, is PipelineError, is NDEFError:
            return .failed(.unreadableData)
        default:
            return TagReadSessionController.defaultClassification(error)
        }
    }
}

/// The partial read kept between attempts inside one session.
private final class ResumeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: PartialRead?

    var partial: PartialRead? {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
