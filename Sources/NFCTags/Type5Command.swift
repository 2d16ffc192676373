/// The ISO 15693 (Type 5) commands ColdTap sends and its virtual tags answer
/// (docs/tags.md §2): built into requests by the reading engine and parsed back by the
/// emulators, so each code and parameter layout is written down once. Block numbers above
/// 255 need the `extended` forms (2-byte block numbers).
public enum Type5Command: Sendable, Equatable {
    case getSystemInfo
    case readSingleBlock(block: Int, extended: Bool)
    /// `count` blocks from `first` (the frame carries count − 1).
    case readMultipleBlocks(first: Int, count: Int, extended: Bool)
    case writeSingleBlock(block: Int, data: [UInt8], extended: Bool)

    /// Command codes, as link limits (`LinkLimits.carries`) name them.
    public enum Code: UInt8, Sendable {
        case readSingleBlock = 0x20
        case writeSingleBlock = 0x21
        case readMultipleBlocks = 0x23
        case getSystemInfo = 0x2B
        case extendedReadSingleBlock = 0x30
        case extendedWriteSingleBlock = 0x31
        case extendedReadMultipleBlocks = 0x33
    }

    /// Request flags: high data rate, and addressed when a UID is given.
    public static let highDataRate: UInt8 = 0x02
    public static let addressedFlag: UInt8 = 0x20

    public var code: Code {
        switch self {
        case .getSystemInfo: return .getSystemInfo
        case .readSingleBlock(_, let extended): return extended ? .extendedReadSingleBlock : .readSingleBlock
        case .readMultipleBlocks(_, _, let extended): return extended ? .extendedReadMultipleBlocks : .readMultipleBlocks
        case .writeSingleBlock(_, _, let extended): return extended ? .extendedWriteSingleBlock : .writeSingleBlock
        }
    }

    /// The command's name in messages.
    public var name: String {
        switch self {
        case .getSystemInfo: return "GET_SYSTEM_INFO"
        case .readSingleBlock: return "READ_SINGLE_BLOCK"
        case .readMultipleBlocks: return "READ_MULTIPLE_BLOCKS"
        case .writeSingleBlock: return "WRITE_SINGLE_BLOCK"
        }
    }

    /// The parameters after the code (and the UID, when addressed).
    public var parameters: [UInt8] {
        func number(_ value: Int, wide: Bool) -> [UInt8] {
            wide ? [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] : [UInt8(truncatingIfNeeded: value)]
        }
        switch self {
        case .getSystemInfo: return []
        case .readSingleBlock(let block, let extended): return number(block, wide: extended)
        case .readMultipleBlocks(let first, let count, let extended):
            return number(first, wide: extended) + number(count - 1, wide: extended)
        case .writeSingleBlock(let block, let data, let extended): return number(block, wide: extended) + data
        }
    }

    /// The request frame (without CRC): flags, code, the UID (LSB first, as on the air)
    /// when `addressedTo` is given, parameters.
    public func request(addressedTo uid: [UInt8]? = nil) -> [UInt8] {
        if let uid, uid.count == 8 {
            return [Type5Command.highDataRate | Type5Command.addressedFlag, code.rawValue] + uid + parameters
        }
        return [Type5Command.highDataRate, code.rawValue] + parameters
    }

    /// A request as a tag receives it.
    public struct Request: Sendable, Equatable {
        public var flags: UInt8
        /// The UID the request is addressed to (LSB first), `nil` when not addressed.
        public var uid: [UInt8]?
        /// The raw code, also when unknown.
        public var code: UInt8
        /// The command; `nil` for a code ColdTap does not know (`.unknownCode`) or wrong
        /// parameters (`.malformed`): a tag answers error 0x01 or 0x02.
        public var command: Type5Command?
        public var problem: Problem?

        public enum Problem: Sendable, Equatable { case unknownCode, malformed }

        /// True when the option flag asks for block security status.
        public var wantsSecurityStatus: Bool { flags & 0x40 != 0 }

        /// Parses a request; `nil` when it is too short to hold flags and code (or an
        /// address), which a tag ignores.
        public init?(parsing frame: [UInt8]) {
            guard frame.count >= 2 else { return nil }
            flags = frame[0]
            code = frame[1]
            var index = 2
            if flags & Type5Command.addressedFlag != 0 {
                guard frame.count >= 10 else { return nil }
                uid = Array(frame[2..<10])
                index = 10
            }
            let parameters = Array(frame[index...])
            func number(_ offset: Int, wide: Bool) -> Int {
                wide ? Int(parameters[offset]) | Int(parameters[offset + 1]) << 8 : Int(parameters[offset])
            }
            switch Code(rawValue: code) {
            case .getSystemInfo?: command = .getSystemInfo
            case .readSingleBlock? where parameters.count == 1: command = .readSingleBlock(block: number(0, wide: false), extended: false)
            case .extendedReadSingleBlock? where parameters.count == 2: command = .readSingleBlock(block: number(0, wide: true), extended: true)
            case .readMultipleBlocks? where parameters.count == 2:
                command = .readMultipleBlocks(first: number(0, wide: false), count: number(1, wide: false) + 1, extended: false)
            case .extendedReadMultipleBlocks? where parameters.count == 4:
                command = .readMultipleBlocks(first: number(0, wide: true), count: number(2, wide: true) + 1, extended: true)
            case .writeSingleBlock? where parameters.count >= 2:
                command = .writeSingleBlock(block: number(0, wide: false), data: Array(parameters[1...]), extended: false)
            case .extendedWriteSingleBlock? where parameters.count >= 3:
                command = .writeSingleBlock(block: number(0, wide: true), data: Array(parameters[2...]), extended: true)
            case nil: problem = .unknownCode
            default: problem = .malformed
            }
        }
    }

    /// True for a frame that programs memory (what a torn write can cut).
    public static func isWrite(_ frame: [UInt8]) -> Bool {
        frame.count >= 2 && (frame[1] == Code.writeSingleBlock.rawValue || frame[1] == Code.extendedWriteSingleBlock.rawValue)
    }
}
