import Foundation
import NFCTags
import NFCTagsEmulation
import TestSupport
import Testing

@testable import PCSC

/// A reader (or whatever sits behind pcscd) answering garbage: ATRs of any bytes, and
/// response APDUs cut, flipped or replaced. Every read ends in a value or a typed error.
@Suite struct GarbledReaderTests {
    /// Garbles one answer in `every` (deterministically, from the APDU's bytes and a counter).
    final class Garbler: @unchecked Sendable {
        private let lock = NSLock()
        private var generator: SeededGenerator
        private let every: Int
        init(seed: UInt64, every: Int) {
            generator = SeededGenerator(seed: seed)
            self.every = every
        }

        func garble(_ answer: Data) -> Data {
            lock.withLock {
                guard generator.below(every) == 0 else { return answer }
                var bytes = [UInt8](answer)
                switch generator.below(4) {
                case 0: bytes = Array(bytes.prefix(generator.below(bytes.count + 1)))
                case 1: if !bytes.isEmpty { bytes[generator.below(bytes.count)] ^= UInt8(1 << generator.below(8)) }
                case 2: bytes = (0..<generator.below(40)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                default: bytes += [0x90, 0x00]
                }
                return Data(bytes)
            }
        }
    }

    struct GarblingChannel: APDUChannel {
        let base: any APDUChannel
        let garbler: Garbler
        func transmit(_ apdu: Data, timeout: Duration) async throws -> Data {
            garbler.garble(try await base.transmit(apdu, timeout: timeout))
        }
    }

    @Test func atrsOfAnyBytesDecodeOrAreRefused() {
        var generator = SeededGenerator(seed: 7)
        let good = ContactlessATR(standard: 0x03, family: ChipFamily(cardName: 0x0003)).bytes
        var decoded = 0
        for round in 0..<3_000 {
            var bytes = [UInt8](good)
            if round % 3 == 0 {
                bytes = Array(bytes.prefix(generator.below(bytes.count + 1)))
            } else if round % 3 == 1 {
                bytes[generator.below(bytes.count)] ^= UInt8(1 << generator.below(8))
            } else {
                bytes = (0..<generator.below(40)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            }
            if let atr = ContactlessATR(Data(bytes)) {
                decoded += 1
                _ = atr.technology
            }
        }
        #expect(decoded > 0)
    }

    @Test(.tags(.slow)) func garbledAnswersEndInAValueOrATypedError() async throws {
        var outcomes = [String: Int]()
        for (index, reader) in ["Virtual PCD 00 00", "ACS ACR122U PICC Interface 00 00", "HID OMNIKEY 5422 CL 00 00"].enumerated() {
            for chip in [TagChip.ntag215, .icodeSLIX2] {
                let message = Data([0xD1, 0x01, 0x05, 0x54, 0x02, 0x65, 0x6E, 0x68, 0x69])
                for round in 0..<25 {
                    let tag = try VirtualTag.make(chip: chip, ndefMessage: message)
                    let emulator = ContactlessReaderEmulator(tag: tag, tagTimeout: .milliseconds(20))
                    let garbler = Garbler(seed: UInt64(index * 1000 + round), every: 3)
                    let channel = GarblingChannel(base: EmulatedReaderChannel(emulator), garbler: garbler)
                    do {
                        let link = try await ReaderTransport.open(
                            channel: channel, readerName: reader, atr: emulator.atr.bytes,
                            timeout: .milliseconds(200))
                        var options = TagReadOptions()
                        options.commandTimeout = .milliseconds(50)
                        // A flipped data bit below the status word cannot be noticed (the reader
                        // checked the air CRC already), so only the outcome's kind is asserted.
                        let result = try await TagReader.read(from: link, options: options)
                        outcomes[result.ndefMessage?.serialized() == message ? "read" : "read, other bytes", default: 0] += 1
                        await link.close()
                    } catch is TagReadError {
                        outcomes["TagReadError", default: 0] += 1
                    } catch is TransportError {
                        outcomes["TransportError", default: 0] += 1
                    }
                }
            }
        }
        #expect(outcomes.values.reduce(0, +) == 150, "\(outcomes)")
        #expect(outcomes["TagReadError", default: 0] + outcomes["TransportError", default: 0] > 0, "\(outcomes)")
        #expect(outcomes["read", default: 0] > 0, "\(outcomes)")
        print("GarbledReaderTests: \(outcomes)")
    }
}
