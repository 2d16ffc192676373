import Foundation
import NDEF
import NFCTags
import Testing

@testable import CoreNFCTransport

/// The NFCTags planner, unchanged, over the Core NFC transports and fake Core NFC tags.
@Suite("NFCTags planner over Core NFC calls")
struct PlannerIntegrationTests {
    /// A Text record and a 1 400-byte MIME record: on a 4-byte-block tag the message runs
    /// past block 255, so the extended commands are needed.
    static let longMessage = NDEFMessage(records: [
        NDEFRecord(tnf: .wellKnown, type: "T", payload: Data([0x02]) + Data("en".utf8) + Data("ColdTap".utf8)),
        NDEFRecord(tnf: .media, type: "application/octet-stream", payload: Data((0..<1400).map { UInt8($0 % 251) })),
    ])

    /// ST25DV64K memory: 8-byte CC (8192 bytes of data area, MBREAD) then the NDEF TLV
    /// with a 3-byte length.
    static func st25dvMemory(_ message: NDEFMessage) -> [UInt8] {
        let bytes = Array(message.serialized())
        return [0xE2, 0x40, 0x00, 0x01, 0x00, 0x00, 0x04, 0x00]
            + [0x03, 0xFF, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes + [0xFE]
    }

    @Test func type5ReadUsesMultiBlockCallsAcrossBlock255() async throws {
        let tag = FakeST25DV(memory: Self.st25dvMemory(Self.longMessage))
        let transport = Type5CoreNFCTransport(link: tag)
        let result = try await TagReader.read(from: transport, options: TagReadOptions(addressed: true))
        #expect(result.ndefMessage == Self.longMessage)
        #expect(result.chip == .st25dv64k)
        let calls = tag.calls.get
        #expect(calls.first == "info")
        #expect(calls.contains { $0.hasPrefix("extMultiple") })
        #expect(!calls.contains { $0.hasPrefix("single") || $0.hasPrefix("extSingle") })
        // 1 452 bytes in reads of at most 32 blocks (128 bytes): a dozen or so commands, not 363.
        #expect(calls.count < 20)
        #expect(tag.flagsSeen.get.allSatisfy { $0.contains(.address) })
    }

    @Test func type5ReadFallsBackToSingleBlocksWhenExtendedMultipleIsRejected() async throws {
        let tag = FakeST25DV(extendedMultipleWorks: false, memory: Self.st25dvMemory(Self.longMessage))
        let transport = Type5CoreNFCTransport(link: tag)
        let result = try await TagReader.read(from: transport, options: TagReadOptions(addressed: true))
        #expect(result.ndefMessage == Self.longMessage)
        #expect(transport.usesExtendedSingleReadFallback)
        #expect(tag.calls.get.contains { $0.hasPrefix("extSingle") })
    }

    @Test func type2ReadUsesFastReadWithinTheIPhoneLimit() async throws {
        let message = NDEFMessage(records: [
            NDEFRecord(tnf: .wellKnown, type: "U", payload: Data([0x04]) + Data("example.com/log?t=4.2,4.3,4.1,4.0".utf8))
        ])
        let bytes = Array(message.serialized())
        let tag = FakeNTAG213(userMemory: [0x01, 0x03, 0xA0, 0x0C, 0x34, 0x03, UInt8(bytes.count)] + bytes + [0xFE])
        let result = try await TagReader.read(from: Type2CoreNFCTransport(link: tag))
        #expect(result.ndefMessage == message)
        #expect(result.chip == .ntag213)
        let fastReads = tag.sent.get.filter { $0.first == 0x3A }
        #expect(!fastReads.isEmpty)
        #expect(fastReads.allSatisfy { Int($0[2]) - Int($0[1]) + 1 <= Type2CoreNFCTransport.maxFastReadPages })
    }

    @Test func lostTagMidReadResumesInsideTheSession() async throws {
        // The 5th call (a multi-block read) loses the tag; the person holds still, the tag
        // comes back and the read resumes: blocks already read are not read again.
        let tag = FakeST25DV(memory: Self.st25dvMemory(Self.longMessage), failures: [4: CoreNFCFailure(.tagConnectionLost)])
        let session = FakeTagSession(detections: [[.type5(tag)], [.type5(tag)]])
        let controller = TagReadSessionController(session: session, clock: ManualClock())
        session.start()
        let (result, report) = await controller.run(
            events: session.events,
            read: { transport, resume, progress in
                let read = try await TagReader.read(
                    from: transport,
                    options: TagReadOptions(
                        commandTimeout: .seconds(2), addressed: true,
                        resume: resume)
                ) {
                    if let fraction = $0.fraction { progress(fraction) }
                }
                return try #require(read.ndefMessage)
            }, verdict: { message in "\(message.records.count) records" })
        #expect(try result.get() == Self.longMessage)
        #expect(report.resumes == 1)
        #expect(report.bytesCarriedOver > 0)
        #expect(session.ended.get?.message == "2 records")
        #expect(session.alerts.get.contains { $0.hasPrefix("Reading… ") })
        let reads = tag.calls.get.filter { $0.contains("ultiple") }
        #expect(Set(reads).count == reads.count - 1)  // only the lost command is sent twice
    }
}
