/// The Type 2 tag commands ColdTap sends and its virtual tags answer (docs/tags.md §1):
/// built into frames by the reading engine and parsed back by the emulators, so each
/// opcode and layout is written down once.
public enum Type2Command: Sendable, Equatable {
    /// READ: 16 bytes (4 pages) from `page`, wrapping at the end of memory.
    case read(page: UInt8)
    /// FAST_READ (NXP): pages `first` … `last` inclusive.
    case fastRead(first: UInt8, last: UInt8)
    /// WRITE: one 4-byte page.
    case write(page: UInt8, data: [UInt8])
    /// GET_VERSION (NXP): 8 bytes naming vendor, type and storage size.
    case getVersion
    /// SECTOR_SELECT packet 1 (NT3H2211); packet 2 is `sectorNumber`.
    case sectorSelect
    /// SECTOR_SELECT packet 2: the sector number and three zero bytes; the tag accepts it
    /// by staying silent.
    case sectorNumber(UInt8)

    /// Command codes, as link limits (`LinkLimits.carries`) name them.
    public enum Code: UInt8, Sendable {
        case read = 0x30
        case fastRead = 0x3A
        case write = 0xA2
        case getVersion = 0x60
        case sectorSelect = 0xC2
    }

    /// The frame (without CRC, which the link adds).
    public var bytes: [UInt8] {
        switch self {
        case .read(let page): return [Code.read.rawValue, page]
        case .fastRead(let first, let last): return [Code.fastRead.rawValue, first, last]
        case .write(let page, let data): return [Code.write.rawValue, page] + data
        case .getVersion: return [Code.getVersion.rawValue]
        case .sectorSelect: return [Code.sectorSelect.rawValue, 0xFF]
        case .sectorNumber(let sector): return [sector, 0x00, 0x00, 0x00]
        }
    }

    /// The command's name in messages ("FAST_READ", …).
    public var name: String {
        switch self {
        case .read: return "READ"
        case .fastRead: return "FAST_READ"
        case .write: return "WRITE"
        case .getVersion: return "GET_VERSION"
        case .sectorSelect, .sectorNumber: return "SECTOR_SELECT"
        }
    }

    /// Parses a frame as a tag receives it; `awaitingSectorNumber` when the previous
    /// frame was SECTOR_SELECT packet 1. `nil` for an unknown code or a malformed frame
    /// (a tag NAKs both).
    public init?(parsing frame: [UInt8], awaitingSectorNumber: Bool = false) {
        guard let first = frame.first else { return nil }
        if awaitingSectorNumber {
            guard frame.count == 4, frame[1...].allSatisfy({ $0 == 0 }) else { return nil }
            self = .sectorNumber(first)
            return
        }
        switch Code(rawValue: first) {
        case .read? where frame.count == 2: self = .read(page: frame[1])
        case .fastRead? where frame.count == 3: self = .fastRead(first: frame[1], last: frame[2])
        case .write? where frame.count == 6: self = .write(page: frame[1], data: Array(frame[2..<6]))
        case .getVersion? where frame.count == 1: self = .getVersion
        case .sectorSelect? where frame.count == 2 && frame[1] == 0xFF: self = .sectorSelect
        default: return nil
        }
    }

    /// True for a frame that programs memory (what a torn write can cut).
    public static func isWrite(_ frame: [UInt8]) -> Bool {
        frame.first == Code.write.rawValue
    }
}
