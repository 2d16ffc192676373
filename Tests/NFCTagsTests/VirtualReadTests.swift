import Foundation
import NFCTagsEmulation
import Testing

@testable import NFCTags

@Suite struct VirtualReadTests {
    @Test(arguments: TagChip.emulated)
    func fullTagReadsBack(chip: TagChip) async throws {
        let capacity = try TagImage.capacity(for: chip)
        let message = TagImage.sampleMessage(totalBytes: capacity)
        let tag = try VirtualTag.make(chip: chip, ndefMessage: message)
        let result = try await TagReader.read(from: tag)
        #expect(result.chip == chip)
        #expect(result.ndefMessageBytes == message)
        #expect(result.ndefMessage != nil)
        #expect(result.anomalies.isEmpty, "\(result.anomalies)")
        let commands = await tag.commandCount
        #expect(result.commandCount == commands)
    }
}
