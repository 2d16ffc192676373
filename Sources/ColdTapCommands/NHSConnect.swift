import ColdTapKit
import Foundation
import LoggerFormats
import LoggerSessions
import NFCTags

extension CommandError {
    /// An NXP NHS31xx session's failure with DESIGN.md's exit statuses (`read`, `configure`,
    /// `start`, `measure`): 74 when the tag left, 69 when the reader cannot send, 65 for a
    /// malformed answer, 1 for a refusal.
    init(_ error: NHSSessionError) {
        switch error {
        case .exchange(.tagRemoved), .exchange(.noAnswer):
            self.init(.ioError, "\(error); nothing was saved or reported.")
        case .exchange(.writeFailed(let detail)) where detail.contains("cannot send"):
            self.init(.unavailable, "\(error).")
        case .malformed, .notNHS31xx:
            self.init(.dataError, "\(error).")
        case .exchange, .refused:
            self.init(.failure, "\(error).")
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
            throw CommandError(error)
        }
        return session
    }

    /// Waits for a tag on a PC/SC reader, runs `body` on an NHS31xx session, closes the card.
    static func withLogger<T: Sendable>(
        reader: String?, timeout: Duration, console: Console,
        _ body: (NHSLoggerSession, String) async throws -> T
    ) async throws -> T {
        let context = try ReaderConnection.context()
        let tag = try await ReaderConnection.waitForTag(context: context, reader: reader, timeout: timeout, console: console)
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
