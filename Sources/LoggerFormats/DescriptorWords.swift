import Foundation
import NDEF

/// The words a logger descriptor chooses from (Sources/LoggerFormats/Descriptors/README.md). Each is one of
/// the known values or, read from a file, the word the file gave: `LoggerDescriptor.validate`
/// refuses an unrecognized one, naming the choices, so a typo is an error that says where.
protocol DescriptorWord: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    static var known: [Self] { get }
    static func unrecognized(_ word: String) -> Self
    /// The word as a descriptor file spells it.
    var word: String { get }
}

extension DescriptorWord {
    init(word: String) { self = Self.known.first { $0.word == word } ?? .unrecognized(word) }
    public init(stringLiteral value: String) { self.init(word: value) }
    public var description: String { word }
    /// True for a word the descriptor format knows.
    var isKnown: Bool { Self.known.contains(self) }
    /// The choices, as the validation message lists them.
    static var choices: [String] { known.map(\.word) }

    static func decodeWord(_ decoder: any Decoder) throws -> Self {
        Self(word: try decoder.singleValueContainer().decode(String.self))
    }

    func encodeWord(_ encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(word)
    }
}

extension LoggerDescriptor {
    /// The NDEF type name format a record must have (`record.match[].tnf`).
    public enum RecordTNF: DescriptorWord, Codable {
        case wellKnown, media, absoluteURI, external, unknown
        case unrecognized(String)

        static let known: [RecordTNF] = [.wellKnown, .media, .absoluteURI, .external, .unknown]

        public var word: String {
            switch self {
            case .wellKnown: return "well-known"
            case .media: return "media"
            case .absoluteURI: return "absolute-uri"
            case .external: return "external"
            case .unknown: return "unknown"
            case .unrecognized(let word): return word
            }
        }

        /// The NDEF value; `nil` for an unrecognized word.
        public var typeNameFormat: TypeNameFormat? {
            switch self {
            case .wellKnown: return .wellKnown
            case .media: return .media
            case .absoluteURI: return .absoluteURI
            case .external: return .external
            case .unknown: return .unknown
            case .unrecognized: return nil
            }
        }

        public init(from decoder: any Decoder) throws { self = try Self.decodeWord(decoder) }
        public func encode(to encoder: any Encoder) throws { try encodeWord(encoder) }
    }

    /// The byte order of a multi-byte field.
    public enum Endian: DescriptorWord, Codable {
        case little, big
        case unrecognized(String)

        static let known: [Endian] = [.little, .big]

        public var word: String {
            switch self {
            case .little: return "little"
            case .big: return "big"
            case .unrecognized(let word): return word
            }
        }

        public init(from decoder: any Decoder) throws { self = try Self.decodeWord(decoder) }
        public func encode(to encoder: any Encoder) throws { try encodeWord(encoder) }
    }

    /// What a header field holds.
    public enum Meaning: DescriptorWord, Codable {
        /// The sample interval (in `unit`, or in the unit an `intervalUnit` field names).
        case interval
        /// A code for the interval's unit (`units` maps it to seconds).
        case intervalUnit
        /// The first sample's time, UNIX seconds.
        case startTime
        /// The newest sample's time, UNIX seconds.
        case newestTime
        case sampleCount
        /// Where a ring buffer writes next (needs `ringBuffer`).
        case newestIndex
        case ignore
        case unrecognized(String)

        static let known: [Meaning] = [.interval, .intervalUnit, .startTime, .newestTime, .sampleCount, .newestIndex, .ignore]

        public var word: String {
            switch self {
            case .interval: return "interval"
            case .intervalUnit: return "interval-unit"
            case .startTime: return "start-time"
            case .newestTime: return "newest-time"
            case .sampleCount: return "sample-count"
            case .newestIndex: return "newest-index"
            case .ignore: return "ignore"
            case .unrecognized(let word): return word
            }
        }

        public init(from decoder: any Decoder) throws { self = try Self.decodeWord(decoder) }
        public func encode(to encoder: any Encoder) throws { try encodeWord(encoder) }
    }
}
