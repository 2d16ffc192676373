import ColdTapBase
import Foundation
import NFCTags

/// A `TagTransport` over a tag on a PC/SC contactless reader.
///
/// Raw tag commands go through the PC/SC 2.02 Part 3 transparent session or the ACR122U direct
/// transmit, whichever the reader offers (chosen from its name, then confirmed by what it
/// answers); a reader with neither gets READ/UPDATE BINARY, and `limits.supportedCommands`
/// says which tag commands that still carries (READ/WRITE, READ/WRITE_SINGLE_BLOCK).
public struct ReaderTransport: TagTransport {
    public let technology: TagTechnology
    public let limits: LinkLimits
    /// Type 2: the 7-byte UID; Type 5: 8 bytes LSB first (`E0` last), whatever order the reader used.
    public let uid: Data?
    /// How raw commands reach the tag.
    public let path: RawCommandPath
    /// The reader model as recognised from its name.
    public let profile: ReaderProfile
    /// The ATR the reader built for the tag.
    public let atr: ContactlessATR
    private let channel: any APDUChannel

    /// Opens a transport on a tag whose reader presented `atr`.
    /// - Parameters:
    ///   - channel: the APDU link to the reader (a `PCSCChannel` for a real reader).
    ///   - readerName: the PC/SC reader name, used to pick the command path and limits.
    ///   - atr: the reader's ATR for the tag.
    /// - Throws: `TransportError.unsupported` when the tag is not a Type 2 or Type 5 tag or the
    ///   reader cannot reach it; `.tagRemoved` when it left while the link was set up.
    public static func open(
        channel: any APDUChannel, readerName: String, atr atrBytes: Data,
        timeout: Duration = .seconds(2)
    ) async throws -> ReaderTransport {
        guard let atr = ContactlessATR(atrBytes), let technology = atr.technology else {
            throw TransportError.unsupported(
                "the tag on \(readerName) is not an NFC Forum Type 2 or Type 5 memory tag (ATR \(atrBytes.hexString()))")
        }
        let profile = ReaderProfile(readerName: readerName)
        if technology == .iso15693, !profile.readsISO15693 {
            throw TransportError.unsupported(
                "\(profile.family.rawValue) cannot read ISO 15693 (Type 5) tags; use \(ReaderProfile.iso15693Readers)")
        }
        let uid = try await readUID(channel: channel, technology: technology, timeout: timeout)
        let path = try await choosePath(channel: channel, profile: profile, technology: technology, timeout: timeout)
        return ReaderTransport(
            technology: technology, limits: profile.limits(for: path, technology: technology),
            uid: uid, path: path, profile: profile, atr: atr, channel: channel)
    }

    private init(
        technology: TagTechnology, limits: LinkLimits, uid: Data?, path: RawCommandPath,
        profile: ReaderProfile, atr: ContactlessATR, channel: any APDUChannel
    ) {
        self.technology = technology
        self.limits = limits
        self.uid = uid
        self.path = path
        self.profile = profile
        self.atr = atr
        self.channel = channel
    }

    /// Ends the transparent session, if one was started. Errors are ignored: the tag may be gone.
    public func close() async {
        guard path == .transparentSession else { return }
        _ = try? await channel.transmit(Data([0xFF, 0xC2, 0x00, 0x00, 0x02, 0x82, 0x00]), timeout: .seconds(1))
    }

    public func send(_ command: Data, timeout: Duration) async throws -> Data {
        guard let code = ReaderTransport.commandCode(command, technology: technology) else {
            throw TransportError.unsupported("an empty or truncated command")
        }
        guard limits.carries(code) else {
            throw TransportError.unsupported(
                String(
                    format:
                        "%@ offers only READ/UPDATE BINARY, so tag command 0x%02X cannot be sent; a reader with the PC/SC Part 3 transparent session (e.g. %@) can",
                    profile.family.rawValue, code, ReaderProfile.iso15693Readers))
        }
        guard command.count <= limits.maxCommandBytes else {
            throw TransportError.unsupported("a \(command.count)-byte command is longer than \(profile.family.rawValue) carries (\(limits.maxCommandBytes))")
        }
        switch path {
        case .transparentSession: return try await sendTransparent(command, timeout: timeout)
        case .directTransmit: return try await sendDirect(command, timeout: timeout)
        case .storageCommands: return try await sendStorage(command, code: code, timeout: timeout)
        }
    }

    // MARK: - Raw paths

    private func sendTransparent(_ command: Data, timeout: Duration) async throws -> Data {
        let objects = BERTLV.encode(tag: 0x95, value: [UInt8](command))
        let apdu = [0xFF, 0xC2, 0x00, 0x01, UInt8(objects.count)] + objects + [0x00]
        let response = try ResponseAPDU(try await channel.transmit(Data(apdu), timeout: timeout))
        guard let items = BERTLV.decode(response.data) else {
            throw TransportError.linkFailure("malformed transparent-exchange answer (SW \(response.statusText))")
        }
        if let status = items.first(where: { $0.tag == 0xC0 })?.value, status.count == 3,
            !(status[1] == 0x90 && status[2] == 0x00)
        {
            if status[1] == 0x64 { throw TransportError.timeout }
            throw TransportError.linkFailure(String(format: "transparent exchange status %02X %02X", status[1], status[2]))
        }
        guard response.isSuccess else {
            if response.sw1 == 0x64 { throw TransportError.timeout }
            throw TransportError.linkFailure("transparent exchange answered SW \(response.statusText)")
        }
        guard let answer = items.first(where: { $0.tag == 0x97 }) else {
            throw TransportError.timeout  // a successful exchange without response data: nothing came back
        }
        return Data(answer.value)
    }

    private func sendDirect(_ command: Data, timeout: Duration) async throws -> Data {
        let payload: [UInt8] = [0xD4, 0x42] + command
        var response = try ResponseAPDU(
            try await channel.transmit(Data([0xFF, 0x00, 0x00, 0x00, UInt8(payload.count)] + payload), timeout: timeout))
        if response.sw1 == 0x61 {
            // Older ACR122U firmware hands the answer out through GET RESPONSE.
            response = try ResponseAPDU(
                try await channel.transmit(Data([0xFF, 0xC0, 0x00, 0x00, response.sw2]), timeout: timeout))
        }
        guard response.isSuccess else {
            throw TransportError.linkFailure("direct transmit answered SW \(response.statusText)")
        }
        guard response.data.count >= 3, response.data[0] == 0xD5, response.data[1] == 0x43 else {
            throw TransportError.linkFailure("unexpected PN532 answer \(Data(response.data.prefix(3)).hexString())")
        }
        let status = response.data[2] & 0x3F
        if status == 0x01 { throw TransportError.timeout }
        guard status == 0 else {
            throw TransportError.linkFailure(String(format: "PN532 error 0x%02X", status))
        }
        return Data(response.data.dropFirst(3))
    }

    // MARK: - Storage commands

    private func sendStorage(_ command: Data, code: UInt8, timeout: Duration) async throws -> Data {
        let bytes = [UInt8](command)
        switch technology {
        case .iso14443A:
            switch Type2Command(parsing: bytes) {
            case .read(let page)?:
                let response = try await storage([0xFF, 0xB0, 0x00, page, 0x10], timeout: timeout)
                guard response.isSuccess, response.data.count == 16 else { return Data([0x00]) }  // NAK: invalid argument
                return Data(response.data)
            case .write(let page, let data)?:
                let response = try await storage([0xFF, 0xD6, 0x00, page, 0x04] + data, timeout: timeout)
                return Data([response.isSuccess ? 0x0A : 0x05])  // ACK, or NAK: write error
            default:
                throw TransportError.unsupported(String(format: "a malformed tag command 0x%02X", code))
            }
        case .iso15693:
            let block: Int
            var data: [UInt8]?
            switch Type5Command.Request(parsing: bytes)?.command {
            case .readSingleBlock(let number, _)?: block = number
            case .writeSingleBlock(let number, let written, _)?: (block, data) = (number, written)
            default: throw TransportError.unsupported(String(format: "a truncated tag command 0x%02X", code))
            }
            let p1 = UInt8(truncatingIfNeeded: block >> 8), p2 = UInt8(truncatingIfNeeded: block)
            guard let data else {
                let response = try await storage([0xFF, 0xB0, p1, p2, 0x00], timeout: timeout)
                guard response.isSuccess else { return Data([0x01, 0x10]) }  // error: block not available
                return Data([0x00] + response.data)
            }
            guard !data.isEmpty, data.count <= 32 else { throw TransportError.unsupported("a write of \(data.count) bytes") }
            let response = try await storage([0xFF, 0xD6, p1, p2, UInt8(data.count)] + data, timeout: timeout)
            return Data(response.isSuccess ? [0x00] : [0x01, 0x0F])
        }
    }

    private func storage(_ apdu: [UInt8], timeout: Duration) async throws -> ResponseAPDU {
        let response = try ResponseAPDU(try await channel.transmit(Data(apdu), timeout: timeout))
        if response.sw1 == 0x64 { throw TransportError.timeout }
        return response
    }

    // MARK: - Setup

    /// The command code: Type 2 commands start with it, Type 5 requests start with the flags.
    static func commandCode(_ command: Data, technology: TagTechnology) -> UInt8? {
        switch technology {
        case .iso14443A: return command.first
        case .iso15693: return command.count >= 2 ? command[command.startIndex + 1] : nil
        }
    }

    private static func readUID(channel: any APDUChannel, technology: TagTechnology, timeout: Duration) async throws -> Data? {
        let response = try ResponseAPDU(try await channel.transmit(Data([0xFF, 0xCA, 0x00, 0x00, 0x00]), timeout: timeout))
        guard response.isSuccess, !response.data.isEmpty else { return nil }
        var uid = response.data
        // ISO 15693 UIDs start with E0 when written MSB first; keep them LSB first as on the air.
        if technology == .iso15693, uid.count == 8, uid[0] == 0xE0, uid[7] != 0xE0 { uid.reverse() }
        return Data(uid)
    }

    private static func choosePath(
        channel: any APDUChannel, profile: ReaderProfile,
        technology: TagTechnology, timeout: Duration
    ) async throws -> RawCommandPath {
        var candidates: [RawCommandPath] = [profile.preferredPath]
        if profile.family == .unknown, technology == .iso14443A { candidates.append(.directTransmit) }
        for candidate in candidates {
            switch candidate {
            case .transparentSession:
                let start = try ResponseAPDU(
                    try await channel.transmit(Data([0xFF, 0xC2, 0x00, 0x00, 0x02, 0x81, 0x00]), timeout: timeout))
                let status = BERTLV.decode(start.data)?.first(where: { $0.tag == 0xC0 })?.value
                if start.isSuccess, status == nil || status == [0x00, 0x90, 0x00] { return .transparentSession }
            case .directTransmit:
                if profile.family == .acr122u { return .directTransmit }
                // GET_VERSION through the PN532: an ACS reader answers D5 43, others refuse the APDU.
                let probe = try ResponseAPDU(
                    try await channel.transmit(Data([0xFF, 0x00, 0x00, 0x00, 0x03, 0xD4, 0x42, 0x60]), timeout: timeout))
                if probe.isSuccess, probe.data.starts(with: [0xD5, 0x43]) { return .directTransmit }
            case .storageCommands:
                return .storageCommands
            }
        }
        return .storageCommands
    }
}

/// An `APDUChannel` over a connected PC/SC card, with a timeout around each transmit and
/// PC/SC statuses mapped to `TransportError` (a removed tag, SCARD_E_NOT_TRANSACTED or
/// SCARD_W_REMOVED_CARD, becomes `.tagRemoved`). Transmits run on the channel's own thread.
public final class PCSCChannel: APDUChannel, Sendable {
    public let card: PCSCCard
    private let worker: BlockingWorker
    private let inFlight = LockedValue(false)

    public init(card: PCSCCard) {
        self.card = card
        self.worker = BlockingWorker(name: "PC/SC reader")
    }

    public func transmit(_ apdu: Data, timeout: Duration) async throws -> Data {
        // A transmit that timed out may still be blocked inside pcscd (a silent card): a
        // second one would queue behind it, so report the tag as not answering.
        if inFlight.exchange(true) { throw TransportError.timeout }
        let card = self.card
        let inFlight = self.inFlight
        do {
            let response = try await worker.run(timeout: timeout) { () throws -> Data in
                defer { inFlight.exchange(false) }
                return try card.transmit(apdu)
            }
            return response
        } catch is BlockingTimeout {
            throw TransportError.timeout
        } catch PCSCError.cardRemoved, PCSCError.noCard {
            throw TransportError.tagRemoved
        } catch let error as PCSCError {
            throw TransportError.linkFailure(error.description)
        }
    }
}
