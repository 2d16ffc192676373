import Foundation
import NDEF
import TestSupport
import Testing

@testable import NFCTags

/// Tag memory and dump files are untrusted: garbage must give typed errors or anomalies, never a crash.
@Suite struct UntrustedInputTests {
    @Test func mutatedImagesNeverCrashTheReader() async throws {
        var random = SeededGenerator(seed: 0xC01D7A9)
        for chip in [TagChip.ntag213, .ntag216, .icodeSLIX2, .st25dv64k] {
            let base = Array(try TagImage.memory(for: chip, ndefMessage: helloMessage))
            let ccEnd = chip.technology == .iso14443A ? 16 : 8
            for _ in 0..<60 {
                var memory = base
                for _ in 0..<(1 + random.below(6)) {
                    // Mostly the CC and the first TLV bytes, where lengths live.
                    let index = random.below(3) == 0 ? random.below(memory.count) : ccEnd - 4 + random.below(24)
                    memory[index] = random.byte()
                }
                let dump = MemoryDump(
                    technology: chip.technology, memory: Data(memory), unitSize: 4, uid: nil, chip: chip,
                    format: .raw)
                for scope in [TagReadOptions.Scope.ndefMessage, .wholeDataArea] {
                    do {
                        let result = try await TagReader.read(from: dump.transport(), options: TagReadOptions(scope: scope))
                        if let message = result.ndefMessage, let bytes = result.ndefMessageBytes {
                            #expect(try NDEFParser.message(from: bytes) == message)
                        }
                        if let bytes = result.ndefMessageBytes, let area = result.dataArea {
                            #expect(bytes.count <= area.count)
                        }
                    } catch is TagReadError {
                        // A typed refusal is fine.
                    }
                }
            }
        }
    }

    @Test func garbageFilesGiveTypedErrors() {
        var random = SeededGenerator(seed: 42)
        for length in [1, 3, 15, 16, 17, 64, 181, 1000] {
            for _ in 0..<20 {
                let bytes = Data((0..<length).map { _ in random.byte() })
                do {
                    let dump = try MemoryDump.parse(bytes)
                    #expect(dump.memory.count % dump.unitSize == 0)
                } catch is MemoryDumpError {
                    // expected for most
                } catch {
                    Issue.record("untyped error \(error)")
                }
            }
        }
        let texts = [
            "Filetype: Flipper NFC device\nPage 0: 04", "Filetype: Flipper NFC device\nBlock 1: 00 00 00 00",
            "Filetype: Flipper NFC device\nBlock Size: 00\nData Content: 00", "Filetype: Flipper NFC device\n\n",
            "Filetype: Flipper NFC device\nPage -1: 00 00 00 00", "Filetype: Flipper NFC device\nUID: ZZ\nPage 0: 00 00 00 00",
        ]
        for text in texts {
            #expect(throws: MemoryDumpError.self) { try MemoryDump.parse(Data(text.utf8)) }
        }
    }
}
