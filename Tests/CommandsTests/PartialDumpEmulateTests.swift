import ColdTapBase
import Foundation
import NDEF
import NFCTags
import Testing

@testable import ColdTapCommands

/// `coldtap emulate` with a dump of only the pages a tool read, and `coldtap ndef decode`
/// given what `coldtap decode` takes (tag dumps, Flipper files).
@Suite struct PartialDumpEmulateTests {
    static let message = NDEFMessage(records: [TextRecord(text: "Cold room 4", language: "en").record]).serialized()

    /// An NTAG216 image cut to its first 226 pages (904 bytes), as a tool that stops at the
    /// end of user memory leaves it.
    static func shortNTAG216() throws -> (full: Data, short: Data) {
        let full = try TagImage.memory(for: .ntag216, ndefMessage: message)
        return (full, full.prefix(904))
    }

    @Test func infersTheChipFromTheCCPadsErasedPagesAndSaysSo() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let (full, short) = try Self.shortNTAG216()
        let path = try files.write("ntag.bin", short)
        let console = Console.capturing()
        let made = try VirtualTags.make(.file(path), chip: nil, readTime: Date(), console: console)
        #expect(made.tag.chip == .ntag216)
        #expect(console.errorOutput.contains("is 904 bytes, the size of no chip; taken for an NTAG216"))
        #expect(console.errorOutput.contains("declares a 872-byte data area"))
        #expect(console.errorOutput.contains("pages 226–230 (20 bytes) were added as erased"))
        #expect(console.errorOutput.contains("--chip"))
        let memory = await made.tag.memory
        #expect(memory.prefix(904) == short)
        #expect(memory.count == full.count)
        #expect(memory.suffix(20).allSatisfy { $0 == 0 })
        #expect(try await TagReader.read(from: made.tag).ndefMessageBytes == Self.message)
    }

    @Test func chipOptionOverridesTheInference() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("ntag.bin", try Self.shortNTAG216().short)
        let console = Console.capturing()
        let made = try VirtualTags.make(.file(path), chip: .nt3h2111, readTime: Date(), console: console)
        #expect(made.tag.chip == .nt3h2111)
        #expect(console.errorOutput.contains("904 bytes, 32 fewer than an NT3H2111 (NTAG I2C plus 1k) holds: pages 226–233 were added as erased"))
        #expect(try await TagReader.read(from: made.tag).ndefMessageBytes == Self.message)
    }

    @Test func aDumpWithoutACapabilityContainerStillNeedsTheChip() throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        var bytes = [UInt8](try Self.shortNTAG216().short)
        bytes[12] = 0x00  // no CC magic
        let path = try files.write("blank.bin", Data(bytes))
        do {
            _ = try VirtualTags.make(.file(path), chip: nil, readTime: Date(), console: .capturing())
            Issue.record("a dump of no known size and no CC was served")
        } catch let error as CommandError {
            #expect(error.status == .usage)
            #expect(error.message.contains("--chip"))
        }
    }

    @Test func inferenceIsTheLibrarysToo() throws {
        let dump = try MemoryDump.parse(try Self.shortNTAG216().short)
        #expect(dump.chip == nil)
        let inferred = try #require(dump.inferredChip())
        #expect(inferred.chip == .ntag216)
        #expect(inferred.addedUnits == 226..<231)
        // A Type 5 image cut short: the ST25DV64K's 8-byte CC names 8192 bytes.
        let st = try TagImage.memory(for: .st25dv64k, ndefMessage: Self.message).prefix(4096)
        let type5 = try MemoryDump.parse(st, hint: .type5(blockSize: 4))
        #expect(type5.inferredChip()?.chip == .st25dv64k)
    }
}
