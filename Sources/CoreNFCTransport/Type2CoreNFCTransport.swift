import Foundation
import NFCTags

/// `TagTransport` over an `NFCMiFareTag` (NTAG21x, NTAG I2C): raw Type 2 commands go
/// through `sendMiFareCommand` unchanged.
///
/// The link carries at most `maxFastReadPages` pages per FAST_READ: an iPhone read 67 pages
/// and lost the connection at 68, so 64 keeps a margin. Longer FAST_READs are refused
/// with `TransportError.unsupported` before they reach the air.
public struct Type2CoreNFCTransport: TagTransport {
    /// Largest FAST_READ (pages) this link sends.
    public static let maxFastReadPages = 64

    public let technology: TagTechnology = .iso14443A
    public let limits = LinkLimits(maxCommandBytes: 32, maxResponseBytes: maxFastReadPages * 4)
    public var uid: Data? { link.identifier.isEmpty ? nil : link.identifier }

    private let link: any MiFareTagLink
    private let appendsCRC: Bool

    /// - Parameters:
    ///   - link: the connected tag.
    ///   - appendsCRC: append the ISO 14443-A CRC to every command. Apple's documentation asks
    ///     for it; public code that sends bare commands works on current iPhones, so the
    ///     default is `false` (to confirm on a device).
    public init(link: any MiFareTagLink, appendsCRC: Bool = false) {
        self.link = link
        self.appendsCRC = appendsCRC
    }

    /// Sends one Type 2 command.
    /// - Throws: `TransportError` (`.unsupported` for a FAST_READ over 64 pages, a
    ///   backwards range or an over-long command; `.tagRemoved`, `.timeout`, `.linkFailure`
    ///   from Core NFC's errors).
    public func send(_ command: Data, timeout: Duration) async throws -> Data {
        let bytes = Array(command)
        guard let code = bytes.first else { throw TransportError.unsupported("empty command") }
        guard bytes.count <= limits.maxCommandBytes else {
            throw TransportError.unsupported("\(bytes.count)-byte command exceeds \(limits.maxCommandBytes) bytes")
        }
        if code == 0x3A {
            guard bytes.count == 3 else { throw TransportError.unsupported("FAST_READ needs start and end page") }
            let start = Int(bytes[1]), end = Int(bytes[2])
            guard end >= start else {
                throw TransportError.unsupported("FAST_READ end page \(end) before start page \(start)")
            }
            guard end - start + 1 <= Self.maxFastReadPages else {
                throw TransportError.unsupported("FAST_READ of \(end - start + 1) pages; the iPhone carries at most \(Self.maxFastReadPages)")
            }
        }
        let packet = appendsCRC ? command + ISO14443ACRC.checksum(of: command) : command
        let link = self.link
        let answer = try await runWithDeadline(timeout) { try await link.sendMiFareCommand(packet) }
        guard !answer.isEmpty else { throw TransportError.linkFailure("the tag sent an empty answer") }
        return answer
    }
}

/// ISO/IEC 14443-3 CRC_A: reflected polynomial 0x8408, initial value 0x6363, low byte first.
public enum ISO14443ACRC {
    public static func checksum(of data: Data) -> Data {
        var crc: UInt16 = 0x6363
        for byte in data {
            crc ^= UInt16(byte)
            for _ in 0..<8 {
                crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x8408 : crc >> 1
            }
        }
        return Data([UInt8(crc & 0xFF), UInt8(crc >> 8)])
    }
}
