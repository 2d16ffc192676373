import ColdTapBase
import Foundation

// The message layer of NXP's NHS31xx temperature-logger firmware (docs/nhs31xx.md §2–§3).
// Every frame rides as the payload of one MIME record; all fields are little-endian.

/// One frame: message id, direction, payload (docs/nhs31xx.md §2).
public struct NHSFrame: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// `00` reader → tag, `01` tag → reader.
    public static let commandDirection: UInt8 = 0x00
    public static let responseDirection: UInt8 = 0x01

    public var id: UInt8
    /// The direction byte as sent (the firmware does not check it on commands).
    public var direction: UInt8
    public var payload: [UInt8]

    public init(id: UInt8, direction: UInt8, payload: [UInt8] = []) {
        self.id = id
        self.direction = direction
        self.payload = payload
    }

    /// A frame from its bytes.
    /// - Throws: `LoggerFormatError` `.truncated` when fewer than the 2 header bytes are there.
    public init(bytes: some Collection<UInt8>) throws {
        let all = Array(bytes)
        guard all.count >= 2 else {
            throw LoggerFormatError(
                .truncated(needed: 2, available: all.count), format: NHS31xxFormat.formatName,
                field: "frame", offset: all.count,
                "an NHS31xx frame needs a message id and a direction byte, but \(all.count) byte(s) are there")
        }
        self.init(id: all[0], direction: all[1], payload: Array(all[2...]))
    }

    public var bytes: [UInt8] { [id, direction] + payload }
    public var isResponse: Bool { direction == Self.responseDirection }
    /// The message's name (`GETCONFIG`, ...), or the id in hex.
    public var name: String { NHSMessageID(rawValue: id)?.name ?? String(format: "message 0x%02X", id) }
    public var description: String { bytes.hexString(separator: " ") }
}

/// The message ids of docs/nhs31xx.md §3. Ids `00`–`3F` are the generic messages, `40`–`FF`
/// the application's.
public enum NHSMessageID: UInt8, Sendable, CaseIterable {
    case getResponse = 0x01
    case getVersion = 0x02
    case reset = 0x03
    case readRegister = 0x04
    case writeRegister = 0x05
    case readMemory = 0x06
    case writeMemory = 0x07
    case prepareDebug = 0x08
    case getUID = 0x09
    case getNFCUID = 0x0A
    case checkBattery = 0x0B
    case getCalibrationTimestamp = 0x0C
    case getDiagData = 0x3E
    case getMeasurements = 0x46
    case getConfig = 0x48
    case setConfig = 0x49
    case measureTemperature = 0x50
    case start = 0x5A
    case getEvents = 0x5B
    case getPeriodicData = 0x5E

    public var name: String {
        switch self {
        case .getResponse: return "GETRESPONSE"
        case .getVersion: return "GETVERSION"
        case .reset: return "RESET"
        case .readRegister: return "READREGISTER"
        case .writeRegister: return "WRITEREGISTER"
        case .readMemory: return "READMEMORY"
        case .writeMemory: return "WRITEMEMORY"
        case .prepareDebug: return "PREPAREDEBUG"
        case .getUID: return "GETUID"
        case .getNFCUID: return "GETNFCUID"
        case .checkBattery: return "CHECKBATTERY"
        case .getCalibrationTimestamp: return "GETCALIBRATIONTIMESTAMP"
        case .getDiagData: return "GETDIAGDATA"
        case .getMeasurements: return "GETMEASUREMENTS"
        case .getConfig: return "GETCONFIG"
        case .setConfig: return "SETCONFIG"
        case .measureTemperature: return "MEASURETEMPERATURE"
        case .start: return "START"
        case .getEvents: return "GETEVENTS"
        case .getPeriodicData: return "GETPERIODICDATA"
        }
    }

    /// The exact request payload length the firmware insists on; `nil` when it ignores the
    /// payload (docs/nhs31xx.md §2, result `0x0001000D`).
    public var requiredRequestLength: Int? {
        switch self {
        case .getMeasurements: return 2
        case .setConfig: return 18
        case .measureTemperature: return 1
        case .getEvents: return 7
        case .getPeriodicData: return 4
        default: return nil
        }
    }
}

/// A u32 result code (docs/nhs31xx.md §2).
public struct NHSResult: RawRepresentable, Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let ok = NHSResult(rawValue: 0)
    public static let unknownCommand = NHSResult(rawValue: 0x0001_0007)
    public static let noResponse = NHSResult(rawValue: 0x0001_000B)
    public static let badLength = NHSResult(rawValue: 0x0001_000D)
    /// Also the application's "temperature sensor busy" code, which has the same value.
    public static let badParameter = NHSResult(rawValue: 0x0001_000E)
    public static let notAllowed = NHSResult(rawValue: 0x0001_000F)
    public static let notImplemented = NHSResult(rawValue: 0x0001_0010)
    /// MEASURETEMPERATURE's immediate answer when a conversion is already running.
    public static let sensorBusy = NHSResult(rawValue: 0xFFFF_FFFF)

    public var isOK: Bool { rawValue == 0 }

    /// What the code means, as a phrase.
    public var explanation: String {
        switch self {
        case .ok: return "OK"
        case .unknownCommand: return "unknown command"
        case .noResponse: return "nothing queued"
        case .badLength: return "wrong payload length"
        case .badParameter: return "bad parameter value (or sensor error)"
        case .notAllowed: return "not allowed in the logger's current state"
        case .notImplemented: return "not implemented"
        case .sensorBusy: return "temperature sensor busy"
        default:
            if rawValue >= 0x0001_0000 && rawValue <= 0x0001_003F {
                return String(format: "message-layer error 0x%08X", rawValue)
            }
            return String(format: "result 0x%08X", rawValue)
        }
    }

    public var description: String { String(format: "0x%08X (%@)", rawValue, explanation) }
}

// MARK: Little-endian helpers (bounds-checked by the callers)

/// Reads little-endian fields from an untrusted byte array; every read checks the length and
/// throws with the offset of the field, counted from the start of the frame.
struct NHSFieldReader {
    let bytes: [UInt8]
    /// Added to payload offsets so that errors name the offset in the whole frame.
    let frameOffset: Int
    let what: String

    init(_ bytes: [UInt8], what: String, frameOffset: Int = 2) {
        self.bytes = bytes
        self.what = what
        self.frameOffset = frameOffset
    }

    func need(_ count: Int, at offset: Int, field: String) throws {
        guard offset >= 0, count >= 0, offset <= bytes.count, bytes.count - offset >= count else {
            throw LoggerFormatError(
                .truncated(needed: offset + count, available: bytes.count),
                format: NHS31xxFormat.formatName, field: what, offset: frameOffset + offset,
                "the \(what) ends before its \(field) (\(count) byte(s) at payload offset \(offset), \(bytes.count) byte(s) present)")
        }
    }

    func u8(_ offset: Int, _ field: String) throws -> UInt8 {
        try need(1, at: offset, field: field)
        return bytes[offset]
    }

    func u16(_ offset: Int, _ field: String) throws -> UInt16 {
        try need(2, at: offset, field: field)
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    func i16(_ offset: Int, _ field: String) throws -> Int16 { Int16(bitPattern: try u16(offset, field)) }

    func u32(_ offset: Int, _ field: String) throws -> UInt32 {
        try need(4, at: offset, field: field)
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    func i32(_ offset: Int, _ field: String) throws -> Int32 { Int32(bitPattern: try u32(offset, field)) }
}

/// Appends little-endian values (for requests and the emulator's answers).
public struct NHSFieldWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    public init() {}
    public mutating func u8(_ value: UInt8) { bytes.append(value) }
    public mutating func u16(_ value: UInt16) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8)] }
    public mutating func i16(_ value: Int16) { u16(UInt16(bitPattern: value)) }
    public mutating func u32(_ value: UInt32) {
        bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
    public mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }
    public mutating func append(_ more: [UInt8]) { bytes += more }
}
