import Foundation
import NDEF
import NFCTagsEmulation
import Testing

@testable import NFCTags

/// The NDEF exchange session over a plain memory tag: the write order, the Type 2 fast path,
/// and what happens when nothing answers.
@Suite struct NDEFExchangeTests {
    func message(_ text: String) -> Data { NDEFMessage(records: [TextRecord(text: text).record]).serialized() }

    @Test func theFastPathWritesTheLengthPageLastAndReadsBack() async throws {
        let tag = try VirtualTag.make(chip: .ntag216, ndefMessage: message("first"))
        let link = TransportMessageLink(transport: tag)
        #expect(try await link.readMessage() == message("first"))  // learns where the TLV sits
        await tag.resetCounters()
        let long = message(String(repeating: "x", count: 300))  // a 3-byte TLV length
        try await link.writeMessage(long)
        let writes = await tag.exchanges.map(\.command).filter { $0.first == 0xA2 }
        #expect(writes.count == (4 + long.count + 1 + 3) / 4)
        #expect(writes.last?[1] == 4)  // NTAG216: the NDEF TLV is at page 4; its header page goes last
        #expect(try await link.readMessage() == long)
        // A full read through the engine sees the same message.
        #expect(try await TagReader.read(from: tag).ndefMessageBytes == long)
    }

    @Test func aTagThatNeverAnswersIsSaidToAndRemovalCountsExchanges() async throws {
        let tag = try VirtualTag.make(chip: .ntag216, ndefMessage: message("hello"))
        let session = NDEFExchangeSession(transport: tag, options: NDEFExchangeOptions(maxPolls: 2, pollDelay: .zero))
        try await session.read()
        // A memory tag shows what was written: no answer ever comes.
        await #expect(throws: NDEFExchangeError.noAnswer(polls: 2, afterExchanges: 1)) {
            _ = try await session.exchange(self.message("command"))
        }
        await tag.setFaults(TagFaults([.removedAfter(0)]))
        await #expect(throws: NDEFExchangeError.tagRemoved(afterExchanges: 1)) { _ = try await session.read() }
        #expect(NDEFExchangeError.tagRemoved(afterExchanges: 3).description.contains("removed after 3 exchange(s)"))
    }
}
