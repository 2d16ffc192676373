import Foundation
import NDEF

/// The outcome of asking one format whether a message is its own.
enum Detection: Sendable {
    /// The reason, as one phrase, e.g. "a URI record with the cuplTag parameters t, s, v, x, q".
    case accepted(String)
    case refused(String)
}

/// One format ColdTap can decode.
protocol LoggerFormatDecoder: Sendable {
    var name: String { get }
    /// Cheap structural checks only: a format that accepts should then decode.
    func detect(_ message: NDEFMessage, options: DecodeOptions) -> Detection
    func decode(_ message: NDEFMessage, options: DecodeOptions) throws -> TemperatureLog
    /// True when acceptance proves the format by its protocol's own structure (an NHS31xx
    /// answer frame), so an empty or odd log is still that logger's; false when acceptance
    /// rests on a loose match (a record type containing "temp") and the decoded log must
    /// also look plausible.
    var detectionIsConclusive: Bool { get }
}

extension LoggerFormatDecoder {
    var detectionIsConclusive: Bool { false }
}

/// Reads one unsigned or two's-complement integer; `nil` when the bytes are not there.
func readInteger(_ bytes: [UInt8], offset: Int, width: Int, signed: Bool, bigEndian: Bool) -> Int64? {
    guard offset >= 0, width > 0, width <= 8, offset <= bytes.count - width else { return nil }
    var value: UInt64 = 0
    for index in 0..<width {
        let byte = UInt64(bytes[bigEndian ? offset + index : offset + width - 1 - index])
        value = value << 8 | byte
    }
    if width == 8 { return signed ? Int64(bitPattern: value) : (value > UInt64(Int64.max) ? nil : Int64(value)) }
    if signed && value & (1 << UInt64(width * 8 - 1)) != 0 {
        return Int64(value) - (Int64(1) << Int64(width * 8))
    }
    return Int64(value)
}

/// A format described by a `LoggerDescriptor`.
struct DescriptorFormat: LoggerFormatDecoder {
    let descriptor: LoggerDescriptor

    var name: String { descriptor.name }

    /// The first record matching the descriptor's record rule.
    func findRecord(in message: NDEFMessage) -> NDEFRecord? {
        for record in message.records {
            for match in descriptor.record.match {
                guard let tnf = match.tnf.typeNameFormat, record.tnf == tnf else { continue }
                let type = record.typeName
                if let contains = match.typeContains, !type.lowercased().contains(contains.lowercased()) { continue }
                if let equals = match.typeEquals, type != equals { continue }
                return record
            }
        }
        return nil
    }

    var recordDescription: String {
        descriptor.record.match.map { match in
            let article = "aeiou".contains(match.tnf.word.prefix(1)) ? "an" : "a"
            var text = "\(article) \(match.tnf) record"
            if let contains = match.typeContains { text += " whose type contains '\(contains)'" }
            if let equals = match.typeEquals { text += " of type '\(equals)'" }
            return text
        }.joined(separator: " or ")
    }

    private func value(of field: LoggerDescriptor.HeaderField, in payload: [UInt8]) -> Int64? {
        readInteger(
            payload, offset: field.offset, width: field.width, signed: field.signed ?? false,
            bigEndian: field.endian == .big)
    }

    func detect(_ message: NDEFMessage, options: DecodeOptions) -> Detection {
        guard let record = findRecord(in: message) else { return .refused("no record is \(recordDescription)") }
        let payload = Array(record.payload)
        let recordName = "\(record.tnf == .unknown ? "an unknown-type" : "a '\(record.typeName)'") record"
        let headerEnd = (descriptor.header ?? []).map { $0.offset + $0.width }.max() ?? 0
        if payload.count < max(headerEnd, descriptor.samples.offset) {
            return .refused("\(recordName) has \(payload.count) payload bytes, fewer than the \(max(headerEnd, descriptor.samples.offset))-byte header")
        }
        var reasons: [String] = []
        if descriptor.detection?.requireDeviceInformation == true {
            guard let info = DeviceInformationText.find(in: message) else {
                return .refused("no Text record holds KEY=VALUE device information")
            }
            reasons.append("a Text record holds \(info.pairs.count) KEY=VALUE device-information pair(s)")
        }
        if descriptor.detection?.plausibleStartTime == true,
            let startField = descriptor.field(meaning: .startTime), let intervalField = descriptor.field(meaning: .interval),
            let start = value(of: startField, in: payload), let interval = value(of: intervalField, in: payload)
        {
            let startDate = Date(timeIntervalSince1970: TimeInterval(start))
            let latest = options.readTime.addingTimeInterval(86_400)
            if startDate < TimeText.plausibleEarliest || startDate > latest {
                return .refused(
                    "bytes \(startField.offset)…\(startField.offset + startField.width - 1) as UNIX time give \(startDate.loggerISOText), not between 2010-01-01 and a day after the read time"
                )
            }
            if interval == 0 { return .refused("the interval field '\(intervalField.name)' is 0") }
            reasons.append(
                "bytes \(startField.offset)…\(startField.offset + startField.width - 1) give a plausible start time \(startDate.loggerISOText) and the interval is \(interval)"
            )
        }
        if let countField = descriptor.field(meaning: .sampleCount), let count = value(of: countField, in: payload) {
            let width = descriptor.samples.width
            let slots = (payload.count - descriptor.samples.offset) / width
            if let ring = descriptor.ringBuffer, count > ring.capacity {
                return .refused("the sample count \(count) exceeds the ring buffer's \(ring.capacity) slots")
            }
            if count > slots {
                return .refused("the sample count \(count) needs \(count * Int64(width)) bytes but the sample area holds \(slots * width)")
            }
            reasons.append("its sample count \(count) fits the \(payload.count)-byte payload")
        }
        let why = reasons.isEmpty ? "" : "; " + reasons.joined(separator: "; ")
        return .accepted("\(recordName) of \(payload.count) bytes matches the \(name) layout\(why)")
    }

    func decode(_ message: NDEFMessage, options: DecodeOptions) throws -> TemperatureLog {
        guard let record = findRecord(in: message) else {
            throw LoggerFormatError(.recordNotFound, format: name, "the message has no record that is \(recordDescription)")
        }
        let payload = Array(record.payload)
        var warnings: [LogWarning] = []
        var (header, metadata) = try readHeader(payload)
        let info = DeviceInformationText.find(in: message)
        if let info {
            for pair in info.pairs { metadata[pair.key] = .text(pair.value) }
        }
        let (interval, intervalSource) = try sampleInterval(header: header, info: info, options: options, warnings: &warnings)
        metadata["intervalSource"] = .text(intervalSource)
        let order = try slotOrder(payload, header: header, metadata: &metadata, warnings: &warnings)
        let values = try sampleValues(payload, order: order, warnings: &warnings)
        let (start, timeBase, timeBaseDetail) = try startTime(
            count: values.count, interval: interval, header: header, message: message, info: info, options: options, warnings: &warnings)

        var samples: [TemperatureLog.Sample] = []
        samples.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            samples.append(
                TemperatureLog.Sample(
                    time: start.addingTimeInterval(TimeInterval(index) * interval),
                    temperature: value.0, flags: value.1))
        }
        var identity = TemperatureLog.LoggerIdentity(tagUID: options.tagUID, vendor: descriptor.vendor, model: descriptor.model.map { .named($0) })
        if let info, let serial = info.pairs(matching: descriptor.deviceInformation?.serialKeys).first {
            identity.serial = serial.value
        }
        var log = TemperatureLog(
            format: TemperatureLog.Format(name: name), logger: identity, samples: samples, interval: interval, timeBase: timeBase,
            integrity: .init(status: .unverified, detail: descriptor.integrityNote.map { .text($0) } ?? .noCheck(format: name)),
            readTime: options.readTime, metadata: metadata, warnings: warnings,
            readTimeSource: options.readTimeSource, timeBaseDetail: timeBaseDetail)
        log.resolution = abs(descriptor.samples.scale ?? 1)
        return log
    }

    /// The header fields' values, by meaning, and each under its name in the metadata.
    private func readHeader(_ payload: [UInt8]) throws -> ([LoggerDescriptor.Meaning: Int64], [String: MetadataValue]) {
        var metadata: [String: MetadataValue] = [:]
        var header: [LoggerDescriptor.Meaning: Int64] = [:]
        for field in descriptor.header ?? [] {
            guard let raw = value(of: field, in: payload) else {
                throw LoggerFormatError(
                    .truncated(needed: field.offset + field.width, available: payload.count), format: name,
                    field: field.name, offset: field.offset,
                    "the header field '\(field.name)' needs bytes \(field.offset)…\(field.offset + field.width - 1) but the payload has only \(payload.count) byte(s)"
                )
            }
            header[field.meaning] = raw
            metadata[field.name] = .integer(raw)
        }
        return (header, metadata)
    }

    /// The sample interval: a non-zero header value, then device information, then the user's.
    private func sampleInterval(
        header: [LoggerDescriptor.Meaning: Int64], info: DeviceInformationText?, options: DecodeOptions, warnings: inout [LogWarning]
    ) throws -> (TimeInterval, String) {
        var interval: TimeInterval = 0
        var intervalSource = ""
        if let field = descriptor.field(meaning: .interval), let raw = header[.interval], raw != 0 {
            var unit = LoggerDescriptor.intervalUnits[field.unit ?? "seconds"] ?? 1
            if let unitField = descriptor.field(meaning: .intervalUnit), let code = header[.intervalUnit] {
                guard let seconds = unitField.units?[String(code)] else {
                    throw LoggerFormatError(
                        .inconsistent, format: name, field: unitField.name, offset: unitField.offset,
                        "the interval unit code \(code) is not one the descriptor knows")
                }
                unit = seconds
            }
            interval = TimeInterval(raw) * unit
            intervalSource = "header field '\(field.name)'"
            guard interval > 0 else {
                throw LoggerFormatError(
                    .inconsistent, format: name, field: field.name, offset: field.offset,
                    "the sample interval \(raw) is negative")
            }
            guard interval <= DecodeOptions.longestPlausibleInterval else {
                throw LoggerFormatError(
                    .inconsistent, format: name, field: field.name, offset: field.offset,
                    "the sample interval of \(formatSeconds(interval)) is longer than any logger's (31 days at most), so the header is damaged")
            }
        }
        // A device-information interval longer than any logger's is a damaged value: not used.
        var implausibleInterval: (key: String, value: String)?
        if interval <= 0, let info {
            for pair in info.pairs(matching: descriptor.deviceInformation?.intervalKeys) {
                let key = DeviceInformationText.normalize(pair.key)
                let unit: Double = key.contains("min") ? 60 : key.contains("hour") ? 3600 : key.hasSuffix("ms") ? 0.001 : 1
                if let seconds = TimeText.parseDuration(pair.value, defaultUnit: unit), seconds > 0 {
                    guard seconds <= DecodeOptions.longestPlausibleInterval else {
                        implausibleInterval = pair
                        continue
                    }
                    interval = seconds
                    intervalSource = "device-information key \(pair.key)"
                    break
                }
            }
        }
        if interval <= 0, let implausibleInterval {
            guard options.interval != nil else {
                throw LoggerFormatError(
                    .inconsistent, format: name, field: implausibleInterval.key,
                    "the device information gives a sample interval of '\(implausibleInterval.value)', longer than any logger's (31 days at most)",
                    hint: .needsInterval)
            }
            warnings.append(.implausibleDeviceInterval(key: implausibleInterval.key, value: implausibleInterval.value))
        }
        if interval <= 0, let given = options.interval, given > 0 {
            interval = given
            intervalSource = DecodeOptions.givenIntervalSource
        } else if let given = options.interval, given != interval {
            warnings.append(.givenIntervalNotUsed(given: given, used: interval, from: .log(source: intervalSource)))
        }
        guard interval > 0 else {
            throw LoggerFormatError(
                .intervalUnknown, format: name,
                "the log does not give its sample interval (0 or absent)", hint: .needsInterval)
        }
        return (interval, intervalSource)
    }

    /// Which slots hold samples, oldest first: the header's count (and the ring buffer's
    /// newest index), else every whole slot of the payload.
    private func slotOrder(
        _ payload: [UInt8], header: [LoggerDescriptor.Meaning: Int64], metadata: inout [String: MetadataValue], warnings: inout [LogWarning]
    ) throws -> [Int] {
        let area = descriptor.samples
        guard area.offset <= payload.count else {
            throw LoggerFormatError(
                .truncated(needed: area.offset + area.width, available: payload.count), format: name,
                field: "samples.offset", offset: area.offset,
                "the sample area starts at byte \(area.offset) but the payload has only \(payload.count) byte(s)")
        }
        let areaBytes = max(0, payload.count - area.offset)
        let slots = areaBytes / area.width
        var order: [Int]
        if let count = header[.sampleCount] {
            let countField = descriptor.field(meaning: .sampleCount)
            guard count >= 0, count <= Int64(Int32.max) else {
                throw LoggerFormatError(
                    .inconsistent, format: name, field: countField?.name, offset: countField?.offset,
                    "the sample count \(count) is impossible")
            }
            var needed = Int(count)
            var newestSlot: Int?
            if let ring = descriptor.ringBuffer {
                guard count <= ring.capacity else {
                    throw LoggerFormatError(
                        .inconsistent, format: name, field: countField?.name, offset: countField?.offset,
                        "the sample count \(count) exceeds the ring buffer's \(ring.capacity) slots")
                }
                if count == ring.capacity {
                    let newest = header[.newestIndex] ?? 0
                    let newestField = descriptor.field(meaning: .newestIndex)
                    guard newest >= 0, newest < ring.capacity else {
                        throw LoggerFormatError(
                            .inconsistent, format: name, field: newestField?.name, offset: newestField?.offset,
                            "the newest index \(newest) is outside the ring buffer's \(ring.capacity) slots")
                    }
                    newestSlot = Int(newest)
                    needed = ring.capacity
                }
                metadata["ringWrapped"] = .flag(newestSlot != nil)
            }
            // Check the bytes are there before building anything of the header's size.
            guard needed <= slots else {
                throw LoggerFormatError(
                    .truncated(needed: needed * area.width, available: areaBytes), format: name,
                    field: "samples", offset: area.offset,
                    "the header says \(needed) sample(s) (\(needed * area.width) bytes) but the sample area holds only \(areaBytes) byte(s)")
            }
            if let newestSlot {
                order = Array((newestSlot + 1)..<needed) + Array(0...newestSlot)
            } else {
                order = Array(0..<needed)
            }
        } else {
            order = Array(0..<slots)
            let leftover = areaBytes % area.width
            if leftover > 0 {
                warnings.append(.partialSampleAtEnd(bytes: leftover, offset: area.offset + slots * area.width))
            }
        }

        // An empty log would get a verdict from nothing: say why there are no samples.
        guard !order.isEmpty else {
            if header[.sampleCount] != nil {
                throw LoggerFormatError(
                    .inconsistent, format: name, field: descriptor.field(meaning: .sampleCount)?.name,
                    offset: descriptor.field(meaning: .sampleCount)?.offset,
                    "no sample was decoded: the header's sample count is 0")
            }
            throw LoggerFormatError(
                .truncated(needed: area.width, available: areaBytes), format: name, field: "samples",
                offset: area.offset,
                "no sample was decoded: the sample area at byte \(area.offset) holds \(areaBytes) byte(s), less than one \(area.width)-byte sample")
        }

        return order
    }

    /// Each slot's value in °C (nil for the descriptor's missing marker), flagged out of the sensor's range.
    private func sampleValues(
        _ payload: [UInt8], order: [Int], warnings: inout [LogWarning]
    ) throws -> [(Double?, [TemperatureLog.SampleFlag])] {
        let area = descriptor.samples
        let missing = Set(area.missing ?? [])
        let scale = area.scale ?? 1
        let inverse = (1 / scale).rounded()
        let divides = inverse != 0 && 1 / inverse == scale && abs(inverse) > 1
        let valueOffset = area.valueOffset ?? 0
        var values: [(Double?, [TemperatureLog.SampleFlag])] = []
        values.reserveCapacity(order.count)
        var outOfRange = 0
        for slot in order {
            let offset = area.offset + slot * area.width
            guard
                let raw = readInteger(
                    payload, offset: offset, width: area.width, signed: area.signed ?? false,
                    bigEndian: area.endian == .big)
            else {
                throw LoggerFormatError(
                    .truncated(needed: area.width, available: max(0, payload.count - offset)),
                    format: name, offset: offset, "sample slot \(slot) runs past the payload")
            }
            if missing.contains(Int(raw)) {
                values.append((nil, [.missing]))
                continue
            }
            let celsius = (divides ? Double(raw) / inverse : Double(raw) * scale) + valueOffset
            if let range = descriptor.sensorRange, celsius < range.min || celsius > range.max {
                values.append((celsius, [.outOfRange]))
                outOfRange += 1
            } else {
                values.append((celsius, []))
            }
        }
        if outOfRange > 0, let range = descriptor.sensorRange {
            warnings.append(.outsideSensorRange(count: outOfRange, minimum: range.min, maximum: range.max))
        }

        return values
    }

    /// The first sample's time from the descriptor's time bases, in its order (the header,
    /// a Text record, device information, else the read time).
    private func startTime(
        count: Int, interval: TimeInterval, header: [LoggerDescriptor.Meaning: Int64], message: NDEFMessage, info: DeviceInformationText?,
        options: DecodeOptions, warnings: inout [LogWarning]
    ) throws -> (Date, TemperatureLog.TimeBase, String) {
        let span = TimeInterval(max(0, count - 1)) * interval
        var start: Date?
        var timeBase = TemperatureLog.TimeBase.readTime
        var timeBaseDetail = ""
        sources: for source in descriptor.timeBase {
            switch source {
            case "header":
                if let field = descriptor.field(meaning: .startTime), let raw = header[.startTime], raw > 0 {
                    start = Date(timeIntervalSince1970: TimeInterval(raw))
                    timeBaseDetail = "header field '\(field.name)' (start time)"
                } else if let field = descriptor.field(meaning: .newestTime), let raw = header[.newestTime], raw > 0 {
                    start = Date(timeIntervalSince1970: TimeInterval(raw)).addingTimeInterval(-span)
                    timeBaseDetail = "header field '\(field.name)' (newest sample time)"
                }
                if start != nil { timeBase = .loggerHeader; break sources }
            case "text-record":
                if let (date, text) = startTimeFromTextRecords(message) {
                    start = date
                    timeBase = .textRecord
                    timeBaseDetail = "Text record \"\(text)\""
                    break sources
                }
            case "device-information":
                guard let info else { continue }
                for pair in info.pairs(matching: descriptor.deviceInformation?.startKeys) {
                    if let date = TimeText.parseDeviceTime(pair.value) {
                        start = date
                        timeBaseDetail = "device-information key \(pair.key) (start time)"
                        break
                    }
                }
                if start == nil {
                    for pair in info.pairs(matching: descriptor.deviceInformation?.newestKeys) {
                        if let date = TimeText.parseDeviceTime(pair.value) {
                            start = date.addingTimeInterval(-span)
                            timeBaseDetail = "device-information key \(pair.key) (newest sample time)"
                            break
                        }
                    }
                }
                if start != nil { timeBase = .deviceInformation; break sources }
            default:
                start = options.readTime.addingTimeInterval(-span)
                timeBase = .readTime
                timeBaseDetail = "estimated: the newest sample is taken as logged at the read time"
                // An unknown read time gets its own, stronger warning (LoggerDecoder.checkTimes).
                if count > 0 && options.readTimeSource.isKnown {
                    warnings.append(.timesFromReadTime(readTime: options.readTime))
                }
                break sources
            }
        }
        guard let start else {
            throw LoggerFormatError(
                .inconsistent, format: name,
                "no time base: none of \(descriptor.timeBase.joined(separator: ", ")) gives a time")
        }

        return (start, timeBase, timeBaseDetail)
    }
}

/// A number as a person writes it: `600`, `0.5`.
public func formatNumber(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}

/// Seconds as a person writes them: `600 s`.
public func formatSeconds(_ seconds: TimeInterval) -> String { "\(formatNumber(seconds)) s" }
