import ColdTapBase
import Foundation
import NDEF
import NFCTags
import Testing

@testable import ColdTapCommands

@Suite struct NDEFDecodeInputTests {
    @Test(arguments: ["flipper", "raw", "hex"])
    func decodesTheMessageInsideATagDump(form: String) async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let message = PartialDumpEmulateTests.message
        let memory = try TagImage.memory(for: .ntag215, ndefMessage: message)
        let content: Data
        switch form {
        case "flipper": content = Data(try MemoryDump.parse(memory).flipperText().utf8)
        case "hex": content = Data(memory.hexString(separator: " ").utf8)
        default: content = memory
        }
        let path = try files.write("tag.\(form)", content)
        let result = await runColdTap(["ndef", "decode", path, "--json"])
        #expect(result.status == 0, "\(result.err)")
        let direct = await runColdTap(["ndef", "decode", try files.write("message.ndef", message), "--json"])
        #expect(result.out == direct.out)
        #expect(result.err.contains("of an NTAG215; decoding the NDEF message it holds (\(message.count) bytes from byte 18"))
        #expect(result.err.contains("`coldtap tag \(path)` shows the whole tag"))
    }

    @Test func aDumpWithoutAMessageNamesTheTagCommand() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("empty.bin", try TagImage.memory(for: .ntag213, ndefMessage: Data()))
        let result = await runColdTap(["ndef", "decode", path])
        #expect(result.status == 65)
        #expect(result.err.contains("without an NDEF message; `coldtap tag \(path)` shows what it holds"))
    }

    @Test func aURLIsPointedToDecodeAndEncode() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("tag.url", Data((try DecodeFixtures.cuplURL() + "\n").utf8))
        let result = await runColdTap(["ndef", "decode", path])
        #expect(result.status == 65)
        #expect(result.err.contains("is a URL, not an NDEF message"))
        #expect(result.err.contains("coldtap ndef encode --uri"))
    }

    @Test func plainMessagesAreUnchanged() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("m.ndef", PartialDumpEmulateTests.message)
        let result = await runColdTap(["ndef", "decode", path])
        #expect(result.status == 0)
        #expect(result.err.isEmpty)
        #expect(result.out.contains("Cold room 4"))
    }
}
