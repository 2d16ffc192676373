import Foundation
import NDEF
import NFCTagsEmulation
import Testing

@testable import NFCTags

@Suite struct DumpTests {
    @Test func rawNTAGDumpIsType2AndReadsLikeALiveTag() async throws {
        let image = try TagImage.memory(for: .ntag216, ndefMessage: helloMessage)
        let dump = try MemoryDump.parse(image)
        #expect(dump.technology == .iso14443A && dump.format == .raw)
        #expect(dump.chip == .ntag216)  // from its size: 231 pages
        #expect(dump.uid == TagImage.defaultUID(for: .ntag216))
        let result = try await TagReader.read(from: dump.transport())
        #expect(result.chip == .ntag216)
        #expect(result.ndefMessage?.records.first?.textRecord?.text == "Hello, cold room")
        // An odd size: no chip guess, read as a generic Type 2 tag from the CC.
        let trimmed = try MemoryDump.parse(image.prefix(200))
        #expect(trimmed.chip == nil)
        let generic = try await TagReader.read(from: trimmed.transport())
        #expect(generic.chip == .genericType2)
        #expect(generic.ndefMessageBytes == helloMessage)
    }

    @Test func proxmarkMFUDumpCarriesTheVersion() async throws {
        let layout = try #require(TagChip.ntag215.type2Layout)
        let pages = try TagImage.memory(for: .ntag215, ndefMessage: helloMessage)
        var file = Data(layout.version)  // GET_VERSION
        file += Data([0x00, 0x00, 0x00, UInt8(layout.readablePages - 1)])  // tbo, tbo1, pages
        file += Data(repeating: 0xAB, count: 32)  // signature
        file += Data(repeating: 0x00, count: 12)  // counters and tearing
        file += pages
        let dump = try MemoryDump.parse(file)
        #expect(dump.format == .proxmark)
        #expect(dump.memory == pages)
        #expect(dump.version == Data(layout.version))
        let result = try await TagReader.read(from: dump.transport())
        #expect(result.chip == .ntag215)
        #expect(result.ndefMessageBytes == helloMessage)
    }

    @Test func flipperType2RoundTripWithUnreadPages() async throws {
        let tag = try VirtualTag.make(chip: .ntag213, ndefMessage: helloMessage)
        var dump = try await TagReader.dump(tag)
        dump.missingUnits = [40, 41]
        let text = dump.flipperText()
        #expect(text.hasPrefix("Filetype: Flipper NFC device\nVersion: 4\n"))
        #expect(text.contains("Page 4: 01 03 A0 0C"))
        #expect(text.contains("Page 40: ?? ?? ?? ??"))
        let parsed = try MemoryDump.parse(Data(text.utf8))
        #expect(parsed.format == .flipper)
        #expect(parsed.chip == .ntag213)
        #expect(parsed.missingUnits == [40, 41])
        #expect(parsed.version == Data(TagChip.ntag213.type2Layout?.version ?? []))
        #expect(parsed.uid == TagImage.defaultUID(for: .ntag213))
        let result = try await TagReader.read(from: parsed.transport())
        #expect(result.chip == .ntag213)
        #expect(result.ndefMessageBytes == helloMessage)
    }

    @Test func flipperPagesMissingInsideTheMessageNameThePage() async throws {
        let tag = try VirtualTag.make(chip: .ntag216, ndefMessage: try fullMessage(.ntag216))
        var dump = try await TagReader.dump(tag)
        dump.missingUnits = [100]
        let parsed = try MemoryDump.parse(Data(dump.flipperText().utf8))
        do {
            _ = try await TagReader.read(from: parsed.transport())
            Issue.record("a dump without page 100 read as complete")
        } catch let error as TagReadError {
            // FAST_READs over the gap are refused and halve down to the one page that is missing.
            #expect(error == .refused(command: "FAST_READ", location: "page 100", status: "NAK 0x0"))
        }
    }

    @Test func flipperType5DataContent() async throws {
        let tag = try VirtualTag.make(chip: .icodeSLIX2, ndefMessage: helloMessage)
        let dump = try await TagReader.dump(tag)
        let text = dump.flipperText()
        #expect(text.contains("Block Count: 80"))
        #expect(text.contains("Block Size: 04"))
        #expect(text.contains("UID: E0 04 01 08"))
        let parsed = try MemoryDump.parse(Data(text.utf8))
        #expect(parsed.technology == .iso15693 && parsed.unitSize == 4 && parsed.unitCount == 80)
        #expect(parsed.chip == .icodeSLIX2)
        let result = try await TagReader.read(from: parsed.transport())
        #expect(result.chip == .icodeSLIX2)
        #expect(result.uid == TagImage.defaultUID(for: .icodeSLIX2))
        #expect(result.ndefMessageBytes == helloMessage)
    }

    @Test func flipperType5BlockLines() async throws {
        let memory = Array(try TagImage.memory(for: .icodeSLIX2, ndefMessage: helloMessage))
        var lines = ["Filetype: Flipper NFC device", "Version: 2", "Device type: ISO15693", "UID: E0 04 01 08 51 C7 2A 09"]
        for block in 0..<80 {
            lines.append("Block \(block): " + memory[(block * 4)..<(block * 4 + 4)].map { String(format: "%02X", $0) }.joined(separator: " "))
        }
        let parsed = try MemoryDump.parse(Data(lines.joined(separator: "\r\n").utf8))
        #expect(parsed.unitCount == 80)
        let result = try await TagReader.read(from: parsed.transport())
        #expect(result.chip == .icodeSLIX2)
        #expect(result.ndefMessageBytes == helloMessage)
    }

    @Test func rawType5IsToldApartByItsCC() async throws {
        let image = try TagImage.memory(for: .st25dv64k, ndefMessage: helloMessage)
        let dump = try MemoryDump.parse(image)
        #expect(dump.technology == .iso15693 && dump.unitSize == 4 && dump.unitCount == 2048)
        let result = try await TagReader.read(from: dump.transport())
        #expect(result.capabilityContainer?.bytes.count == 8)
        #expect(result.ndefMessageBytes == helloMessage)
        // A hint wins over the bytes.
        let hinted = try MemoryDump.parse(image, hint: .chip(.st25dv64k))
        let read = try await TagReader.read(from: hinted.transport())
        #expect(read.ndefMessageBytes == helloMessage)
    }

    @Test func malformedDumpsNameTheLineOrOffset() throws {
        let image = try TagImage.memory(for: .ntag213, ndefMessage: helloMessage)
        #expect(throws: MemoryDumpError("the dump ends inside page 45 (181 bytes is not a whole number of 4-byte pages)", offset: 180)) {
            try MemoryDump.parse(image + Data([0x00]), hint: .type2)
        }
        #expect(throws: MemoryDumpError.self) { try MemoryDump.parse(Data(repeating: 0xFF, count: 64)) }
        #expect(throws: MemoryDumpError("the dump is empty", offset: 0)) { try MemoryDump.parse(Data()) }
        let outOfOrder = "Filetype: Flipper NFC device\nDevice type: NTAG213\nPage 0: 04 C0 1D 51\nPage 2: 00 00 00 00\n"
        #expect(throws: MemoryDumpError("page 2 is out of order (page 1 expected)", line: 4)) {
            try MemoryDump.parse(Data(outOfOrder.utf8))
        }
        let badHex = "Filetype: Flipper NFC device\nPage 0: 04 C0 1D 51\nPage 1: 04 ZZ 1D 51\n"
        #expect(throws: MemoryDumpError("page 1: 'ZZ' is not a hex byte", line: 3)) {
            try MemoryDump.parse(Data(badHex.utf8))
        }
        let short = "Filetype: Flipper NFC device\nPage 0: 04 C0 1D\n"
        #expect(throws: MemoryDumpError("page 0 has 3 bytes instead of 4", line: 2)) {
            try MemoryDump.parse(Data(short.utf8))
        }
        let classic = "Filetype: Flipper NFC device\nVersion: 4\nDevice type: Mifare Classic\nBlock 0: 00\n"
        #expect(throws: MemoryDumpError("a 'Mifare Classic' dump is not an NFC Forum Type 2 or Type 5 tag", line: 3)) {
            try MemoryDump.parse(Data(classic.utf8))
        }
        let content = "Filetype: Flipper NFC device\nDevice type: ISO15693-3\nBlock Count: 4\nBlock Size: 04\nData Content: E1 40 02 01 03 00 FE\n"
        #expect(throws: MemoryDumpError("Data Content ends inside block 1 (7 bytes, 4-byte blocks)", line: 5)) {
            try MemoryDump.parse(Data(content.utf8))
        }
    }
}

extension DumpTests {
    /// The layout a Flipper Zero (firmware 0.9x) writes for an NTAG: comments, signature,
    /// counters and tearing flags before the pages, the failed-authentication line after them.
    @Test func flipperFileInTheFirmwareLayout() async throws {
        let memory = Array(try TagImage.memory(for: .ntag215, ndefMessage: helloMessage, uid: Data([0x04, 0x85, 0x92, 0x8A, 0xA0, 0x61, 0x81])))
        var lines = [
            "Filetype: Flipper NFC device", "Version: 4",
            "# Device type can be ISO14443-3A, ISO14443-3B, ISO14443-4A, ISO14443-4B, ISO15693-3, FeliCa, NTAG/Ultralight, Mifare Classic, Mifare DESFire, SLIX, ST25TB",
            "Device type: NTAG/Ultralight", "# UID is common for all formats", "UID: 04 85 92 8A A0 61 81",
            "# ISO14443-3A specific data", "ATQA: 00 44", "SAK: 00", "# NTAG/Ultralight specific data",
            "Data format version: 2", "NTAG/Ultralight type: NTAG215",
            "Signature: 1B 84 EB 70 BD 4C BD 1B 1D E4 98 0B 18 58 BD 7C 72 85 B4 E4 7B 38 8E 96 CF 88 6B EE A3 43 AD 90",
            "Mifare version: 00 04 04 02 01 00 11 03",
            "Counter 0: 0", "Tearing 0: 00", "Counter 1: 0", "Tearing 1: 00", "Counter 2: 0", "Tearing 2: BD",
            "Pages total: 135", "Pages read: 135",
        ]
        for page in 0..<135 {
            lines.append("Page \(page): " + memory[(page * 4)..<(page * 4 + 4)].map { String(format: "%02X", $0) }.joined(separator: " "))
        }
        lines.append("Failed authentication attempts: 0")
        let dump = try MemoryDump.parse(Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(dump.chip == .ntag215)
        #expect(dump.uid == Data([0x04, 0x85, 0x92, 0x8A, 0xA0, 0x61, 0x81]))
        #expect(dump.header.contains { $0.key == "Failed authentication attempts" && $0.value == "0" })
        let result = try await TagReader.read(from: dump.transport())
        #expect(result.chip == .ntag215)
        #expect(result.ndefMessageBytes == helloMessage)
        #expect(result.anomalies.isEmpty)
    }
}

@Suite struct DumpHintTests {
    @Test func aDumpOfNeitherTypeAsksWhichItIsAsAHint() throws {
        let bytes = Data([0x00, 0x01, 0x02, 0x03] + [UInt8](repeating: 0x55, count: 28))
        #expect {
            try MemoryDump.parse(bytes)
        } throws: { error in
            guard let error = error as? MemoryDumpError else { return false }
            return error.hint == .wrongInputKind(suggested: [.type2TagDump, .type5TagDump])
                && error.offset == 0 && !error.description.contains("--")
        }
    }
}
