import Foundation

/// The tag chips ColdTap knows by name. A tag that cannot be identified is read as a
/// generic tag of its type with what the capability container says.
public enum TagChip: String, Sendable, Codable, CaseIterable {
    case ntag210, ntag212, ntag213, ntag215, ntag216
    /// NTAG I2C plus 1k.
    case nt3h2111
    /// NTAG I2C plus 2k.
    case nt3h2211
    /// A Type 2 tag that did not answer GET_VERSION or answered with an unknown version.
    case genericType2
    case icodeSLIX, icodeSLIX2
    /// An NXP ICODE chip other than SLIX/SLIX2.
    case icodeGeneric
    case st25dv04k, st25dv16k, st25dv64k, st25tv
    /// A Texas Instruments ISO 15693 chip (RF430 family).
    case tiRF430
    /// An ISO 15693 tag from another maker, or one without system information.
    case genericType5

    /// The name people know the chip by, e.g. "NTAG216" or "ST25DV64K".
    public var displayName: String {
        switch self {
        case .ntag210: return "NTAG210"
        case .ntag212: return "NTAG212"
        case .ntag213: return "NTAG213"
        case .ntag215: return "NTAG215"
        case .ntag216: return "NTAG216"
        case .nt3h2111: return "NT3H2111 (NTAG I2C plus 1k)"
        case .nt3h2211: return "NT3H2211 (NTAG I2C plus 2k)"
        case .genericType2: return "Type 2 tag (unidentified)"
        case .icodeSLIX: return "ICODE SLIX"
        case .icodeSLIX2: return "ICODE SLIX2"
        case .icodeGeneric: return "ICODE (NXP)"
        case .st25dv04k: return "ST25DV04K"
        case .st25dv16k: return "ST25DV16K"
        case .st25dv64k: return "ST25DV64K"
        case .st25tv: return "ST25TV"
        case .tiRF430: return "TI RF430-type"
        case .genericType5: return "Type 5 tag (unidentified)"
        }
    }

    /// The radio technology of the chip.
    public var technology: TagTechnology {
        switch self {
        case .ntag210, .ntag212, .ntag213, .ntag215, .ntag216, .nt3h2111, .nt3h2211, .genericType2: return .iso14443A
        default: return .iso15693
        }
    }

    /// Chips that `VirtualTag` emulates.
    public static let emulated: [TagChip] = [.ntag213, .ntag215, .ntag216, .nt3h2111, .nt3h2211, .icodeSLIX2, .st25dv64k]

    /// The memory layout of a Type 2 chip, `nil` for Type 5 and generic chips.
    public var type2Layout: Type2Layout? { Type2Layout.forChip(self) }
    /// The memory layout of a Type 5 chip, `nil` for Type 2 and generic chips.
    public var type5Layout: Type5Layout? { Type5Layout.forChip(self) }

    /// Bytes of a whole memory image of this chip (every readable page, or every block);
    /// `nil` for chips without a known layout.
    public var imageBytes: Int? { type2Layout.map { $0.readablePages * 4 } ?? type5Layout?.memoryBytes }
}

/// Memory layout and command set of a known Type 2 chip (datasheet values).
public struct Type2Layout: Sendable, Equatable {
    /// Pages of the chip's memory image, counted linearly across sectors (page p of sector s
    /// is page 256·s + p). READ rolls over at the end of each sector's readable pages.
    public var readablePages: Int
    /// Data area size written in the factory capability container, in bytes.
    public var dataAreaBytes: Int
    /// Page holding the dynamic lock bytes, if the chip has them.
    public var dynamicLockPage: Int?
    /// Pages locked by one dynamic lock bit.
    public var pagesPerDynamicLockBit: Int
    /// First configuration page (AUTH0 etc.); pages from here on are not user memory.
    public var firstConfigPage: Int?
    /// The 8-byte GET_VERSION answer.
    public var version: [UInt8]
    /// Whether the chip implements FAST_READ (0x3A).
    public var supportsFastRead: Bool
    /// Factory TLVs written before the NDEF TLV (NTAG213: a Lock Control TLV).
    public var factoryControlTLVs: [UInt8]
    /// Pages READ/FAST_READ reach in each sector; more than one entry means the chip is
    /// switched between sectors with SECTOR_SELECT (`C2 FF`). Empty: one sector of
    /// `readablePages` pages.
    public var sectorPageCounts: [Int] = []
    /// Linear pages between two parts of user memory that are not user memory (NT3H2211:
    /// dynamic lock, configuration and unreachable pages at the end of sector 0). The NDEF
    /// area skips them as it skips bytes named by control TLVs.
    public var reservedPages: Range<Int>?
    /// The linear page after the last user page, when user memory continues past the
    /// dynamic lock/config pages (NT3H2211: 0x200).
    public var userPagesEnd: Int?

    /// Sectors of 256 pages; a chip with more than one is switched with SECTOR_SELECT.
    public var sectorCount: Int { max(1, sectorPageCounts.count) }

    /// Pages READ/FAST_READ reach in `sector` (READ rolls over within the sector).
    public func pages(inSector sector: Int) -> Int {
        if sectorPageCounts.isEmpty { return sector == 0 ? readablePages : 0 }
        return sectorPageCounts.indices.contains(sector) ? sectorPageCounts[sector] : 0
    }

    /// True when READ/FAST_READ reach the linear `page`.
    public func isReachable(_ page: Int) -> Bool {
        page >= 0 && page < readablePages && page % 256 < pages(inSector: page / 256)
    }

    /// The byte address after the last byte of user memory.
    public var userAreaEnd: Int { (userPagesEnd ?? dynamicLockPage ?? firstConfigPage ?? readablePages) * 4 }

    /// The bytes of `reservedPages`, which an NDEF area skips.
    public var reservedBytes: Range<Int>? { reservedPages.map { ($0.lowerBound * 4)..<($0.upperBound * 4) } }

    /// Bytes of user memory from page 4 up to the dynamic lock/config pages.
    public var userMemoryBytes: Int {
        userAreaEnd - 16 - (reservedBytes?.count ?? 0)
    }

    static func forChip(_ chip: TagChip) -> Type2Layout? {
        switch chip {
        case .ntag210:
            return Type2Layout(
                readablePages: 20, dataAreaBytes: 48, dynamicLockPage: nil, pagesPerDynamicLockBit: 0,
                firstConfigPage: 0x10, version: [0x00, 0x04, 0x04, 0x01, 0x01, 0x00, 0x0B, 0x03],
                supportsFastRead: true, factoryControlTLVs: [])
        case .ntag212:
            return Type2Layout(
                readablePages: 41, dataAreaBytes: 128, dynamicLockPage: 0x24, pagesPerDynamicLockBit: 2,
                firstConfigPage: 0x25, version: [0x00, 0x04, 0x04, 0x01, 0x01, 0x00, 0x0E, 0x03],
                supportsFastRead: true, factoryControlTLVs: [])
        case .ntag213:
            return Type2Layout(
                readablePages: 45, dataAreaBytes: 144, dynamicLockPage: 0x28, pagesPerDynamicLockBit: 2,
                firstConfigPage: 0x29, version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03],
                supportsFastRead: true, factoryControlTLVs: [0x01, 0x03, 0xA0, 0x0C, 0x34])
        case .ntag215:
            return Type2Layout(
                readablePages: 135, dataAreaBytes: 496, dynamicLockPage: 0x82, pagesPerDynamicLockBit: 16,
                firstConfigPage: 0x83, version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03],
                supportsFastRead: true, factoryControlTLVs: [])
        case .ntag216:
            return Type2Layout(
                readablePages: 231, dataAreaBytes: 872, dynamicLockPage: 0xE2, pagesPerDynamicLockBit: 16,
                firstConfigPage: 0xE3, version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x13, 0x03],
                supportsFastRead: true, factoryControlTLVs: [])
        case .nt3h2111:
            // Sector 0 of the NTAG I2C plus 1k: user memory 0x04–0xE1, dynamic lock 0xE2,
            // configuration 0xE3–0xE9; higher pages of sector 0 answer NAK.
            return Type2Layout(
                readablePages: 0xEA, dataAreaBytes: 872, dynamicLockPage: 0xE2, pagesPerDynamicLockBit: 16,
                firstConfigPage: 0xE3, version: [0x00, 0x04, 0x04, 0x05, 0x02, 0x02, 0x13, 0x03],
                supportsFastRead: true, factoryControlTLVs: [])
        case .nt3h2211:
            // NTAG I2C plus 2k: sector 0 as on the 1k (user memory 0x04–0xE1, dynamic lock
            // 0xE2, configuration 0xE3–0xE9, 0xEA–0xFF answer NAK), sector 1 all user memory
            // (pages 0x00–0xFF, linear 0x100–0x1FF): 888 + 1024 = 1912 bytes. The NDEF area
            // runs from sector 0 into sector 1, skipping linear pages 0xE2–0xFF.
            var layout = Type2Layout(
                readablePages: 0x200, dataAreaBytes: 1872, dynamicLockPage: 0xE2,
                pagesPerDynamicLockBit: 16, firstConfigPage: 0xE3,
                version: [0x00, 0x04, 0x04, 0x05, 0x02, 0x02, 0x15, 0x03],
                supportsFastRead: true, factoryControlTLVs: [])
            layout.sectorPageCounts = [0xEA, 0x100]
            layout.reservedPages = 0xE2..<0x100
            layout.userPagesEnd = 0x200
            return layout
        default:
            return nil
        }
    }

    /// Identifies a chip from its GET_VERSION answer by vendor, product type, major
    /// product version and storage size (the F variants differ only in the subtype).
    public static func identify(version: [UInt8]) -> TagChip? {
        guard version.count == 8, version[1] == 0x04, version[2] == 0x04 else { return nil }
        let isI2CPlus = version[4] == 0x02 || version[3] == 0x05
        switch (isI2CPlus, version[6]) {
        case (false, 0x0B): return .ntag210
        case (false, 0x0E): return .ntag212
        case (false, 0x0F): return .ntag213
        case (false, 0x11): return .ntag215
        case (false, 0x13): return .ntag216
        case (true, 0x13): return .nt3h2111
        case (true, 0x15): return .nt3h2211
        default: return nil
        }
    }
}

/// Memory layout and command set of a known Type 5 chip (datasheet values).
public struct Type5Layout: Sendable, Equatable {
    /// Bytes per block.
    public var blockSize: Int
    /// Blocks of user memory (numbered from 0).
    public var blockCount: Int
    /// IC manufacturer code (UID byte 6 counted from the LSB; 0x04 NXP, 0x02 ST, 0x07 TI).
    public var manufacturer: UInt8
    /// Product code / type byte that follows the manufacturer in the UID.
    public var productCode: UInt8
    public var icReference: UInt8
    /// READ_MULTIPLE_BLOCKS never crosses a sector of this many blocks (ST chips: 32).
    public var sectorBlocks: Int?
    /// Largest block count one READ_MULTIPLE_BLOCKS may ask for, if the chip limits it.
    public var maxBlocksPerRead: Int?
    /// Whether the chip implements the extended commands (2-byte block numbers).
    public var supportsExtendedCommands: Bool
    /// The factory capability container (4 or 8 bytes).
    public var factoryCC: [UInt8]

    /// User memory in bytes.
    public var memoryBytes: Int { blockSize * blockCount }

    static func forChip(_ chip: TagChip) -> Type5Layout? {
        switch chip {
        case .icodeSLIX:
            return Type5Layout(
                blockSize: 4, blockCount: 28, manufacturer: 0x04, productCode: 0x01, icReference: 0x01,
                sectorBlocks: nil, maxBlocksPerRead: nil, supportsExtendedCommands: false,
                factoryCC: [0xE1, 0x40, 0x0E, 0x01])
        case .icodeSLIX2:
            return Type5Layout(
                blockSize: 4, blockCount: 80, manufacturer: 0x04, productCode: 0x01, icReference: 0x01,
                sectorBlocks: nil, maxBlocksPerRead: nil, supportsExtendedCommands: false,
                factoryCC: [0xE1, 0x40, 0x28, 0x01])
        case .st25dv04k:
            return Type5Layout(
                blockSize: 4, blockCount: 128, manufacturer: 0x02, productCode: 0x24, icReference: 0x24,
                sectorBlocks: 32, maxBlocksPerRead: 32, supportsExtendedCommands: true,
                factoryCC: [0xE1, 0x40, 0x40, 0x01])
        case .st25dv16k:
            return Type5Layout(
                blockSize: 4, blockCount: 512, manufacturer: 0x02, productCode: 0x26, icReference: 0x26,
                sectorBlocks: 32, maxBlocksPerRead: 32, supportsExtendedCommands: true,
                factoryCC: [0xE2, 0x40, 0x00, 0x01, 0x00, 0x00, 0x01, 0x00])
        case .st25dv64k:
            return Type5Layout(
                blockSize: 4, blockCount: 2048, manufacturer: 0x02, productCode: 0x26, icReference: 0x26,
                sectorBlocks: 32, maxBlocksPerRead: 32, supportsExtendedCommands: true,
                factoryCC: [0xE2, 0x40, 0x00, 0x01, 0x00, 0x00, 0x04, 0x00])
        case .st25tv:
            return Type5Layout(
                blockSize: 4, blockCount: 64, manufacturer: 0x02, productCode: 0x23, icReference: 0x08,
                sectorBlocks: 32, maxBlocksPerRead: 32, supportsExtendedCommands: false,
                factoryCC: [0xE1, 0x40, 0x20, 0x01])
        default:
            return nil
        }
    }

    /// Identifies a chip from its UID (display order, `E0` first) and the memory geometry
    /// GET_SYSTEM_INFO reported.
    public static func identify(uidDisplayOrder uid: [UInt8], blockCount: Int?, blockSize: Int?) -> TagChip {
        guard uid.count == 8, uid[0] == 0xE0 else { return .genericType5 }
        switch uid[1] {
        case 0x04:
            guard uid[2] == 0x01 else { return .icodeGeneric }
            switch blockCount {
            case 80: return .icodeSLIX2
            case 28: return .icodeSLIX
            default: return .icodeGeneric
            }
        case 0x02:
            switch uid[2] {
            case 0x24, 0x25: return .st25dv04k
            case 0x26, 0x27:
                if let blockCount, blockCount <= 512 { return .st25dv16k }
                return .st25dv64k
            case 0x23, 0x08, 0x35: return .st25tv
            default: return .genericType5
            }
        case 0x07:
            return .tiRF430
        default:
            return .genericType5
        }
    }
}
