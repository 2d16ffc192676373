import Foundation

/// The GETCONFIG status word; bit *n* is also event number *n* (docs/nhs31xx.md §5.1).
public struct NHSStatus: OptionSet, Sendable, Hashable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let pristine = NHSStatus(rawValue: 1 << 0)
    public static let configured = NHSStatus(rawValue: 1 << 1)
    public static let starting = NHSStatus(rawValue: 1 << 2)
    public static let logging = NHSStatus(rawValue: 1 << 3)
    public static let stopped = NHSStatus(rawValue: 1 << 4)
    public static let temperatureTooHigh = NHSStatus(rawValue: 1 << 5)
    public static let temperatureTooLow = NHSStatus(rawValue: 1 << 6)
    public static let brownOut = NHSStatus(rawValue: 1 << 7)
    public static let full = NHSStatus(rawValue: 1 << 8)
    public static let expired = NHSStatus(rawValue: 1 << 9)
    public static let i2cError = NHSStatus(rawValue: 1 << 10)
    public static let spiError = NHSStatus(rawValue: 1 << 11)

    /// Stable names of bits 0–22, lower camel case (used as event names and in metadata).
    public static let bitNames: [String] = [
        "pristine", "configured", "starting", "logging", "stopped",
        "temperatureTooHigh", "temperatureTooLow", "brownOut", "full", "expired", "i2cError", "spiError",
        "shock", "shake", "vibration", "tilt", "shockConfigured", "shakeConfigured", "vibrationConfigured", "tiltConfigured",
        "humidityConfigured", "humidityTooHigh", "humidityTooLow",
    ]

    /// What each bit means, for people.
    static let bitPhrases: [String] = [
        "reset to pristine (all data erased)", "configured", "start scheduled", "logging started (first sample due)",
        "logging stopped", "a sample above the valid maximum", "a sample below the valid minimum",
        "battery brown-out or power lost", "memory full: samples no longer stored", "running time over",
        "I2C error", "SPI error", "shock", "shake", "vibration", "tilt", "shock detection configured",
        "shake detection configured", "vibration detection configured", "tilt detection configured",
        "humidity configured", "humidity too high", "humidity too low",
    ]

    /// Name of bit `number` (0–31).
    public static func name(ofBit number: Int) -> String {
        number >= 0 && number < bitNames.count ? bitNames[number] : "bit\(number)"
    }

    static func phrase(ofBit number: Int) -> String {
        number >= 0 && number < bitPhrases.count ? bitPhrases[number] : "status bit \(number)"
    }

    /// The names of the set bits, in bit order.
    public var names: [String] { (0..<32).filter { rawValue & (1 << UInt32($0)) != 0 }.map { Self.name(ofBit: $0) } }

    /// The current state: the highest set bit among bits 0–4 (§5.1); `nil` when none is set.
    public var state: String? {
        for bit in stride(from: 4, through: 0, by: -1) where rawValue & (1 << UInt32(bit)) != 0 {
            return Self.name(ofBit: bit)
        }
        return nil
    }

    /// Failure and achievement bits 5–11, set.
    public var problems: NHSStatus { NHSStatus(rawValue: rawValue & 0xFE0) }
}
