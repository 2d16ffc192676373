import Foundation

/// A logger layout described in JSON, so that a vendor's format can be decoded without
/// recompiling (`coldtap decode` given the descriptor file as its logger). The built-in `generic16`,
/// `generic16-unix` and `dtn1` formats are descriptors shipped as resources.
///
/// Shape (all offsets are bytes from the start of the record payload):
/// ```json
/// { "name": "generic16-unix", "vendor": "generic", "model": "16-bit log, UNIX start",
///   "record": { "match": [ { "tnf": "media", "typeContains": "temp" }, { "tnf": "unknown" } ] },
///   "header": [ { "name": "start", "offset": 0, "width": 4, "signed": false, "endian": "little",
///                 "meaning": "start-time" },
///               { "name": "interval", "offset": 4, "width": 2, "endian": "little",
///                 "meaning": "interval", "unit": "seconds" } ],
///   "samples": { "offset": 6, "width": 2, "signed": true, "endian": "little",
///                "scale": 0.1, "valueOffset": 0, "missing": [ -32768 ] },
///   "sensorRange": { "min": -50, "max": 100 },
///   "timeBase": [ "header", "text-record", "read-time" ] }
/// ```
/// Header meanings: `interval`, `interval-unit` (with `units`, value → seconds per unit),
/// `start-time` / `newest-time` (UNIX seconds), `sample-count`, `newest-index` (needs
/// `ringBuffer`), `ignore`. Time-base sources, tried in order: `header`, `text-record`,
/// `device-information`, `read-time` (last if present).
public struct LoggerDescriptor: Sendable, Equatable, Codable {
    public struct RecordMatch: Sendable, Equatable, Codable {
        /// `well-known`, `media`, `absolute-uri`, `external` or `unknown`.
        public var tnf: RecordTNF
        /// The record type must contain this text (any case).
        public var typeContains: String?
        /// The record type must equal this text exactly.
        public var typeEquals: String?

        public init(tnf: RecordTNF, typeContains: String? = nil, typeEquals: String? = nil) {
            self.tnf = tnf
            self.typeContains = typeContains
            self.typeEquals = typeEquals
        }
    }

    public struct RecordRule: Sendable, Equatable, Codable {
        /// The first record matching any of these carries the log.
        public var match: [RecordMatch]
        public init(match: [RecordMatch]) { self.match = match }
    }

    public struct HeaderField: Sendable, Equatable, Codable {
        public var name: String
        public var offset: Int
        /// Bytes: 1, 2, 3, 4 or 8.
        public var width: Int
        public var signed: Bool?
        /// `little` or `big`; required when `width` > 1.
        public var endian: Endian?
        /// `interval`, `interval-unit`, `start-time`, `newest-time`, `sample-count`,
        /// `newest-index` or `ignore`.
        public var meaning: Meaning
        /// For `interval`: `milliseconds`, `seconds` (default), `minutes` or `hours`.
        public var unit: String?
        /// For `interval-unit`: raw value (as text) → seconds per interval step.
        public var units: [String: Double]?

        public init(
            name: String, offset: Int, width: Int, signed: Bool? = nil, endian: Endian? = nil,
            meaning: Meaning, unit: String? = nil, units: [String: Double]? = nil
        ) {
            self.name = name
            self.offset = offset
            self.width = width
            self.signed = signed
            self.endian = endian
            self.meaning = meaning
            self.unit = unit
            self.units = units
        }
    }

    public struct SampleArea: Sendable, Equatable, Codable {
        public var offset: Int
        /// Bytes per sample: 1, 2, 3 or 4.
        public var width: Int
        public var signed: Bool?
        public var endian: Endian?
        /// °C per raw step (default 1).
        public var scale: Double?
        /// Added after scaling, in °C (default 0).
        public var valueOffset: Double?
        /// Raw values that mean "not taken".
        public var missing: [Int]?

        public init(
            offset: Int, width: Int, signed: Bool? = nil, endian: Endian? = nil, scale: Double? = nil,
            valueOffset: Double? = nil, missing: [Int]? = nil
        ) {
            self.offset = offset
            self.width = width
            self.signed = signed
            self.endian = endian
            self.scale = scale
            self.valueOffset = valueOffset
            self.missing = missing
        }
    }

    /// The sensor's physical range in °C; values outside are flagged `out-of-range`.
    public struct SensorRange: Sendable, Equatable, Codable {
        public var min: Double
        public var max: Double
        public init(min: Double, max: Double) {
            self.min = min
            self.max = max
        }
    }

    /// A Text record of `KEY=VALUE` lines; keys are matched by the fragments below after
    /// lower-casing and removing `_`, `-`, `.` and spaces (a fragment of one or two letters
    /// must be the whole key, so `sn` does not match `SENSOR`).
    public struct DeviceInformation: Sendable, Equatable, Codable {
        public var intervalKeys: [String]?
        public var startKeys: [String]?
        public var newestKeys: [String]?
        public var serialKeys: [String]?
        public init(
            intervalKeys: [String]? = nil, startKeys: [String]? = nil, newestKeys: [String]? = nil,
            serialKeys: [String]? = nil
        ) {
            self.intervalKeys = intervalKeys
            self.startKeys = startKeys
            self.newestKeys = newestKeys
            self.serialKeys = serialKeys
        }
    }

    /// A ring buffer of `capacity` slots: wrapped once the sample count equals it, and then
    /// the oldest sample is the one after the `newest-index` slot.
    public struct RingBuffer: Sendable, Equatable, Codable {
        public var capacity: Int
        public init(capacity: Int) { self.capacity = capacity }
    }

    /// Extra conditions auto-detection checks before choosing this descriptor.
    public struct Detection: Sendable, Equatable, Codable {
        /// The `start-time` field must fall between 2010-01-01 and one day after the read
        /// time, and the `interval` field must be non-zero.
        public var plausibleStartTime: Bool?
        /// The message must carry a Text record of `KEY=VALUE` device information.
        public var requireDeviceInformation: Bool?
        public init(plausibleStartTime: Bool? = nil, requireDeviceInformation: Bool? = nil) {
            self.plausibleStartTime = plausibleStartTime
            self.requireDeviceInformation = requireDeviceInformation
        }
    }

    public var name: String
    public var vendor: String?
    public var model: String?
    public var description: String?
    public var record: RecordRule
    public var header: [HeaderField]?
    public var samples: SampleArea
    public var sensorRange: SensorRange?
    public var timeBase: [String]
    public var deviceInformation: DeviceInformation?
    public var ringBuffer: RingBuffer?
    public var detection: Detection?
    /// What integrity the format offers; descriptors describe formats without a check.
    public var integrityNote: String?

    public init(
        name: String, vendor: String? = nil, model: String? = nil, description: String? = nil,
        record: RecordRule, header: [HeaderField]? = nil, samples: SampleArea, sensorRange: SensorRange? = nil,
        timeBase: [String], deviceInformation: DeviceInformation? = nil, ringBuffer: RingBuffer? = nil,
        detection: Detection? = nil, integrityNote: String? = nil
    ) {
        self.name = name
        self.vendor = vendor
        self.model = model
        self.description = description
        self.record = record
        self.header = header
        self.samples = samples
        self.sensorRange = sensorRange
        self.timeBase = timeBase
        self.deviceInformation = deviceInformation
        self.ringBuffer = ringBuffer
        self.detection = detection
        self.integrityNote = integrityNote
    }

    // MARK: Loading

    /// Parses and validates a descriptor.
    /// - Throws: `LoggerFormatError` of kind `.badDescriptor` whose `field` names the JSON
    ///   field at fault (e.g. `samples.width`, `header[1].meaning`).
    public static func parse(_ json: Data, source: String = "descriptor") throws -> LoggerDescriptor {
        let descriptor: LoggerDescriptor
        // Decoding ignores keys it does not know; a misspelt one must not be ignored silently.
        if let tree = try? JSONDecoder().decode(KeyTree.self, from: json) {
            try rejectUnknownKeys(tree, source: source)
        }
        do {
            descriptor = try JSONDecoder().decode(LoggerDescriptor.self, from: json)
        } catch let error as DecodingError {
            throw LoggerDescriptor.describe(error, source: source, json: json)
        }
        try descriptor.validate(source: source)
        return descriptor
    }

    /// Reads and validates a descriptor file.
    /// - Throws: `LoggerFormatError` (`.badDescriptor`) when the file cannot be read or is invalid.
    public static func load(file: URL) throws -> LoggerDescriptor {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw LoggerFormatError(
                .badDescriptor, field: nil,
                "cannot read logger descriptor \(file.path): \(error.localizedDescription)")
        }
        return try parse(data, source: file.lastPathComponent)
    }

    /// The keys each object of a descriptor may hold, by its path with `[]` for list items.
    static let allowedKeys: [String: Set<String>] = [
        "": [
            "name", "vendor", "model", "description", "record", "header", "samples", "sensorRange", "timeBase",
            "deviceInformation", "ringBuffer", "detection", "integrityNote",
        ],
        "record": ["match"],
        "record.match[]": ["tnf", "typeContains", "typeEquals"],
        "header[]": ["name", "offset", "width", "signed", "endian", "meaning", "unit", "units"],
        "samples": ["offset", "width", "signed", "endian", "scale", "valueOffset", "missing"],
        "sensorRange": ["min", "max"],
        "deviceInformation": ["intervalKeys", "startKeys", "newestKeys", "serialKeys"],
        "ringBuffer": ["capacity"],
        "detection": ["plausibleStartTime", "requireDeviceInformation"],
    ]

    /// The shape of a JSON document: its objects' keys and lists, nothing else.
    indirect enum KeyTree: Decodable {
        case object([String: KeyTree])
        case list([KeyTree])
        case value

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            if let object = try? decoder.container(keyedBy: Key.self) {
                var children: [String: KeyTree] = [:]
                for key in object.allKeys { children[key.stringValue] = try object.decode(KeyTree.self, forKey: key) }
                self = .object(children)
            } else if var items = try? decoder.unkeyedContainer() {
                var children: [KeyTree] = []
                while !items.isAtEnd { children.append(try items.decode(KeyTree.self)) }
                self = .list(children)
            } else {
                self = .value
            }
        }
    }

    /// - Throws: `LoggerFormatError` (`.badDescriptor`) naming the first unknown key and the allowed ones.
    static func rejectUnknownKeys(_ tree: KeyTree, source: String, path: String = "", pattern: String = "") throws {
        switch tree {
        case .object(let object):
            guard let allowed = allowedKeys[pattern] else { return }
            if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
                let field = path.isEmpty ? unknown : "\(path).\(unknown)"
                throw LoggerFormatError(
                    .badDescriptor, field: field,
                    "logger descriptor \(source): field '\(field)' is unknown; "
                        + (path.isEmpty ? "a descriptor" : "'\(path)'") + " takes "
                        + allowed.sorted().joined(separator: ", "))
            }
            for key in object.keys.sorted() {
                guard let child = object[key] else { continue }
                try rejectUnknownKeys(
                    child, source: source, path: path.isEmpty ? key : "\(path).\(key)",
                    pattern: pattern.isEmpty ? key : "\(pattern).\(key)")
            }
        case .list(let items):
            for (index, item) in items.enumerated() {
                try rejectUnknownKeys(item, source: source, path: "\(path)[\(index)]", pattern: pattern + "[]")
            }
        case .value:
            return
        }
    }

    private static func path(_ codingPath: [any CodingKey], _ last: String? = nil) -> String {
        var out = ""
        for key in codingPath {
            if let index = key.intValue { out += "[\(index)]" } else { out += (out.isEmpty ? "" : ".") + key.stringValue }
        }
        if let last { out += (out.isEmpty ? "" : ".") + last }
        return out
    }

    private static func describe(_ error: DecodingError, source: String, json: Data) -> LoggerFormatError {
        func bad(_ field: String, _ text: String) -> LoggerFormatError {
            LoggerFormatError(.badDescriptor, field: field, "logger descriptor \(source): field '\(field)' \(text)")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return bad(path(context.codingPath, key.stringValue), "is required but missing")
        case .typeMismatch(let type, let context):
            return bad(path(context.codingPath), "has the wrong type (expected \(LoggerDescriptor.typeName(type)))")
        case .valueNotFound(let type, let context):
            return bad(path(context.codingPath), "is null (expected \(LoggerDescriptor.typeName(type)))")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                guard let problem = JSONText.syntaxProblem(in: json) else {
                    return LoggerFormatError(
                        .badDescriptor, field: nil,
                        "logger descriptor \(source) holds a value its field cannot take (a number too large for an integer field?)")
                }
                return LoggerFormatError(.badDescriptor, field: nil, "logger descriptor \(source) is not valid JSON (\(problem))")
            }
            return bad(path(context.codingPath), "is invalid: \(context.debugDescription)")
        @unknown default:
            return LoggerFormatError(.badDescriptor, field: nil, "logger descriptor \(source) is invalid: \(error)")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "an integer"
        case is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        default:
            let name = String(describing: type)
            return name.hasPrefix("Array") ? "a list" : "an object"
        }
    }

    // MARK: Validation

    static let intervalUnits: [String: Double] = ["milliseconds": 0.001, "seconds": 1, "minutes": 60, "hours": 3600]
    static let timeSources: Set<String> = ["header", "text-record", "device-information", "read-time"]

    /// Largest offset or ring capacity a descriptor may name (16 MiB, far beyond any tag).
    static let maximumOffset = 1 << 24

    func field(meaning: Meaning) -> HeaderField? { header?.first { $0.meaning == meaning } }

    /// Checks everything JSON decoding cannot.
    /// - Throws: `LoggerFormatError` (`.badDescriptor`) naming the field.
    public func validate(source: String = "descriptor") throws {
        func bad(_ field: String, _ text: String) -> LoggerFormatError {
            LoggerFormatError(.badDescriptor, field: field, "logger descriptor \(source): field '\(field)' \(text)")
        }
        let allowedName = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_."))
        if name.isEmpty || name.unicodeScalars.contains(where: { !allowedName.contains($0) }) {
            throw bad("name", "must be a non-empty name of letters, digits, '-', '_' or '.'")
        }
        if record.match.isEmpty { throw bad("record.match", "must list at least one record pattern") }
        for (index, match) in record.match.enumerated() where !match.tnf.isKnown {
            throw bad(
                "record.match[\(index)].tnf",
                "is '\(match.tnf)'; use one of " + RecordTNF.choices.joined(separator: ", "))
        }
        let fields = header ?? []
        var seen: Set<Meaning> = []
        for (index, field) in fields.enumerated() {
            let where_ = "header[\(index)]"
            guard field.meaning.isKnown else {
                throw bad(
                    "\(where_).meaning",
                    "is '\(field.meaning)'; use one of "
                        + Meaning.choices.sorted().joined(separator: ", "))
            }
            if field.meaning != .ignore {
                if seen.contains(field.meaning) { throw bad("\(where_).meaning", "repeats '\(field.meaning)'") }
                seen.insert(field.meaning)
            }
            if field.offset < 0 || field.offset > LoggerDescriptor.maximumOffset {
                throw bad("\(where_).offset", "must be 0…\(LoggerDescriptor.maximumOffset)")
            }
            if ![1, 2, 3, 4, 8].contains(field.width) { throw bad("\(where_).width", "must be 1, 2, 3, 4 or 8 bytes") }
            try checkEndian(field.endian, width: field.width, at: "\(where_).endian", bad)
            // UNIX seconds of any year after 1970-07 need more than 3 bytes.
            if (field.meaning == .startTime || field.meaning == .newestTime) && field.width < 4 {
                throw bad("\(where_).width", "is \(field.width) byte(s), too narrow for a \(field.meaning) in UNIX seconds; use 4 or 8")
            }
            if field.meaning == .interval, let unit = field.unit, LoggerDescriptor.intervalUnits[unit] == nil {
                throw bad("\(where_).unit", "is '\(unit)'; use milliseconds, seconds, minutes or hours")
            }
            if field.meaning == .intervalUnit {
                guard let units = field.units, !units.isEmpty else {
                    throw bad("\(where_).units", "must map raw values to seconds, e.g. {\"0\": 1, \"1\": 60}")
                }
                for (key, seconds) in units where Int(key) == nil || !(seconds > 0) || !seconds.isFinite {
                    throw bad("\(where_).units", "has entry '\(key)': keys must be integers and values positive seconds")
                }
            }
        }
        if seen.contains(.intervalUnit) && !seen.contains(.interval) {
            throw bad("header", "has an interval-unit field but no interval field")
        }
        let headerEnd = fields.map { $0.offset + $0.width }.max() ?? 0
        if samples.offset < 0 || samples.offset > LoggerDescriptor.maximumOffset {
            throw bad("samples.offset", "must be 0…\(LoggerDescriptor.maximumOffset)")
        }
        if samples.offset < headerEnd {
            throw bad("samples.offset", "is \(samples.offset) but the header fields end at byte \(headerEnd)")
        }
        if ![1, 2, 3, 4].contains(samples.width) { throw bad("samples.width", "must be 1, 2, 3 or 4 bytes") }
        try checkEndian(samples.endian, width: samples.width, at: "samples.endian", bad)
        if let scale = samples.scale, !(scale.isFinite && scale != 0) { throw bad("samples.scale", "must be a non-zero number") }
        if let offset = samples.valueOffset, !offset.isFinite { throw bad("samples.valueOffset", "must be a number") }
        let bits = samples.width * 8
        let signed = samples.signed ?? false
        let lowest = signed ? -(1 << (bits - 1)) : 0
        let highest = signed ? (1 << (bits - 1)) - 1 : (1 << bits) - 1
        for (index, value) in (samples.missing ?? []).enumerated() where value < lowest || value > highest {
            throw bad("samples.missing[\(index)]", "is \(value), outside the raw range \(lowest)…\(highest) of the samples")
        }
        if let range = sensorRange, !(range.min < range.max) { throw bad("sensorRange", "must have min below max") }
        if timeBase.isEmpty { throw bad("timeBase", "must list at least one source") }
        for (index, source) in timeBase.enumerated() {
            guard LoggerDescriptor.timeSources.contains(source) else {
                throw bad("timeBase[\(index)]", "is '\(source)'; use header, text-record, device-information or read-time")
            }
            if source == "read-time" && index != timeBase.count - 1 {
                throw bad("timeBase[\(index)]", "is read-time, which always succeeds, so it must come last")
            }
            if source == "header" && !seen.contains(.startTime) && !seen.contains(.newestTime) {
                throw bad("timeBase[\(index)]", "is header but no header field has meaning start-time or newest-time")
            }
            if source == "device-information" && deviceInformation == nil {
                throw bad("timeBase[\(index)]", "is device-information but the descriptor has no deviceInformation keys")
            }
        }
        if seen.contains(.newestIndex) && ringBuffer == nil {
            throw bad("ringBuffer", "is required when a header field has meaning newest-index")
        }
        if let ring = ringBuffer {
            if ring.capacity <= 0 || ring.capacity > LoggerDescriptor.maximumOffset {
                throw bad("ringBuffer.capacity", "must be 1…\(LoggerDescriptor.maximumOffset) samples")
            }
            if !seen.contains(.sampleCount) { throw bad("ringBuffer", "needs a header field with meaning sample-count") }
            if !seen.contains(.newestIndex) { throw bad("ringBuffer", "needs a header field with meaning newest-index") }
        }
        if detection?.plausibleStartTime == true && !(seen.contains(.startTime) && seen.contains(.interval)) {
            throw bad("detection.plausibleStartTime", "needs header fields with meanings start-time and interval")
        }
        if detection?.requireDeviceInformation == true && deviceInformation == nil {
            throw bad("detection.requireDeviceInformation", "needs deviceInformation keys")
        }
    }

    private func checkEndian(
        _ endian: Endian?, width: Int, at field: String,
        _ bad: (String, String) -> LoggerFormatError
    ) throws {
        if let endian, !endian.isKnown { throw bad(field, "is '\(endian)'; use " + Endian.choices.joined(separator: " or ")) }
        if width > 1 && endian == nil { throw bad(field, "is required for fields wider than one byte (little or big)") }
    }
}
