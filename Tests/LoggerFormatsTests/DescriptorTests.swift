import Foundation
import NDEF
import Testing

@testable import LoggerFormats

@Suite struct DescriptorTests {
    static let valid = """
        {
          "name": "acme-be",
          "vendor": "Acme",
          "record": { "match": [ { "tnf": "external", "typeEquals": "acme.com:log" } ] },
          "header": [
            { "name": "unitCode", "offset": 0, "width": 1, "meaning": "interval-unit", "units": { "0": 1, "1": 60 } },
            { "name": "every", "offset": 1, "width": 2, "signed": false, "endian": "big", "meaning": "interval" },
            { "name": "newest", "offset": 3, "width": 4, "endian": "big", "meaning": "newest-time" },
            { "name": "count", "offset": 7, "width": 1, "meaning": "sample-count" }
          ],
          "samples": { "offset": 8, "width": 2, "signed": true, "endian": "big", "scale": 0.01, "valueOffset": -10, "missing": [32767] },
          "sensorRange": { "min": -30, "max": 70 },
          "timeBase": ["header", "read-time"]
        }
        """

    static func badField(_ json: String) -> (String?, String) {
        do {
            _ = try LoggerDescriptor.parse(Data(json.utf8), source: "test.json")
            return (nil, "accepted")
        } catch let error as LoggerFormatError {
            return (error.field, error.description)
        } catch {
            return (nil, "\(error)")
        }
    }

    static func mutate(_ transform: (inout [String: Any]) -> Void) -> String {
        var object = (try? JSONSerialization.jsonObject(with: Data(valid.utf8))) as? [String: Any] ?? [:]
        transform(&object)
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func customDescriptorDecodesBigEndianWithUnitsAndNewestTime() throws {
        let descriptor = try LoggerDescriptor.parse(Data(Self.valid.utf8))
        // unit 1 (minutes), every 5 → 300 s; newest 2026-08-18T05:00:00Z; 3 samples, the middle one missing.
        let newest: UInt32 = 1_787_029_200
        let payload: [UInt8] =
            [0x01, 0x00, 0x05] + [24, 16, 8, 0].map { UInt8(newest >> $0 & 0xFF) } + [0x03]
            + [0x05, 0xDC, 0x7F, 0xFF, 0xFC, 0x18]  // 1500 → 5.0; missing; −1000 → −20.0
        let message = NDEFMessage(records: [NDEFRecord(tnf: .external, type: "acme.com:log", payload: Data(payload))])
        let log = try LoggerDecoder.decode(message, options: DecodeOptions(readTime: Date(), logger: .descriptor(descriptor)))
        #expect(log.format == "acme-be")
        #expect(log.interval == 300)
        #expect(log.samples.map(\.temperature) == [5.0, nil, -20.0])
        #expect(log.samples.map(\.flags) == [[], [.missing], []])
        #expect(log.timeBase == .loggerHeader)
        #expect(log.samples.last?.time == Date(timeIntervalSince1970: TimeInterval(newest)))
        #expect(log.samples.first?.time == Date(timeIntervalSince1970: TimeInterval(newest) - 600))
        #expect(log.detection == .forcedDescriptor(name: "acme-be"))
        #expect(log.detection?.text == "forced with the logger descriptor 'acme-be'")
        #expect(log.format == .described("acme-be") && log.format.name == "acme-be")
        // Stored as its name; a built-in name reads back as the built-in format.
        #expect(String(decoding: try JSONEncoder().encode(log.format), as: UTF8.self) == #""acme-be""#)
        #expect(try JSONDecoder().decode(TemperatureLog.Format.self, from: Data(#""generic16-unix""#.utf8)) == .generic16Unix)
        #expect(log.metadata["every"] == "5")
    }

    @Test func unknownIntervalUnitCodeIsAnError() throws {
        let descriptor = try LoggerDescriptor.parse(Data(Self.valid.utf8))
        let payload: [UInt8] = [0x07, 0x00, 0x05, 0, 0, 0, 0, 0x00]
        let message = NDEFMessage(records: [NDEFRecord(tnf: .external, type: "acme.com:log", payload: Data(payload))])
        #expect(throws: LoggerFormatError.self) {
            try LoggerDecoder.decode(message, options: DecodeOptions(readTime: Date(), logger: .descriptor(descriptor)))
        }
    }

    @Test func builtInDescriptorsLoadFromResources() throws {
        for name in ["generic16", "generic16-unix", "dtn1"] {
            let descriptor = try LoggerDecoder.builtInDescriptor(named: name)
            #expect(descriptor.name == name)
        }
        #expect(try LoggerDecoder.builtInDescriptor(named: "dtn1").ringBuffer?.capacity == 4092)
    }

    @Test func missingBuiltInIsAnErrorNotACrash() {
        #expect(throws: LoggerFormatError.self) { try LoggerDecoder.builtInDescriptor(named: "no-such-logger") }
    }

    @Test(arguments: [
        (#"{"name": "x"}"#, "record"),
        (mutate { $0.removeValue(forKey: "samples") }, "samples"),
        (mutate { $0["samples"] = ["offset": 8, "width": "two"] }, "samples.width"),
        (mutate { $0["samples"] = ["offset": 8, "width": 5, "endian": "big"] }, "samples.width"),
        (mutate { $0["samples"] = ["offset": 8, "width": 2] }, "samples.endian"),
        (mutate { $0["samples"] = ["offset": 8, "width": 2, "endian": "middle"] }, "samples.endian"),
        (mutate { $0["samples"] = ["offset": 8, "width": 2, "endian": "big", "scale": 0] }, "samples.scale"),
        (mutate { $0["samples"] = ["offset": 8, "width": 1, "signed": true, "missing": [200]] }, "samples.missing[0]"),
        (mutate { $0["samples"] = ["offset": 4, "width": 1] }, "samples.offset"),
        (mutate { $0["record"] = ["match": [["tnf": "mime"]]] }, "record.match[0].tnf"),
        (mutate { $0["record"] = ["match": []] }, "record.match"),
        (mutate { $0["name"] = "" }, "name"),
        (mutate { $0["timeBase"] = ["read-time", "header"] }, "timeBase[0]"),
        (mutate { $0["timeBase"] = ["sundial"] }, "timeBase[0]"),
        (mutate { $0["timeBase"] = [] }, "timeBase"),
        (mutate { $0["timeBase"] = ["device-information"] }, "timeBase[0]"),
        (mutate { $0["sensorRange"] = ["min": 10, "max": -10] }, "sensorRange"),
        (mutate { $0["ringBuffer"] = ["capacity": 0] }, "ringBuffer.capacity"),
        (mutate { $0["detection"] = ["requireDeviceInformation": true] }, "detection.requireDeviceInformation"),
        (
            mutate { object in
                var header = object["header"] as? [[String: Any]] ?? []
                header[1]["meaning"] = "speed"
                object["header"] = header
            }, "header[1].meaning"
        ),
        (
            mutate { object in
                var header = object["header"] as? [[String: Any]] ?? []
                header[0].removeValue(forKey: "units")
                object["header"] = header
            }, "header[0].units"
        ),
        (
            mutate { object in
                var header = object["header"] as? [[String: Any]] ?? []
                header[1]["unit"] = "fortnights"
                object["header"] = header
            }, "header[1].unit"
        ),
        (
            mutate { object in
                var header = object["header"] as? [[String: Any]] ?? []
                header[3]["meaning"] = "newest-index"
                object["header"] = header
            }, "ringBuffer"
        ),
        (
            mutate { object in
                var header = object["header"] as? [[String: Any]] ?? []
                header[2].removeValue(forKey: "offset")
                object["header"] = header
            }, "header[2].offset"
        ),
    ])
    func badDescriptorNamesTheField(json: String, field: String) {
        let (reported, message) = Self.badField(json)
        #expect(reported == field, "\(message)")
        #expect(message.contains("'\(field)'"))
        #expect(message.hasPrefix("logger descriptor test.json: field"))
    }

    @Test func descriptorWordsAreTypedAndAnUnknownWordNamesTheChoices() throws {
        let descriptor = try LoggerDescriptor.parse(Data(Self.valid.utf8), source: "test.json")
        #expect(descriptor.record.match.map(\.tnf) == [.external])
        #expect(descriptor.header?.map(\.meaning) == [.intervalUnit, .interval, .newestTime, .sampleCount])
        #expect(descriptor.samples.endian == .big && descriptor.header?.first?.endian == nil)
        // Written back with the file's own words.
        let again = try JSONDecoder().decode(LoggerDescriptor.self, from: JSONEncoder().encode(descriptor))
        #expect(again == descriptor)
        #expect(String(decoding: try JSONEncoder().encode(descriptor.header?[0].meaning), as: UTF8.self) == #""interval-unit""#)

        func message(_ change: (String) -> String) -> String { Self.badField(change(Self.valid)).1 }
        #expect(
            message { $0.replacingOccurrences(of: #""tnf": "external""#, with: #""tnf": "ndef""#) }
                == "logger descriptor test.json: field 'record.match[0].tnf' is 'ndef'; use one of well-known, media, absolute-uri, external, unknown")
        #expect(
            message { $0.replacingOccurrences(of: #""meaning": "sample-count""#, with: #""meaning": "count""#) }
                == "logger descriptor test.json: field 'header[3].meaning' is 'count'; use one of ignore, interval, interval-unit, newest-index, newest-time, sample-count, start-time"
        )
        #expect(
            message { $0.replacingOccurrences(of: #""signed": true, "endian": "big""#, with: #""signed": true, "endian": "middle""#) }
                == "logger descriptor test.json: field 'samples.endian' is 'middle'; use little or big")
    }

    @Test func invalidJSONIsRefused() {
        let (field, message) = Self.badField("{ not json")
        #expect(field == nil)
        #expect(message.contains("is not valid JSON"))
    }

    @Test func descriptorFileLoads() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("descriptor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("acme.json")
        try Data(Self.valid.utf8).write(to: file)
        #expect(try LoggerDescriptor.load(file: file).name == "acme-be")
        #expect(throws: LoggerFormatError.self) { try LoggerDescriptor.load(file: directory.appendingPathComponent("none.json")) }
    }
}

@Suite struct DetectionTests {
    static let read = Date(timeIntervalSince1970: 1_787_032_800)

    @Test func nothingMatchesListsEveryFormatAndWhy() {
        let message = NDEFMessage(records: [TextRecord(text: "hello").record])
        do {
            _ = try LoggerDecoder.decode(message, options: DecodeOptions(readTime: Self.read))
            Issue.record("decoded a lone Text record")
        } catch let error as LoggerFormatError {
            guard case .noFormatMatched(let refusals) = error.kind else {
                Issue.record("wrong kind \(error.kind)")
                return
            }
            #expect(refusals.map(\.format) == ["cupltag", "dtn1", "generic16-unix", "generic16", "nhs31xx", "smartag1", "smartag2"])
            #expect(refusals[0].reason == "no URI record")
            #expect(refusals[1].reason == "no record is a media record or an unknown record")
            #expect(refusals[3].reason.contains("whose type contains 'temp'"))
            #expect(error.description.contains("tried: cupltag: no URI record; dtn1:"))
            #expect(error.description.contains("1 record(s): 'T' (8 bytes)"))
            #expect(refusals[5].reason == "no external record 'st.com:smartag'")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func nonCuplTagURIIsRefusedWithAReason() {
        let message = NDEFMessage(records: [URIRecord(uri: "https://example.com/?a=1").record])
        do {
            _ = try LoggerDecoder.decode(message, options: DecodeOptions(readTime: Self.read))
        } catch let error as LoggerFormatError {
            if case .noFormatMatched(let refusals) = error.kind {
                #expect(refusals[0].reason == "its URI record has no cuplTag query (parameters t, s, v, x, q)")
            } else {
                Issue.record("wrong kind")
            }
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func unknownLoggerName() {
        do {
            _ = try LoggerDecoder.decode(NDEFMessage(records: []), options: DecodeOptions(readTime: Self.read, logger: .named("acme")))
        } catch let error as LoggerFormatError {
            #expect(error.kind == .unknownLogger)
            #expect(error.description.contains("known: cupltag, dtn1, generic16-unix, generic16"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// DTN1 ledgers and generic16 records can both sit in unknown-type records: the
    /// device-information Text and the ledger's count decide.
    @Test func generic16WithDeviceInformationIsNotTakenForDTN1() throws {
        let message = NDEFMessage(records: [
            TextRecord(text: "VENDOR=Acme\nMODEL=T16").record,
            NDEFRecord(tnf: .unknown, payload: Data([0x3C, 0x00, 0x02, 0x01, 0xFE, 0xFF])),
        ])
        let log = try LoggerDecoder.decode(message, options: DecodeOptions(readTime: Self.read))
        #expect(log.format == "generic16")
    }

    @Test(arguments: LoggerImageFactory.kinds)
    func everyFactoryKindIsDetected(kind: String) throws {
        let temperatures = [4.0, 5.5, 11.0, 6.0]
        let message = try LoggerImageFactory.message(
            kind: kind, temperatures: temperatures, humidities: [40, 41, 42, 43],
            interval: 600, newestSampleTime: Self.read.addingTimeInterval(-120),
            readTime: Self.read, secret: "s3cret")
        let parsed = try NDEFParser.message(from: message.serialized())
        let log = try LoggerDecoder.decode(parsed, options: DecodeOptions(readTime: Self.read, secret: "s3cret"))
        #expect(log.format.name == (kind.hasPrefix("cupltag") ? "cupltag" : kind))
        #expect(log.samples.count == 4)
        #expect(log.interval == 600)
        let expectedNewest = kind == "dtn1" ? Self.read : Self.read.addingTimeInterval(-120)
        #expect(log.samples.last?.time == expectedNewest)
        if kind.hasPrefix("cupltag") {
            #expect(log.integrity.status == .verified)
            #expect(log.samples.map { $0.humidity != nil } == Array(repeating: kind == "cupltag-rh", count: 4))
        }
        let maxTemperature = log.samples.compactMap(\.temperature).max() ?? 0
        #expect(abs(maxTemperature - 11.0) < 0.05)
    }

    @Test func factoryRefusesUnknownKindAndBadIntervals() {
        #expect(throws: LoggerEncodingError.self) {
            try LoggerImageFactory.message(kind: "acme", temperatures: [1], interval: 60, newestSampleTime: Self.read)
        }
        #expect(throws: LoggerEncodingError.self) {
            try LoggerImageFactory.message(kind: "cupltag", temperatures: [1], interval: 90, newestSampleTime: Self.read)
        }
        #expect(throws: LoggerEncodingError.self) {
            try LoggerImageFactory.message(kind: "generic16", temperatures: [1], interval: 0, newestSampleTime: Self.read)
        }
    }
}

@Suite struct DescriptorResourceTests {
    @Test func resourceFolderIsFoundOnlyWhereItIs() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("resources-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        #expect(DescriptorResources.find(in: [root]) == nil)
        let folder = root.appendingPathComponent("ColdTap_LoggerFormats.resources/Descriptors")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: folder.appendingPathComponent("generic16.json"))
        #expect(DescriptorResources.find(in: [root])?.standardizedFileURL.path == folder.standardizedFileURL.path)
    }
}
