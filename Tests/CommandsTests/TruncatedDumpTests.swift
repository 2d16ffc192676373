import Foundation
import LoggerFormats
import NFCTags
import Testing

@testable import ColdTapCommands

/// Issue 17.5: a dump that ends before its NDEF message does is called truncated, with the
/// page (or block) where the file ends and the one the message needs.
@Suite struct TruncatedDumpTests {
    @Test func aType2DumpCutShortSaysItIsTruncated() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let dump = try await DecodeDumpTests.image(kind: "generic16", chip: .ntag215)
        // Page 4 holds the NDEF TLV: the message needs pages up to 4 + ceil((2 + length) / 4) - 1.
        let memory = dump.memory
        let length = Int(memory[17])
        let lastNeeded = (16 + 2 + length - 1) / 4
        let cut = memory.prefix(40)  // pages 0…9
        let path = try files.write("cut.bin", Data(cut))
        for command in ["decode", "report"] {
            let result = await runColdTap([command, path, "--input", "tag2", "--read-time", "2026-08-18T06:00:00Z"])
            #expect(result.status == 65)
            #expect(result.out.isEmpty)
            #expect(
                result.err
                    == "coldtap \(command): '\(path)': the file ends at page 9 but the NDEF message needs pages up to \(lastNeeded): the dump is truncated.\n")
        }
    }

    @Test func tagSaysTheSame() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let dump = try await DecodeDumpTests.image(kind: "generic16", chip: .ntag215)
        let path = try files.write("cut.bin", Data(dump.memory.prefix(40)))
        let result = await runColdTap(["tag", path, "--input", "tag2"])
        #expect(result.status == 65)
        #expect(result.err.hasPrefix("coldtap tag: \(path): the file ends at page 9 but the NDEF message needs pages up to "))
        #expect(result.err.hasSuffix(": the dump is truncated.\n"))
    }

    @Test func aType5DumpCutShortSaysItIsTruncated() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let dump = try await DecodeDumpTests.image(kind: "generic16-unix", chip: .icodeSLIX2)
        let cut = dump.memory.prefix(24)  // blocks 0…5
        let path = try files.write("cut5.bin", Data(cut))
        let result = await runColdTap(["decode", path, "--input", "tag5", "--read-time", "2026-08-18T06:00:00Z"])
        #expect(result.status == 65)
        #expect(result.err.contains("': the file ends at block 5 but the NDEF message needs blocks up to "))
        #expect(result.err.hasSuffix(": the dump is truncated.\n"))
        #expect(!result.err.contains("refused"))
    }
}
