import Foundation
import NDEF

/// What `NFCNDEFReaderSessionDelegate` reports, in order.
public enum NDEFSessionEvent: Sendable {
    case becameActive
    /// `readerSession(_:didDetectNDEFs:)`, messages converted to `NDEFMessage`.
    case detected([NDEFMessage])
    case invalidated(CoreNFCFailure)
}

/// The calls the plain-NDEF path makes on `NFCNDEFReaderSession`.
public protocol NDEFReaderSessionLink: Sendable {
    /// Sets `alertMessage`.
    func setAlertMessage(_ message: String)
    /// `invalidate()`: ends the session, showing the current alert message.
    func invalidate()
}

/// The plain-NDEF path: `NFCNDEFReaderSession` reads the NDEF message itself (iOS 11/12-class
/// behaviour, and tags the tag session cannot drive). With `invalidateAfterFirstRead` the
/// session ends on its own after the first message (code 204, a normal end).
public struct NDEFReadSessionController: Sendable {
    public let session: any NDEFReaderSessionLink
    public let messages: SessionMessages

    public init(session: any NDEFReaderSessionLink, messages: SessionMessages = .english) {
        self.session = session
        self.messages = messages
    }

    /// Waits for the first NDEF message.
    ///
    /// - Parameters:
    ///   - events: the delegate's events.
    ///   - verdict: a sentence for the sheet, shown when the session is still open after the
    ///     message (a session started without `invalidateAfterFirstRead`), which is then ended.
    /// - Returns: the first message, or a `ReadFailure` saying what to do (an empty read is
    ///   `.tagNotSupported`: the tag holds no NDEF message).
    public func run(
        events: AsyncStream<NDEFSessionEvent>,
        verdict: (@Sendable (NDEFMessage) -> String)? = nil
    ) async -> Result<NDEFMessage, ReadFailure> {
        var sawOnlyEmptyMessages = false
        for await event in events {
            switch event {
            case .becameActive:
                session.setAlertMessage(messages.holdNear())
            case .detected(let found):
                guard let message = found.first(where: { !$0.records.isEmpty }) else {
                    sawOnlyEmptyMessages = true
                    session.setAlertMessage(messages.advice(.tagNotSupported))
                    continue
                }
                if let verdict {
                    session.setAlertMessage(verdict(message))
                }
                session.invalidate()
                return .success(message)
            case .invalidated(let failure):
                if sawOnlyEmptyMessages, failure.readerError == .firstNDEFTagRead {
                    return .failure(
                        ReadFailure(
                            advice: .tagNotSupported, code: failure.readerError,
                            detail: "the tag holds an empty NDEF message"))
                }
                return .failure(ReadFailure(advice: failure.advice, code: failure.readerError, detail: failure.description))
            }
        }
        return .failure(ReadFailure(advice: .scanAgain, detail: "the NDEF session ended without a message"))
    }
}
