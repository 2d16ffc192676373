import ColdTapKit
import Foundation
import LoggerFormats
import LoggerSessions
import NFCTags

/// An NXP NHS31xx session's failures in the command line's words (`read`, `configure`,
/// `start`, `measure`); the readout itself is ColdTapKit's `LoggerReader`.
enum NHSRead {
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
        let session = NHSLoggerSession(transport: transport, options: NDEFExchangeOptions(pollDelay: NHSTap.pollDelay), clock: clock)
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
