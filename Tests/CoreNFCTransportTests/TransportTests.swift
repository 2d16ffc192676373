import Foundation
import NFCTags
import Testing

@testable import CoreNFCTransport

@Suite("Type 2 over NFCMiFareTag")
struct Type2TransportTests {
    @Test func fastReadPassesThroughUnchanged() async throws {
        let tag = FakeNTAG213()
        let transport = Type2CoreNFCTransport(link: tag)
        let answer = try await transport.send(Data([0x3A, 0x03, 0x05]), timeout: .seconds(1))
        #expect(Array(answer) == [0xE1, 0x10, 0x12, 0x00, 0x01, 0x03, 0xA0, 0x0C, 0x34, 0x03, 0x00, 0xFE])
        #expect(tag.sent.get == [Data([0x3A, 0x03, 0x05])])
        #expect(transport.uid == Data([0x04, 0x5A, 0x1C, 0x32, 0x6B, 0x4F, 0x80]))
        #expect(transport.technology == .iso14443A)
        #expect(transport.limits.maxResponseBytes == 256)
    }

    @Test func fastReadOverSixtyFourPagesNeverReachesTheAir() async throws {
        let tag = FakeNTAG213()
        let transport = Type2CoreNFCTransport(link: tag)
        await #expect(throws: TransportError.self) {
            _ = try await transport.send(Data([0x3A, 0x00, 0x40]), timeout: .seconds(1))  // 65 pages
        }
        await #expect(throws: TransportError.self) {
            _ = try await transport.send(Data([0x3A, 0x05, 0x04]), timeout: .seconds(1))  // backwards
        }
        #expect(tag.sent.get.isEmpty)
        // 64 pages are sent (the fake tag NAKs the range past its 45 pages, as an NTAG213 would).
        let answer = try await transport.send(Data([0x3A, 0x00, 0x3F]), timeout: .seconds(1))
        #expect(answer == Data([0x00]))
        #expect(tag.sent.get.count == 1)
    }

    @Test func coreNFCErrorsBecomeTransportErrors() async throws {
        let tag = FakeNTAG213(failures: [
            0: CoreNFCFailure(.tagConnectionLost),
            1: CoreNFCFailure(.tagResponseError),
            2: CoreNFCFailure(.packetTooLong),
            3: CoreNFCFailure(code: 999, message: "new in a later iOS"),
        ])
        // One framing, so that each failure is seen as it is (no retry with the other framing).
        let transport = Type2CoreNFCTransport(link: tag, fixedFraming: .bare)
        await #expect(throws: TransportError.tagRemoved) { _ = try await transport.send(Data([0x30, 0x04]), timeout: .seconds(1)) }
        await #expect(throws: TransportError.timeout) { _ = try await transport.send(Data([0x30, 0x04]), timeout: .seconds(1)) }
        await #expect(throws: TransportError.unsupported("the command or its answer is too long for the iPhone")) {
            _ = try await transport.send(Data([0x30, 0x04]), timeout: .seconds(1))
        }
        await #expect(throws: TransportError.linkFailure("Core NFC error 999: new in a later iOS")) {
            _ = try await transport.send(Data([0x30, 0x04]), timeout: .seconds(1))
        }
        let page4 = try await transport.send(Data([0x30, 0x04]), timeout: .seconds(1))
        #expect(Array(page4.prefix(4)) == [0x01, 0x03, 0xA0, 0x0C])
    }

    @Test func crcAIsAppendedWhenAsked() async throws {
        // READ page 0 is `30 00 02 A8` on the air (ISO/IEC 14443-3 CRC_A).
        #expect(ISO14443ACRC.checksum(of: Data([0x30, 0x00])) == Data([0x02, 0xA8]))
        let tag = FakeNTAG213()
        _ = try await Type2CoreNFCTransport(link: tag, fixedFraming: .withCRC).send(Data([0x30, 0x00]), timeout: .seconds(1))
        #expect(tag.sent.get == [Data([0x30, 0x00, 0x02, 0xA8])])
    }

    @Test func silentReadIsRetriedOnceWithTheOtherFramingAndRemembered() async throws {
        // This chip answers only commands with CRC_A; ColdTap sends bare commands first.
        let tag = FakeNTAG213(framing: .withCRC)
        let memory = MiFareFramingMemory()
        let transport = Type2CoreNFCTransport(link: tag, framing: memory)
        let page4 = try await transport.send(Data([0x30, 0x04]), timeout: .seconds(1))
        #expect(Array(page4.prefix(4)) == [0x01, 0x03, 0xA0, 0x0C])
        #expect(tag.sent.get == [Data([0x30, 0x04]), Data([0x30, 0x04]) + ISO14443ACRC.checksum(of: Data([0x30, 0x04]))])
        #expect(memory.confirmedFraming(for: tag.identifier) == .withCRC)
        // Remembered: the next read goes out with the CRC at once.
        _ = try await transport.send(Data([0x3A, 0x04, 0x07]), timeout: .seconds(1))
        #expect(tag.sent.get.count == 3)
        #expect(tag.sent.get.last == Data([0x3A, 0x04, 0x07]) + ISO14443ACRC.checksum(of: Data([0x3A, 0x04, 0x07])))
        // Another chip starts with what worked last.
        let second = FakeNTAG213(framing: .withCRC, uid: Data([0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]))
        _ = try await Type2CoreNFCTransport(link: second, framing: memory).send(Data([0x30, 0x04]), timeout: .seconds(1))
        #expect(second.sent.get.count == 1)
    }

    @Test func bareChipsAreReadBareAndOnlyReadsAreRetried() async throws {
        let tag = FakeNTAG213(framing: .bare)
        let memory = MiFareFramingMemory()
        let transport = Type2CoreNFCTransport(link: tag, framing: memory)
        _ = try await transport.send(Data([0x3A, 0x00, 0x03]), timeout: .seconds(1))
        #expect(tag.sent.get == [Data([0x3A, 0x00, 0x03])])
        #expect(memory.confirmedFraming(for: tag.identifier) == .bare)
        // GET_VERSION that gets no answer is not sent again with the other framing.
        let crcOnly = FakeNTAG213(framing: .withCRC)
        await #expect(throws: TransportError.timeout) {
            _ = try await Type2CoreNFCTransport(link: crcOnly, framing: MiFareFramingMemory()).send(Data([0x60]), timeout: .seconds(1))
        }
        #expect(crcOnly.sent.get.count == 1)
        // Neither framing answers (the tag is gone): one retry, then the first failure.
        let gone = FakeNTAG213(failures: [0: CoreNFCFailure(.tagResponseError), 1: CoreNFCFailure(.tagResponseError)])
        await #expect(throws: TransportError.timeout) {
            _ = try await Type2CoreNFCTransport(link: gone, framing: MiFareFramingMemory()).send(Data([0x30, 0x04]), timeout: .seconds(1))
        }
        #expect(gone.sent.get.count == 2)
        // A lost connection is not a framing problem: no retry.
        let lost = FakeNTAG213(failures: [0: CoreNFCFailure(.tagConnectionLost)])
        await #expect(throws: TransportError.tagRemoved) {
            _ = try await Type2CoreNFCTransport(link: lost, framing: MiFareFramingMemory()).send(Data([0x30, 0x04]), timeout: .seconds(1))
        }
        #expect(lost.sent.get.count == 1)
        // A fixed framing never retries.
        let fixed = FakeNTAG213(framing: .withCRC)
        await #expect(throws: TransportError.timeout) {
            _ = try await Type2CoreNFCTransport(link: fixed, fixedFraming: .bare).send(Data([0x30, 0x04]), timeout: .seconds(1))
        }
        #expect(fixed.sent.get.count == 1)
    }

    @Test func aCommandWithoutAnswerTimesOut() async throws {
        struct SilentTag: MiFareTagLink {
            var identifier: Data { Data([1, 2, 3, 4, 5, 6, 7]) }
            func sendMiFareCommand(_ packet: Data) async throws -> Data {
                try? await Task.sleep(for: .seconds(30))
                return Data([0xFF])
            }
        }
        // Without the timeout the silent tag would answer after 30 s and nothing would throw.
        await #expect(throws: TransportError.timeout) {
            _ = try await Type2CoreNFCTransport(link: SilentTag()).send(Data([0x60]), timeout: .milliseconds(50))
        }
    }
}

@Suite("Type 5 raw requests (sendRequest)")
struct Type5RawRequestTests {
    let uidAirOrder = Data([0x78, 0x56, 0x34, 0x12, 0x00, 0x26, 0x02, 0xE0])

    @Test func systemInfoIsTheTagsOwnAnswer() async throws {
        let tag = FakeST25DV(rawRequests: .answered)
        let transport = Type5CoreNFCTransport(link: tag)
        let answer = try await transport.send(Data([0x02, 0x2B]), timeout: .seconds(1))
        #expect(Array(answer) == [0x00, 0x1F] + Array(uidAirOrder) + [0x00, 0x00, 0xFF, 0x07, 0x03, 0x26])
        #expect(tag.calls.get == ["raw info"])
        #expect(!transport.usesCommandTranslation)
    }

    @Test func requestsGoOutAsThePlannerBuiltThem() async throws {
        let tag = FakeST25DV(rawRequests: .answered)
        let transport = Type5CoreNFCTransport(link: tag)
        let addressed = try await transport.send(Data([0x22, 0x23]) + uidAirOrder + Data([0x02, 0x00]), timeout: .seconds(1))
        #expect(Array(addressed) == [0x00, 0x02, 0x00, 0xA5, 0x5A])
        // The planner's addressed request goes out unaddressed (the session holds one tag).
        #expect(tag.flagsSeen.get == [[.highDataRate]])
        // Past block 255 the planner's extended command goes out unchanged.
        let extended = try await transport.send(Data([0x02, 0x33, 0x00, 0x01, 0x01, 0x00]), timeout: .seconds(1))
        #expect(Array(extended) == [0x00, 0x00, 0x01, 0xA5, 0x5A, 0x01, 0x01, 0xA5, 0x5A])
        // The tag's error answer reaches the planner as sent: too many blocks, then a missing block.
        #expect(Array(try await transport.send(Data([0x02, 0x23, 0x00, 39]), timeout: .seconds(1))) == [0x01, 0x0F])
        #expect(Array(try await transport.send(Data([0x02, 0x30, 0x00, 0x10]), timeout: .seconds(1))) == [0x01, 0x10])
        #expect(tag.calls.get == ["raw multiple 2+1", "raw extMultiple 256+2", "raw multiple 0+40", "raw extSingle 4096"])
        #expect(tag.rawRefusals.get == 0)
    }

    @Test func refusedRawRequestsFallBackToTranslationForGood() async throws {
        let tag = FakeST25DV(rawRequests: .refused)
        let transport = Type5CoreNFCTransport(link: tag)
        let info = try await transport.send(Data([0x02, 0x2B]), timeout: .seconds(1))
        #expect(Array(info) == [0x00, 0x1F] + Array(uidAirOrder) + [0x00, 0x00, 0xFF, 0x07, 0x03, 0x26])
        #expect(transport.usesCommandTranslation)
        _ = try await transport.send(Data([0x02, 0x23, 0x00, 0x01]), timeout: .seconds(1))
        #expect(tag.rawRefusals.get == 1)  // tried once, then not again
        #expect(tag.calls.get == ["info", "multiple 0+2"])
    }

    @Test func lostTagDuringARawRequestIsTagRemovedNotAFallback() async throws {
        let tag = FakeST25DV(failures: [0: CoreNFCFailure(.tagConnectionLost)], rawRequests: .answered)
        let transport = Type5CoreNFCTransport(link: tag)
        await #expect(throws: TransportError.tagRemoved) { _ = try await transport.send(Data([0x02, 0x20, 0x00]), timeout: .seconds(1)) }
        #expect(!transport.usesCommandTranslation)
    }

    @Test func plannerReadsTheWholeMessageThroughRawRequests() async throws {
        let tag = FakeST25DV(memory: PlannerIntegrationTests.st25dvMemory(PlannerIntegrationTests.longMessage), rawRequests: .answered)
        let result = try await TagReader.read(from: Type5CoreNFCTransport(link: tag), options: TagReadOptions(addressed: true))
        #expect(result.ndefMessage == PlannerIntegrationTests.longMessage)
        #expect(result.chip == .st25dv64k)
        let calls = tag.calls.get
        #expect(calls.allSatisfy { $0.hasPrefix("raw ") })
        #expect(calls.first == "raw info")
        #expect(calls.count < 20)
    }
}

@Suite("Type 5 over NFCISO15693Tag")
struct Type5TransportTests {
    let uidAirOrder = Data([0x78, 0x56, 0x34, 0x12, 0x00, 0x26, 0x02, 0xE0])

    @Test func systemInfoIsReencodedAsTheRawAnswer() async throws {
        let transport = Type5CoreNFCTransport(link: FakeST25DV())
        #expect(transport.uid == uidAirOrder)
        let answer = try await transport.send(Data([0x02, 0x2B]), timeout: .seconds(1))
        // flags 00, info flags DSFID|AFI|memory|IC ref|2-byte count, UID LSB first,
        // DSFID 00, AFI 00, blocks − 1 = 0x07FF little-endian, block size − 1 = 3, IC ref 0x26.
        #expect(Array(answer) == [0x00, 0x1F] + Array(uidAirOrder) + [0x00, 0x00, 0xFF, 0x07, 0x03, 0x26])
    }

    @Test func smallTagSystemInfoUsesOneByteCountAndOmitsAbsentFields() {
        let info = ISO15693SystemInfo(blockSize: 4, totalBlocks: 80, icReference: 0x01)
        let answer = Type5CoreNFCTransport.encodeSystemInfo(info, uid: uidAirOrder)
        #expect(Array(answer) == [0x00, 0x0C] + Array(uidAirOrder) + [0x4F, 0x03, 0x01])
    }

    @Test func uidAlreadyInAirOrderIsKept() {
        #expect(Type5CoreNFCTransport.airOrderUID(uidAirOrder) == uidAirOrder)
        #expect(Type5CoreNFCTransport.airOrderUID(Data([0xE0, 1, 2, 3, 4, 5, 6, 7])) == Data([7, 6, 5, 4, 3, 2, 1, 0xE0]))
    }

    @Test func readMultipleBlocksAddressedOrNot() async throws {
        let tag = FakeST25DV()
        let transport = Type5CoreNFCTransport(link: tag)
        let plain = try await transport.send(Data([0x02, 0x23, 0x00, 0x01]), timeout: .seconds(1))
        #expect(Array(plain) == [0x00, 0xE2, 0x40, 0x00, 0x01, 0x00, 0x00, 0x04, 0x00])
        let addressed = try await transport.send(Data([0x22, 0x23]) + uidAirOrder + Data([0x02, 0x00]), timeout: .seconds(1))
        #expect(Array(addressed) == [0x00, 0x02, 0x00, 0xA5, 0x5A])
        #expect(tag.calls.get == ["multiple 0+2", "multiple 2+1"])
        #expect(tag.flagsSeen.get == [.highDataRate, [.highDataRate, .address]])
    }

    @Test func requestsCoreNFCCannotCarryAreRefused() async throws {
        let tag = FakeST25DV()
        let transport = Type5CoreNFCTransport(link: tag)
        let otherUID = Data([1, 2, 3, 4, 5, 6, 7, 0xE0])
        for request in [
            Data([0x22, 0x20]) + otherUID + Data([0x00]),  // addressed to another tag
            Data([0x26, 0x01, 0x00]),  // inventory
            Data([0x02]),  // no command code
            Data([0x02, 0x23, 0x00]),  // count missing
            Data([0x02, 0x29, 0x00]),  // a command Core NFC has no call for
        ] {
            await #expect(throws: TransportError.self) { _ = try await transport.send(request, timeout: .seconds(1)) }
        }
        #expect(tag.calls.get.isEmpty)
    }

    @Test func singleAndExtendedSingleReads() async throws {
        let tag = FakeST25DV()
        let transport = Type5CoreNFCTransport(link: tag)
        #expect(Array(try await transport.send(Data([0x02, 0x20, 0x05]), timeout: .seconds(1))) == [0x00, 0x05, 0x00, 0xA5, 0x5A])
        #expect(Array(try await transport.send(Data([0x02, 0x30, 0x34, 0x02]), timeout: .seconds(1))) == [0x00, 0x34, 0x02, 0xA5, 0x5A])
        #expect(tag.calls.get == ["single 5", "extSingle 564"])
    }

    @Test func tagErrorComesBackAsRawErrorResponse() async throws {
        let transport = Type5CoreNFCTransport(link: FakeST25DV(totalBlocks: 64))
        // Block 70 does not exist: ISO 15693 error 0x10 (block not available).
        let answer = try await transport.send(Data([0x02, 0x20, 70]), timeout: .seconds(1))
        #expect(Array(answer) == [0x01, 0x10])
        // Too many blocks for the chip: error 0x0F, which the planner answers by halving.
        let tooMany = try await transport.send(Data([0x02, 0x23, 0x00, 39]), timeout: .seconds(1))
        #expect(Array(tooMany) == [0x01, 0x0F])
    }

    @Test func rejectedExtendedMultipleFallsBackToSingleReadsAndRemembers() async throws {
        let tag = FakeST25DV(extendedMultipleWorks: false)
        let transport = Type5CoreNFCTransport(link: tag)
        let answer = try await transport.send(Data([0x02, 0x33, 0x00, 0x01, 0x02, 0x00]), timeout: .seconds(1))  // blocks 256–258
        #expect(Array(answer) == [0x00, 0x00, 0x01, 0xA5, 0x5A, 0x01, 0x01, 0xA5, 0x5A, 0x02, 0x01, 0xA5, 0x5A])
        #expect(transport.usesExtendedSingleReadFallback)
        #expect(tag.calls.get == ["extMultiple 256+3", "extMultiple 256+2", "extSingle 256", "extSingle 257", "extSingle 258"])
        // Learned: the next extended multi-block read goes straight to single reads.
        _ = try await transport.send(Data([0x02, 0x33, 0x10, 0x01, 0x01, 0x00]), timeout: .seconds(1))
        #expect(tag.calls.get.suffix(2) == ["extSingle 272", "extSingle 273"])
    }

    @Test func tooLargeExtendedMultipleIsHandedBackToThePlanner() async throws {
        let tag = FakeST25DV(maxBlocksPerRead: 32)
        let transport = Type5CoreNFCTransport(link: tag)
        let answer = try await transport.send(Data([0x02, 0x33, 0x00, 0x01, 0x3F, 0x00]), timeout: .seconds(1))  // 64 blocks
        #expect(Array(answer) == [0x01, 0x0F])
        #expect(!transport.usesExtendedSingleReadFallback)
        #expect(tag.calls.get == ["extMultiple 256+64", "extMultiple 256+2"])
    }

    @Test func readMultiplePastBlock255UsesTheExtendedCommand() async throws {
        let tag = FakeST25DV()
        let transport = Type5CoreNFCTransport(link: tag)
        let answer = try await transport.send(Data([0x02, 0x23, 0xFE, 0x03]), timeout: .seconds(1))  // 254–257
        #expect(answer.count == 1 + 16)
        #expect(Array(answer.suffix(4)) == [0x01, 0x01, 0xA5, 0x5A])
        #expect(tag.calls.get == ["extMultiple 254+4"])
    }

    @Test func connectionLostIsTagRemoved() async throws {
        let transport = Type5CoreNFCTransport(link: FakeST25DV(failures: [0: CoreNFCFailure(.tagConnectionLost)]))
        await #expect(throws: TransportError.tagRemoved) { _ = try await transport.send(Data([0x02, 0x20, 0x00]), timeout: .seconds(1)) }
        // "No response from tag" is 102 without an ISO error code: a timeout, not a tag error.
        let silent = Type5CoreNFCTransport(link: FakeST25DV(failures: [0: CoreNFCFailure(.tagResponseError)]))
        await #expect(throws: TransportError.timeout) { _ = try await silent.send(Data([0x02, 0x20, 0x00]), timeout: .seconds(1)) }
    }

    @Test func writesAndCustomCommands() async throws {
        let tag = FakeST25DV()
        let transport = Type5CoreNFCTransport(link: tag)
        #expect(try await transport.send(Data([0x02, 0x21, 0x09, 1, 2, 3, 4]), timeout: .seconds(1)) == Data([0x00]))
        #expect(try await transport.send(Data([0x02, 0x31, 0x00, 0x03, 5, 6, 7, 8]), timeout: .seconds(1)) == Data([0x00]))
        #expect(tag.written.get == [9: Data([1, 2, 3, 4]), 768: Data([5, 6, 7, 8])])
        // ST custom READ_CONFIGURATION (0xA0) with manufacturer code 0x02: Core NFC adds the code itself.
        #expect(try await transport.send(Data([0x02, 0xA0, 0x02, 0x00]), timeout: .seconds(1)) == Data([0x00, 0x5A]))
        #expect(tag.calls.get.last == "custom A0 00")
    }
}
