import Foundation
import LoggerFormats
import LoggerSessions
import NFCTags

/// `coldtap read` of an NXP NHS31xx logger: the command-mode readout (docs/nhs31xx.md §8),
/// the exchange kept as the raw read (`--save-dump` writes the transcript, §7), and the log
/// decoded from that transcript, so `coldtap decode` of the saved file gives the same log.
enum NHSRead {
    /// How long to wait for the firmware's answer before each poll on a real tag.
    static let pollDelay: Duration = .milliseconds(40)

    /// - Parameter initial: the plain read that showed the initial message.
    /// - Throws: `CommandError`: 74 when the tag left (saying after how many exchanges),
    ///   65 for a malformed answer, 1 for a refusal.
    static func read(_ transport: any TagTransport, initial: TagReadResult, options: LogInput.Options,
                     saveDump: String?, console: Console) async throws -> LoggerReadOutcome {
        let session = makeSession(transport, options: options)
        guard let initialBytes = initial.ndefMessageBytes else {
            throw CommandError.data("the NHS31xx shows no NDEF message.")
        }
        let bar = ProgressBar(console: console, label: "Reading NHS31xx")
        do {
            try session.adoptInitialMessage(initialBytes)
            // The log is decoded from the transcript below, exactly as `decode` will decode the saved file.
            _ = try await session.readOut { progress in
                bar.update(done: progress.samplesRead, total: progress.samplesTotal, unit: "samples")
            }
            bar.finish()
        } catch let error as NHSSessionError {
            bar.finish()
            throw commandError(error)
        }
        let transcript = session.transcript
        if let saveDump { try LoggerRead.write(Data(transcript.jsonLines.utf8), to: saveDump) }
        var decodeOptions = LogInput.makeDecodeOptions(options, dumpTime: nil, tagUID: nil)
        decodeOptions.logger = nil
        let log: TemperatureLog
        do {
            log = HintWording.worded(try LoggerDecoder.decode(transcript: transcript, options: decodeOptions))
        } catch let error as LoggerFormatError {
            throw LogInput.commandError(error)
        }
        return LoggerReadOutcome(result: initial, log: log, readTime: transcript.lastTime ?? Date(),
                                 transcript: Data(transcript.jsonLines.utf8))
    }

    /// A session whose clock is the reader's in whole seconds (the transcript keeps seconds),
    /// or `--read-time` when given (the clock of a simulated tag).
    static func makeSession(_ transport: any TagTransport, options: LogInput.Options) -> NHSLoggerSession {
        let given = options.readTime
        return NHSLoggerSession(transport: transport, options: NDEFExchangeOptions(pollDelay: pollDelay), clock: {
            given ?? Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        })
    }

    /// Maps a session failure to DESIGN.md's exit statuses.
    static func commandError(_ error: NHSSessionError) -> CommandError {
        switch error {
        case .exchange(.tagRemoved), .exchange(.noAnswer):
            return CommandError(.ioError, "\(error); nothing was saved or reported.")
        case .exchange(.writeFailed(let detail)) where detail.contains("cannot send"):
            return CommandError(.unavailable, "\(error).")
        case .malformed, .notNHS31xx:
            return CommandError.data("\(error).")
        case .exchange, .refused:
            return CommandError(.failure, "\(error).")
        }
    }
}

/// What `configure`, `start` and `measure` share: wait for an NHS31xx on a reader and open a
/// command-mode session on it.
enum NHSConnect {
    /// Reads the tag's initial message and returns a session holding it.
    /// - Throws: `CommandError` (65 when the tag is not an NHS31xx, 74 when it left).
    static func session(on transport: any TagTransport, clock: @escaping @Sendable () -> Date = { Date() }) async throws -> NHSLoggerSession {
        let session = NHSLoggerSession(transport: transport, options: NDEFExchangeOptions(pollDelay: NHSRead.pollDelay), clock: clock)
        do {
            try await session.readInitialMessage()
        } catch let error as NHSSessionError {
            throw NHSRead.commandError(error)
        }
        return session
    }

    /// Waits for a tag on a PC/SC reader, runs `body` on an NHS31xx session, closes the card.
    static func withLogger<T: Sendable>(reader: String?, timeout: Duration, console: Console,
                                        _ body: (NHSLoggerSession, String) async throws -> T) async throws -> T {
        let context = try ReaderSupport.context()
        let tag = try await ReaderSupport.waitForTag(context: context, reader: reader, timeout: timeout, console: console)
        do {
            let session = try await session(on: tag.transport)
            let value = try await body(session, tag.card.reader)
            await tag.close()
            return value
        } catch {
            await tag.close()
            throw error
        }
    }

    /// The GETCONFIG of the session's initial message.
    static func config(of session: NHSLoggerSession) -> NHSConfig? {
        guard let message = session.initialMessage else { return nil }
        var readout = NHSReadout()
        try? readout.add(message)
        return readout.config
    }
}
