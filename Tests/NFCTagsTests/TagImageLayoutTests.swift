import Foundation
import Testing

@testable import NFCTags

/// Control TLVs that do not fit are an error on both tag types (a Type 5 image used to
/// write past its memory and trap); Type 2 and Type 5 images share the TLV writer.
@Suite struct TagImageLayoutTests {
    @Test func controlTLVsPastTheDataAreaAreRefusedOnBothTypes() {
        for chip in [TagChip.ntag213, .icodeSLIX2] {
            let layout = TLVLayout(controlTLVs: [.memoryControl(position: 64, size: 4)], leadingNulls: 2_000)
            #expect(throws: TagImageError.invalidControlTLV("no room in the data area")) {
                try TagImage.memory(for: chip, ndefMessage: Data(), layout: layout)
            }
        }
    }

    @Test func type5ControlTLVsSitBeforeTheNDEFTLVUnmarked() throws {
        let layout = TLVLayout(controlTLVs: [.memoryControl(position: 64, size: 4)])
        let memory = Array(try TagImage.memory(for: .icodeSLIX2, ndefMessage: Data([0xD0, 0x00, 0x00]), layout: layout))
        // CC (4 bytes), the Memory Control TLV 02 03 80 04 03 (byte 64 = 8 × 2^3), then the NDEF TLV.
        #expect(Array(memory[4..<9]) == [0x02, 0x03, 0x80, 0x04, 0x03])
        #expect(Array(memory[9..<15]) == [0x03, 0x03, 0xD0, 0x00, 0x00, 0xFE])
        #expect(!memory.contains(0x5A))
    }

    @Test func type2ReservedBytesAreMarkedAndSkipped() throws {
        let layout = TLVLayout(controlTLVs: [.memoryControl(position: 24, size: 4)])
        let memory = Array(try TagImage.memory(for: .ntag213, ndefMessage: Data([0xD0, 0x00, 0x00]), layout: layout))
        // 02 03 60 04 02: byte 24 = page 6 × 2^2, 4 bytes.
        #expect(Array(memory[16..<21]) == [0x02, 0x03, 0x60, 0x04, 0x02])
        // NDEF TLV from byte 21; bytes 24–27 are reserved and marked, so the TLV continues at 28.
        #expect(Array(memory[21..<24]) == [0x03, 0x03, 0xD0])
        #expect(Array(memory[24..<28]) == [0x5A, 0x5A, 0x5A, 0x5A])
        #expect(Array(memory[28..<31]) == [0x00, 0x00, 0xFE])
    }
}

/// How a dump names the pages or blocks its file marks unread.
@Suite struct MissingUnitsDescriptionTests {
    @Test func rangesAreCompactedAndNamedByTagType() throws {
        let memory = try TagImage.memory(for: .ntag215, ndefMessage: Data())
        var type2 = try MemoryDump.parse(memory, hint: .chip(.ntag215))
        #expect(type2.missingUnitsDescription == nil)
        type2.missingUnits = [120, 121, 122, 130]
        #expect(type2.missingUnitsDescription == "pages 120–122, 130")
        type2.missingUnits = [7]
        #expect(type2.missingUnitsDescription == "page 7")
        var type5 = try MemoryDump.parse(try TagImage.memory(for: .icodeSLIX2, ndefMessage: Data()), hint: .chip(.icodeSLIX2))
        type5.missingUnits = [3, 7, 8, 9]
        #expect(type5.missingUnitsDescription == "blocks 3, 7–9")
    }
}
