import Foundation

/// What a SmarTag's asynchronous (event) record says (docs/smartag.md §3.4, §4.4).
public struct SmarTagMotion: Sendable, Equatable, Codable {
    /// 6D position: SmarTag1 0…6 (0 unknown), SmarTag2 1…6.
    public var orientation: Int?
    /// Acceleration in mg (SmarTag1: steps of 256 mg; SmarTag2 wake-up: mg).
    public var accelerationMilliG: Int?
    /// SmarTag2 machine-learning-core tilt, degrees.
    public var tiltDegrees: Int?
    /// SmarTag2 asset-tracking state (0, 4, 8, 12).
    public var state: Int?

    public init(orientation: Int? = nil, accelerationMilliG: Int? = nil, tiltDegrees: Int? = nil, state: Int? = nil) {
        self.orientation = orientation
        self.accelerationMilliG = accelerationMilliG
        self.tiltDegrees = tiltDegrees
        self.state = state
    }

    /// SmarTag1's names of its 6D positions (§3.4), index = code.
    public static let smarTag1Positions = ["unknown", "UP_RIGHT", "TOP", "DOWN_LEFT", "BOTTOM", "UP_LEFT", "DOWN_RIGHT"]

    /// The English phrase.
    public var text: String {
        var parts: [String] = []
        if let orientation {
            let name = orientation < Self.smarTag1Positions.count ? " (\(Self.smarTag1Positions[orientation]))" : ""
            parts.append("position \(orientation)\(name)")
        }
        if let accelerationMilliG { parts.append("acceleration \(accelerationMilliG) mg") }
        if let tiltDegrees { parts.append("tilt \(tiltDegrees)°") }
        if let state { parts.append("asset-tracking state \(state)") }
        return parts.isEmpty ? "motion event" : parts.joined(separator: ", ")
    }
}

/// What a reader of a SmarTag log must know (docs/smartag.md).
public enum SmarTagNote: Sendable, Equatable, Codable {
    /// Records holding the sensor's invalid marker, kept as missing points.
    case invalidValues(count: Int)
    /// Records the layout says exist but the NDEF message does not hold.
    case recordsNotInMessage(count: Int)
    /// SmarTag2 values outside the coding range (temperature above 60.0 °C coded 350).
    case outsideCoding(count: Int)
    /// Records of sensors the firmware does not log, or not configured, skipped.
    case unknownSensors(ids: [Int], count: Int)
    /// Slots inside the counted ring that hold no record (never written).
    case emptySlots(count: Int)
    /// The logger holds no start time (never configured): times cannot be placed.
    case noStartTime

    /// The English sentence.
    public var text: String {
        switch self {
        case .invalidValues(let count):
            return "\(count) record(s) hold the sensor's invalid marker: kept as missing points"
        case .recordsNotInMessage(let count):
            return "\(count) record(s) lie past the end of the NDEF message read; read the whole tag memory to get them"
        case .outsideCoding(let count):
            return "\(count) record(s) hold values outside the sensor's coding range: flagged out of range"
        case .unknownSensors(let ids, let count):
            return
                "\(count) record(s) of sensor id(s) \(ids.map(String.init).joined(separator: ", ")) that this firmware does not log or that is not configured: skipped"
        case .emptySlots(let count):
            return "\(count) slot(s) of the ring hold no record (never written): skipped"
        case .noStartTime:
            return "the logger holds no start time (it was never configured): the record times are not real dates"
        }
    }
}

/// What both SmarTag generations share.
enum SmarTagLog {
    /// A threshold-mode log's coverage: from `from` (its start, or its oldest record once the
    /// ring has overwritten older ones) to the read when the read time is known, else to the
    /// end of the newest record.
    static func coverage(
        from: Date, log: TemperatureLog, options: DecodeOptions, lowest: Double?, highest: Double?,
        rule: String
    ) -> TemperatureLog.ThresholdLogging {
        let newestEnd = log.samples.last.map { $0.time.addingTimeInterval(log.interval) } ?? from
        let end = options.readTimeSource.isKnown ? max(newestEnd, options.readTime) : newestEnd
        return TemperatureLog.ThresholdLogging(
            coverageStart: from, coverageEnd: max(from, end), lowest: lowest,
            highest: highest, rule: rule)
    }

    static func celsius(_ value: Double) -> String { String(format: "%.1f °C", value) }
}
