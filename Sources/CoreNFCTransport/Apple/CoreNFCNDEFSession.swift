#if (canImport(CoreNFC) && os(iOS) && !targetEnvironment(macCatalyst)) || CORENFC_GLUE_CHECK
    #if CORENFC_GLUE_CHECK
        import CoreNFCStandIn  // Linux compile check only (Tests/CoreNFCStandIn)
    #else
        import CoreNFC
    #endif
    import ColdTapBase
    import Foundation
    import NDEF

    /// An `NFCNDEFReaderSession` (the plain-NDEF path), its delegate and the
    /// `NDEFReaderSessionLink` the controller drives.
    public final class CoreNFCNDEFSession: NSObject, NFCNDEFReaderSessionDelegate, NDEFReaderSessionLink, @unchecked Sendable {
        public let events: AsyncStream<NDEFSessionEvent>
        private let continuation: AsyncStream<NDEFSessionEvent>.Continuation
        private let queue = DispatchQueue(label: "ColdTap.CoreNFCNDEFSession")
        /// Core NFC's session object is not `Sendable`; the box only stores it and hands it out under the lock.
        private struct Held: @unchecked Sendable { var session: NFCNDEFReaderSession? }
        private let held = LockedValue(Held())

        /// True when this iPhone can read NDEF (iPhone 7 or later).
        public static var isReadingAvailable: Bool { NFCNDEFReaderSession.readingAvailable }

        public override init() {
            (events, continuation) = AsyncStream<NDEFSessionEvent>.makeStream()
            super.init()
        }

        /// Starts the session.
        /// - Parameter invalidateAfterFirstRead: end after the first message (the sheet then
        ///   closes with a check mark by itself; Core NFC reports code 204).
        public func begin(alertMessage: String, invalidateAfterFirstRead: Bool = true) {
            let session = NFCNDEFReaderSession(delegate: self, queue: queue, invalidateAfterFirstRead: invalidateAfterFirstRead)
            session.alertMessage = alertMessage
            held.exchange(Held(session: session))
            session.begin()
        }

        private var current: NFCNDEFReaderSession? {
            held.current.session
        }

        public func setAlertMessage(_ message: String) {
            current?.alertMessage = message
        }

        public func invalidate() {
            current?.invalidate()
        }

        public func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) {
            continuation.yield(.becameActive)
        }

        public func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
            continuation.yield(.detected(messages.map(Self.message)))
        }

        public func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: Error) {
            continuation.yield(.invalidated(CoreNFCFailure(nfcError: error)))
            continuation.finish()
            held.exchange(Held())
        }

        static func message(_ message: NFCNDEFMessage) -> NDEFMessage {
            NDEFMessage(
                records: message.records.map { payload in
                    NDEFRecord(
                        tnf: TypeNameFormat(rawValue: payload.typeNameFormat.rawValue) ?? .unknown,
                        type: payload.type, id: payload.identifier, payload: payload.payload)
                })
        }
    }
#endif
