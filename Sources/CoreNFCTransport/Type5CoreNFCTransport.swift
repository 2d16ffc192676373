import ColdTapBase
import Foundation
import NFCTags

/// `TagTransport` over an `NFCISO15693Tag`.
///
/// The NFCTags planner sends raw requests — flags, command code, optional UID, parameters,
/// no CRC. They go to the tag as they are through Core NFC's `sendRequest` (iOS 14), whose
/// answer is the tag's own: response flags, then data. When Core NFC refuses a raw request
/// (an error about the request itself, not the tag's answer), this transport falls back,
/// for that command and from then on for this tag, to its per-command translation: it calls
/// the matching Core NFC method and re-encodes the answer as the tag would have sent it. The
/// planner therefore runs unchanged over PC/SC and over the iPhone.
///
/// Commands: GET_SYSTEM_INFO 0x2B, READ_SINGLE_BLOCK 0x20, READ_MULTIPLE_BLOCKS 0x23,
/// EXTENDED_READ_SINGLE_BLOCK 0x30, EXTENDED_READ_MULTIPLE_BLOCKS 0x33, WRITE_SINGLE_BLOCK
/// 0x21, EXTENDED_WRITE_SINGLE_BLOCK 0x31 and custom codes 0xA0–0xDF.
///
/// Translation fallbacks (docs/corenfc.md): a READ_MULTIPLE_BLOCKS reaching past block 255 is sent as the
/// extended command; an extended multi-block read that the tag or Core NFC rejects even for
/// two blocks (iOS 13 sent a 1-byte first block) is served from extended single-block reads
/// from then on. A tag's ISO 15693 error comes back as the raw error response `01 code`.
public struct Type5CoreNFCTransport: TagTransport {
    public let technology: TagTechnology = .iso15693
    /// Requests up to 64 bytes; answers up to 1 + 256 bytes (the planner learns the real
    /// multi-block count per chip by halving on error).
    public let limits = LinkLimits(
        maxCommandBytes: 64, maxResponseBytes: 257,
        supportedCommands: Set([0x20, 0x21, 0x23, 0x2B, 0x30, 0x31, 0x33] + Array(0xA0...0xDF)))
    /// The UID in air order (least significant byte first).
    public let uid: Data?

    private let link: any ISO15693TagLink
    private let state = LearnedLinkState()

    public init(link: any ISO15693TagLink) {
        self.link = link
        self.uid = Self.airOrderUID(link.identifier)
    }

    /// True once an extended multi-block read was rejected and single reads replace it.
    public var usesExtendedSingleReadFallback: Bool { state.extendedMultipleRejected }

    /// True once Core NFC refused a raw request and every command is translated instead.
    public var usesCommandTranslation: Bool { state.rawRequestsRejected }

    /// Core NFC reports the UID most significant byte first (0xE0 first); the air and the
    /// planner use the reverse. A UID already in air order (0xE0 last) is kept.
    static func airOrderUID(_ identifier: Data) -> Data? {
        guard identifier.count == 8 else { return identifier.isEmpty ? nil : identifier }
        if identifier.last == 0xE0 { return identifier }
        return Data(identifier.reversed())
    }

    /// Sends one raw ISO 15693 request.
    /// - Returns: the raw response: `00` + data on success, `01 code` when the tag answered
    ///   with an ISO 15693 error.
    /// - Throws: `TransportError.unsupported` for a malformed request or a command Core NFC
    ///   cannot send; `.tagRemoved`, `.timeout`, `.linkFailure` for link failures.
    public func send(_ command: Data, timeout: Duration) async throws -> Data {
        let request = try ParsedRequest(command, tagUID: uid)
        guard command.count <= limits.maxCommandBytes else {
            throw TransportError.unsupported("\(command.count)-byte request exceeds \(limits.maxCommandBytes) bytes")
        }
        let link = self.link, state = self.state, uid = self.uid
        return try await runWithDeadline(timeout, inFlight: state.inFlight) {
            do {
                if !state.rawRequestsRejected {
                    do {
                        // Unaddressed: the session is connected to this one tag, and Apple does
                        // not say whether Core NFC inserts the UID itself (ST's own app sends
                        // raw requests unaddressed).
                        let answer = try await link.sendRequest(
                            requestFlags: command[command.startIndex] & ~ISO15693RequestFlags.address.rawValue,
                            commandCode: request.code,
                            data: Data(request.parameters))
                        state.confirmRawRequests()
                        return Data([answer.responseFlags]) + answer.data
                    } catch let failure as CoreNFCFailure
                        where Self.refusesRawRequest(failure)
                        || (!state.rawRequestsConfirmed && failure.readerError == .tagResponseError)
                    {
                        // A parameter error, or a tag error before any raw request worked: the
                        // per-command API from now on.
                        state.rejectRawRequests()
                    }
                }
                return try await Self.perform(request, on: link, state: state, uid: uid)
            } catch let failure as CoreNFCFailure {
                if failure.readerError == .tagResponseError, let iso = failure.iso15693ErrorCode {
                    return Data([0x01, iso])
                }
                throw failure.transportError
            }
        }
    }

    private static func perform(
        _ request: ParsedRequest, on link: any ISO15693TagLink,
        state: LearnedLinkState, uid: Data?
    ) async throws -> Data {
        let flags = request.flags
        let p = request.parameters
        switch request.code {
        case 0x2B:
            let info = try await link.systemInfo(requestFlags: flags)
            return encodeSystemInfo(info, uid: uid)
        case 0x20:
            guard p.count >= 1 else { throw TransportError.unsupported("READ_SINGLE_BLOCK without a block number") }
            return Data([0x00]) + (try await link.readSingleBlock(requestFlags: flags, blockNumber: p[0]))
        case 0x30:
            guard p.count >= 2 else { throw TransportError.unsupported("EXTENDED_READ_SINGLE_BLOCK needs a 2-byte block number") }
            let block = Int(p[0]) | Int(p[1]) << 8
            return Data([0x00]) + (try await link.extendedReadSingleBlock(requestFlags: flags, blockNumber: block))
        case 0x23:
            guard p.count >= 2 else { throw TransportError.unsupported("READ_MULTIPLE_BLOCKS needs first block and count") }
            let first = Int(p[0]), count = Int(p[1]) + 1
            if first + count > 256 {
                return try await extendedMultiple(first: first, count: count, flags: flags, link: link, state: state)
            }
            let blocks = try await link.readMultipleBlocks(requestFlags: flags, blocks: first..<first + count)
            return try joined(blocks, expected: count)
        case 0x33:
            guard p.count >= 4 else { throw TransportError.unsupported("EXTENDED_READ_MULTIPLE_BLOCKS needs 2-byte first block and count") }
            let first = Int(p[0]) | Int(p[1]) << 8
            let count = (Int(p[2]) | Int(p[3]) << 8) + 1
            return try await extendedMultiple(first: first, count: count, flags: flags, link: link, state: state)
        case 0x21:
            guard p.count >= 2 else { throw TransportError.unsupported("WRITE_SINGLE_BLOCK needs a block number and data") }
            try await link.writeSingleBlock(requestFlags: flags, blockNumber: p[0], data: Data(p[1...]))
            return Data([0x00])
        case 0x31:
            guard p.count >= 3 else { throw TransportError.unsupported("EXTENDED_WRITE_SINGLE_BLOCK needs a 2-byte block number and data") }
            let block = Int(p[0]) | Int(p[1]) << 8
            try await link.extendedWriteSingleBlock(requestFlags: flags, blockNumber: block, data: Data(p[2...]))
            return Data([0x00])
        case 0xA0...0xDF:
            // Custom requests carry the IC manufacturer code first; Core NFC inserts it itself.
            var parameters = p
            if let manufacturer = uid.flatMap({ $0.count == 8 ? $0[$0.startIndex + 6] : nil }),
                parameters.first == manufacturer
            {
                parameters.removeFirst()
            }
            let answer = try await link.customCommand(requestFlags: flags, code: request.code, parameters: Data(parameters))
            return Data([0x00]) + answer
        default:
            throw TransportError.unsupported(String(format: "Core NFC cannot send ISO 15693 command 0x%02X", request.code))
        }
    }

    /// EXTENDED_READ_MULTIPLE_BLOCKS with the fallback to single reads.
    private static func extendedMultiple(
        first: Int, count: Int, flags: ISO15693RequestFlags,
        link: any ISO15693TagLink, state: LearnedLinkState
    ) async throws -> Data {
        guard first >= 0, count >= 1, first + count <= 65_536 else {
            throw TransportError.unsupported("block range \(first)+\(count) is outside 0–65535")
        }
        if !state.extendedMultipleRejected {
            do {
                let blocks = try await link.extendedReadMultipleBlocks(requestFlags: flags, blocks: first..<first + count)
                return try joined(blocks, expected: count)
            } catch let failure as CoreNFCFailure where isRejection(failure) {
                // Too many blocks for this chip, or the command itself is broken on this iOS?
                // A two-block probe tells: if it works, hand the tag's error to the planner so it
                // halves the count; if it fails too, switch to single reads for good.
                if count > 2 {
                    let probeWorks: Bool
                    do {
                        _ = try await link.extendedReadMultipleBlocks(requestFlags: flags, blocks: first..<first + 2)
                        probeWorks = true
                    } catch let probeFailure as CoreNFCFailure where isRejection(probeFailure) {
                        probeWorks = false
                    }
                    if probeWorks { throw failure }
                }
                state.rejectExtendedMultiple()
            }
        }
        var answer = Data([0x00])
        for block in first..<first + count {
            answer += try await link.extendedReadSingleBlock(requestFlags: flags, blockNumber: block)
        }
        return answer
    }

    /// Core NFC refusing the raw request itself (feature or parameters), as opposed to the
    /// tag answering with an error or the link failing: the per-command calls may still work.
    static func refusesRawRequest(_ failure: CoreNFCFailure) -> Bool {
        switch failure.readerError {
        case .unsupportedFeature, .invalidParameter, .invalidParameterLength, .parameterOutOfBound,
            .tagCommandConfigurationInvalidParameters:
            return true
        default:
            return false
        }
    }

    /// A refusal of the command (by the tag or by Core NFC's parameter checks), as opposed
    /// to a lost connection.
    private static func isRejection(_ failure: CoreNFCFailure) -> Bool {
        switch failure.readerError {
        case .tagResponseError, .invalidParameter, .invalidParameterLength, .parameterOutOfBound,
            .tagCommandConfigurationInvalidParameters:
            return true
        default:
            return false
        }
    }

    private static func joined(_ blocks: [Data], expected: Int) throws -> Data {
        guard blocks.count == expected else {
            throw TransportError.linkFailure("Core NFC returned \(blocks.count) blocks for \(expected) requested")
        }
        if let size = blocks.first?.count, blocks.contains(where: { $0.count != size }) {
            throw TransportError.linkFailure("Core NFC returned blocks of different sizes")
        }
        return blocks.reduce(into: Data([0x00])) { $0 += $1 }
    }

    /// The raw GET_SYSTEM_INFO answer: response flags, info flags, UID (air order), then
    /// DSFID, AFI, memory size and IC reference where present. More than 256 blocks are
    /// written as a 2-byte count with info flag 0x10, as ST's chips answer.
    static func encodeSystemInfo(_ info: ISO15693SystemInfo, uid: Data?) -> Data {
        var infoFlags: UInt8 = 0
        var body = Data()
        if (0...255).contains(info.dataStorageFormatIdentifier) {
            infoFlags |= 0x01
            body.append(UInt8(info.dataStorageFormatIdentifier))
        }
        if (0...255).contains(info.applicationFamilyIdentifier) {
            infoFlags |= 0x02
            body.append(UInt8(info.applicationFamilyIdentifier))
        }
        if (1...65_536).contains(info.totalBlocks), (1...32).contains(info.blockSize) {
            infoFlags |= 0x04
            let last = info.totalBlocks - 1
            body.append(UInt8(last & 0xFF))
            if info.totalBlocks > 256 {
                infoFlags |= 0x10
                body.append(UInt8(last >> 8))
            }
            body.append(UInt8(info.blockSize - 1))
        }
        if (0...255).contains(info.icReference) {
            infoFlags |= 0x08
            body.append(UInt8(info.icReference))
        }
        let uidBytes = (uid?.count == 8 ? uid : nil) ?? Data(repeating: 0, count: 8)
        return Data([0x00, infoFlags]) + uidBytes + body
    }
}

/// A raw ISO 15693 request taken apart.
struct ParsedRequest {
    var flags: ISO15693RequestFlags
    var code: UInt8
    var parameters: [UInt8]

    init(_ command: Data, tagUID: Data?) throws {
        let bytes = Array(command)
        guard bytes.count >= 2 else {
            throw TransportError.unsupported("an ISO 15693 request needs flags and a command code")
        }
        guard bytes[0] & 0x04 == 0 else {
            throw TransportError.unsupported("inventory requests are made by Core NFC itself")
        }
        flags = ISO15693RequestFlags(rawValue: bytes[0])
        code = bytes[1]
        var rest = bytes[2...]
        if flags.contains(.address) {
            guard rest.count >= 8 else { throw TransportError.unsupported("addressed request without an 8-byte UID") }
            let requestUID = Data(rest.prefix(8))
            if let tagUID, tagUID != requestUID {
                throw TransportError.unsupported("the request is addressed to another tag")
            }
            rest = rest.dropFirst(8)
        }
        parameters = Array(rest)
    }
}

/// What the transport learned about this tag and iOS during the session.
final class LearnedLinkState: Sendable {
    private let extendedMultiple = LockedValue(false)
    private let rawRequests = LockedValue(false)
    private let rawRequestWorked = LockedValue(false)
    /// One command on the air at a time (`runWithDeadline`).
    let inFlight = CommandInFlight()

    /// True once a raw request got an answer from the tag.
    var rawRequestsConfirmed: Bool { rawRequestWorked.current }

    func confirmRawRequests() { rawRequestWorked.exchange(true) }

    var extendedMultipleRejected: Bool { extendedMultiple.current }

    func rejectExtendedMultiple() { extendedMultiple.exchange(true) }

    var rawRequestsRejected: Bool { rawRequests.current }

    func rejectRawRequests() { rawRequests.exchange(true) }
}
