import ColdTapBase
import Foundation

/// STEVAL-SMARTAG2 logs (protocol 2, docs/smartag.md §4): a configuration of virtual
/// sensors, their minimum and maximum, and a ring of 8-byte records, each a sensor id, the
/// seconds since the start, and a coded value. ColdTap follows the firmware where ST's apps
/// misread it (§4.6): records in time order from the pointer, the extra slot, 64-bit
/// times, 4-bit sensor ids.
public enum SmarTag2Log {
    public static let formatName = "smartag2"

    /// The last byte the ring may use plus one, before the extra slot (§4.5).
    static let ringEnd = 8188
    /// The highest temperature code (60.0 °C, §4.3).
    static let highestTemperatureCode: UInt32 = 350
    /// The minimum word before any reading beat it (§4.3).
    static let unsetMinimumWord: UInt32 = 0x15E0_0000

    /// The threshold modes of a configuration word (§4.2).
    static let modeNames = [
        "outside (log if ≤ Th1 or ≥ Th2)", "inside (log if Th1 ≤ value ≤ Th2)",
        "less (log if ≤ Th1)", "greater (log if ≥ Th1)",
    ]

    /// One configured virtual sensor.
    struct Sensor {
        var id: Int
        var mode: Int
        var threshold1: UInt32
        var threshold2: UInt32?
    }

    /// The virtual sensors (§4.1): name, how many min/max words, threshold widths, value from code.
    static func describe(_ id: Int) -> (name: String, minMaxWords: Int, widths: [Int])? {
        switch id {
        case 0: return ("temperature", 2, [9, 9])
        case 1: return ("pressure", 2, [11, 11])
        case 2: return ("light", 2, [25])
        case 4: return ("wakeUp", 2, [26])
        case 5: return ("orientation", 0, [8, 8])
        case 6: return ("tilt", 0, [8, 8])
        case 7: return ("assetTrackingState", 0, [8, 8])
        default: return nil
        }
    }

    /// A coded value in its unit: °C, hPa, lux, mg, position, degrees, state.
    static func value(id: Int, code: UInt32) -> Double {
        switch id {
        // In tenths first, so that 5.8 °C reads as 5.8 and not 5.800000000000001.
        case 0: return Double(Int(code) * 2 - 100) / 10
        case 1: return Double(code) / 2 + 260
        case 2: return Double(code) / 1000
        case 6: return Double(code) * 6
        default: return Double(code)
        }
    }

    public static func decode(_ image: SmarTagImage, options: DecodeOptions) throws -> TemperatureLog {
        var metadata: [String: MetadataValue] = [:]
        var warnings: [LogWarning] = []
        let header = try readHeader(image, metadata: &metadata, warnings: &warnings)
        let (interval, startSeconds, start) = (header.interval, header.startSeconds, header.start)
        let (sensors, counterAddress) = try readSensors(image, count: header.count, start: start, metadata: &metadata)
        let ring = try readRing(image, counterAddress: counterAddress, metadata: &metadata)
        let (counter, pointer, first, maximum) = (ring.counter, ring.pointer, ring.first, ring.maximum)
        let (samples, events, extra) = try readRecords(image, ring: ring, sensors: sensors, start: start, warnings: &warnings)
        let format = formatName

        var identity = TemperatureLog.LoggerIdentity(tagUID: options.tagUID, vendor: "STMicroelectronics", model: .named("STEVAL-SMARTAG2"))
        if identity.tagUID == nil, image.recordID.count >= 8, image.recordID.suffix(8).contains(where: { $0 != 0 }) {
            identity.tagUID = image.recordID.suffix(8).hexString()
        }
        var log = TemperatureLog(
            format: .smarTag2, logger: identity, samples: samples.sortedStably(by: \.time),
            interval: TimeInterval(interval), timeBase: .loggerHeader,
            integrity: .init(status: .unverified, detail: .noCheck(format: format)),
            readTime: options.readTime, metadata: metadata, warnings: warnings,
            readTimeSource: options.readTimeSource,
            timeBaseDetail: "the logger's start time \(start.loggerISOText) (Unix seconds, UTC) plus each record's seconds")
        log.events = events.sortedStably { $0.time ?? .distantPast }
        log.resolution = 0.2
        let series = ["pressure": "hPa", "light": "lx"].sorted { $0.key > $1.key }.compactMap { name, unit in
            extra[name].map { TemperatureLog.Series(name: name, unit: unit, points: $0.sortedStably(by: \.time)) }
        }
        if !series.isEmpty { log.series = series }
        if let temperature = sensors.first(where: { $0.id == 0 }) {
            let wrapped = counter == maximum && pointer != first + 8 * maximum
            let oldest = (log.samples.map(\.time) + log.events.compactMap(\.time)).min()
            if let from = wrapped ? oldest : (startSeconds == 0 ? nil : start) {
                log.thresholdLogging = thresholdLogging(temperature, from: from, log: log, options: options)
            }
        }
        return log
    }

    /// The header words (§4.1): protocol version, sensor count and sample time, start time.
    struct Header {
        var count: Int
        var interval: Int
        var startSeconds: UInt32
        var start: Date
    }

    static func word(_ image: SmarTagImage, _ address: Int, _ what: String) throws -> UInt32 {
        try image.requireWord(address, width: 4, format: formatName, what: what)
    }

    static func readHeader(_ image: SmarTagImage, metadata: inout [String: MetadataValue], warnings: inout [LogWarning]) throws -> Header {
        let format = formatName
        let base = image.payloadStart
        func word(_ address: Int, _ what: String) throws -> UInt32 { try Self.word(image, address, what) }
        let version = try word(base, "protocol version")
        metadata["protocol"] = .text("\(version & 0xFF).\(version >> 8 & 0xFF)")
        metadata["boardID"] = .integer(Int64(version >> 16 & 0xFF))
        metadata["firmwareID"] = .integer(Int64(version >> 24 & 0xFF))
        let header = try word(base + 4, "sensor count and sample time")
        metadata["singleShotDone"] = .flag(header & 0xFF == 1)
        let count = Int(header >> 8 & 0xFF)
        let interval = Int(header >> 16)
        guard (1...10).contains(count) else {
            throw LoggerFormatError(
                .inconsistent, format: format, field: "tag memory", offset: base + 5,
                "the number of virtual sensors is \(count), not 1…10")
        }
        guard interval > 0 else {
            throw LoggerFormatError(
                .intervalUnknown, format: format, field: "tag memory", offset: base + 6,
                "the sample time is 0 s (the logger was never configured)", hint: .needsInterval)
        }
        metadata["interval"] = .integer(Int64(interval))
        let startSeconds = try word(base + 8, "start time")
        let start = Date(timeIntervalSince1970: TimeInterval(startSeconds))
        if startSeconds == 0 { warnings.append(.smarTag(.noStartTime)) } else { metadata["startTime"] = .time(start) }

        return Header(count: count, interval: interval, startSeconds: startSeconds, start: start)
    }

    /// Configuration words, then min/max words in the same order (§4.2, §4.3), and the
    /// logger's own band from the temperature sensor's thresholds.
    /// - Returns: the sensors and the address after them (the sample counter's).
    static func readSensors(
        _ image: SmarTagImage, count: Int, start: Date, metadata: inout [String: MetadataValue]
    ) throws -> ([Sensor], Int) {
        let format = formatName
        func word(_ address: Int, _ what: String) throws -> UInt32 { try Self.word(image, address, what) }
        var sensors: [Sensor] = []
        var cursor = image.payloadStart + 12
        for index in 0..<count {
            let configuration = try word(cursor, "configuration of virtual sensor \(index + 1)")
            let id = Int(configuration & 0x0F)
            let mode = Int(configuration >> 4 & 0x03)
            guard let described = describe(id) else {
                throw LoggerFormatError(
                    .inconsistent, format: format, field: "tag memory", offset: cursor,
                    "virtual sensor \(index + 1) has id \(id), which this firmware does not log")
            }
            let first = configuration >> 6 & (UInt32(1) << described.widths[0] - 1)
            var second: UInt32?
            if described.widths.count > 1 && mode <= 1 {
                second = configuration >> (6 + described.widths[0]) & (UInt32(1) << described.widths[1] - 1)
            }
            sensors.append(Sensor(id: id, mode: mode, threshold1: first, threshold2: second))
            let name = described.name
            metadata[name + "Mode"] = .text(modeNames[mode])
            metadata[name + "Threshold1"] = thresholdValue(id: id, code: first)
            if let second { metadata[name + "Threshold2"] = thresholdValue(id: id, code: second) }
            cursor += 4
        }
        for sensor in sensors {
            guard let described = describe(sensor.id), described.minMaxWords > 0 else { continue }
            let first = try word(cursor, "minimum/maximum of \(described.name)")
            let second = try word(cursor + 4, "minimum/maximum of \(described.name)")
            if sensor.id <= 1 {
                // A minimum word and a maximum word: minutes in bits 0–19, code above.
                if first != unsetMinimumWord {
                    extreme(&metadata, described.name + "Minimum", id: sensor.id, code: first >> 20, minutes: first & 0xFFFFF, start: start)
                }
                if second != 0 { extreme(&metadata, described.name + "Maximum", id: sensor.id, code: second >> 20, minutes: second & 0xFFFFF, start: start) }
            } else if first != 0 || second != 0 {
                // Maximum only: [minutes], [value].
                extreme(&metadata, described.name + "Maximum", id: sensor.id, code: second, minutes: first & 0xFFFFF, start: start)
            }
            cursor += 8
        }
        if let temperature = sensors.first(where: { $0.id == 0 }) {
            // Only "log outside Th1…Th2" makes the thresholds a band readings should stay in.
            if temperature.mode == 0, let high = temperature.threshold2, temperature.threshold1 < high {
                metadata["loggerValidMinimum"] = .celsius(value(id: 0, code: temperature.threshold1))
                metadata["loggerValidMaximum"] = .celsius(value(id: 0, code: high))
            } else {
                metadata["loggerLimits"] = .text("none (temperature mode \(modeNames[temperature.mode]) gives no band)")
            }
        }

        return (sensors, cursor)
    }

    /// Counter, pointer and the ring (§4.5): which slots hold records, oldest first.
    struct Ring {
        var counter: Int
        var pointer: Int
        var first: Int
        var maximum: Int
        var slotOrder: [Int]
    }

    static func readRing(_ image: SmarTagImage, counterAddress: Int, metadata: inout [String: MetadataValue]) throws -> Ring {
        let format = formatName
        func word(_ address: Int, _ what: String) throws -> UInt32 { try Self.word(image, address, what) }
        let counter = Int(try word(counterAddress, "sample counter"))
        let pointer = Int(try word(counterAddress + 4, "last-sample pointer"))
        metadata["sampleCounter"] = .integer(Int64(counter))
        metadata["lastSamplePointer"] = .text(String(format: "0x%04X", pointer))
        let first = counterAddress + 8
        let maximum = (ringEnd - first) >> 3
        let hasExtraSlot = (ringEnd - first) % 8 != 0 && first + 8 * (maximum + 1) <= image.memorySize
        let slots = maximum + (hasExtraSlot ? 1 : 0)
        guard counter <= maximum else {
            throw LoggerFormatError(
                .inconsistent, format: format, field: "tag memory", offset: counterAddress,
                "the sample counter \(counter) exceeds the ring's \(maximum) records")
        }
        let fresh = pointer == counterAddress && counter == 0
        guard fresh || (pointer >= first && pointer < first + 8 * slots && (pointer - first) % 8 == 0) else {
            throw LoggerFormatError(
                .inconsistent, format: format, field: "tag memory", offset: counterAddress + 4,
                "the last-sample pointer 0x\(hex(pointer)) is not a slot of the ring (0x\(hex(first))…0x\(hex(first + 8 * slots)), 8 bytes each)")
        }
        let slotOrder: [Int]
        if counter < maximum || pointer == first + 8 * maximum {
            slotOrder = Array(0..<counter)
        } else {
            // Wrapped: the slot the pointer names is the oldest.
            let oldest = (pointer - first) / 8
            slotOrder = (0..<slots).map { (oldest + $0) % slots }
        }

        return Ring(counter: counter, pointer: pointer, first: first, maximum: maximum, slotOrder: slotOrder)
    }

    /// The ring's records: temperatures as samples, pressure and light as series, motion as
    /// events; unwritten slots, unknown sensors and records outside the message are counted
    /// and said.
    static func readRecords(
        _ image: SmarTagImage, ring: Ring, sensors: [Sensor], start: Date, warnings: inout [LogWarning]
    ) throws -> ([TemperatureLog.Sample], [TemperatureLog.Event], [String: [TemperatureLog.Series.Point]]) {
        let format = formatName
        let (first, slotOrder) = (ring.first, ring.slotOrder)
        var samples: [TemperatureLog.Sample] = []
        var events: [TemperatureLog.Event] = []
        var extra: [String: [TemperatureLog.Series.Point]] = [:]
        let configured = Set(sensors.map(\.id))
        var unknown: [Int: Int] = [:]
        var empty = 0, notInSource = 0, outside = 0
        for slot in slotOrder {
            let address = first + 8 * slot
            guard let head = image.word(address), let code = image.word(address + 4) else {
                try image.requireRecord(at: address, format: format)
                notInSource += 1
                continue
            }
            let id = Int(head & 0x0F)
            let delta = head >> 4
            guard delta != 0 else {
                // The firmware never writes a record at second 0 (§4.4): an unwritten slot.
                empty += 1
                continue
            }
            let time = start.addingTimeInterval(TimeInterval(delta))
            guard configured.contains(id), describe(id) != nil else {
                unknown[id, default: 0] += 1
                continue
            }
            switch id {
            case 0:
                if code > highestTemperatureCode {
                    outside += 1
                    samples.append(.init(time: time, temperature: value(id: 0, code: code), flags: [.outOfRange]))
                } else {
                    samples.append(.init(time: time, temperature: value(id: 0, code: code)))
                }
            case 1:
                extra["pressure", default: []].append(.init(time: time, value: value(id: 1, code: code)))
            case 2:
                extra["light", default: []].append(.init(time: time, value: value(id: 2, code: code)))
            case 4:
                events.append(.init(time: time, name: "wakeUp", detail: .smarTag(SmarTagMotion(accelerationMilliG: Int(code)))))
            case 5:
                events.append(.init(time: time, name: "orientation", detail: .smarTag(SmarTagMotion(orientation: Int(code)))))
            case 6:
                events.append(.init(time: time, name: "tilt", detail: .smarTag(SmarTagMotion(tiltDegrees: Int(code) * 6))))
            default:
                events.append(.init(time: time, name: "assetTrackingState", detail: .smarTag(SmarTagMotion(state: Int(code)))))
            }
        }
        if outside > 0 { warnings.append(.smarTag(.outsideCoding(count: outside))) }
        if !unknown.isEmpty {
            warnings.append(.smarTag(.unknownSensors(ids: unknown.keys.sorted(), count: unknown.values.reduce(0, +))))
        }
        if empty > 0 { warnings.append(.smarTag(.emptySlots(count: empty))) }
        if notInSource > 0 { warnings.append(.smarTag(.recordsNotInMessage(count: notInSource))) }

        return (samples, events, extra)
    }

    /// What the temperature sensor's mode guarantees about readings it did not store (§8):
    /// codes strictly between the thresholds (mode 0) lie from Th1 + 0.2 °C up to Th2, a
    /// code below Th1 (mode 3) is below Th1 °C, a code above Th1 (mode 2) at least Th1 + 0.2 °C;
    /// mode 1 stores the band itself and guarantees nothing. `nil` when every reading is stored.
    static func thresholdLogging(_ sensor: Sensor, from: Date, log: TemperatureLog, options: DecodeOptions) -> TemperatureLog.ThresholdLogging? {
        let low = value(id: 0, code: sensor.threshold1)
        let step = 0.2
        switch sensor.mode {
        case 0:
            guard let code2 = sensor.threshold2, sensor.threshold1 < code2 else { return nil }
            let high = value(id: 0, code: code2)
            return SmarTagLog.coverage(
                from: from, log: log, options: options, lowest: low + step, highest: high,
                rule: "stores only readings ≤ \(SmarTagLog.celsius(low)) or ≥ \(SmarTagLog.celsius(high))")
        case 1:
            let high = sensor.threshold2.map { value(id: 0, code: $0) } ?? low
            return SmarTagLog.coverage(
                from: from, log: log, options: options, lowest: nil, highest: nil,
                rule: "stores only readings from \(SmarTagLog.celsius(low)) to \(SmarTagLog.celsius(high))")
        case 2:
            return SmarTagLog.coverage(
                from: from, log: log, options: options, lowest: low + step, highest: nil,
                rule: "stores only readings ≤ \(SmarTagLog.celsius(low))")
        default:
            // Th1 = 0 (−10.0 °C, the lowest code) stores every reading.
            guard sensor.threshold1 > 0 else { return nil }
            return SmarTagLog.coverage(
                from: from, log: log, options: options, lowest: nil, highest: low,
                rule: "stores only readings ≥ \(SmarTagLog.celsius(low))")
        }
    }

    static func thresholdValue(id: Int, code: UInt32) -> MetadataValue {
        id == 0 ? .celsius(value(id: 0, code: code)) : .number(value(id: id, code: code))
    }

    static func extreme(_ metadata: inout [String: MetadataValue], _ key: String, id: Int, code: UInt32, minutes: UInt32, start: Date) {
        metadata[key] = thresholdValue(id: id, code: code)
        metadata[key + "Time"] = .time(start.addingTimeInterval(TimeInterval(minutes) * 60))
    }
}
