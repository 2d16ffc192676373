import Foundation

/// GETVERSION's 14 bytes (docs/nhs31xx.md §3.1).
public struct NHSVersion: Sendable, Equatable {
    public static let nhs3100DeviceID: UInt32 = 0x4E31_0020
    public static let nhs3152DeviceID: UInt32 = 0x4E31_5220

    public var softwareMajor: UInt16
    public var softwareMinor: UInt16
    public var apiMajor: UInt16
    public var apiMinor: UInt16
    /// 0 on API 5 (the field was reserved then).
    public var deviceID: UInt32

    public init(softwareMajor: UInt16, softwareMinor: UInt16, apiMajor: UInt16, apiMinor: UInt16, deviceID: UInt32) {
        self.softwareMajor = softwareMajor
        self.softwareMinor = softwareMinor
        self.apiMajor = apiMajor
        self.apiMinor = apiMinor
        self.deviceID = deviceID
    }

    /// `NHS3100`, `NHS3152`, or `nil` for another or an unset device id.
    public var model: String? {
        switch deviceID {
        case Self.nhs3100DeviceID: return "NHS3100"
        case Self.nhs3152DeviceID: return "NHS3152"
        default: return nil
        }
    }

    public var payload: [UInt8] {
        var writer = NHSFieldWriter()
        writer.u16(0)
        writer.u16(softwareMajor)
        writer.u16(softwareMinor)
        writer.u16(apiMajor)
        writer.u16(apiMinor)
        writer.u32(deviceID)
        return writer.bytes
    }
}

/// GETCONFIG's answer, either generation (docs/nhs31xx.md §3.3), told apart by length.
public struct NHSConfig: Sendable, Equatable {
    public enum Layout: Sendable, Equatable {
        /// 40 bytes: message API 6 and 7.
        case current
        /// 23 bytes: message API 5 (2014–2017).
        case legacy
    }

    /// `attainedMinimum` until a real sample exists.
    public static let noAttainedMinimum: Int16 = 32767
    /// `attainedMaximum` until a real sample exists.
    public static let noAttainedMaximum: Int16 = -32768

    public var layout: Layout
    public var result: NHSResult
    /// SETCONFIG's `currentTime`, as given; 0 if never configured.
    public var configTime: UInt32
    public var interval: UInt16
    /// Current layout only (`nil` on legacy).
    public var startDelay: UInt32?
    public var runningTime: UInt32?
    public var validMinimum: Int16
    public var validMaximum: Int16
    public var attainedMinimum: Int16?
    public var attainedMaximum: Int16?
    public var count: UInt16
    public var status: NHSStatus?
    /// Time of the first sample; 0 when there is none. Current layout only.
    public var startTime: UInt32?
    /// The tag's clock now.
    public var currentTime: UInt32
    /// Legacy layout only: 0 = no limit, `FFFF` = stopped by an error or full.
    public var maxCount: UInt16?
    /// Legacy layout only: the validation byte.
    public var legacyValid: UInt8?

    public init(
        result: NHSResult = .ok, configTime: UInt32, interval: UInt16, startDelay: UInt32, runningTime: UInt32,
        validMinimum: Int16, validMaximum: Int16, attainedMinimum: Int16, attainedMaximum: Int16, count: UInt16,
        status: NHSStatus, startTime: UInt32, currentTime: UInt32
    ) {
        self.layout = .current
        self.result = result
        self.configTime = configTime
        self.interval = interval
        self.startDelay = startDelay
        self.runningTime = runningTime
        self.validMinimum = validMinimum
        self.validMaximum = validMaximum
        self.attainedMinimum = attainedMinimum
        self.attainedMaximum = attainedMaximum
        self.count = count
        self.status = status
        self.startTime = startTime
        self.currentTime = currentTime
    }

    /// Reads a GETCONFIG payload (the bytes after `48 01`).
    /// - Throws: `LoggerFormatError` `.truncated`/`.inconsistent` naming the frame offset.
    public init(payload: [UInt8]) throws {
        let reader = NHSFieldReader(payload, what: "GETCONFIG response")
        switch payload.count {
        case 40:
            self.init(
                result: NHSResult(rawValue: try reader.u32(0, "result")), configTime: try reader.u32(4, "configTime"),
                interval: try reader.u16(8, "interval"), startDelay: try reader.u32(10, "startDelay"),
                runningTime: try reader.u32(14, "runningTime"), validMinimum: try reader.i16(18, "validMinimum"),
                validMaximum: try reader.i16(20, "validMaximum"), attainedMinimum: try reader.i16(22, "attainedMinimum"),
                attainedMaximum: try reader.i16(24, "attainedMaximum"), count: try reader.u16(26, "count"),
                status: NHSStatus(rawValue: try reader.u32(28, "status")), startTime: try reader.u32(32, "startTime"),
                currentTime: try reader.u32(36, "currentTime"))
        case 23:
            self.init(
                result: NHSResult(rawValue: try reader.u32(0, "result")), configTime: try reader.u32(4, "configTime"),
                interval: try reader.u16(8, "interval"), startDelay: 0, runningTime: 0,
                validMinimum: try reader.i16(12, "validMinimum"), validMaximum: try reader.i16(14, "validMaximum"),
                attainedMinimum: 0, attainedMaximum: 0, count: try reader.u16(16, "count"), status: [],
                startTime: 0, currentTime: try reader.u32(19, "currentTime"))
            layout = .legacy
            startDelay = nil
            runningTime = nil
            attainedMinimum = nil
            attainedMaximum = nil
            status = nil
            startTime = nil
            maxCount = try reader.u16(10, "maxCount")
            legacyValid = try reader.u8(18, "valid")
        default:
            throw LoggerFormatError(
                payload.count < 23 ? .truncated(needed: 23, available: payload.count) : .inconsistent,
                format: NHS31xxFormat.formatName, field: "GETCONFIG response", offset: 2 + payload.count,
                "a GETCONFIG answer holds 40 bytes (message API 6 and later) or 23 (API 5), not \(payload.count)")
        }
    }

    /// The 40-byte payload (current layout; the emulator sends it).
    public var payload: [UInt8] {
        var writer = NHSFieldWriter()
        writer.u32(result.rawValue)
        writer.u32(configTime)
        writer.u16(interval)
        writer.u32(startDelay ?? 0)
        writer.u32(runningTime ?? 0)
        writer.i16(validMinimum)
        writer.i16(validMaximum)
        writer.i16(attainedMinimum ?? Self.noAttainedMinimum)
        writer.i16(attainedMaximum ?? Self.noAttainedMaximum)
        writer.u16(count)
        writer.u32(status?.rawValue ?? 0)
        writer.u32(startTime ?? 0)
        writer.u32(currentTime)
        return writer.bytes
    }

    /// The tag's own limits apply only when `validMinimum < validMaximum` (§3.2).
    public var limitsEnabled: Bool { validMinimum < validMaximum }
}

/// GETMEASUREMENTS' answer (docs/nhs31xx.md §3.5).
public struct NHSMeasurements: Sendable, Equatable {
    public var result: NHSResult
    /// Samples skipped from the oldest, as requested.
    public var offset: UInt16
    /// Deci-°C, oldest first; 851 is the "not measured" placeholder (§5.4).
    public var samples: [Int16]

    public init(result: NHSResult = .ok, offset: UInt16, samples: [Int16]) {
        self.result = result
        self.offset = offset
        self.samples = samples
    }

    public init(payload: [UInt8]) throws {
        let reader = NHSFieldReader(payload, what: "GETMEASUREMENTS response")
        result = NHSResult(rawValue: try reader.u32(0, "result"))
        offset = try reader.u16(4, "offset")
        let count = Int(try reader.u8(6, "count"))
        try reader.need(3, at: 7, field: "padding")
        try reader.need(2 * count, at: 10, field: "\(count) samples")
        guard payload.count == 10 + 2 * count else {
            throw LoggerFormatError(
                .inconsistent, format: NHS31xxFormat.formatName, field: "GETMEASUREMENTS response",
                offset: 2 + 10 + 2 * count,
                "the answer says \(count) sample(s) but carries \(payload.count - 10 - 2 * count) byte(s) more")
        }
        samples = try (0..<count).map { try reader.i16(10 + 2 * $0, "sample \($0)") }
    }

    public var payload: [UInt8] {
        var writer = NHSFieldWriter()
        writer.u32(result.rawValue)
        writer.u16(offset)
        writer.u8(UInt8(min(samples.count, 255)))
        writer.append([0, 0, 0])
        for sample in samples.prefix(255) { writer.i16(sample) }
        return writer.bytes
    }
}

/// One event block of a GETEVENTS answer: the parts asked for in `info` (§3.7).
public struct NHSEventBlock: Sendable, Equatable {
    /// Absolute number since the last reset (0 = oldest).
    public var index: UInt16?
    public var timestamp: UInt32?
    /// The status bit number *n*.
    public var number: UInt8?
    /// For too-high / too-low (5, 6): the time the temperature came back, 0 while still out.
    public var endTime: UInt32?

    public init(index: UInt16? = nil, timestamp: UInt32? = nil, number: UInt8? = nil, endTime: UInt32? = nil) {
        self.index = index
        self.timestamp = timestamp
        self.number = number
        self.endTime = endTime
    }

    /// Events whose blocks carry data in tlogger: too high and too low.
    public static func hasData(eventNumber: UInt8) -> Bool { eventNumber == 5 || eventNumber == 6 }
}

/// GETEVENTS' answer: a 9-byte header with no result field, then the blocks (§3.7).
public struct NHSEvents: Sendable, Equatable {
    public var index: UInt16
    /// The mask echoed; 0 in the request comes back as `0x7FFFFF`, and 12.4 ORs `0x80` in
    /// when a block did not fit (the misplaced "more" flag).
    public var mask: UInt32
    public var info: NHSEventInfo
    public var blocks: [NHSEventBlock]

    public init(index: UInt16, mask: UInt32, info: NHSEventInfo, blocks: [NHSEventBlock]) {
        self.index = index
        self.mask = mask
        self.info = info
        self.blocks = blocks
    }

    /// True when the echoed mask has bit 7 (brown-out) although the request did not ask for
    /// it: the answer was cut short (12.4 puts "more" there).
    public func truncated(requestedMask: UInt32) -> Bool {
        let asked = requestedMask == 0 ? 0x7F_FFFF : requestedMask
        return asked & 0x80 == 0 && mask & 0x80 != 0
    }

    public init(payload: [UInt8]) throws {
        let reader = NHSFieldReader(payload, what: "GETEVENTS response")
        index = try reader.u16(0, "index")
        mask = try reader.u32(2, "eventMask")
        info = NHSEventInfo(rawValue: try reader.u8(6, "info"))
        let count = Int(try reader.u16(7, "count"))
        var offset = 9
        var blocks: [NHSEventBlock] = []
        // Without the event number, data presence is known only when every masked event has data.
        let onlyDataEvents = mask & 0x7F_FF7F & ~0x60 == 0
        if info.contains(.data) && !info.contains(.eventNumber) && !onlyDataEvents {
            throw LoggerFormatError(
                .inconsistent, format: NHS31xxFormat.formatName, field: "GETEVENTS response", offset: 2 + 6,
                "the answer has data but no event numbers, so its blocks cannot be told apart; ask with info 0F")
        }
        for block in 0..<count {
            var event = NHSEventBlock()
            if info.contains(.index) { event.index = try reader.u16(offset, "index of event block \(block)"); offset += 2 }
            if info.contains(.timestamp) { event.timestamp = try reader.u32(offset, "timestamp of event block \(block)"); offset += 4 }
            if info.contains(.eventNumber) { event.number = try reader.u8(offset, "number of event block \(block)"); offset += 1 }
            if info.contains(.data), event.number.map(NHSEventBlock.hasData(eventNumber:)) ?? onlyDataEvents {
                event.endTime = try reader.u32(offset, "data of event block \(block)")
                offset += 4
            }
            blocks.append(event)
        }
        guard offset == payload.count else {
            throw LoggerFormatError(
                .inconsistent, format: NHS31xxFormat.formatName, field: "GETEVENTS response", offset: 2 + offset,
                "the answer says \(count) event(s) but carries \(payload.count - offset) byte(s) more")
        }
        self.blocks = blocks
    }

    public var payload: [UInt8] {
        var writer = NHSFieldWriter()
        writer.u16(index)
        writer.u32(mask)
        writer.u8(info.rawValue)
        writer.u16(UInt16(min(blocks.count, Int(UInt16.max))))
        for block in blocks {
            if info.contains(.index) { writer.u16(block.index ?? 0) }
            if info.contains(.timestamp) { writer.u32(block.timestamp ?? 0) }
            if info.contains(.eventNumber) { writer.u8(block.number ?? 0) }
            if info.contains(.data), let number = block.number, NHSEventBlock.hasData(eventNumber: number) {
                writer.u32(block.endTime ?? 0)
            }
        }
        return writer.bytes
    }
}

/// GETPERIODICDATA's answer (§3.6): data without a count, derived from the length.
public struct NHSPeriodicData: Sendable, Equatable {
    public var result: NHSResult
    public var which: UInt8
    public var format: UInt8
    public var offset: UInt16
    /// Deci-°C, when `which` has bit 0 and `format` is 0.
    public var temperatures: [Int16]
    /// Relative humidity in %, when `which` has bit 1 and `format` is 0.
    public var humidities: [Double]
    /// The bytes after the 8-byte header, as sent.
    public var data: [UInt8]

    public init(payload: [UInt8]) throws {
        let reader = NHSFieldReader(payload, what: "GETPERIODICDATA response")
        result = NHSResult(rawValue: try reader.u32(0, "result"))
        which = try reader.u8(4, "which")
        format = try reader.u8(5, "format")
        offset = try reader.u16(6, "offset")
        data = Array(payload[8...])
        temperatures = []
        humidities = []
        guard format == 0 else { return }
        let hasT = which & 1 != 0, hasH = which & 2 != 0
        let width = (hasT ? 2 : 0) + (hasH ? 1 : 0)
        guard width > 0 else { return }
        guard data.count % width == 0 else {
            throw LoggerFormatError(
                .inconsistent, format: NHS31xxFormat.formatName, field: "GETPERIODICDATA response",
                offset: 2 + 8 + data.count - data.count % width,
                "the data are \(data.count) byte(s), not a whole number of \(width)-byte samples")
        }
        var position = 8
        while position < payload.count {
            if hasT { temperatures.append(try reader.i16(position, "temperature")); position += 2 }
            if hasH { humidities.append(Double(try reader.u8(position, "humidity")) / 2); position += 1 }
        }
    }
}

/// GETDIAGDATA's 20 bytes (12.4 Debug builds), no result field.
public struct NHSDiagnostics: Sendable, Equatable {
    public var coldBoots: UInt32
    public var wakeUps: UInt32
    public var activeSeconds: Int32
    public var deepPowerDownSeconds: Int32
    public var nfcTaps: UInt32
}

/// Any response frame, parsed by id and length (docs/nhs31xx.md §2–§3).
public enum NHSResponse: Sendable, Equatable {
    /// A result-only frame: the answer of SETCONFIG / START / MEASURETEMPERATURE /
    /// CHECKBATTERY (immediate), or a refusal of any message (6 bytes, §2).
    case result(id: UInt8, NHSResult)
    case version(NHSVersion)
    /// GETUID: the chip serial, 4 × u32.
    case uid([UInt32])
    /// GETNFCUID: a copy of RF pages 0–1 (UID0–2, BCC0, UID3–6).
    case nfcUID([UInt8])
    /// CHECKBATTERY's queued answer: negative threshold = the brown-out detector never tripped.
    case battery(NHSResult, threshold: Int32)
    case calibrationTimestamp(NHSResult, UInt32)
    case diagnostics(NHSDiagnostics)
    case measurements(NHSMeasurements)
    case config(NHSConfig)
    /// MEASURETEMPERATURE's queued answer, deci-°C.
    case temperature(NHSResult, Int16)
    case events(NHSEvents)
    case periodicData(NHSPeriodicData)
    case register(NHSResult, value: UInt32)
    case memory(NHSResult, [UInt8])
    /// An id ColdTap does not know; kept as is.
    case other(NHSFrame)

    /// Parses a response frame.
    /// - Throws: `LoggerFormatError` (`.truncated`, `.inconsistent`, `.malformed`) naming the
    ///   offset in the frame, when a known message's payload does not have its layout.
    public static func parse(_ frame: NHSFrame) throws -> NHSResponse {
        guard frame.isResponse else {
            throw LoggerFormatError(
                .malformed, format: NHS31xxFormat.formatName, field: frame.name, offset: 1,
                String(format: "direction byte 0x%02X is not 01 (a response)", frame.direction))
        }
        let payload = frame.payload
        let reader = NHSFieldReader(payload, what: "\(frame.name) response")
        guard let id = NHSMessageID(rawValue: frame.id) else { return .other(frame) }
        // Every refusal is result-only; GETDIAGDATA has no result field but is 20 bytes.
        if payload.count == 4 {
            return .result(id: frame.id, NHSResult(rawValue: try reader.u32(0, "result")))
        }
        func exact(_ count: Int) throws {
            guard payload.count == count else {
                throw LoggerFormatError(
                    payload.count < count ? .truncated(needed: count, available: payload.count) : .inconsistent,
                    format: NHS31xxFormat.formatName, field: "\(id.name) response", offset: 2 + payload.count,
                    "a \(id.name) answer holds \(count) bytes or a 4-byte result, not \(payload.count)")
            }
        }
        switch id {
        case .getVersion:
            try exact(14)
            return .version(
                NHSVersion(
                    softwareMajor: try reader.u16(2, "software major"), softwareMinor: try reader.u16(4, "software minor"),
                    apiMajor: try reader.u16(6, "API major"), apiMinor: try reader.u16(8, "API minor"),
                    deviceID: try reader.u32(10, "device id")))
        case .getUID:
            try exact(16)
            return .uid(try (0..<4).map { try reader.u32(4 * $0, "serial word \($0)") })
        case .getNFCUID:
            try exact(8)
            return .nfcUID(payload)
        case .checkBattery:
            try exact(8)
            return .battery(NHSResult(rawValue: try reader.u32(0, "result")), threshold: try reader.i32(4, "threshold"))
        case .getCalibrationTimestamp:
            try exact(8)
            return .calibrationTimestamp(NHSResult(rawValue: try reader.u32(0, "result")), try reader.u32(4, "timestamp"))
        case .getDiagData:
            try exact(20)
            return .diagnostics(
                NHSDiagnostics(
                    coldBoots: try reader.u32(0, "cold boots"), wakeUps: try reader.u32(4, "wake-ups"),
                    activeSeconds: try reader.i32(8, "active seconds"),
                    deepPowerDownSeconds: try reader.i32(12, "deep power-down seconds"),
                    nfcTaps: try reader.u32(16, "NFC taps")))
        case .getMeasurements:
            return .measurements(try NHSMeasurements(payload: payload))
        case .getConfig:
            return .config(try NHSConfig(payload: payload))
        case .measureTemperature:
            try exact(6)
            return .temperature(NHSResult(rawValue: try reader.u32(0, "result")), try reader.i16(4, "temperature"))
        case .getEvents:
            return .events(try NHSEvents(payload: payload))
        case .getPeriodicData:
            return .periodicData(try NHSPeriodicData(payload: payload))
        case .readRegister:
            try exact(8)
            return .register(NHSResult(rawValue: try reader.u32(0, "result")), value: try reader.u32(4, "value"))
        case .readMemory:
            try exact(37)
            let length = Int(try reader.u8(4, "length"))
            return .memory(NHSResult(rawValue: try reader.u32(0, "result")), Array(payload[5..<(5 + min(length, 32))]))
        case .getResponse, .setConfig, .start, .reset, .writeRegister, .writeMemory, .prepareDebug:
            throw LoggerFormatError(
                payload.count < 4 ? .truncated(needed: 4, available: payload.count) : .inconsistent,
                format: NHS31xxFormat.formatName, field: "\(id.name) response", offset: 2 + payload.count,
                "a \(id.name) answer is a 4-byte result, not \(payload.count) bytes")
        }
    }
}
