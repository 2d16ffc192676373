import Foundation
import NFCTags

/// The chip family a contactless reader names in the ATR it builds (PC/SC Part 3
/// supplement, card name bytes NN NN).
public enum ChipFamily: Sendable, Equatable, CustomStringConvertible {
    /// 0x0001 MIFARE Classic 1K.
    case mifareClassic1K
    /// 0x0002 MIFARE Classic 4K.
    case mifareClassic4K
    /// 0x0003 MIFARE Ultralight family, which readers also report for NTAG21x and NTAG I2C.
    case mifareUltralight
    /// 0x0012 Texas Instruments Tag-it HF-I.
    case tagIt
    /// 0x0013 ST LRI / M24LR / ST25 (ISO 15693).
    case stLRI
    /// 0x0014 NXP ICODE SLI family (SLI, SLIX, SLIX2).
    case icodeSLI
    /// A name code ColdTap has no name for.
    case other(UInt16)

    public init(cardName: UInt16) {
        switch cardName {
        case 0x0001: self = .mifareClassic1K
        case 0x0002: self = .mifareClassic4K
        case 0x0003: self = .mifareUltralight
        case 0x0012: self = .tagIt
        case 0x0013: self = .stLRI
        case 0x0014: self = .icodeSLI
        default: self = .other(cardName)
        }
    }

    /// The card name code for the ATR.
    public var cardName: UInt16 {
        switch self {
        case .mifareClassic1K: return 0x0001
        case .mifareClassic4K: return 0x0002
        case .mifareUltralight: return 0x0003
        case .tagIt: return 0x0012
        case .stLRI: return 0x0013
        case .icodeSLI: return 0x0014
        case .other(let code): return code
        }
    }

    public var description: String {
        switch self {
        case .mifareClassic1K: return "MIFARE Classic 1K"
        case .mifareClassic4K: return "MIFARE Classic 4K"
        case .mifareUltralight: return "MIFARE Ultralight / NTAG"
        case .tagIt: return "TI Tag-it"
        case .stLRI: return "ST LRI / ST25"
        case .icodeSLI: return "NXP ICODE SLI"
        case .other(let code): return String(format: "card name 0x%04X", code)
        }
    }
}

/// An ATR as a PC/SC contactless reader builds it for a storage tag (PC/SC Part 3, 3.1.3.2.3):
/// `3B 8F 80 01 80 4F 0C A0 00 00 03 06 SS NN NN 00 00 00 00 TCK`.
public struct ContactlessATR: Sendable, Equatable {
    /// The registered application provider of PC/SC Part 3 storage-card ATRs.
    static let pcscRID: [UInt8] = [0xA0, 0x00, 0x00, 0x03, 0x06]

    /// The ATR bytes.
    public var bytes: Data
    /// The standard byte SS (0x03 ISO 14443-A part 3, 0x0B ISO 15693 part 3, ...).
    public var standard: UInt8
    /// The card name code NN NN.
    public var family: ChipFamily

    /// The radio technology, when the standard is one ColdTap reads.
    public var technology: TagTechnology? {
        switch standard {
        case 0x01...0x03: return .iso14443A
        case 0x09...0x0C: return .iso15693
        default: return nil
        }
    }

    /// Decodes an ATR. Returns `nil` for an ATR that is not a Part 3 storage-card ATR (a
    /// contact smart card, an ISO 14443-4 card, or bytes that do not add up).
    public init?(_ atr: Data) {
        let bytes = [UInt8](atr)
        guard let historical = ContactlessATR.historicalBytes(of: bytes),
            historical.count >= 3 + 5 + 3,
            historical[0] == 0x80, historical[1] == 0x4F,
            Int(historical[2]) >= 8, historical.count >= 3 + Int(historical[2]),
            Array(historical[3..<8]) == ContactlessATR.pcscRID
        else { return nil }
        self.bytes = atr
        self.standard = historical[8]
        self.family = ChipFamily(cardName: UInt16(historical[9]) << 8 | UInt16(historical[10]))
    }

    /// Builds the ATR a reader presents for a tag of this standard and chip family.
    public init(standard: UInt8, family: ChipFamily) {
        var bytes: [UInt8] = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C] + ContactlessATR.pcscRID
        bytes += [standard, UInt8(family.cardName >> 8), UInt8(family.cardName & 0xFF), 0, 0, 0, 0]
        bytes.append(bytes.dropFirst().reduce(0, ^))
        self.bytes = Data(bytes)
        self.standard = standard
        self.family = family
    }

    /// The ATR for a tag of `technology`; for ISO 15693 the family follows the manufacturer
    /// code in the UID (LSB first: the byte before the final `E0`), as readers do.
    public init(technology: TagTechnology, uid: Data?) {
        switch technology {
        case .iso14443A:
            self.init(standard: 0x03, family: .mifareUltralight)
        case .iso15693:
            let manufacturer = uid.flatMap { $0.count == 8 ? $0[$0.startIndex + 6] : nil }
            let family: ChipFamily
            switch manufacturer {
            case 0x02: family = .stLRI
            case 0x07: family = .tagIt
            default: family = .icodeSLI
            }
            self.init(standard: 0x0B, family: family)
        }
    }

    /// The historical bytes of an ISO 7816-3 ATR, after checking its structure and (when a
    /// protocol other than T=0 is indicated) its check byte; `nil` when malformed.
    static func historicalBytes(of atr: [UInt8]) -> [UInt8]? {
        guard atr.count >= 2, atr[0] == 0x3B || atr[0] == 0x3F else { return nil }
        let historicalCount = Int(atr[1] & 0x0F)
        var indicator = atr[1] >> 4
        var index = 2
        var needsCheckByte = false
        while true {
            // TA, TB, TC present per bits 0-2; TD per bit 3.
            index += (0..<3).filter { indicator & (1 << $0) != 0 }.count
            guard indicator & 0x08 != 0 else { break }
            guard index < atr.count else { return nil }
            let td = atr[index]
            if td & 0x0F != 0 { needsCheckByte = true }
            indicator = td >> 4
            index += 1
        }
        let end = index + historicalCount
        guard end + (needsCheckByte ? 1 : 0) == atr.count else { return nil }
        if needsCheckByte, atr.dropFirst().reduce(0, ^) != 0 { return nil }
        return Array(atr[index..<end])
    }
}
