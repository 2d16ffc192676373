import ColdTapBase
import Foundation

/// STEVAL-SMARTAG1 logs (protocol 1, docs/smartag.md §3): a configuration in payload cells
/// 0–15 and a ring of 8-byte records (packed wall-clock date, packed values).
public enum SmarTag1Log {
    public static let formatName = "smartag1"

    /// The temperature field's invalid marker (7 bits all set, §3.4).
    static let invalidTemperature: UInt32 = 0x7F
    static let invalidHumidity: UInt32 = 0x7F
    static let invalidPressure: UInt32 = 0xFFF
    static let invalidAcceleration: UInt32 = 0x3F

    /// Modes of payload cell 1 (§3.2).
    static let modeNames = ["inactive", "sampling", "one-shot", "sampling with threshold", "save next sample"]
    /// Enabled-sensor flags of payload cell 1 (§3.2).
    static let sensorFlags: [(bit: UInt8, name: String)] = [
        (0x01, "temperature"), (0x02, "humidity"), (0x04, "pressure"),
        (0x08, "acceleration"), (0x10, "6D orientation"), (0x20, "wake-up"),
    ]
    /// Event-mask bits of an asynchronous record (§3.4), as event names.
    static let eventNames: [(bit: UInt32, name: String)] = [
        (0x01, "wakeUp"), (0x02, "orientation"), (0x04, "singleTap"),
        (0x08, "doubleTap"), (0x10, "freeFall"), (0x20, "tilt"),
    ]

    /// Decodes the image. Every address is checked against what the image holds; a field
    /// that contradicts the layout is a typed error naming its tag-memory address.
    public static func decode(_ image: SmarTagImage, options: DecodeOptions) throws -> TemperatureLog {
        let format = formatName
        let cells = Cells(image: image, zone: options.loggerTimeZone ?? TimeZone.utc)
        var metadata: [String: MetadataValue] = [:]
        var warnings: [LogWarning] = []
        let (interval, mode, flags, start) = try readConfiguration(cells, metadata: &metadata, warnings: &warnings)
        let (tMin, tMax) = try readThresholds(cells, metadata: &metadata)
        try readExtremes(cells, metadata: &metadata)
        let (ring, counter, first) = try readRing(cells, metadata: &metadata)
        let (samples, events, pressure) = try readRecords(cells, ring: ring, counter: counter, first: first, flags: flags, warnings: &warnings)

        var identity = TemperatureLog.LoggerIdentity(tagUID: options.tagUID, vendor: "STMicroelectronics", model: .named("STEVAL-SMARTAG1"))
        if identity.tagUID == nil, image.recordID.count >= 8 { identity.tagUID = image.recordID.suffix(8).hexString() }
        let zoneText =
            options.loggerTimeZone.map { "taken in \($0.identifier) (the zone given for the logger's dates)" }
            ?? "taken as UTC (they carry no time zone; give the configuring phone's zone to place them)"
        var log = TemperatureLog(
            format: .smarTag1, logger: identity,
            samples: samples.sortedStably(by: \.time), interval: TimeInterval(interval),
            timeBase: .loggerHeader, integrity: .init(status: .unverified, detail: .noCheck(format: format)),
            readTime: options.readTime, metadata: metadata, warnings: warnings,
            readTimeSource: options.readTimeSource,
            timeBaseDetail: "the logger's wall-clock dates of each record, \(zoneText)")
        log.events = events.sortedStably { $0.time ?? .distantPast }
        log.resolution = 1
        if !pressure.isEmpty { log.series = [.init(name: "pressure", unit: "hPa", points: pressure.sortedStably(by: \.time))] }
        // Threshold mode stores only readings outside Tmin…Tmax (§3.5); stored as whole
        // degrees, so what it left out lay within half a degree of the band (§8).
        if mode == 3, flags & 0x01 != 0, tMin <= tMax {
            let ringFull = counter >= ring.capacity
            let oldest = (log.samples.map(\.time) + log.events.compactMap(\.time)).min()
            if let from = ringFull ? oldest : start {
                log.thresholdLogging = SmarTagLog.coverage(
                    from: from, log: log, options: options, lowest: tMin - 0.5, highest: tMax + 0.5,
                    rule:
                        "stores only readings below \(SmarTagLog.celsius(tMin)) or above \(SmarTagLog.celsius(tMax)) (whole degrees; the comparison is inferred)"
                )
            }
        }
        return log
    }

    /// The image's payload cells (4-byte words) and its packed dates in the logger's zone.
    struct Cells {
        let image: SmarTagImage
        let zone: TimeZone
        var payload: Int { image.payloadStart }

        func cell(_ index: Int, _ what: String) throws -> UInt32 {
            try image.requireWord(payload + 4 * index, format: formatName, what: what)
        }

        func date(_ word: UInt32, at address: Int) throws -> Date? {
            try packedDate(word & 0x7FFF_FFFF, zone: zone, format: formatName, address: address)
        }
    }

    /// Cells 0–2 (§3.2): versions, the sampling interval, mode and enabled sensors, the start date.
    static func readConfiguration(
        _ cells: Cells, metadata: inout [String: MetadataValue], warnings: inout [LogWarning]
    ) throws -> (interval: Int, mode: Int, flags: UInt8, start: Date?) {
        let format = formatName
        let payload = cells.payload
        func cell(_ index: Int, _ what: String) throws -> UInt32 { try cells.cell(index, what) }
        func date(_ word: UInt32, at address: Int) throws -> Date? { try cells.date(word, at: address) }
        let version = try cell(0, "protocol and firmware version")
        metadata["protocol"] = .integer(Int64(version & 0xFF))
        metadata["firmwareVersion"] = .text("\(version >> 8 & 0xFF).\(version >> 16 & 0xFF).\(version >> 24 & 0xFF)")

        let configuration = try cell(1, "sampling configuration")
        let interval = Int(configuration & 0xFFFF)
        let mode = Int(configuration >> 16 & 0xFF)
        let flags = UInt8(configuration >> 24 & 0xFF)
        guard interval > 0 else {
            throw LoggerFormatError(
                .intervalUnknown, format: format, field: "tag memory", offset: payload + 4,
                "the sampling interval is 0 s (the logger was never configured)", hint: .needsInterval)
        }
        metadata["interval"] = .integer(Int64(interval))
        metadata["mode"] = .text(mode < modeNames.count ? modeNames[mode] : "unknown (\(mode))")
        let enabled = sensorFlags.filter { flags & $0.bit != 0 }.map(\.name)
        metadata["enabledSensors"] = .text(enabled.isEmpty ? "none" : enabled.joined(separator: ","))

        let startWord = try cell(2, "start date")
        let start = try date(startWord, at: payload + 8)
        if let start { metadata["startTime"] = .time(start) } else { warnings.append(.smarTag(.noStartTime)) }

        return (interval, mode, flags, start)
    }

    /// Thresholds (§3.5): one byte each, 7 bits used.
    static func readThresholds(_ cells: Cells, metadata: inout [String: MetadataValue]) throws -> (tMin: Double, tMax: Double) {
        func cell(_ index: Int, _ what: String) throws -> UInt32 { try cells.cell(index, what) }
        let thresholds = try cell(3, "temperature and humidity thresholds")
        let tMax = Double(Int(thresholds & 0x7F) - 40), tMin = Double(Int(thresholds >> 8 & 0x7F) - 40)
        metadata["thresholdTemperatureMaximum"] = .celsius(tMax)
        metadata["thresholdTemperatureMinimum"] = .celsius(tMin)
        metadata["thresholdHumidityMaximum"] = .integer(Int64(thresholds >> 16 & 0x7F))
        metadata["thresholdHumidityMinimum"] = .integer(Int64(thresholds >> 24 & 0x7F))
        let otherThresholds = try cell(4, "pressure and acceleration thresholds")
        metadata["thresholdPressureMaximum"] = .number(Double(otherThresholds & 0xFFF) / 10 + 810)
        metadata["thresholdPressureMinimum"] = .number(Double(otherThresholds >> 12 & 0xFFF) / 10 + 810)
        metadata["thresholdAcceleration"] = .integer(Int64(otherThresholds >> 24 & 0x3F) * 256)
        // The logger's own band, usable as `--profile logger`, only where it is one: the
        // apps' default (max −40, min 85) means "every reading is outside".
        if tMin < tMax {
            metadata["loggerValidMinimum"] = .celsius(tMin)
            metadata["loggerValidMaximum"] = .celsius(tMax)
        } else {
            metadata["loggerLimits"] = .text("none (temperature threshold minimum \(tMin) °C is not below maximum \(tMax) °C)")
        }

        let status = try cell(5, "status")
        metadata["status"] = .text(String(format: "0x%08X", status))

        return (tMin, tMax)
    }

    /// Extremes and their dates (§3.6).
    static func readExtremes(_ cells: Cells, metadata: inout [String: MetadataValue]) throws {
        let payload = cells.payload
        func cell(_ index: Int, _ what: String) throws -> UInt32 { try cells.cell(index, what) }
        func date(_ word: UInt32, at address: Int) throws -> Date? { try cells.date(word, at: address) }
        let extremes = try cell(10, "temperature and humidity extremes")
        let extremeDates = try (6...9).map { try cell($0, "extreme date") }
        func extreme(_ key: String, _ value: MetadataValue, dateWord: UInt32, cellIndex: Int) throws {
            guard let when = try date(dateWord, at: payload + 4 * cellIndex) else { return }
            metadata[key] = value
            metadata[key + "Time"] = .time(when)
        }
        try extreme("temperatureMaximum", .celsius(Double(Int(extremes & 0x7F) - 40)), dateWord: extremeDates[0], cellIndex: 6)
        try extreme("temperatureMinimum", .celsius(Double(Int(extremes >> 8 & 0x7F) - 40)), dateWord: extremeDates[1], cellIndex: 7)
        try extreme("humidityMaximum", .integer(Int64(extremes >> 16 & 0x7F)), dateWord: extremeDates[2], cellIndex: 8)
        try extreme("humidityMinimum", .integer(Int64(extremes >> 24 & 0x7F)), dateWord: extremeDates[3], cellIndex: 9)
        let otherExtremes = try cell(14, "pressure and acceleration extremes")
        let otherDates = try (11...13).map { try cell($0, "extreme date") }
        try extreme("pressureMaximum", .number(Double(otherExtremes & 0xFFF) / 10 + 810), dateWord: otherDates[0], cellIndex: 11)
        try extreme("pressureMinimum", .number(Double(otherExtremes >> 12 & 0xFFF) / 10 + 810), dateWord: otherDates[1], cellIndex: 12)
        try extreme("accelerationMaximum", .integer(Int64(otherExtremes >> 24 & 0x3F) * 256), dateWord: otherDates[2], cellIndex: 13)

    }

    /// The ring (§3.7): the counter and where the oldest record is.
    static func readRing(_ cells: Cells, metadata: inout [String: MetadataValue]) throws -> (ring: Ring, counter: Int, first: Int) {
        let format = formatName
        let payload = cells.payload
        let image = cells.image
        func cell(_ index: Int, _ what: String) throws -> UInt32 { try cells.cell(index, what) }
        let position = try cell(15, "sample counter and next-slot address")
        let counter = Int(position & 0xFFFF)
        let pointer = Int(position >> 16)
        metadata["sampleCounter"] = .integer(Int64(counter))
        metadata["nextSlotAddress"] = .text(String(format: "0x%04X", pointer))
        let ring = Ring(payloadStart: payload, memorySize: image.memorySize)
        guard counter <= ring.capacity else {
            throw LoggerFormatError(
                .inconsistent, format: format, field: "tag memory", offset: payload + 60,
                "the sample counter \(counter) exceeds the ring's \(ring.capacity) slots")
        }
        guard pointer % 4 == 0, let pointerSlot = ring.slot(ofAddress: pointer) else {
            throw LoggerFormatError(
                .inconsistent, format: format, field: "tag memory", offset: payload + 62,
                "the next-slot address 0x\(hex(pointer)) is not a slot of the ring (0x\(hex(ring.firstAddress))…0x\(hex(ring.firstAddress + 8 * ring.capacity)), 8 bytes each)"
            )
        }
        // Full ring: the slot the pointer names is the oldest; otherwise slot 0 is.
        let first = counter >= ring.capacity ? pointerSlot % ring.capacity : 0

        return (ring, counter, first)
    }

    /// The records, oldest first: samples (a temperature, a humidity), pressure points, and
    /// motion events for records with the event bit.
    static func readRecords(
        _ cells: Cells, ring: Ring, counter: Int, first: Int, flags: UInt8, warnings: inout [LogWarning]
    ) throws -> ([TemperatureLog.Sample], [TemperatureLog.Event], [TemperatureLog.Series.Point]) {
        let format = formatName
        let image = cells.image
        func date(_ word: UInt32, at address: Int) throws -> Date? { try cells.date(word, at: address) }
        var samples: [TemperatureLog.Sample] = []
        var events: [TemperatureLog.Event] = []
        var pressure: [TemperatureLog.Series.Point] = []
        var invalid = 0, missingFromSource = 0
        for index in 0..<counter {
            let address = ring.address(ofSlot: (first + index) % ring.capacity)
            guard let dateWord = image.word(address), let value = image.word(address + 4) else {
                try image.requireRecord(at: address, format: format)
                missingFromSource += 1
                continue
            }
            guard let time = try date(dateWord, at: address) else {
                throw LoggerFormatError(
                    .inconsistent, format: format, field: "tag memory", offset: address,
                    "record \(index + 1) of \(counter) has no date (its date word is 0)")
            }
            if dateWord & 0x8000_0000 != 0 {
                events += motionEvents(value, time: time)
                continue
            }
            let rawTemperature = value >> 13 & 0x7F
            let rawHumidity = value >> 6 & 0x7F
            let rawPressure = value >> 20
            var sample = TemperatureLog.Sample(time: time, temperature: nil)
            if flags & 0x01 != 0 && rawTemperature != invalidTemperature {
                sample.temperature = Double(Int(rawTemperature) - 40)
            } else {
                sample.flags = [.missing]
                if flags & 0x01 != 0 { invalid += 1 }
            }
            if flags & 0x02 != 0 && rawHumidity != invalidHumidity { sample.humidity = Double(rawHumidity) }
            if flags & 0x04 != 0 {
                pressure.append(.init(time: time, value: rawPressure == invalidPressure ? nil : Double(rawPressure) / 10 + 810))
            }
            samples.append(sample)
        }
        if invalid > 0 { warnings.append(.smarTag(.invalidValues(count: invalid))) }
        if missingFromSource > 0 { warnings.append(.smarTag(.recordsNotInMessage(count: missingFromSource))) }

        return (samples, events, pressure)
    }

    /// One event per bit of the record's event mask (or one `motion` event when none is set).
    static func motionEvents(_ value: UInt32, time: Date) -> [TemperatureLog.Event] {
        let orientation = Int(value & 0x07)
        let mask = value >> 3 & 0x3F
        let acceleration = value >> 9 & 0x3F
        let motion = SmarTagMotion(
            orientation: orientation == 0 ? nil : orientation,
            accelerationMilliG: acceleration == invalidAcceleration ? nil : Int(acceleration) * 256)
        let names = eventNames.filter { mask & $0.bit != 0 }.map(\.name)
        return (names.isEmpty ? ["motion"] : names).map { TemperatureLog.Event(time: time, name: $0, detail: .smarTag(motion)) }
    }

    /// A packed date (§3.3) in `zone`; `nil` for the all-zero "not set".
    /// - Throws: `.inconsistent` naming `address` for a field out of its range.
    static func packedDate(_ word: UInt32, zone: TimeZone, format: String, address: Int) throws -> Date? {
        guard word != 0 else { return nil }
        var parts = DateComponents()
        parts.second = Int(word & 0x3F)
        parts.minute = Int(word >> 6 & 0x3F)
        parts.hour = Int(word >> 12 & 0x1F)
        parts.month = Int(word >> 17 & 0x0F)
        parts.day = Int(word >> 21 & 0x1F)
        parts.year = Int(word >> 26) + 2018
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let fieldsValid = parts.second! < 60 && parts.minute! < 60 && parts.hour! < 24 && (1...12).contains(parts.month!) && parts.day! >= 1
        guard fieldsValid,
            let days = calendar.range(
                of: .day, in: .month,
                for: calendar.date(from: DateComponents(year: parts.year, month: parts.month, day: 1))!),
            days.contains(parts.day!), let date = calendar.date(from: parts)
        else {
            throw LoggerFormatError(
                .inconsistent, format: format, field: "tag memory", offset: address,
                String(
                    format: "the packed date 0x%08X is no date (year %d, month %d, day %d, %02d:%02d:%02d)", word,
                    parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!))
        }
        return date
    }

    /// Slot geometry (§3.7): slots from payload cell 16 to the end of memory.
    struct Ring {
        let firstAddress: Int
        let capacity: Int

        init(payloadStart: Int, memorySize: Int) {
            firstAddress = payloadStart + 64
            let firstCell = firstAddress / 4
            capacity = max(0, (memorySize / 4 - 1 - firstCell) / 2)
        }

        func address(ofSlot slot: Int) -> Int { firstAddress + 8 * slot }

        /// The slot an address names; the address one past the last slot counts as slot `capacity`.
        func slot(ofAddress address: Int) -> Int? {
            let offset = address - firstAddress
            guard offset >= 0, offset % 8 == 0, offset / 8 <= capacity else { return nil }
            return offset / 8
        }
    }
}

extension Array {
    /// Sorted by `key`, elements with equal keys kept in their order.
    func sortedStably<Key: Comparable>(by key: (Element) -> Key) -> [Element] {
        enumerated().sorted { left, right in
            let (a, b) = (key(left.element), key(right.element))
            return a != b ? a < b : left.offset < right.offset
        }.map(\.element)
    }
}
