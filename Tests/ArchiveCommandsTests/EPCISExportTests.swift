import ArchiveTestSupport
import CommandTestSupport
import Foundation
import TestSupport
import Testing

/// Issue 46: a logger's record as EPCIS 2.0 (`coldtap export epcis`), on both engines: one
/// event per kept read, aggregates of the samples each read added (checked against values
/// worked out here), an ALARM_CONDITION exactly on the read whose samples fired a rule,
/// estimated read times flagged; every document valid against GS1's JSON Schema with
/// format checking and every eventID equal to the reference event hash generator's
/// (scripts/lib/validate_epcis.py, from .venv).
@Suite struct EPCISExportTests {
    /// Runs the validator on `documents`; its output and whether it passed (`nil`, said, where ../shared is absent).
    static func validate(_ documents: [String]) throws -> (passed: Bool, output: String)? { try EPCISValidator.validate(documents) }

    static func reports(_ event: [String: Any]) -> [[String: Any]] {
        ((event["sensorElementList"] as? [[String: Any]])?.first?["sensorReport"] as? [[String: Any]]) ?? []
    }

    static func metadata(_ event: [String: Any]) -> [String: Any] {
        ((event["sensorElementList"] as? [[String: Any]])?.first?["sensorMetadata"] as? [String: Any]) ?? [:]
    }

    @Test(arguments: Engine.allCases) func aLoggerWithAnAlarmAndOneWithoutExportValidDocuments(engine: Engine) async throws {
        let archive = try TestArchive(engine)
        defer { archive.remove() }
        // An alarm logger: a day, then a read overlapping it by half a day whose new part
        // holds 11 h at 12 °C (vaccine-fridge fires after 10 h above 8 °C).
        let first = try LoggerFiles.writeGeneric(archive, "a1.ndef", 0..<144)
        let second = try LoggerFiles.writeGeneric(
            archive, "a2.ndef", 72..<288, changes: Dictionary(uniqueKeysWithValues: (150..<216).map { ($0, 12.0) }))
        let calm = try LoggerFiles.writeGeneric(archive, "ok.ndef", 0..<144)
        for (file, logger, hours) in [(first, "fridge-alarm", 24), (second, "fridge-alarm", 48), (calm, "fridge-ok", 24)] {
            let readTime = LoggerFiles.start.addingTimeInterval(Double(hours * 3600)).isoUTCText
            let added = await coldtap(["archive", "add", file, "--logger-id", logger, "--read-time", readTime, "--archive", archive.location])
            #expect(added.status == 0, "\(added.err)")
        }
        var paths: [String] = []
        var documents: [String: [String: Any]] = [:]
        for logger in ["fridge-alarm", "fridge-ok"] {
            let path = archive.path("\(logger).jsonld")
            let exported = await coldtap(["export", "epcis", "--logger-id", logger, "--archive", archive.location, "--out", path])
            #expect(exported.status == 0, "\(exported.err)")
            #expect(exported.out.isEmpty)
            paths.append(path)
            documents[logger] = try jsonObject(String(contentsOfFile: path, encoding: .utf8))
        }

        let alarmEvents = try #require((documents["fridge-alarm"]?["epcisBody"] as? [String: Any])?["eventList"] as? [[String: Any]])
        #expect(alarmEvents.count == 2)
        #expect(Self.reports(alarmEvents[0]).allSatisfy { $0["exception"] == nil }, "the first read fired no rule")
        let alarms = Self.reports(alarmEvents[1]).filter { ($0["exception"] as? String) == "ALARM_CONDITION" }
        #expect(alarms.count == 1, "\(Self.reports(alarmEvents[1]))")
        #expect((alarms.first?["coldtap:rule"] as? String)?.contains("8") == true)
        #expect(Self.metadata(alarmEvents[1])["coldtap:newSamples"] as? Int == 144)
        #expect(alarmEvents[1]["bizStep"] as? String == "sensor_reporting")
        #expect((alarmEvents[1]["eventID"] as? String)?.hasPrefix("ni:///sha-256;") == true)

        // The calm logger's one read: aggregates of samples 0..<144 worked out here.
        let okEvents = try #require((documents["fridge-ok"]?["epcisBody"] as? [String: Any])?["eventList"] as? [[String: Any]])
        #expect(okEvents.count == 1)
        let values = LoggerFiles.series(0..<144)
        let mean = values.reduce(0, +) / Double(values.count)
        let deviation = (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)).squareRoot()
        let aggregate = try #require(Self.reports(okEvents[0]).first)
        #expect(aggregate["type"] as? String == "Temperature")
        #expect(aggregate["uom"] as? String == "CEL")
        #expect(aggregate["minValue"] as? Double == values.min())
        #expect(aggregate["maxValue"] as? Double == values.max())
        #expect(abs((aggregate["meanValue"] as? Double ?? 0) - mean) < 0.0006)
        #expect(abs((aggregate["sDev"] as? Double ?? 0) - deviation) < 0.0006)
        #expect(Self.reports(okEvents[0]).allSatisfy { $0["exception"] == nil })
        let metadata = Self.metadata(okEvents[0])
        #expect(metadata["startTime"] as? String == "2026-01-01T00:00:00.000Z")
        #expect(metadata["endTime"] as? String == "2026-01-01T23:50:00.000Z")
        #expect(metadata["coldtap:readTime"] == nil, "a read time given is not an estimate")

        if let result = try Self.validate(paths) {
            #expect(result.passed, "\(result.output)")
        }
    }

    @Test func anEstimatedReadTimeIsFlaggedAndAForgedEventIDIsCaught() async throws {
        let archive = try TestArchive(.sqlite)
        defer { archive.remove() }
        let file = try LoggerFiles.writeGeneric(archive, "r.ndef", 0..<36)
        // No --read-time: the file's modification time stands in, an estimate.
        #expect(await coldtap(["archive", "add", file, "--logger-id", "f", "--archive", archive.location]).status == 0)
        let exported = await coldtap(["export", "epcis", "--logger-id", "f", "--samples", "--archive", archive.location])
        #expect(exported.status == 0, "\(exported.err)")
        let document = try jsonObject(exported.out)
        let events = try #require((document["epcisBody"] as? [String: Any])?["eventList"] as? [[String: Any]])
        #expect(Self.metadata(events[0])["coldtap:readTime"] as? String == "estimated")
        #expect(Self.reports(events[0]).filter { $0["value"] != nil }.count == 36, "--samples gives every sample")

        let good = archive.path("good.jsonld")
        try Data(exported.out.utf8).write(to: URL(fileURLWithPath: good))
        let forged = archive.path("forged.jsonld")
        try Data(exported.out.replacingOccurrences(of: "\"sensor_reporting\"", with: "\"storing\"").utf8).write(to: URL(fileURLWithPath: forged))
        if let result = try Self.validate([good]) { #expect(result.passed, "\(result.output)") }
        if let result = try Self.validate([forged]) {
            #expect(!result.passed, "a changed bizStep must no longer match its eventID")
            #expect(result.output.contains("reference hash"), "\(result.output)")
        }
    }

    @Test func anUnknownLoggerAndAMissingIDAreRefusedInWords() async throws {
        let archive = try TestArchive(.sqlite)
        defer { archive.remove() }
        let file = try LoggerFiles.writeGeneric(archive, "r.ndef", 0..<6)
        #expect(await coldtap(["archive", "add", file, "--logger-id", "f", "--archive", archive.location]).status == 0)
        let unknown = await coldtap(["export", "epcis", "--logger-id", "nobody", "--archive", archive.location])
        #expect(unknown.status != 0)
        #expect(unknown.err.contains("nobody"), "\(unknown.err)")
        let missing = await coldtap(["export", "epcis", "--archive", archive.location])
        #expect(missing.status == 64)
        #expect(missing.err.contains("--logger-id"), "\(missing.err)")
    }
}

extension Date {
    fileprivate var isoUTCText: String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: self)
    }
}
