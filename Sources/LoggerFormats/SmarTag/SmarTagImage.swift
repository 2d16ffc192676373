import Foundation
import NDEF

/// The bytes of an ST SmarTag (docs/smartag.md): an ST25DV tag whose memory the logger's
/// microcontroller fills. Addresses are absolute tag-memory byte addresses, whatever the
/// bytes came from: a whole memory image, a bare NDEF message (placed where the tag keeps
/// it), or the payload of a parsed `st.com:smartag` record.
///
/// The record is located here, by its own rules (§2), not by the NDEF parser: SmarTag2
/// writes its only record with the message-begin bit cleared and NDEF lengths that lag the
/// data (§4.3), which a strict NDEF parser rightly refuses everywhere else.
public struct SmarTagImage: Sendable, Equatable {
    /// Where the bytes came from, which bounds what can be read.
    public enum Source: String, Sendable, Equatable {
        /// A whole memory image (dump, Flipper file, reader): the log is bounded by the layout.
        case tagMemory = "tag memory"
        /// An NDEF message or record only: what lies past its declared length is not there.
        case ndefMessage = "NDEF message"
    }

    /// The NDEF external type every SmarTag record carries.
    public static let recordType = "st.com:smartag"

    /// Known bytes, from address 0; `nil` where the source did not hold the address.
    let bytes: [UInt8?]
    public let source: Source
    /// 1 = SmarTag1, 2 = SmarTag2 (payload byte 0).
    public let generation: Int
    /// Absolute address of payload byte 0.
    public let payloadStart: Int
    /// Tag memory size in bytes (8192 for the ST25DV64K, 512 for a 4K tag).
    public let memorySize: Int
    /// The record header's message-begin bit (SmarTag2's firmware clears it).
    public let messageBegin: Bool
    /// The payload length the record header declares.
    public let declaredPayloadLength: Int
    /// The record's ID field (SmarTag2: three zero bytes and the UID, §3.1).
    public let recordID: [UInt8]

    /// The byte at `address`, when the source held it.
    func byte(_ address: Int) -> UInt8? {
        guard address >= 0, address < bytes.count else { return nil }
        return bytes[address]
    }

    /// A little-endian word of `width` bytes at `address`, when every byte is known.
    func word(_ address: Int, width: Int = 4) -> UInt32? {
        var value: UInt32 = 0
        for index in stride(from: width - 1, through: 0, by: -1) {
            guard let byte = byte(address + index) else { return nil }
            value = value << 8 | UInt32(byte)
        }
        return value
    }

    /// The word at `address`, or the typed error naming it and what it holds.
    func requireWord(_ address: Int, width: Int = 4, format: String, what: String) throws -> UInt32 {
        guard let value = word(address, width: width) else {
            throw LoggerFormatError(
                .truncated(needed: address + width, available: knownEnd), format: format, field: "tag memory",
                offset: address, "the \(what) at byte 0x\(hex(address)) is not in the \(source.rawValue) (it holds bytes up to 0x\(hex(max(0, knownEnd - 1))))")
        }
        return value
    }

    /// A record slot missing from a whole memory image means the image is cut short (an
    /// error); missing from an NDEF message, it lies past what the message declares (the
    /// caller counts it).
    func requireRecord(at address: Int, format: String) throws {
        guard source == .tagMemory else { return }
        _ = try requireWord(address, format: format, what: "record slot")
        _ = try requireWord(address + 4, format: format, what: "record slot")
    }

    /// One past the last known address.
    var knownEnd: Int { bytes.lastIndex { $0 != nil }.map { $0 + 1 } ?? 0 }

    // MARK: Locating the record

    /// A SmarTag in a whole tag memory image: the capability container says the memory size
    /// (§2), the NDEF TLV follows it, and its first record is `st.com:smartag`. `nil` when
    /// the image is not a SmarTag's (so other formats get their turn).
    public init?(tagMemory memory: Data) {
        let memory = Array(memory)
        guard memory.count >= 8, memory[0] == 0xE1 || memory[0] == 0xE2 else { return nil }
        // An 8-byte capability container (size byte 0) marks the 64-Kbit tag (§2).
        let extended = memory[2] == 0
        let tlv = extended ? 8 : 4
        let size = extended ? 8192 : 512
        guard tlv + 2 <= memory.count, memory[tlv] == 0x03 else { return nil }
        let recordStart = memory[tlv + 1] == 0xFF ? tlv + 4 : tlv + 2
        guard let header = Self.recordHeader(memory, at: recordStart) else { return nil }
        self.init(known: memory.map { Optional($0) }, source: .tagMemory, header: header, memorySize: size)
    }

    /// A SmarTag record at the start of bare NDEF message bytes (as a file or a reader's
    /// NDEF read holds them), placed where a 64-Kbit tag keeps it (byte 12). Accepts the
    /// message-begin bit cleared: that is the SmarTag2 firmware's own record (§4.3).
    public init?(ndefMessageBytes data: Data) {
        let message = Array(data)
        guard let header = Self.recordHeader(message, at: 0) else { return nil }
        let base = 12
        var known = [UInt8?](repeating: nil, count: base)
        known += message.map { Optional($0) }
        self.init(known: known, source: .ndefMessage, header: header.shifted(by: base), memorySize: 8192)
    }

    /// The SmarTag record of a parsed message, its payload placed at the address the
    /// generation's fixed header puts it (SmarTag1 0x20, SmarTag2 0x2C; §3.1, §4.1).
    public init?(record: NDEFRecord) {
        guard record.tnf == .external, String(decoding: record.type, as: UTF8.self).lowercased() == Self.recordType,
            let first = record.payload.first, first == 1 || first == 2
        else { return nil }
        let start = first == 1 ? 0x20 : 0x2C
        var known = [UInt8?](repeating: nil, count: start)
        known += record.payload.map { Optional($0) }
        let header = RecordHeader(
            messageBegin: true, payloadStart: start, payloadLength: record.payload.count,
            id: Array(record.id), generation: Int(first))
        self.init(known: known, source: .ndefMessage, header: header, memorySize: 8192)
    }

    private init?(known: [UInt8?], source: Source, header: RecordHeader, memorySize: Int) {
        guard header.generation == 1 || header.generation == 2 else { return nil }
        bytes = Array(known.prefix(memorySize))
        self.source = source
        generation = header.generation
        payloadStart = header.payloadStart
        self.memorySize = memorySize
        messageBegin = header.messageBegin
        declaredPayloadLength = header.payloadLength
        recordID = header.id
    }

    struct RecordHeader {
        var messageBegin: Bool
        var payloadStart: Int
        var payloadLength: Int
        var id: [UInt8]
        var generation: Int

        func shifted(by base: Int) -> RecordHeader {
            var copy = self
            copy.payloadStart += base
            return copy
        }
    }

    /// Reads one NDEF record header at `start` (every length checked against `bytes`):
    /// `nil` unless it is an external record of type `st.com:smartag` whose payload begins
    /// with protocol 1 or 2.
    static func recordHeader(_ bytes: [UInt8], at start: Int) -> RecordHeader? {
        guard start >= 0, start + 3 <= bytes.count else { return nil }
        let flags = bytes[start]
        guard flags & 0x07 == 4, flags & 0x20 == 0 else { return nil }  // TNF external, not chunked
        let short = flags & 0x10 != 0
        let hasID = flags & 0x08 != 0
        let typeLength = Int(bytes[start + 1])
        var cursor = start + 2
        let payloadLength: Int
        if short {
            payloadLength = Int(bytes[cursor])
            cursor += 1
        } else {
            guard cursor + 4 <= bytes.count else { return nil }
            payloadLength = Int(bytes[cursor]) << 24 | Int(bytes[cursor + 1]) << 16 | Int(bytes[cursor + 2]) << 8 | Int(bytes[cursor + 3])
            cursor += 4
        }
        var idLength = 0
        if hasID {
            guard cursor < bytes.count else { return nil }
            idLength = Int(bytes[cursor])
            cursor += 1
        }
        guard typeLength == recordType.utf8.count, cursor + typeLength + idLength < bytes.count else { return nil }
        let type = String(decoding: bytes[cursor..<cursor + typeLength], as: UTF8.self).lowercased()
        guard type == recordType else { return nil }
        cursor += typeLength
        let id = Array(bytes[cursor..<cursor + idLength])
        cursor += idLength
        let generation = Int(bytes[cursor])
        guard generation == 1 || generation == 2 else { return nil }
        return RecordHeader(
            messageBegin: flags & 0x80 != 0, payloadStart: cursor, payloadLength: payloadLength,
            id: id, generation: generation)
    }

    /// The format name of this generation: `smartag1` or `smartag2`.
    public var formatName: String { generation == 1 ? SmarTag1Log.formatName : SmarTag2Log.formatName }
}

func hex(_ value: Int) -> String { String(format: "%04X", value) }
