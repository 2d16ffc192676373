import ColdTapBase
import Foundation
import NFCTags

/// `TagTransport` over an `NFCMiFareTag` (NTAG21x, NTAG I2C): raw Type 2 commands go
/// through `sendMiFareCommand`, framed as `MiFareFraming` decides (bare, or with the
/// ISO 14443-A CRC appended).
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
    private let framing: MiFareFramingMemory
    /// One command on the air at a time: no retry while a timed-out one is still out.
    private let inFlight = CommandInFlight()

    /// - Parameters:
    ///   - link: the connected tag.
    ///   - framing: which framing to send first and what worked per chip; share one across
    ///     reads (the app keeps one while it runs).
    public init(link: any MiFareTagLink, framing: MiFareFramingMemory = MiFareFramingMemory()) {
        self.link = link
        self.framing = framing
    }

    /// A transport that always sends `framing` (for tests and device checks).
    public init(link: any MiFareTagLink, fixedFraming: MiFareFraming) {
        self.init(link: link, framing: MiFareFramingMemory(first: fixedFraming, retriesOtherFraming: false))
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
        let chip = link.identifier
        let first = framing.framing(for: chip)
        // Only reads are retried with the other framing: they have no side effect.
        let isRead = code == 0x30 || code == 0x3A
        do {
            let answer = try await exchange(command, framed: first, timeout: timeout)
            if isRead { framing.remember(first, for: chip) }
            return answer
        } catch let error as TransportError where isRead && Self.isSilence(error) && framing.mayRetry(for: chip) {
            let other = first.other
            let answer: Data
            do {
                answer = try await exchange(command, framed: other, timeout: timeout)
            } catch {
                throw error  // neither framing got an answer: report the first failure's kind
            }
            framing.remember(other, for: chip)
            return answer
        }
    }

    private func exchange(_ command: Data, framed: MiFareFraming, timeout: Duration) async throws -> Data {
        let packet = framed.packet(for: command)
        let link = self.link
        let answer = try await runWithDeadline(timeout, inFlight: inFlight) { try await link.sendMiFareCommand(packet) }
        guard !answer.isEmpty else { throw TransportError.linkFailure("the tag sent an empty answer") }
        return answer
    }

    /// The tag said nothing (as opposed to leaving the field or NAKing): what a wrongly
    /// framed command gets.
    static func isSilence(_ error: TransportError) -> Bool {
        switch error {
        case .timeout, .linkFailure: return true
        case .tagRemoved, .unsupported: return false
        }
    }
}

/// How a command is framed for `NFCMiFareTag.sendMiFareCommand`. Apple's documentation
/// asks to append the ISO 14443-A CRC for MIFARE Ultralight; widely used code sends bare
/// commands and works. This is the one place that decides: `bare` is sent first, and a
/// READ or FAST_READ that gets no answer is sent once more the other way (see
/// `MiFareFramingMemory`). How to check on a device: Apps/iOS/README.md.
public enum MiFareFraming: String, Sendable, Equatable, CaseIterable {
    /// The command bytes only.
    case bare
    /// The command followed by CRC_A, low byte first.
    case withCRC

    /// The packet handed to `sendMiFareCommand`.
    public func packet(for command: Data) -> Data {
        switch self {
        case .bare: return command
        case .withCRC: return command + ISO14443ACRC.checksum(of: command)
        }
    }

    public var other: MiFareFraming { self == .bare ? .withCRC : .bare }
}

/// Which framing worked for each chip (by UID), shared between reads, and which to try
/// first on a chip not seen yet (the one that last worked on any chip).
public final class MiFareFramingMemory: Sendable {
    private struct Learned {
        var confirmed: [Data: MiFareFraming] = [:]
        var preferred: MiFareFraming
    }
    private let learned: LockedValue<Learned>
    private let retriesOtherFraming: Bool

    /// - Parameters:
    ///   - first: the framing tried first on a chip nothing is known about.
    ///   - retriesOtherFraming: when false, `first` is always used.
    public init(first: MiFareFraming = .bare, retriesOtherFraming: Bool = true) {
        self.learned = LockedValue(Learned(preferred: first))
        self.retriesOtherFraming = retriesOtherFraming
    }

    /// The framing to send to the chip with this UID.
    public func framing(for chip: Data) -> MiFareFraming {
        learned.withLock { $0.confirmed[chip] ?? $0.preferred }
    }

    /// What worked for this chip, when a read got an answer.
    public func confirmedFraming(for chip: Data) -> MiFareFraming? {
        learned.withLock { $0.confirmed[chip] }
    }

    func mayRetry(for chip: Data) -> Bool {
        retriesOtherFraming && learned.withLock { $0.confirmed[chip] == nil }
    }

    func remember(_ framing: MiFareFraming, for chip: Data) {
        guard retriesOtherFraming else { return }
        learned.withLock {
            $0.confirmed[chip] = framing
            $0.preferred = framing
        }
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
