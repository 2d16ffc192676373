import Foundation
import NFCTags

/// Answers the pseudo-APDUs a PC/SC contactless reader understands by driving a tag through a
/// `TagTransport`: what the reader firmware does between PC/SC and the air. Used as the card
/// side of vpcd (`VirtualCardClient`) and, in-process, to test `ReaderTransport`.
///
/// Understood: GET DATA `FF CA 00 00` (UID), READ BINARY `FF B0`, UPDATE BINARY `FF D6`,
/// the PC/SC 2.02 Part 3 session `FF C2 00 00` (start/end), transparent exchange
/// `FF C2 00 01` and switch protocol `FF C2 00 02`, and the ACR122U direct transmit
/// `FF 00 00 00 Lc D4 42 …` (PN532 InCommunicateThru).
public actor ContactlessReaderEmulator {
    /// The tag in the field.
    public nonisolated let tag: any TagTransport
    /// The ATR the reader presents for the tag.
    public nonisolated let atr: ContactlessATR
    /// How long the emulated reader waits for the tag per command.
    public nonisolated let tagTimeout: Duration

    public init(tag: any TagTransport, tagTimeout: Duration = .milliseconds(500)) {
        self.tag = tag
        self.atr = ContactlessATR(technology: tag.technology, uid: tag.uid)
        self.tagTimeout = tagTimeout
    }

    /// The response APDU (data + SW1 SW2) to one command APDU.
    /// - Throws: `TransportError.tagRemoved` when the tag left the field (the reader then
    ///   reports the card gone rather than answering).
    public func respond(to apdu: Data) async throws -> Data {
        let bytes = [UInt8](apdu)
        guard bytes.count >= 4 else { return Data(StatusWord.wrongLength) }
        guard bytes[0] == 0xFF else { return Data(StatusWord.classNotSupported) }
        let body = APDUBody(bytes)
        switch (bytes[1], bytes[2], bytes[3]) {
        case (0xCA, 0x00, 0x00):
            guard let uid = tag.uid else { return Data(StatusWord.notSupported) }
            let count = body.le == 0 ? uid.count : min(uid.count, body.le)
            return Data(uid.prefix(count)) + Data(StatusWord.success)
        case (0xB0, _, _):
            return try await readBinary(block: Int(bytes[2]) << 8 | Int(bytes[3]), length: body.le)
        case (0xD6, _, _):
            return try await updateBinary(block: Int(bytes[2]) << 8 | Int(bytes[3]), data: body.data)
        case (0xC2, 0x00, 0x00), (0xC2, 0x00, 0x02):
            return session(body.data)
        case (0xC2, 0x00, 0x01):
            return try await transparentExchange(body.data)
        case (0x00, 0x00, 0x00):
            return try await directTransmit(body.data)
        default:
            return Data(StatusWord.instructionNotSupported)
        }
    }

    // MARK: - Storage-card commands

    private func readBinary(block: Int, length: Int) async throws -> Data {
        switch tag.technology {
        case .iso14443A:
            guard block <= 0xFF, length <= 16 else { return Data(StatusWord.wrongParameters) }
            guard let answer = try await air(Type2Command.read(page: UInt8(block)).bytes), answer.count >= 16 else {
                return Data(StatusWord.noInformation)
            }
            return Data(answer.prefix(length == 0 ? 16 : length)) + Data(StatusWord.success)
        case .iso15693:
            let command = Type5Command.readSingleBlock(block: block, extended: block > 0xFF).request()
            guard let answer = try await air(command), let flags = answer.first else {
                return Data(StatusWord.noInformation)
            }
            if flags & 0x01 != 0 { return Data(StatusWord.notFound) }
            let data = answer.dropFirst()
            return Data(data.prefix(length == 0 ? data.count : length)) + Data(StatusWord.success)
        }
    }

    private func updateBinary(block: Int, data: [UInt8]) async throws -> Data {
        switch tag.technology {
        case .iso14443A:
            guard block <= 0xFF, !data.isEmpty, data.count % 4 == 0 else { return Data(StatusWord.wrongLength) }
            for (offset, start) in stride(from: 0, to: data.count, by: 4).enumerated() {
                guard block + offset <= 0xFF else { return Data(StatusWord.wrongParameters) }
                let answer = try await air(Type2Command.write(page: UInt8(block + offset), data: Array(data[start..<start + 4])).bytes)
                guard answer?.first.map({ $0 & 0x0F }) == 0x0A else { return Data(StatusWord.noInformation) }
            }
            return Data(StatusWord.success)
        case .iso15693:
            guard !data.isEmpty else { return Data(StatusWord.wrongLength) }
            let command = Type5Command.writeSingleBlock(block: block, data: data, extended: block > 0xFF).request()
            guard let answer = try await air(command), let flags = answer.first else {
                return Data(StatusWord.noInformation)
            }
            return Data(flags & 0x01 == 0 ? StatusWord.success : StatusWord.notFound)
        }
    }

    // MARK: - PC/SC 2.02 Part 3 transparent session

    private static let statusOK: [UInt8] = [0xC0, 0x03, 0x00, 0x90, 0x00]

    private func session(_ data: [UInt8]) -> Data {
        guard let objects = BERTLV.decode(data), !objects.isEmpty else {
            return Data([0xC0, 0x03, 0x00] + StatusWord.wrongLength + StatusWord.wrongLength)
        }
        for (index, object) in objects.enumerated() {
            switch object.tag {
            case 0x81, 0x82, 0x83, 0x84:
                continue  // start / end session, turn RF off / on: nothing to do for one tag
            case 0x8F:
                // Switch protocol: accept the tag's own protocol (00 ISO 14443-A, 02 ISO 15693).
                let wanted: UInt8 = tag.technology == .iso14443A ? 0x00 : 0x02
                if object.value.first != wanted {
                    return Data([0xC0, 0x03, UInt8(index + 1)] + StatusWord.notSupported + StatusWord.notSupported)
                }
            default:
                return Data([0xC0, 0x03, UInt8(index + 1)] + StatusWord.notSupported + StatusWord.notSupported)
            }
        }
        return Data(Self.statusOK + StatusWord.success)
    }

    private func transparentExchange(_ data: [UInt8]) async throws -> Data {
        guard let objects = BERTLV.decode(data) else {
            return Data([0xC0, 0x03, 0x00] + StatusWord.wrongLength + StatusWord.wrongLength)
        }
        var response: [UInt8] = []
        for (index, object) in objects.enumerated() {
            switch object.tag {
            case 0x90, 0x91, 0x5F, 0x5E:
                continue  // framing flags and timers: the emulated link always adds/checks CRC
            case 0x95:
                guard let answer = try await air(object.value) else {
                    let failure = [0xC0, 0x03, UInt8(index + 1)] + StatusWord.noResponseFromTag
                    return Data(failure + StatusWord.noResponseFromTag)
                }
                response = BERTLV.encode(tag: 0x97, value: answer)
            default:
                return Data([0xC0, 0x03, UInt8(index + 1)] + StatusWord.notSupported + StatusWord.notSupported)
            }
        }
        return Data(Self.statusOK + response + StatusWord.success)
    }

    // MARK: - ACR122U direct transmit (PN532 InCommunicateThru)

    private func directTransmit(_ data: [UInt8]) async throws -> Data {
        guard data.count >= 2, data[0] == 0xD4 else { return Data(StatusWord.wrongParameters) }
        guard data[1] == 0x42 else { return Data([0xD5, data[1] &+ 1, 0x27] + StatusWord.success) }
        guard let answer = try await air(Array(data.dropFirst(2))) else {
            return Data([0xD5, 0x43, 0x01] + StatusWord.success)  // PN532 status 01: time out
        }
        return Data([0xD5, 0x43, 0x00] + answer + StatusWord.success)
    }

    /// One command on the air; `nil` when the tag did not answer.
    private func air(_ command: [UInt8]) async throws -> [UInt8]? {
        do {
            return [UInt8](try await tag.send(Data(command), timeout: tagTimeout))
        } catch TransportError.tagRemoved {
            throw TransportError.tagRemoved
        } catch {
            return nil
        }
    }
}

/// The data and Le of a short command APDU (case 1 to 4).
private struct APDUBody {
    var data: [UInt8] = []
    var le = 0

    init(_ apdu: [UInt8]) {
        guard apdu.count > 4 else { return }
        let lc = Int(apdu[4])
        if apdu.count == 5 {
            le = lc  // case 2: the fifth byte is Le
        } else if apdu.count >= 5 + lc {
            data = Array(apdu[5..<5 + lc])
            if apdu.count > 5 + lc { le = Int(apdu[5 + lc]) }
        }
    }
}

/// An `APDUChannel` straight into an emulator, with no daemon in between (tests, the
/// in-process demo).
public struct EmulatedReaderChannel: APDUChannel {
    public let emulator: ContactlessReaderEmulator

    public init(_ emulator: ContactlessReaderEmulator) {
        self.emulator = emulator
    }

    public func transmit(_ apdu: Data, timeout: Duration) async throws -> Data {
        try await emulator.respond(to: apdu)
    }
}
