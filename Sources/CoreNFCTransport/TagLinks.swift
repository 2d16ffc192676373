import Foundation

// The few Core NFC calls the transport makes, as protocols. Apple's tag objects are wrapped
// to conform on iOS (Apple/CoreNFCTagLinks.swift); tests conform fakes that replay real
// answer sequences. Nothing here imports Core NFC, so all of it builds and runs on Linux.

/// ISO/IEC 15693 request flags, bit for bit as on the air and as Core NFC's
/// `NFCISO15693RequestFlag` raw values.
public struct ISO15693RequestFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01: two subcarriers.
    public static let dualSubCarriers = ISO15693RequestFlags(rawValue: 0x01)
    /// 0x02: high data rate.
    public static let highDataRate = ISO15693RequestFlags(rawValue: 0x02)
    /// 0x08: protocol extension (2-byte block numbers on some chips).
    public static let protocolExtension = ISO15693RequestFlags(rawValue: 0x08)
    /// 0x10: only the selected tag answers.
    public static let select = ISO15693RequestFlags(rawValue: 0x10)
    /// 0x20: the request carries the tag's UID.
    public static let address = ISO15693RequestFlags(rawValue: 0x20)
    /// 0x40: command-specific option (block security status for reads).
    public static let option = ISO15693RequestFlags(rawValue: 0x40)
    /// 0x80: command-specific bit 8.
    public static let commandSpecificBit8 = ISO15693RequestFlags(rawValue: 0x80)
}

/// What GET_SYSTEM_INFO told, as Core NFC's `NFCISO15693SystemInfo` (iOS 14) reports it:
/// every number is −1 when the tag's answer does not carry it.
public struct ISO15693SystemInfo: Sendable, Equatable {
    /// Data storage format identifier (DSFID), or −1.
    public var dataStorageFormatIdentifier: Int
    /// Application family identifier (AFI), or −1.
    public var applicationFamilyIdentifier: Int
    /// Bytes per block, or −1.
    public var blockSize: Int
    /// Number of blocks, or −1.
    public var totalBlocks: Int
    /// IC reference, or −1.
    public var icReference: Int

    public init(
        dataStorageFormatIdentifier: Int = -1, applicationFamilyIdentifier: Int = -1,
        blockSize: Int, totalBlocks: Int, icReference: Int = -1
    ) {
        self.dataStorageFormatIdentifier = dataStorageFormatIdentifier
        self.applicationFamilyIdentifier = applicationFamilyIdentifier
        self.blockSize = blockSize
        self.totalBlocks = totalBlocks
        self.icReference = icReference
    }
}

/// An ISO 14443-A tag of the MIFARE Ultralight family (NTAG21x, NTAG I2C) as Core NFC
/// hands it over: `NFCMiFareTag` with family `.ultralight`.
public protocol MiFareTagLink: Sendable {
    /// The 7-byte UID, UID0 first.
    var identifier: Data { get }
    /// Sends one native command (`NFCMiFareTag.sendMiFareCommand(commandPacket:)`).
    /// - Returns: the tag's answer without CRC.
    /// - Throws: `CoreNFCFailure`.
    func sendMiFareCommand(_ packet: Data) async throws -> Data
}

/// An ISO 15693 tag as Core NFC hands it over (`NFCISO15693Tag`). Two ways to talk to it:
/// the raw request `sendRequest` (iOS 14), which carries any request and answers the tag's
/// response flags and data, and one call per command, whose answers come back without the
/// response flags byte.
public protocol ISO15693TagLink: Sendable {
    /// The 8-byte UID as Core NFC reports it (`identifier`, most significant byte — 0xE0 —
    /// first; `Type5CoreNFCTransport` also accepts the air order).
    var identifier: Data { get }
    /// A raw request (`sendRequest(requestFlags:commandCode:data:)`, iOS 14): `data` is
    /// everything after the command code as it goes on the air (UID when addressed, then
    /// the parameters).
    /// - Returns: the tag's response flags and the data after them.
    /// - Throws: `CoreNFCFailure`.
    func sendRequest(requestFlags: UInt8, commandCode: UInt8, data: Data) async throws -> (responseFlags: UInt8, data: Data)
    /// GET_SYSTEM_INFO (0x2B).
    func systemInfo(requestFlags: ISO15693RequestFlags) async throws -> ISO15693SystemInfo
    /// READ_SINGLE_BLOCK (0x20), blocks 0–255. Core NFC always addresses it.
    func readSingleBlock(requestFlags: ISO15693RequestFlags, blockNumber: UInt8) async throws -> Data
    /// READ_MULTIPLE_BLOCKS (0x23) over `blocks` (within 0–255): one `Data` per block.
    func readMultipleBlocks(requestFlags: ISO15693RequestFlags, blocks: Range<Int>) async throws -> [Data]
    /// EXTENDED_READ_SINGLE_BLOCK (0x30), 2-byte block number.
    func extendedReadSingleBlock(requestFlags: ISO15693RequestFlags, blockNumber: Int) async throws -> Data
    /// EXTENDED_READ_MULTIPLE_BLOCKS (0x33): one `Data` per block.
    func extendedReadMultipleBlocks(requestFlags: ISO15693RequestFlags, blocks: Range<Int>) async throws -> [Data]
    /// WRITE_SINGLE_BLOCK (0x21).
    func writeSingleBlock(requestFlags: ISO15693RequestFlags, blockNumber: UInt8, data: Data) async throws
    /// EXTENDED_WRITE_SINGLE_BLOCK (0x31).
    func extendedWriteSingleBlock(requestFlags: ISO15693RequestFlags, blockNumber: Int, data: Data) async throws
    /// A manufacturer command; Core NFC accepts codes 0xA0–0xDF only.
    func customCommand(requestFlags: ISO15693RequestFlags, code: UInt8, parameters: Data) async throws -> Data
}

/// A failure reported by Core NFC, reduced to what the transport needs: the
/// `NFCReaderError` code number and, for tag response errors, the ISO 15693 error byte
/// Core NFC puts in `userInfo["ISO15693TagResponseErrorCode"]`.
public struct CoreNFCFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// `NFCReaderError.Code` raw value (e.g. 100 connection lost).
    public var code: Int
    /// The ISO 15693 error code in the tag's answer, when the tag sent one.
    public var iso15693ErrorCode: UInt8?
    /// Core NFC's own description, for logs.
    public var message: String

    public init(code: Int, iso15693ErrorCode: UInt8? = nil, message: String = "") {
        self.code = code
        self.iso15693ErrorCode = iso15693ErrorCode
        self.message = message
    }

    public init(_ code: ReaderErrorCode, iso15693ErrorCode: UInt8? = nil, message: String = "") {
        self.init(code: code.rawValue, iso15693ErrorCode: iso15693ErrorCode, message: message)
    }

    /// The known code, or `nil` for a number this version does not know.
    public var readerError: ReaderErrorCode? { ReaderErrorCode(rawValue: code) }

    public var description: String {
        var text = "Core NFC error \(code)"
        if let name = readerError.map({ "\($0)" }) { text += " (\(name))" }
        if let iso = iso15693ErrorCode { text += String(format: ", ISO 15693 error 0x%02X", iso) }
        if !message.isEmpty { text += ": \(message)" }
        return text
    }
}
