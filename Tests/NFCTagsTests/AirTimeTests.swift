import Foundation
import Testing

@testable import NFCTags
@testable import NFCTagsEmulation

@Suite struct AirTimeTests {
    @Test func iso14443FramesMatchTheNTAGDatasheet() {
        // READ: 2 command bytes + CRC = 4 bytes → 39 etu; answer 16 + CRC = 18 bytes → 164 etu.
        #expect(abs(AirTime.iso14443ReaderFrame(bytes: 4) - 368.1) < 0.5)
        #expect(abs(AirTime.iso14443TagFrame(bytes: 18) - 1548.1) < 0.5)
        // GET_VERSION: 1 + CRC → 283 µs; 8 + CRC → 868 µs.
        #expect(abs(AirTime.iso14443ReaderFrame(bytes: 3) - 283.2) < 0.5)
        #expect(abs(AirTime.iso14443TagFrame(bytes: 10) - 868.5) < 0.5)
        #expect(abs(AirTime.etu - 9.4395) < 0.001)
    }

    @Test func iso15693WorkedFigures() {
        // Non-addressed READ_SINGLE_BLOCK of 4 bytes ≈ 4.67 ms; addressed ≈ 7.09 ms.
        #expect(abs(AirTime.iso15693Exchange(commandBytes: 3, answerBytes: 5) - 4670) < 10)
        #expect(abs(AirTime.iso15693Exchange(commandBytes: 11, answerBytes: 5) - 7087) < 10)
        // READ_MULTIPLE_BLOCKS of 32 blocks ≈ 42.4 ms.
        #expect(abs(AirTime.iso15693Exchange(commandBytes: 4, answerBytes: 129) - 42_430) < 20)
        // A full 8 KiB ST25DV64K: ≈ 9.6 s block by block, 14.5 s addressed, 2.7 s in 32-block reads.
        #expect(abs(2048 * AirTime.iso15693Exchange(commandBytes: 3, answerBytes: 5) / 1e6 - 9.56) < 0.05)
        #expect(abs(2048 * AirTime.iso15693Exchange(commandBytes: 11, answerBytes: 5) / 1e6 - 14.5) < 0.05)
        #expect(abs(64 * AirTime.iso15693Exchange(commandBytes: 4, answerBytes: 129) / 1e6 - 2.72) < 0.02)
    }

    @Test func ntag216WorkedFigures() {
        // 888 bytes with READ (56 commands) ≈ 121 ms; with FAST_READ of ≤ 64 pages ≈ 76 ms.
        let read = 56 * AirTime.iso14443Exchange(commandBytes: 2, answerBytes: 16) / 1000
        #expect(read > 115 && read < 122)
        let fast = [64, 64, 64, 30].reduce(0.0) { $0 + AirTime.iso14443Exchange(commandBytes: 3, answerBytes: $1 * 4) } / 1000
        #expect(fast > 75 && fast < 80)
    }

    @Test func virtualTagAddsTheModeledTimeOfEachExchange() async throws {
        let tag = try VirtualTag.make(chip: .ntag213, ndefMessage: helloMessage, hostLatency: .milliseconds(5))
        _ = try await tag.send(Data([0x30, 0x04]), timeout: .milliseconds(50))
        let expected = 368.1 + AirTime.iso14443TagResponseDelay + 1548.1 + AirTime.iso14443ReaderDelay
        let air = await tag.airTimeMicroseconds
        #expect(abs(air - expected) < 1)
        #expect(await tag.commandCount == 1)
        let total = await tag.modeledTime
        #expect(abs(total.microseconds - (expected + 5000)) < 1)

        let slix = try VirtualTag.make(chip: .icodeSLIX2, ndefMessage: helloMessage)
        _ = try await slix.send(Data([0x02, 0x20, 0x00]), timeout: .milliseconds(50))
        #expect(abs(await slix.airTimeMicroseconds - 4670) < 10)
        _ = try await slix.send(Data([0x02, 0x23, 0x00, 31]), timeout: .milliseconds(50))
        #expect(abs(await slix.airTimeMicroseconds - 4670 - 42_430) < 30)
    }

    @Test func fullST25DV64KReadTakesAboutTwoPointSevenSeconds() async throws {
        let tag = try VirtualTag.make(chip: .st25dv64k, ndefMessage: try fullMessage(.st25dv64k))
        _ = try await TagReader.read(from: tag)
        let seconds = await tag.airTimeMicroseconds / 1e6
        #expect(seconds > 2.70 && seconds < 2.80)
        let naive = try VirtualTag.make(chip: .st25dv64k, ndefMessage: try fullMessage(.st25dv64k))
        _ = try await TagReader.read(from: naive, options: TagReadOptions(strategy: .naive))
        #expect(await naive.commandCount == 2049)
        // 256 short and 1792 extended single-block reads plus GET_SYSTEM_INFO.
        let naiveSeconds = await naive.airTimeMicroseconds / 1e6
        #expect(naiveSeconds > 9.6 && naiveSeconds < 10.2)
    }
}
