import ArchiveTestSupport
import CommandTestSupport
import EPCIS
import Foundation
import TestSupport
import Testing

/// Issue 46 item 2: a lot's journey as EPCIS 2.0 (`coldtap export epcis --lot`), on both
/// engines. A lot of a product with a GTIN travels in fridge A, then in fridge B, where a
/// sample beyond the product's discard limit ends it, and is closed as used: every hand-over
/// is an event with the lot as an LGTIN Digital Link in `quantityList` and its decision as
/// of that moment as `disposition`; each leg has a sensor event with that leg's aggregates
/// (worked out here from the samples inside the leg) and the discard as ALARM_CONDITION.
/// The document validates against GS1's schema and every eventID matches the reference hash.
@Suite struct EPCISLotExportTests {
    static let product = """
        {"name": "epcis-vaccine", "gtin": "09506000134352", "storage": {"min": 2, "max": 8},
         "allowances": [{"above": 8, "upTo": 25, "hours": 24}], "discard": [{"above": 30}]}
        """

    static func at(hours: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: LoggerFiles.start.addingTimeInterval(hours * 3600))
    }

    static func events(_ document: [String: Any]) -> [[String: Any]] {
        ((document["epcisBody"] as? [String: Any])?["eventList"] as? [[String: Any]]) ?? []
    }

    @Test(arguments: Engine.allCases) func aLotAcrossTwoLoggersExportsItsJourney(engine: Engine) async throws {
        let archive = try TestArchive(engine)
        defer { archive.remove() }
        // Fridge A holds 5 °C ± 2; fridge B adds 11 h at 12 °C (samples 150..<216) and one
        // sample at 31 °C (sample 220), beyond the discard limit.
        var changes = Dictionary(uniqueKeysWithValues: (150..<216).map { ($0, 12.0) })
        changes[220] = 31
        let fridgeA = try LoggerFiles.writeGeneric(archive, "a.ndef", 0..<144)
        let fridgeB = try LoggerFiles.writeGeneric(archive, "b.ndef", 0..<288, changes: changes)
        for (file, logger, hours) in [(fridgeA, "fridge-a", 24.0), (fridgeB, "fridge-b", 48.0)] {
            let added = await coldtap(["archive", "add", file, "--logger-id", logger, "--read-time", Self.at(hours: hours), "--archive", archive.location])
            #expect(added.status == 0, "\(added.err)")
        }
        let productFile = archive.path("product.json")
        try Data(Self.product.utf8).write(to: URL(fileURLWithPath: productFile))
        let steps: [[String]] = [
            ["product", "add", productFile, "--by", "QA"],
            ["lot", "add", "L-77", "--product", "epcis-vaccine", "--quantity", "100", "--by", "QA"],
            ["lot", "move", "L-77", "--logger", "fridge-a", "--at", Self.at(hours: 1), "--place", "fridge A", "--by", "QA"],
            ["lot", "move", "L-77", "--logger", "fridge-b", "--at", Self.at(hours: 12), "--place", "fridge B", "--by", "QA"],
            ["lot", "close", "L-77", "--at", Self.at(hours: 40), "--reason", "used", "--by", "QA"],
        ]
        for step in steps {
            let result = await coldtap(step + ["--archive", archive.location])
            #expect(result.status == 0, "\(step): \(result.err)")
        }
        let path = archive.path("lot.jsonld")
        let exported = await coldtap(["export", "epcis", "--lot", "L-77", "--archive", archive.location, "--out", path])
        #expect(exported.status == 0, "\(exported.err)")
        let events = Self.events(try jsonObject(String(contentsOfFile: path, encoding: .utf8)))

        // arriving (fridge A) · leg 1's report · storing (fridge B) · leg 2's report · dispensing.
        #expect(events.map { $0["bizStep"] as? String } == ["arriving", "sensor_reporting", "storing", "sensor_reporting", "dispensing"])
        // The moves carry no zone: the events are written in UTC.
        #expect(
            events.map { $0["eventTime"] as? String }
                == [1, 12, 12, 40, 40].map { Self.at(hours: Double($0)).replacingOccurrences(of: "Z", with: ".000+00:00") })
        let lotClass = "https://id.gs1.org/01/09506000134352/10/L-77"
        for event in events {
            let quantities = event["quantityList"] as? [[String: Any]]
            #expect(quantities?.count == 1)
            #expect(quantities?.first?["epcClass"] as? String == lotClass)
            #expect(quantities?.first?["quantity"] as? Int == 100)
            #expect(event["eventTimeZoneOffset"] as? String == "+00:00")
        }
        // The decision as of each moment: nothing is known of the lot when it arrives (no
        // CBV disposition says "inconclusive"), usable until the 31 °C sample, then discard.
        #expect(events.map { $0["disposition"] as? String } == [nil, "conformant", "conformant", "non_conformant", "non_conformant"])
        #expect(events.map { $0["coldtap:decision"] as? String } == ["INCONCLUSIVE", "USABLE", "USABLE", "DISCARD", "DISCARD"])
        #expect(events[0]["coldtap:place"] as? String == "fridge A")
        #expect(events[4]["coldtap:closed"] as? String == "used")

        // Leg 1: fridge A's samples 6..<72 (1 h to 12 h); leg 2: fridge B's 72..<240.
        for (event, range, logger) in [(events[1], 6..<72, "fridge-a"), (events[3], 72..<240, "fridge-b")] {
            let values = range.map { changes[$0] ?? LoggerFiles.value($0) }
            let mean = values.reduce(0, +) / Double(values.count)
            let aggregate = try #require(EPCISExportTests.reports(event).first { $0["exception"] == nil })
            #expect(aggregate["minValue"] as? Double == values.min())
            #expect(aggregate["maxValue"] as? Double == values.max())
            #expect(abs((aggregate["meanValue"] as? Double ?? 0) - mean) < 0.0006)
            let metadata = EPCISExportTests.metadata(event)
            #expect(metadata["deviceID"] as? String == "https://coldtap.example/ns/logger/\(logger)")
            #expect(metadata["startTime"] as? String == Self.at(hours: Double(range.lowerBound) / 6).replacingOccurrences(of: "Z", with: ".000Z"))
            #expect(metadata["coldtap:samples"] as? Int == values.count)
        }
        #expect(EPCISExportTests.reports(events[1]).allSatisfy { $0["exception"] == nil }, "fridge A's leg went beyond no limit")
        let alarms = EPCISExportTests.reports(events[3]).filter { ($0["exception"] as? String) == "ALARM_CONDITION" }
        #expect(alarms.count == 1)
        #expect(alarms.first?["coldtap:firedAt"] as? String == Self.at(hours: 220.0 / 6).replacingOccurrences(of: "Z", with: ".000Z"))

        if let result = try EPCISExportTests.validate([path]) {
            #expect(result.passed, "\(result.output)")
        }
    }

    @Test func aProductWithoutGTINNamesItsLotByColdTapsURIAndABadGTINIsRefused() async throws {
        let archive = try TestArchive(.sqlite)
        defer { archive.remove() }
        let bad = archive.path("bad.json")
        try Data(#"{"name": "p", "gtin": "09506000134353", "discard": [{"above": 30}]}"#.utf8).write(to: URL(fileURLWithPath: bad))
        let refused = await coldtap(["product", "add", bad, "--by", "QA", "--archive", archive.location])
        #expect(refused.status != 0)
        #expect(refused.err.contains("gtin"), "\(refused.err)")

        for step in [
            ["lot", "add", "L-1", "--product", "example-2-8", "--by", "QA"],
            ["lot", "move", "L-1", "--none", "--at", Self.at(hours: 1), "--by", "QA"],
        ] {
            let result = await coldtap(step + ["--archive", archive.location])
            #expect(result.status == 0, "\(step): \(result.err)")
        }
        let exported = await coldtap(["export", "epcis", "--lot", "L-1", "--archive", archive.location])
        #expect(exported.status == 0, "\(exported.err)")
        let events = Self.events(try jsonObject(exported.out))
        #expect(events.count == 1, "a leg without a logger has no sensor event")
        let quantities = events.first?["quantityList"] as? [[String: Any]]
        #expect(quantities?.first?["epcClass"] as? String == "https://coldtap.example/ns/product/example-2-8/lot/L-1")
        #expect(quantities?.first?["quantity"] == nil, "a lot kept without a quantity has none")

        let both = await coldtap(["export", "epcis", "--lot", "L-1", "--logger-id", "x", "--archive", archive.location])
        #expect(both.status == 64)
        let unknown = await coldtap(["export", "epcis", "--lot", "L-2", "--archive", archive.location])
        #expect(unknown.status != 0)
        #expect(unknown.err.contains("L-2"), "\(unknown.err)")
    }
}

/// Issue 46: a site names itself (an SGLN, any URI) and its loggers (a GIAI) in its EPCIS
/// exports with `coldtap site identify`; each setting is a leaf of the record, so that a
/// changed row fails `archive verify`, on both engines.
@Suite struct SiteIdentifierTests {
    @Test(arguments: Engine.allCases) func aSitesLocationNamesItsEventsAndAChangedOneFailsVerify(engine: Engine) async throws {
        let archive = try TestArchive(engine)
        defer { archive.remove() }
        // An SGLN is kept as the Digital Link the event hash reads it as.
        let (sgln, gln) = ("urn:epc:id:sgln:4012345.00005.0", "https://id.gs1.org/414/4012345000054")
        for step in [
            ["site", "add", "north"],
            ["lot", "add", "L-9", "--product", "example-2-8", "--site", "north", "--by", "QA"],
            ["lot", "move", "L-9", "--none", "--at", EPCISLotExportTests.at(hours: 1), "--by", "QA"],
        ] {
            let result = await coldtap(step + ["--archive", archive.location])
            #expect(result.status == 0, "\(step): \(result.err)")
        }
        let before = await coldtap(["site", "identify", "north", "--archive", archive.location])
        #expect(before.status == 0 && before.out.contains("https://coldtap.example/ns/site/north"), "\(before.out)\(before.err)")
        let set = await coldtap(["site", "identify", "north", "--location", sgln, "--by", "QA", "--archive", archive.location])
        #expect(set.status == 0, "\(set.err)")
        #expect(set.out.contains(gln), "\(set.out)")

        let path = archive.path("lot.jsonld")
        let exported = await coldtap(["export", "epcis", "--lot", "L-9", "--archive", archive.location, "--out", path])
        #expect(exported.status == 0, "\(exported.err)")
        let events = EPCISLotExportTests.events(try jsonObject(String(contentsOfFile: path, encoding: .utf8)))
        #expect(events.count == 1)
        #expect((events.first?["readPoint"] as? [String: Any])?["id"] as? String == gln)
        #expect((events.first?["bizLocation"] as? [String: Any])?["id"] as? String == gln)
        if let result = try EPCISValidator.validate([path]) { #expect(result.passed, "\(result.output)") }

        // Refused in words: not a URI, a logger the site has not, --by missing.
        let notURI = await coldtap(["site", "identify", "north", "--location", "dock 4", "--by", "QA", "--archive", archive.location])
        #expect(notURI.status != 0 && notURI.err.contains("not an absolute URI"), "\(notURI.err)")
        let notCanonical = await coldtap([
            "site", "identify", "north", "--location", "https://example.com/gln/4012345000054", "--by", "QA", "--archive", archive.location,
        ])
        #expect(notCanonical.status != 0 && notCanonical.err.contains("https://id.gs1.org/"), "\(notCanonical.err)")
        let noLogger = await coldtap([
            "site", "identify", "north", "--logger", "nobody", "--device", "urn:epc:id:giai:4000001.111", "--by", "QA", "--archive", archive.location,
        ])
        #expect(noLogger.status != 0 && noLogger.err.contains("nobody"), "\(noLogger.err)")
        let nobody = await coldtap(["site", "identify", "north", "--location", sgln, "--archive", archive.location])
        #expect(nobody.status == 64 && nobody.err.contains("--by"), "\(nobody.err)")

        #expect(try await archive.verify().problems.isEmpty)
        do {
            let opened = try archive.open()
            defer { opened.close() }
            try opened.engine.execute("UPDATE site_identifiers SET uri = $1", [.text("urn:epc:id:sgln:9999999.00001.0")])
        }
        let problems = try await archive.verify().problems
        #expect(problems.contains { $0.contains("identifier #1 of site #1") && $0.contains("uri") }, "\(problems)")
    }
}

/// The canonical Digital Links of EPC URNs, worked out by hand from GS1's rules (the GLN's
/// check digit, the extension after /254/, the GIAI's asset reference with `:` escaped);
/// the reference hash generator agrees in `SiteIdentifierTests` through the validator.
@Suite struct EPCISIdentifierTests {
    @Test func urnsBecomeTheirCanonicalDigitalLinksAndOthersStayOrAreRefused() throws {
        #expect(try EPCISIdentifier.canonical("urn:epc:id:sgln:4012345.00005.0") == "https://id.gs1.org/414/4012345000054")
        #expect(try EPCISIdentifier.canonical("urn:epc:id:sgln:0614141.00777.dock:4") == "https://id.gs1.org/414/0614141007776/254/dock%3A4")
        #expect(try EPCISIdentifier.canonical("urn:epc:id:giai:4012345.a(b)") == "https://id.gs1.org/8004/4012345a%28b%29")
        #expect(try EPCISIdentifier.canonical("https://id.gs1.org/414/4012345000054") == "https://id.gs1.org/414/4012345000054")
        #expect(try EPCISIdentifier.canonical("https://depot.example/fridges/7") == "https://depot.example/fridges/7")
        #expect(try EPCISIdentifier.canonical("urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66") == "urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66")
        for refused in [
            "urn:epc:id:sgtin:4012345.011111.1", "urn:epc:id:sgln:4012345.0005.0", "https://id.gs1.org/gln/4012345000054",
            "https://example.com/414/4012345000054?x=1",
        ] {
            #expect(throws: EPCISIdentifier.Refusal.self, "\(refused)") { try EPCISIdentifier.canonical(refused) }
        }
    }
}
