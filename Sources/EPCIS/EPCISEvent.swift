import ColdTapBase
import Digest
import Foundation
import JSONOutput

/// The EPCIS 2.0 vocabulary ColdTap writes (docs/epcis.md): the standard's context, the CBV's
/// bare names (the context expands them; a URI form of a measurement type is refused by GS1's
/// schema), and ColdTap's own namespace for extension members.
public enum EPCISVocabulary {
    public static let context = "https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld"
    /// ColdTap's extension namespace, declared in every document's `@context` under `prefix`.
    /// A reserved example domain: it names ColdTap's members and can never collide with a
    /// real organisation's vocabulary; it is an identifier, not an address to fetch.
    public static let namespace = "https://coldtap.example/ns/"
    public static let prefix = "coldtap"
    static let bizStepBase = "https://ref.gs1.org/cbv/BizStep-"
    static let dispositionBase = "https://ref.gs1.org/cbv/Disp-"
    static let measurementBase = "https://gs1.org/voc/"
}

/// An extension member's value: text, a number, or an object of further members (all in
/// ColdTap's namespace). Booleans are left out on purpose: the reference hash generator
/// writes them as Python does (`True`), which the standard does not say.
public indirect enum EPCISExtensionValue: Sendable, Equatable {
    case text(String)
    case number(Double)
    case object([EPCISExtension])
    /// The same member several times (a JSON array), e.g. each acknowledgement of a read.
    case list([EPCISExtensionValue])
}

/// An extension member `coldtap:name`.
public struct EPCISExtension: Sendable, Equatable {
    public var name: String
    public var value: EPCISExtensionValue
    public init(_ name: String, _ value: EPCISExtensionValue) {
        self.name = name
        self.value = value
    }
}

/// One `sensorReport`: a measurement type (`Temperature`, `RelativeHumidity`), an exception
/// (`ALARM_CONDITION`, `ERROR_CONDITION`) or values, the unit, and ColdTap's members.
public struct EPCISSensorReport: Sendable, Equatable {
    public var type: String
    public var exception: String?
    public var time: Date?
    public var value: Double?
    public var minValue: Double?
    public var maxValue: Double?
    public var meanValue: Double?
    public var sDev: Double?
    public var uom: String?
    public var extensions: [EPCISExtension]

    public init(
        type: String, exception: String? = nil, time: Date? = nil, value: Double? = nil, minValue: Double? = nil, maxValue: Double? = nil,
        meanValue: Double? = nil, sDev: Double? = nil, uom: String? = nil, extensions: [EPCISExtension] = []
    ) {
        self.type = type
        self.exception = exception
        self.time = time
        self.value = value
        self.minValue = minValue
        self.maxValue = maxValue
        self.meanValue = meanValue
        self.sDev = sDev
        self.uom = uom
        self.extensions = extensions
    }
}

/// One `sensorElement`: what the device and the data were (`sensorMetadata`) and its reports.
/// Attributes that may sit at either level (deviceID, rawData, …) sit here only, never in a
/// report too: the conformance text forbids both and no schema can catch it.
public struct EPCISSensorElement: Sendable, Equatable {
    public var time: Date?
    public var startTime: Date?
    public var endTime: Date?
    public var deviceID: String?
    public var deviceMetadata: String?
    public var rawData: String?
    public var dataProcessingMethod: String?
    public var bizRules: String?
    public var metadataExtensions: [EPCISExtension] = []
    public var reports: [EPCISSensorReport]

    public init(reports: [EPCISSensorReport]) { self.reports = reports }
}

/// An `ObjectEvent` as ColdTap writes one: a read kept of a logger (`sensor_reporting`) or a
/// hand-over of a lot (`quantityList`, `arriving`/`storing`/`shipping`, a disposition).
public struct EPCISObjectEvent: Sendable, Equatable {
    public struct Quantity: Sendable, Equatable {
        public var epcClass: String
        public var quantity: Double?
        public var uom: String?
        public init(epcClass: String, quantity: Double? = nil, uom: String? = nil) {
            self.epcClass = epcClass
            self.quantity = quantity
            self.uom = uom
        }
    }

    public var eventTime: Date
    /// The offset of the zone the event's time was recorded in, seconds east of UTC.
    public var offsetSeconds: Int
    public var quantities: [Quantity] = []
    public var action = "OBSERVE"
    public var bizStep: String?
    public var disposition: String?
    public var readPoint: String?
    public var bizLocation: String?
    public var sensorElements: [EPCISSensorElement] = []
    public var extensions: [EPCISExtension] = []

    public init(eventTime: Date, offsetSeconds: Int) {
        self.eventTime = eventTime
        self.offsetSeconds = offsetSeconds
    }

    /// The event hash of CBV 2.0 (docs/epcis.md, "The event hash"):
    /// `ni:///sha-256;<hex>?ver=CBV2.0` of the canonical pre-hash string.
    public var eventID: String {
        "ni:///sha-256;" + SHA256Digest.hex(text: preHash) + "?ver=CBV2.0"
    }

    /// The canonical pre-hash string: the members in the standard's order, times in UTC
    /// with milliseconds, CBV names expanded to their URIs, numbers in their shortest form,
    /// list items and sub-elements sorted by code point, extensions as `{namespace}name=value`.
    public var preHash: String {
        var out = "eventType=ObjectEvent"
        out += "eventTime=" + EPCISTime.text(eventTime)
        out += "eventTimeZoneOffset=" + EPCISTime.offset(offsetSeconds)
        if !quantities.isEmpty {
            out +=
                "quantityList"
                + quantities.map { item in
                    "quantityElement" + "epcClass=" + item.epcClass + (item.quantity.map { "quantity=" + Self.number($0) } ?? "")
                        + (item.uom.map { "uom=" + $0 } ?? "")
                }.sorted().joined()
        }
        out += "action=" + action
        if let bizStep { out += "bizStep=" + EPCISVocabulary.bizStepBase + bizStep }
        if let disposition { out += "disposition=" + Self.dispositionURI(disposition) }
        if let readPoint { out += "readPointid=" + readPoint }
        if let bizLocation { out += "bizLocationid=" + bizLocation }
        if !sensorElements.isEmpty {
            out += "sensorElementList" + sensorElements.map(Self.preHash).sorted().joined()
        }
        out += Self.preHash(extensions)
        return out
    }

    /// The event as JSON-LD, its `eventID` first after the type.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("type", .string("ObjectEvent")), ("eventID", .string(eventID))]
        members.append(("eventTime", .string(EPCISTime.text(eventTime, offsetSeconds: offsetSeconds))))
        members.append(("eventTimeZoneOffset", .string(EPCISTime.offset(offsetSeconds))))
        if !quantities.isEmpty {
            members.append(
                (
                    "quantityList",
                    .array(
                        quantities.map { item in
                            var entry: [(String, JSONValue)] = [("epcClass", .string(item.epcClass))]
                            if let quantity = item.quantity { entry.append(("quantity", .number(quantity))) }
                            if let uom = item.uom { entry.append(("uom", .string(uom))) }
                            return .object(entry)
                        })
                ))
        }
        members.append(("action", .string(action)))
        if let bizStep { members.append(("bizStep", .string(bizStep))) }
        if let disposition { members.append(("disposition", .string(disposition))) }
        if let readPoint { members.append(("readPoint", .object([("id", .string(readPoint))]))) }
        if let bizLocation { members.append(("bizLocation", .object([("id", .string(bizLocation))]))) }
        if !sensorElements.isEmpty { members.append(("sensorElementList", .array(sensorElements.map(Self.json)))) }
        members += Self.json(extensions)
        return .object(members)
    }

    /// A CBV disposition's URI; a name that is already a URI (ColdTap's own "needs review")
    /// stands as it is.
    static func dispositionURI(_ name: String) -> String {
        name.contains(":") ? name : EPCISVocabulary.dispositionBase + name
    }

    private static func preHash(_ element: EPCISSensorElement) -> String {
        var metadata = ""
        if let time = element.time { metadata += "time=" + EPCISTime.text(time) }
        if let start = element.startTime { metadata += "startTime=" + EPCISTime.text(start) }
        if let end = element.endTime { metadata += "endTime=" + EPCISTime.text(end) }
        if let value = element.deviceID { metadata += "deviceID=" + value }
        if let value = element.deviceMetadata { metadata += "deviceMetadata=" + value }
        if let value = element.rawData { metadata += "rawData=" + value }
        if let value = element.dataProcessingMethod { metadata += "dataProcessingMethod=" + value }
        if let value = element.bizRules { metadata += "bizRules=" + value }
        metadata += preHash(element.metadataExtensions)
        let reports = element.reports.map { report -> String in
            var out = "sensorReport" + "type=" + EPCISVocabulary.measurementBase + report.type
            if let exception = report.exception { out += "exception=" + EPCISVocabulary.measurementBase + exception }
            if let time = report.time { out += "time=" + EPCISTime.text(time) }
            if let value = report.value { out += "value=" + number(value) }
            if let value = report.minValue { out += "minValue=" + number(value) }
            if let value = report.maxValue { out += "maxValue=" + number(value) }
            if let value = report.meanValue { out += "meanValue=" + number(value) }
            if let value = report.sDev { out += "sDev=" + number(value) }
            if let uom = report.uom { out += "uom=" + uom }
            return out + preHash(report.extensions)
        }
        return "sensorElement" + (metadata.isEmpty ? "" : "sensorMetadata" + metadata) + reports.sorted().joined()
    }

    private static func json(_ element: EPCISSensorElement) -> JSONValue {
        var metadata: [(String, JSONValue)] = []
        if let time = element.time { metadata.append(("time", .string(EPCISTime.text(time)))) }
        if let start = element.startTime { metadata.append(("startTime", .string(EPCISTime.text(start)))) }
        if let end = element.endTime { metadata.append(("endTime", .string(EPCISTime.text(end)))) }
        if let value = element.deviceID { metadata.append(("deviceID", .string(value))) }
        if let value = element.deviceMetadata { metadata.append(("deviceMetadata", .string(value))) }
        if let value = element.rawData { metadata.append(("rawData", .string(value))) }
        if let value = element.dataProcessingMethod { metadata.append(("dataProcessingMethod", .string(value))) }
        if let value = element.bizRules { metadata.append(("bizRules", .string(value))) }
        metadata += json(element.metadataExtensions)
        let reports = element.reports.map { report -> JSONValue in
            var members: [(String, JSONValue)] = [("type", .string(report.type))]
            if let exception = report.exception { members.append(("exception", .string(exception))) }
            if let time = report.time { members.append(("time", .string(EPCISTime.text(time)))) }
            if let value = report.value { members.append(("value", .number(value))) }
            if let value = report.minValue { members.append(("minValue", .number(value))) }
            if let value = report.maxValue { members.append(("maxValue", .number(value))) }
            if let value = report.meanValue { members.append(("meanValue", .number(value))) }
            if let value = report.sDev { members.append(("sDev", .number(value))) }
            if let uom = report.uom { members.append(("uom", .string(uom))) }
            return .object(members + json(report.extensions))
        }
        var members: [(String, JSONValue)] = []
        if !metadata.isEmpty { members.append(("sensorMetadata", .object(metadata))) }
        members.append(("sensorReport", .array(reports)))
        return .object(members)
    }

    /// `{namespace}name=value` per member, an object's members after its name, each item of a
    /// list as a member of its own; all sorted.
    static func preHash(_ extensions: [EPCISExtension]) -> String {
        extensions.flatMap { member in preHash(name: member.name, value: member.value) }.sorted().joined()
    }

    private static func preHash(name: String, value: EPCISExtensionValue) -> [String] {
        let key = "{" + EPCISVocabulary.namespace + "}" + name
        switch value {
        case .text(let text): return [key + "=" + text]
        case .number(let number): return [key + "=" + Self.number(number)]
        case .object(let members): return [key + preHash(members)]
        case .list(let items): return items.flatMap { preHash(name: name, value: $0) }
        }
    }

    static func json(_ extensions: [EPCISExtension]) -> [(String, JSONValue)] {
        extensions.map { (EPCISVocabulary.prefix + ":" + $0.name, json($0.value)) }
    }

    private static func json(_ value: EPCISExtensionValue) -> JSONValue {
        switch value {
        case .text(let text): return .string(text)
        case .number(let number): return .number(number)
        case .object(let members): return .object(json(members))
        case .list(let items): return .array(items.map(json))
        }
    }

    /// The shortest text that reads back as `value`, without a trailing `.0` (`26`, `12.5`):
    /// how the hash writes a JSON number and how `JSONValue` serialises it.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}

/// An EPCIS 2.0 document (`EPCISDocument`, schema version 2.0, the 2.0.0 context with
/// ColdTap's prefix declared) holding `events`.
public enum EPCISDocument {
    public static func json(events: [EPCISObjectEvent], created: Date) -> JSONValue {
        .object([
            ("@context", .array([.string(EPCISVocabulary.context), .object([(EPCISVocabulary.prefix, .string(EPCISVocabulary.namespace))])])),
            ("type", .string("EPCISDocument")), ("schemaVersion", .string("2.0")),
            ("creationDate", .string(EPCISTime.text(created))),
            ("epcisBody", .object([("eventList", .array(events.map(\.json)))])),
        ])
    }
}
