import ColdTapBase
import Foundation

/// One value of a log's metadata, with its type: a count is an integer, a battery voltage a
/// number, a limit a temperature, a configuration time a date. `text` is how output writes it
/// (JSON output keeps writing every metadata value as a string, so its bytes do not change).
/// Two values are equal when they say the same text: a log stored before metadata was typed
/// (every value `.text`) equals the same log decoded now.
public enum MetadataValue: Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case text(String)
    case integer(Int64)
    /// A measurement (the cuplTag battery in millivolts), written in Swift's shortest form.
    case number(Double)
    /// °C, written with one decimal (the NHS31xx reports tenths).
    case celsius(Double)
    /// A time, written as ISO 8601 UTC.
    case time(Date)
    case flag(Bool)

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }

    public var description: String { text }

    /// The value as output writes it.
    public var text: String {
        switch self {
        case .text(let text): return text
        case .integer(let value): return String(value)
        case .number(let value): return String(value)
        case .celsius(let value): return String(format: "%.1f", value)
        case .time(let date): return date.isoUTCWholeSeconds
        case .flag(let value): return value ? "true" : "false"
        }
    }

    /// The value as a number, when it is one (a `.text` that reads as a number counts:
    /// logs stored before metadata was typed).
    public var number: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value), .celsius(let value): return value
        case .text(let text): return Double(text)
        case .time, .flag: return nil
        }
    }
}

extension MetadataValue: Equatable {
    public static func == (left: MetadataValue, right: MetadataValue) -> Bool { left.text == right.text }
}

extension MetadataValue: StoredAsTextBefore {
    static func fromStoredText(_ text: String) -> MetadataValue { .text(text) }
}
