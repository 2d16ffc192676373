import Foundation
import NDEF
import NFCTags
import NFCTagsEmulation
import Testing

@testable import ColdTapCommands

@Suite final class TagCommandTests {
    /// The folders `temporaryFile` made, removed when the test ends (one instance per test).
    private var folders: [URL] = []

    deinit {
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
    }

    let message = NDEFMessage(records: [
        TextRecord(text: "Logger 17", language: "en").record,
        URIRecord(uri: "https://example.com/log/17").record,
        NDEFRecord(tnf: .media, type: "application/json", payload: Data("{\"t\":4.5}".utf8)),
    ]).serialized()

    func temporaryFile(_ data: Data, name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-tag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        folders.append(directory)
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    @Test func rawNTAG213DumpAsText() async throws {
        let image = try TagImage.memory(for: .ntag213, ndefMessage: message)
        let path = try temporaryFile(image, name: "ntag213.bin")
        let console = Console.capturing()
        let status = await ColdTap.main(["tag", path], console: console)
        #expect(status == 0, "\(console.errorOutput)")
        let out = console.output
        #expect(out.contains("raw binary, Type 2 (ISO 14443-A), 45 pages of 4 bytes"))
        #expect(out.contains("Chip: NTAG213 (from the dump size, 45 pages)"))
        #expect(out.contains("UID: 04:C0:1D:7A:9E:21:"))
        #expect(out.contains("Capability container (page 3, byte 0): E1 10 12 00 — version 1.0, data area 144 bytes, read/write"))
        #expect(out.contains("byte 16 (page 4, byte 0)"))
        #expect(out.contains("Lock Control  3 bytes: A0 0C 34 → reserves bytes 160–161"))
        #expect(out.contains("byte 21 (page 5, byte 1)"))
        #expect(out.contains("NDEF Message  \(message.count) bytes"))
        #expect(out.contains("1. Text (en): \"Logger 17\""))
        #expect(out.contains("2. URI: https://example.com/log/17"))
        #expect(out.contains("3. MIME application/json, 9 bytes"))
        #expect(out.contains("Anomalies: none"))
    }

    @Test func flipperSLIX2DumpAsJSON() async throws {
        let tag = try VirtualTag.make(chip: .icodeSLIX2, ndefMessage: message)
        let text = try await TagReader.dump(tag).flipperText()
        let path = try temporaryFile(Data(text.utf8), name: "slix2.nfc")
        let console = Console.capturing()
        let status = await ColdTap.main(["tag", path, "--json"], console: console)
        #expect(status == 0, "\(console.errorOutput)")
        let json = try #require(try JSONSerialization.jsonObject(with: console.outputData) as? [String: Any])
        #expect(json["format"] as? String == "flipper")
        #expect(json["chip"] as? String == "ICODE SLIX2")
        #expect(json["uid"] as? String == TagImage.defaultUID(for: .icodeSLIX2).map { String(format: "%02X", $0) }.joined())
        let cc = try #require(json["capabilityContainer"] as? [String: Any])
        #expect(cc["bytes"] as? String == "E1402801")
        #expect(cc["dataAreaBytes"] as? Int == 320)
        let tlvs = try #require(json["tlvs"] as? [[String: Any]])
        #expect(tlvs.map { $0["type"] as? String } == ["NDEF Message", "Terminator"])
        #expect(tlvs.first?["offset"] as? Int == 4)
        #expect(tlvs.first?["location"] as? String == "block 1, byte 0")
        let ndef = try #require(json["ndef"] as? [String: Any])
        let records = try #require(ndef["records"] as? [[String: Any]])
        #expect(records.count == 3)
        #expect(records[1]["summary"] as? String == "URI: https://example.com/log/17")
        #expect((json["anomalies"] as? [Any])?.isEmpty == true)
    }

    @Test func proxmarkDumpShowsItsStoredVersion() async throws {
        let layout = try #require(TagChip.nt3h2111.type2Layout)
        var file = Data(layout.version) + Data([0, 0, 0, UInt8(layout.readablePages - 1)])
        file += Data(repeating: 0, count: 44)
        file += try TagImage.memory(for: .nt3h2111, ndefMessage: message)
        let path = try temporaryFile(file, name: "hf-mfu-dump.bin")
        let console = Console.capturing()
        #expect(await ColdTap.main(["tag", path], console: console) == 0)
        #expect(console.output.contains("Proxmark3 mfu binary, Type 2 (ISO 14443-A), 234 pages of 4 bytes"))
        #expect(console.output.contains("Chip: NT3H2111 (NTAG I2C plus 1k) (GET_VERSION 00 04 04 05 02 02 13 03)"))
        #expect(console.output.contains("1. Text (en): \"Logger 17\""))
    }

    @Test func oddThingsAreShown() async throws {
        var image = Array(try TagImage.memory(for: .ntag216, ndefMessage: message, layout: .plain))
        let end = 16 + 2 + message.count
        #expect(image[end] == 0xFE)
        image[end + 5] = 0x42  // a stray byte after the terminator
        let path = try temporaryFile(Data(image), name: "odd.bin")
        let console = Console.capturing()
        #expect(await ColdTap.main(["tag", path], console: console) == 0)
        #expect(console.output.contains("byte \(end + 5) (page \((end + 5) / 4), byte \((end + 5) % 4)): 1 non-zero byte(s) after the Terminator TLV"))
    }

    @Test func malformedDumpsExit65NamingThePlace() async throws {
        let image = try TagImage.memory(for: .ntag213, ndefMessage: message)
        let cut = try temporaryFile(image.prefix(178), name: "cut.bin")
        let console = Console.capturing()
        #expect(await ColdTap.main(["tag", cut, "--input", "tag2"], console: console) == 65)
        #expect(console.errorOutput.contains("byte 176: the dump ends inside page 44"))

        let flipper = "Filetype: Flipper NFC device\nVersion: 4\nDevice type: NTAG216\nPage 0: 04 C0 1D 51\nPage 1: 00 00 00 XX\n"
        let bad = try temporaryFile(Data(flipper.utf8), name: "bad.nfc")
        let second = Console.capturing()
        #expect(await ColdTap.main(["tag", bad], console: second) == 65)
        #expect(second.errorOutput.contains("line 5: page 1: 'XX' is not a hex byte"))

        // A Flipper file missing a page inside the NDEF message.
        let tag = try VirtualTag.make(chip: .ntag216, ndefMessage: TagImage.sampleMessage(totalBytes: 600))
        var dump = try await TagReader.dump(tag)
        dump.missingUnits = [50]
        let gap = try temporaryFile(Data(dump.flipperText().utf8), name: "gap.nfc")
        let third = Console.capturing()
        #expect(await ColdTap.main(["tag", gap], console: third) == 65)
        #expect(third.errorOutput.contains("page 50"))
    }

    @Test func usageErrorsAndStandardInput() async throws {
        let console = Console.capturing()
        #expect(await ColdTap.main(["tag"], console: console) == 64)
        #expect(await ColdTap.main(["tag", "x.bin", "--input", "tag9"], console: Console.capturing()) == 64)
        #expect(await ColdTap.main(["tag", "/nonexistent/x.bin"], console: Console.capturing()) == 1)
        let image = try TagImage.memory(for: .st25dv64k, ndefMessage: message)
        let stdin = Console.capturing(stdin: image)
        #expect(await ColdTap.main(["tag", "-"], console: stdin) == 0)
        #expect(stdin.output.contains("Type 5 (ISO 15693), 2048 blocks of 4 bytes"))
        #expect(stdin.output.contains("E2 40 00 01 00 00 04 00"))
        // The same dump as hex text.
        let hexText = image.map { String(format: "%02x", $0) }.joined(separator: " ")
        let hexPath = try temporaryFile(Data(hexText.utf8), name: "dump.hex")
        let hex = Console.capturing()
        #expect(await ColdTap.main(["tag", hexPath, "--json"], console: hex) == 0)
        #expect(hex.output.contains("\"bytes\": \"E240000100000400\""))
    }
}
