import Foundation

/// What SETCONFIG sets (docs/nhs31xx.md §3.2): 18 bytes on the wire.
public struct NHSConfiguration: Sendable, Equatable {
    /// `startDelay` meaning "wait for START".
    public static let waitForStart: UInt32 = 0xFFFF_FFFF

    /// The reader's clock, epoch seconds (UTC); the tag's clock is set to it.
    public var currentTime: UInt32
    /// Seconds between samples; 0 stops logging (and erases everything, as any SETCONFIG does).
    public var interval: UInt16
    /// Seconds before the first sample (0 = in 1 s), or `waitForStart`.
    public var startDelay: UInt32
    /// Seconds from the first sample until the logger stops; 0 = no limit.
    public var runningTime: UInt32
    /// Deci-°C; the tag checks limits only when `validMinimum < validMaximum`.
    public var validMinimum: Int16
    public var validMaximum: Int16

    public init(
        currentTime: UInt32, interval: UInt16, startDelay: UInt32 = 0, runningTime: UInt32 = 0,
        validMinimum: Int16 = 0, validMaximum: Int16 = 0
    ) {
        self.currentTime = currentTime
        self.interval = interval
        self.startDelay = startDelay
        self.runningTime = runningTime
        self.validMinimum = validMinimum
        self.validMaximum = validMaximum
    }

    public var bytes: [UInt8] {
        var writer = NHSFieldWriter()
        writer.u32(currentTime)
        writer.u16(interval)
        writer.u32(startDelay)
        writer.u32(runningTime)
        writer.i16(validMinimum)
        writer.i16(validMaximum)
        return writer.bytes
    }

    /// Reads the 18 request bytes.
    /// - Throws: `LoggerFormatError` `.truncated` naming the offset.
    public init(bytes: [UInt8]) throws {
        let reader = NHSFieldReader(bytes, what: "SETCONFIG request")
        self.init(
            currentTime: try reader.u32(0, "currentTime"), interval: try reader.u16(4, "interval"),
            startDelay: try reader.u32(6, "startDelay"), runningTime: try reader.u32(10, "runningTime"),
            validMinimum: try reader.i16(14, "validMinimum"), validMaximum: try reader.i16(16, "validMaximum"))
    }
}

/// Which parts of each event GETEVENTS returns (docs/nhs31xx.md §3.7).
public struct NHSEventInfo: OptionSet, Sendable, Hashable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let index = NHSEventInfo(rawValue: 0x01)
    public static let timestamp = NHSEventInfo(rawValue: 0x02)
    public static let eventNumber = NHSEventInfo(rawValue: 0x04)
    public static let data = NHSEventInfo(rawValue: 0x08)
    public static let all: NHSEventInfo = [.index, .timestamp, .eventNumber, .data]
}

/// A command the reader sends (docs/nhs31xx.md §3). `frame` gives its bytes;
/// `parse` reads one the way the firmware does (the emulator uses it).
public enum NHSCommand: Sendable, Equatable {
    case getResponse
    case getVersion
    case getUID
    case getNFCUID
    case checkBattery
    case getCalibrationTimestamp
    case getDiagData
    /// Skip the `offset` oldest samples.
    case getMeasurements(offset: UInt16)
    case getConfig
    case setConfig(NHSConfiguration)
    /// Resolution 2…7 (5 = 10 bit); the result is queued (fetch it with GETRESPONSE).
    case measureTemperature(resolution: UInt8)
    case start
    /// `mask` 0 means every event number; see the §3.7 quirks before using `index` > 0.
    case getEvents(index: UInt16, mask: UInt32, info: NHSEventInfo)
    /// `which` bit 0 temperature, bit 1 humidity; `format` 0 full, 1 raw.
    case getPeriodicData(which: UInt8, format: UInt8, offset: UInt16)
    // Debug builds only.
    case reset
    case readRegister(address: UInt32)
    case writeRegister(address: UInt32, value: UInt32)
    case readMemory(address: UInt32, length: UInt8)
    /// `data` is sent padded to 32 bytes.
    case writeMemory(address: UInt32, data: [UInt8])
    case prepareDebug

    public var id: NHSMessageID {
        switch self {
        case .getResponse: return .getResponse
        case .getVersion: return .getVersion
        case .getUID: return .getUID
        case .getNFCUID: return .getNFCUID
        case .checkBattery: return .checkBattery
        case .getCalibrationTimestamp: return .getCalibrationTimestamp
        case .getDiagData: return .getDiagData
        case .getMeasurements: return .getMeasurements
        case .getConfig: return .getConfig
        case .setConfig: return .setConfig
        case .measureTemperature: return .measureTemperature
        case .start: return .start
        case .getEvents: return .getEvents
        case .getPeriodicData: return .getPeriodicData
        case .reset: return .reset
        case .readRegister: return .readRegister
        case .writeRegister: return .writeRegister
        case .readMemory: return .readMemory
        case .writeMemory: return .writeMemory
        case .prepareDebug: return .prepareDebug
        }
    }

    /// The command frame, direction `00`.
    public var frame: NHSFrame {
        var writer = NHSFieldWriter()
        switch self {
        case .getResponse, .getVersion, .getUID, .getNFCUID, .checkBattery, .getCalibrationTimestamp, .getDiagData,
            .getConfig, .start, .reset, .prepareDebug:
            break
        case .getMeasurements(let offset):
            writer.u16(offset)
        case .setConfig(let configuration):
            writer.append(configuration.bytes)
        case .measureTemperature(let resolution):
            writer.u8(resolution)
        case .getEvents(let index, let mask, let info):
            writer.u16(index)
            writer.u32(mask)
            writer.u8(info.rawValue)
        case .getPeriodicData(let which, let format, let offset):
            writer.u8(which)
            writer.u8(format)
            writer.u16(offset)
        case .readRegister(let address):
            writer.u32(address)
        case .writeRegister(let address, let value):
            writer.u32(address)
            writer.u32(value)
        case .readMemory(let address, let length):
            writer.u32(address)
            writer.u8(length)
        case .writeMemory(let address, let data):
            writer.u32(address)
            writer.u8(UInt8(min(data.count, 32)))
            writer.append(Array(data.prefix(32)) + [UInt8](repeating: 0, count: max(0, 32 - data.count)))
        }
        return NHSFrame(id: id.rawValue, direction: NHSFrame.commandDirection, payload: writer.bytes)
    }

    /// Why the firmware refuses a command frame before running it.
    public struct Refusal: Error, Sendable, Equatable {
        public var result: NHSResult
    }

    /// Reads a command as the 12.4 firmware does: an unknown id gives `unknownCommand`, a
    /// payload of the wrong length `badLength` for the messages that check it, and every
    /// other message ignores its payload (docs/nhs31xx.md §2).
    /// - Parameter debugBuild: whether the debug-only messages (03–08, 3E) are known.
    /// - Throws: `Refusal` with the result code the tag answers.
    public static func parse(_ frame: NHSFrame, debugBuild: Bool = false) throws -> NHSCommand {
        guard let id = NHSMessageID(rawValue: frame.id) else { throw Refusal(result: .unknownCommand) }
        if let required = id.requiredRequestLength, frame.payload.count != required {
            throw Refusal(result: .badLength)
        }
        let reader = NHSFieldReader(frame.payload, what: "\(id.name) request")
        func field<T>(_ read: () throws -> T) throws -> T {
            do { return try read() } catch { throw Refusal(result: .badLength) }
        }
        switch id {
        case .getResponse: return .getResponse
        case .getVersion: return .getVersion
        case .getUID: return .getUID
        case .getNFCUID: return .getNFCUID
        case .checkBattery: return .checkBattery
        case .getCalibrationTimestamp: return .getCalibrationTimestamp
        case .getConfig: return .getConfig
        case .start: return .start
        case .getMeasurements: return .getMeasurements(offset: try field { try reader.u16(0, "offset") })
        case .setConfig: return .setConfig(try field { try NHSConfiguration(bytes: frame.payload) })
        case .measureTemperature: return .measureTemperature(resolution: try field { try reader.u8(0, "resolution") })
        case .getEvents:
            return .getEvents(
                index: try field { try reader.u16(0, "index") }, mask: try field { try reader.u32(2, "eventMask") },
                info: NHSEventInfo(rawValue: try field { try reader.u8(6, "info") }))
        case .getPeriodicData:
            return .getPeriodicData(
                which: try field { try reader.u8(0, "which") }, format: try field { try reader.u8(1, "format") },
                offset: try field { try reader.u16(2, "offset") })
        case .getDiagData, .reset, .readRegister, .writeRegister, .readMemory, .writeMemory, .prepareDebug:
            guard debugBuild else { throw Refusal(result: .unknownCommand) }
            switch id {
            case .getDiagData: return .getDiagData
            case .reset: return .reset
            case .prepareDebug: return .prepareDebug
            case .readRegister: return .readRegister(address: try field { try reader.u32(0, "address") })
            case .writeRegister:
                return .writeRegister(address: try field { try reader.u32(0, "address") }, value: try field { try reader.u32(4, "value") })
            case .readMemory:
                return .readMemory(address: try field { try reader.u32(0, "address") }, length: try field { try reader.u8(4, "length") })
            default:
                let length = Int(try field { try reader.u8(4, "length") })
                try field { try reader.need(32, at: 5, field: "data") }
                return .writeMemory(
                    address: try field { try reader.u32(0, "address") },
                    data: Array(frame.payload[5..<(5 + min(length, 32))]))
            }
        }
    }
}
