import Foundation
import NFCTags
import PCSC

/// A small NTAG21x-like Type 2 tag: READ, FAST_READ, WRITE, GET_VERSION.
final class FakeType2Tag: TagTransport, @unchecked Sendable {
    let technology = TagTechnology.iso14443A
    let limits = LinkLimits(maxCommandBytes: 64, maxResponseBytes: 1024)
    let uid: Data? = Data([0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])
    private let lock = NSLock()
    private var memory: [UInt8]

    init(pages: Int = 45) {
        memory = (0..<pages * 4).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
    }

    var bytes: [UInt8] { lock.withLock { memory } }

    func send(_ command: Data, timeout: Duration) async throws -> Data {
        let c = [UInt8](command)
        return lock.withLock {
            let pages = memory.count / 4
            switch c.first {
            case 0x30 where c.count == 2 && Int(c[1]) < pages:
                return Data((0..<16).map { memory[(Int(c[1]) * 4 + $0) % memory.count] })
            case 0x3A where c.count == 3 && c[1] <= c[2] && Int(c[2]) < pages:
                return Data(memory[Int(c[1]) * 4..<(Int(c[2]) + 1) * 4])
            case 0xA2 where c.count == 6 && Int(c[1]) < pages:
                memory.replaceSubrange(Int(c[1]) * 4..<Int(c[1]) * 4 + 4, with: c[2...])
                return Data([0x0A])
            case 0x60 where c.count == 1:
                return Data([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03])
            default:
                return Data([0x00])
            }
        }
    }
}

/// A small ICODE-like Type 5 tag with 4-byte blocks: READ_SINGLE_BLOCK, READ_MULTIPLE_BLOCKS,
/// WRITE_SINGLE_BLOCK, GET_SYSTEM_INFO; addressed or not.
final class FakeType5Tag: TagTransport, @unchecked Sendable {
    let technology = TagTechnology.iso15693
    let limits = LinkLimits(maxCommandBytes: 64, maxResponseBytes: 1024)
    /// LSB first as on the air: E0 (ISO 15693), 04 (NXP) last.
    let uid: Data? = Data([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x04, 0xE0])
    private let lock = NSLock()
    private var memory: [UInt8]

    init(blocks: Int = 80) {
        memory = (0..<blocks * 4).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }
    }

    var bytes: [UInt8] { lock.withLock { memory } }

    func send(_ command: Data, timeout: Duration) async throws -> Data {
        let c = [UInt8](command)
        guard c.count >= 2 else { return Data([0x01, 0x0F]) }
        let start = 2 + (c[0] & 0x20 != 0 ? 8 : 0)
        return lock.withLock {
            let blocks = memory.count / 4
            switch c[1] {
            case 0x20 where c.count == start + 1 && Int(c[start]) < blocks:
                return Data([0x00] + memory[Int(c[start]) * 4..<Int(c[start]) * 4 + 4])
            case 0x23 where c.count == start + 2 && Int(c[start]) + Int(c[start + 1]) < blocks:
                let first = Int(c[start])
                return Data([0x00] + memory[first * 4..<(first + Int(c[start + 1]) + 1) * 4])
            case 0x21 where c.count == start + 5 && Int(c[start]) < blocks:
                memory.replaceSubrange(Int(c[start]) * 4..<Int(c[start]) * 4 + 4, with: c[(start + 1)...])
                return Data([0x00])
            case 0x2B:
                return Data([0x00, 0x04] + [UInt8](uid ?? Data()) + [UInt8(blocks - 1), 0x03])
            default:
                return Data([0x01, 0x10])
            }
        }
    }
}

/// A channel in front of another that changes what some APDUs get, to play readers that lack
/// a feature or order bytes differently.
struct ScriptedChannel: APDUChannel {
    let base: any APDUChannel
    let override: @Sendable ([UInt8]) -> Data?

    func transmit(_ apdu: Data, timeout: Duration) async throws -> Data {
        if let answer = override([UInt8](apdu)) { return answer }
        return try await base.transmit(apdu, timeout: timeout)
    }
}
