#if CORENFC_GLUE_CHECK
    import CoreNFCStandIn
    import Foundation
    import NDEF
    import NFCTags
    import Testing

    // These tests run the Core NFC glue (Sources/CoreNFCTransport/Apple/, compiled into this
    // target) against the stand-in CoreNFC module. Building them is the signature check; the
    // tests check what the glue does with Core NFC's values.

    /// An ISO 15693 tag behind the stand-in protocol: answers raw requests with the bytes given.
    final class StandInISO15693Tag: NFCISO15693Tag, @unchecked Sendable {
        let identifier = Data([0xE0, 0x02, 0x26, 0x00, 0x12, 0x34, 0x56, 0x78])
        var requests: [(flags: Int, code: Int, data: Data?)] = []
        var rawAnswer: Result<(NFCISO15693ResponseFlag, Data?), any Error> = .success((NFCISO15693ResponseFlag(rawValue: 0), Data()))

        func sendRequest(
            requestFlags flags: Int, commandCode: Int, data: Data?,
            resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data?), any Error>) -> Void
        ) {
            requests.append((flags, commandCode, data))
            resultHandler(rawAnswer)
        }
        func getSystemInfo(
            requestFlags flags: NFCISO15693RequestFlag,
            resultHandler: @escaping @Sendable (Result<NFCISO15693SystemInfo, any Error>) -> Void
        ) {
            resultHandler(
                .success(
                    NFCISO15693SystemInfo(
                        uniqueIdentifier: identifier, dataStorageFormatIdentifier: -1,
                        applicationFamilyIdentifier: -1, blockSize: 4, totalBlocks: 80, icReference: 1)))
        }
        func readSingleBlock(
            requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8,
            completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void
        ) {
            completionHandler(Data([blockNumber, 0, 0, 0]), nil)
        }
        func readMultipleBlocks(
            requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
            completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void
        ) {
            completionHandler((blockRange.location..<blockRange.location + blockRange.length).map { Data([UInt8($0), 0, 0, 0]) }, nil)
        }
        func extendedReadSingleBlock(
            requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int,
            completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void
        ) {
            completionHandler(Data([UInt8(blockNumber & 0xFF), UInt8(blockNumber >> 8), 0, 0]), nil)
        }
        func extendedReadMultipleBlocks(
            requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
            completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void
        ) {
            completionHandler([], NSError(domain: NFCErrorDomain, code: 102, userInfo: [NFCISO15693TagResponseErrorKey: 0x0F]))
        }
        func writeSingleBlock(
            requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, dataBlock: Data,
            completionHandler: @escaping @Sendable ((any Error)?) -> Void
        ) {
            completionHandler(nil)
        }
        func extendedWriteSingleBlock(
            requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, dataBlock: Data,
            completionHandler: @escaping @Sendable ((any Error)?) -> Void
        ) {
            completionHandler(nil)
        }
        func customCommand(
            requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data,
            completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void
        ) {
            completionHandler(Data([0x5A]), nil)
        }
    }

    final class StandInMiFareTag: NFCMiFareTag, @unchecked Sendable {
        let mifareFamily: NFCMiFareFamily
        let identifier = Data([0x04, 0x5A, 0x1C, 0x32, 0x6B, 0x4F, 0x80])
        var packets: [Data] = []
        init(family: NFCMiFareFamily) { mifareFamily = family }
        func sendMiFareCommand(commandPacket command: Data, completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void) {
            packets.append(command)
            completionHandler(Data([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03]), nil)
        }
    }

    /// An NDEF tag behind the stand-in protocol: shows `messages` one per read (the last one
    /// again when they run out), records writes, or refuses them with `writeError`.
    final class StandInNDEFTag: NFCNDEFTag, @unchecked Sendable {
        let isAvailable = true
        var messages: [Result<NFCNDEFMessage, any Error>]
        var written: [NFCNDEFMessage] = []
        var writeError: (any Error)?
        init(_ messages: [Result<NFCNDEFMessage, any Error>]) { self.messages = messages }
        func readNDEF(completionHandler: @escaping @Sendable (NFCNDEFMessage?, (any Error)?) -> Void) {
            let next = messages.count > 1 ? messages.removeFirst() : messages[0]
            switch next {
            case .success(let message): completionHandler(message, nil)
            case .failure(let error): completionHandler(nil, error)
            }
        }
        func writeNDEF(_ ndefMessage: NFCNDEFMessage, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
            if let writeError { completionHandler(writeError); return }
            written.append(ndefMessage)
            completionHandler(nil)
        }
    }

    @Suite("Core NFC glue against the stand-in SDK")
    struct CoreNFCGlueTests {
        @Test func rawRequestsGoThroughSendRequestAndComeBackAsTheTagsBytes() async throws {
            let tag = StandInISO15693Tag()
            tag.rawAnswer = .success((NFCISO15693ResponseFlag(rawValue: 0x00), Data([0xE1, 0x40, 0x10, 0x01])))
            let transport = Type5CoreNFCTransport(link: CoreNFCISO15693Link(tag: tag))
            let uid = Data([0x78, 0x56, 0x34, 0x12, 0x00, 0x26, 0x02, 0xE0])
            let answer = try await transport.send(Data([0x22, 0x20]) + uid + Data([0x00]), timeout: .seconds(1))
            #expect(answer == Data([0x00, 0xE1, 0x40, 0x10, 0x01]))
            #expect(tag.requests.count == 1)
            // Sent unaddressed: the address flag cleared and the UID left out.
            #expect(tag.requests.first?.flags == 0x02)
            #expect(tag.requests.first?.code == 0x20)
            #expect(tag.requests.first?.data == Data([0x00]))
            // No data in the answer (a write): just the flags byte.
            tag.rawAnswer = .success((NFCISO15693ResponseFlag(rawValue: 0x00), nil))
            #expect(try await transport.send(Data([0x02, 0x21, 0x01, 1, 2, 3, 4]), timeout: .seconds(1)) == Data([0x00]))
        }

        @Test func coreNFCErrorsKeepTheirCodeAndTheTagsErrorByte() async throws {
            let failure = CoreNFCFailure(
                nfcError: NSError(
                    domain: NFCErrorDomain, code: 102,
                    userInfo: [NFCISO15693TagResponseErrorKey: 0x10]))
            #expect(failure.readerError == .tagResponseError)
            #expect(failure.iso15693ErrorCode == 0x10)
            #expect(CoreNFCFailure(nfcError: NSError(domain: "elsewhere", code: 5)).code == -1)
            // A refused raw request falls back to the per-command calls.
            let tag = StandInISO15693Tag()
            tag.rawAnswer = .failure(NSError(domain: NFCErrorDomain, code: 1))
            let transport = Type5CoreNFCTransport(link: CoreNFCISO15693Link(tag: tag))
            let info = try await transport.send(Data([0x02, 0x2B]), timeout: .seconds(1))
            #expect(transport.usesCommandTranslation)
            #expect(Array(info.prefix(2)) == [0x00, 0x0C])  // memory size and IC reference only
            let blocks = try await transport.send(Data([0x02, 0x23, 0x04, 0x01]), timeout: .seconds(1))
            #expect(blocks == Data([0x00, 4, 0, 0, 0, 5, 0, 0, 0]))
        }

        @Test func type2CommandsGoThroughSendMiFareCommand() async throws {
            let tag = StandInMiFareTag(family: .ultralight)
            let transport = Type2CoreNFCTransport(link: CoreNFCMiFareLink(tag: tag))
            let version = try await transport.send(Data([0x60]), timeout: .seconds(1))
            #expect(version.count == 8)
            #expect(tag.packets == [Data([0x60])])
        }

        @Test func detectedTagsAreSortedByWhatColdTapCanDrive() {
            let kinds = [
                NFCTag.miFare(StandInMiFareTag(family: .ultralight)), .miFare(StandInMiFareTag(family: .unknown)),
                .miFare(StandInMiFareTag(family: .plus)), .miFare(StandInMiFareTag(family: .desfire)),
                .iso15693(StandInISO15693Tag()),
            ].map(CoreNFCTagSession.detectedTag)
            var names: [String] = []
            for kind in kinds {
                switch kind {
                case .type2: names.append("type2")
                case .type5(let link): names.append("type5 \(link.identifier.count)")
                case .unsupported(let name): names.append(name)
                }
            }
            #expect(names == ["type2", "type2", "MIFARE Plus", "MIFARE DESFire", "type5 8"])
        }

        @Test func sessionsStartAndNDEFMessagesConvert() {
            let session = CoreNFCTagSession()
            #expect(session.begin(alertMessage: "Hold near"))
            let payload = NFCNDEFPayload(
                format: .nfcWellKnown, type: Data("T".utf8), identifier: Data([0x01]),
                payload: Data([0x02, 0x65, 0x6E, 0x4F, 0x4B]))
            let message = CoreNFCNDEFSession.message(NFCNDEFMessage(records: [payload]))
            #expect(message.records == [NDEFRecord(tnf: .wellKnown, type: "T", id: Data([0x01]), payload: Data([0x02, 0x65, 0x6E, 0x4F, 0x4B]))])
            #expect(message.records.first?.textRecord?.text == "OK")
        }
        @Test func theNDEFMessageLinkReadsWritesAndMapsCoreNFCErrors() async throws {
            let record = NDEFRecord(tnf: .media, type: "n/p", payload: Data([0x01, 0x02, 0x03]))
            let bytes = NDEFMessage(records: [record]).serialized()
            let shown = try #require(NFCNDEFMessage(data: bytes))
            let tag = StandInNDEFTag([
                .failure(NFCReaderError(.ndefReaderSessionErrorZeroLengthMessage)), .success(shown),
                .failure(NFCReaderError(.readerTransceiveErrorTagConnectionLost)),
            ])
            let link = CoreNFCNDEFMessageLink(tag: tag)
            // An empty TLV (the firmware between two messages) reads as no bytes, not as a failure.
            #expect(try await link.readMessage() == Data())
            #expect(try await link.readMessage() == bytes)
            await #expect(throws: NDEFExchangeError.tagRemoved(afterExchanges: 0)) { try await link.readMessage() }
            // A write goes to the tag as the same records.
            try await link.writeMessage(bytes)
            #expect(tag.written.first?.records.map(\.payload) == [Data([0x01, 0x02, 0x03])])
            #expect(tag.written.first?.records.first?.typeNameFormat == .media)
            // Bytes that are no NDEF message never reach the tag.
            await #expect(throws: NDEFExchangeError.self) { try await link.writeMessage(Data([0xFF, 0x00])) }
            #expect(tag.written.count == 1)
            // A refused write is `.writeFailed`: what makes an NHS31xx session fall back to automatic mode.
            tag.writeError = NFCReaderError(.ndefReaderSessionErrorTagNotWritable)
            do {
                try await link.writeMessage(bytes)
                Issue.record("the refused write succeeded")
            } catch NDEFExchangeError.writeFailed {
            } catch {
                Issue.record("a refused write gave \(error)")
            }
        }
    }
#endif
