#if (canImport(CoreNFC) && os(iOS) && !targetEnvironment(macCatalyst)) || CORENFC_GLUE_CHECK
    #if CORENFC_GLUE_CHECK
        import CoreNFCStandIn  // Linux compile check only (Tests/CoreNFCStandIn)
    #else
        import CoreNFC
    #endif
    import Foundation
    import NDEF
    import NFCTags

    /// `NDEFMessageLink` over a Core NFC NDEF tag (`NFCNDEFTag` read/write in one session), so a
    /// message-based logger (NHS31xx, docs/nhs31xx.md) can be driven from an iPhone: command mode
    /// when the tag may be written, automatic mode (reads only) when the write is refused.
    /// Core NFC writes the whole message itself; the length-last order is its business.
    public struct CoreNFCNDEFMessageLink: NDEFMessageLink, @unchecked Sendable {
        private let tag: any NFCNDEFTag

        /// - Parameter tag: a tag connected in an `NFCNDEFReaderSession` or `NFCTagReaderSession`.
        public init(tag: any NFCNDEFTag) {
            self.tag = tag
        }

        public func readMessage() async throws -> Data {
            do {
                let message = try await tag.readNDEF()
                return NDEFMessage(
                    records: message.records.map { payload in
                        NDEFRecord(
                            tnf: TypeNameFormat(rawValue: payload.typeNameFormat.rawValue) ?? .unknown,
                            type: payload.type, id: payload.identifier, payload: payload.payload)
                    }
                ).serialized()
            } catch let error as NFCReaderError where error.code == .ndefReaderSessionErrorZeroLengthMessage {
                return Data()  // an empty TLV: the firmware is between two messages
            } catch {
                throw Self.mapped(error, writing: false)
            }
        }

        public func writeMessage(_ message: Data) async throws {
            guard let ndef = NFCNDEFMessage(data: message) else {
                throw NDEFExchangeError.writeFailed("the command is not an NDEF message Core NFC accepts")
            }
            do {
                try await tag.writeNDEF(ndef)
            } catch {
                throw Self.mapped(error, writing: true)
            }
        }

        static func mapped(_ error: Error, writing: Bool) -> NDEFExchangeError {
            if let nfc = error as? NFCReaderError {
                switch nfc.code {
                case .readerTransceiveErrorTagConnectionLost, .readerTransceiveErrorTagNotConnected,
                    .readerSessionInvalidationErrorUserCanceled, .readerSessionInvalidationErrorSessionTimeout:
                    return .tagRemoved(afterExchanges: 0)
                default:
                    break
                }
            }
            let text = (error as NSError).localizedDescription
            return writing ? .writeFailed(text) : .readFailed(text)
        }
    }
#endif
