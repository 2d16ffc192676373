#if (canImport(CoreNFC) && os(iOS) && !targetEnvironment(macCatalyst)) || CORENFC_GLUE_CHECK
    #if CORENFC_GLUE_CHECK
        import CoreNFCStandIn  // Linux compile check only (Tests/CoreNFCStandIn)
    #else
        import CoreNFC
    #endif
    import ColdTapBase
    import Foundation

    /// An `NFCTagReaderSession` polling ISO 14443 and ISO 15693, its delegate, and the
    /// `TagReaderSessionLink` the controller drives. Events arrive on `events` in order.
    ///
    /// Usage: create, `begin(alertMessage:)`, then
    /// `TagReadSessionController(session: thisSession).run(events: thisSession.events, ...)`.
    public final class CoreNFCTagSession: NSObject, NFCTagReaderSessionDelegate, TagReaderSessionLink, @unchecked Sendable {
        /// The delegate's callbacks as a stream; finishes when the session is invalidated.
        public let events: AsyncStream<TagSessionEvent>
        private let continuation: AsyncStream<TagSessionEvent>.Continuation
        private let queue = DispatchQueue(label: "ColdTap.CoreNFCTagSession")
        /// Core NFC's session object is not `Sendable`; the box only stores it and hands it out under the lock.
        private struct Held: @unchecked Sendable { var session: NFCTagReaderSession? }
        private let held = LockedValue(Held())

        /// True when this iPhone can run tag reader sessions (iPhone 7 or later, iOS 13+).
        public static var isReadingAvailable: Bool { NFCTagReaderSession.readingAvailable }

        public override init() {
            (events, continuation) = AsyncStream<TagSessionEvent>.makeStream()
            super.init()
        }

        /// Starts polling and shows the system sheet with `alertMessage`.
        /// - Returns: false when Core NFC could not create the session (no NFC on this device).
        @discardableResult
        public func begin(alertMessage: String) -> Bool {
            guard let session = makeSession() else {
                continuation.yield(.invalidated(CoreNFCFailure(.unsupportedFeature, message: "NFCTagReaderSession unavailable")))
                continuation.finish()
                return false
            }
            session.alertMessage = alertMessage
            held.exchange(Held(session: session))
            session.begin()
            return true
        }

        /// The session polling ISO 14443 and ISO 15693, through `init(pollingOption:delegate:queue:)`
        /// on every iOS: iOS 26.4 deprecates it in favour of `init(configuration:delegate:queue:)`
        /// but still runs it, and that newer initialiser waits until the deployment target
        /// reaches iOS 26.4 (an SDK gate for it would rest on an undocumented `canImport`
        /// version; Apps/iOS/README.md).
        private func makeSession() -> NFCTagReaderSession? {
            NFCTagReaderSession(pollingOption: [.iso14443, .iso15693], delegate: self, queue: queue)
        }

        private var current: NFCTagReaderSession? {
            held.current.session
        }

        // MARK: TagReaderSessionLink

        public func setAlertMessage(_ message: String) {
            current?.alertMessage = message
        }

        public func connect(to tag: DetectedTag) async throws {
            guard let session = current else { throw CoreNFCFailure(.sessionInvalidated) }
            let nfcTag: NFCTag
            switch tag {
            case .type2(let link):
                guard let link = link as? CoreNFCMiFareLink else { throw CoreNFCFailure(.invalidParameter, message: "not a Core NFC tag") }
                nfcTag = .miFare(link.tag)
            case .type5(let link):
                guard let link = link as? CoreNFCISO15693Link else { throw CoreNFCFailure(.invalidParameter, message: "not a Core NFC tag") }
                nfcTag = .iso15693(link.tag)
            case .unsupported(let kind):
                throw CoreNFCFailure(.unsupportedFeature, message: "cannot drive \(kind)")
            }
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                session.connect(
                    to: nfcTag,
                    completionHandler: { error in
                        if let error {
                            continuation.resume(throwing: CoreNFCFailure(nfcError: error))
                        } else {
                            continuation.resume()
                        }
                    })
            }
        }

        public func restartPolling() {
            current?.restartPolling()
        }

        public func invalidate(successMessage: String) {
            guard let session = current else { return }
            session.alertMessage = successMessage
            session.invalidate()
        }

        public func invalidate(errorMessage: String) {
            current?.invalidate(errorMessage: errorMessage)
        }

        // MARK: NFCTagReaderSessionDelegate

        public func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {
            continuation.yield(.becameActive)
        }

        public func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: Error) {
            continuation.yield(.invalidated(CoreNFCFailure(nfcError: error)))
            continuation.finish()
            held.exchange(Held())
        }

        public func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
            continuation.yield(.detected(tags.map(Self.detectedTag)))
        }

        static func detectedTag(_ tag: NFCTag) -> DetectedTag {
            switch tag {
            case .miFare(let miFare):
                switch miFare.mifareFamily {
                case .ultralight, .unknown:
                    // NTAG21x and NTAG I2C report Ultralight; other Type 2 chips may report unknown.
                    return .type2(CoreNFCMiFareLink(tag: miFare))
                case .plus:
                    return .unsupported(kind: "MIFARE Plus")
                case .desfire:
                    return .unsupported(kind: "MIFARE DESFire")
                @unknown default:
                    return .unsupported(kind: "MIFARE")
                }
            case .iso15693(let iso15693):
                return .type5(CoreNFCISO15693Link(tag: iso15693))
            case .feliCa:
                return .unsupported(kind: "FeliCa")
            case .iso7816:
                return .unsupported(kind: "ISO 7816")
            @unknown default:
                return .unsupported(kind: "unknown tag")
            }
        }
    }
#endif
