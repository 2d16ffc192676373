import Archive
import ArchiveKit
import ArchiveTestSupport
import ColdTapBase
import Foundation
import Station
import StationTestSupport
import TestSupport
import Testing

/// Lots over the station's API (docs/stability.md): docs/stability.md's worked example
/// uploaded, made and moved through the API, its status the document's figures and the
/// archive's own JSON; sites never reach each other's lots or loggers.
@Suite("Station lots", .serialized)
struct StationLotTests {
    static func iso(_ date: Date) -> String { date.isoUTCWholeSeconds }

    static func json(_ object: Any) throws -> Data { try JSONSerialization.data(withJSONObject: object) }

    /// POSTs a JSON object to `path` with `token`.
    static func post(_ station: TestStation, _ path: String, token: String, _ object: [String: Any]) async throws -> Answer {
        try await request(
            station.base.appendingPathComponent(path), method: "POST", token: token, headers: ["Content-Type": "application/json"], body: try json(object))
    }

    /// The example's loggers uploaded by north with their ids, its product registered (there
    /// is no product API), its lot made and moved through the API.
    static func keepExample(_ station: TestStation, _ example: StabilityExample) async throws {
        let upload = try #require(station.tokens["north-upload"])
        for leg in example.legs {
            guard let logger = leg.logger else { continue }
            let answer = try await request(
                station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: upload,
                headers: ["Content-Type": "application/octet-stream", UploadHeader.loggerID: logger], body: try LoggerFiles.hourly(leg.samples))
            #expect(answer.status == 201, "\(answer.text)")
        }
        do {
            let archive = try Archive.open(station.archive.location)
            defer { archive.close() }
            try archive.addProduct(json: example.productJSON, addedBy: "QA")
        }
        let made = try await post(
            station, "api/v1/lots", token: upload, ["lot": example.lot, "product": example.productName, "quantity": 200, "note": "MMR, 200 vials"])
        #expect(made.status == 201, "\(made.text)")
        #expect(made.header("Location") == "/api/v1/lots/\(example.lot)")
        let lot = try made.json()
        #expect(lot["lot"] as? String == example.lot && lot["product"] as? String == example.productName && lot["productVersion"] as? Int == 1)
        #expect((lot["createdBy"] as? String)?.hasPrefix("token #") == true)
        for leg in example.legs {
            let moved = try await post(
                station, "api/v1/lots/\(example.lot)/moves", token: upload, ["logger": leg.logger ?? NSNull(), "at": iso(leg.from), "place": "dock"])
            #expect(moved.status == 201, "\(moved.text)")
            let move = try moved.json()
            #expect(
                move["logger"] as? String == leg.logger && move["origin"] as? String == "station"
                    && move["kind"] as? String == (leg.logger == nil ? "none" : "logger"))
        }
    }

    static func siteID(_ station: TestStation, _ name: String) throws -> Int64 {
        let archive = try Archive.open(station.archive.location)
        defer { archive.close() }
        return try #require(try StationStore(archive: archive).site(named: name)).id
    }

    @Test("the worked example through the API: the document's figures, the archive's JSON", arguments: Engine.allCases)
    func workedExample(engine: Engine) async throws {
        let example = try StabilityExample.load()
        try await withStation(engine) { station in
            try await Self.keepExample(station, example)
            let reader = try #require(station.tokens["north-read"])
            let upload = try #require(station.tokens["north-upload"])
            var components = URLComponents(url: station.base.appendingPathComponent("api/v1/lots/\(example.lot)"), resolvingAgainstBaseURL: false)!
            components.queryItems = [URLQueryItem(name: "at", value: Self.iso(example.statusTime))]
            let answer = try await request(components.url!, token: reader)
            #expect(answer.status == 200, "\(answer.text)")
            let status = try answer.json()
            #expect(abs((status["consumed"] as? Double ?? -1) - (try example.number("consumed"))) < 0.00005)
            #expect(status["consumedBy"] as? String == example.figures["consumedBy"])
            #expect(abs((status["kineticsConsumed"] as? Double ?? -1) - (try example.number("kineticsConsumed"))) < 0.00005)
            #expect(status["unknownSeconds"] as? Int == Int(try example.number("unknownSeconds")))
            #expect(status["decision"] as? String == example.figures["decision"])
            let legs = try #require(status["legs"] as? [[String: Any]])
            #expect(legs.map { $0["logger"] as? String } == example.legs.map(\.logger))
            for (leg, figures) in zip(legs, example.legFigures) {
                #expect(abs((leg["consumed"] as? Double ?? -1) - figures.consumed) < 0.00005)
                #expect(leg["unknownSeconds"] as? Int == Int(figures.unknownHours * 3600))
            }
            // Byte for byte the archive's own status JSON (`coldtap lot status --json`).
            let northID = try Self.siteID(station, "north")
            let expected: String
            do {
                let archive = try Archive.open(station.archive.location)
                defer { archive.close() }
                expected = LotJSON.status(try archive.lotJourney(example.lot, siteID: northID, at: example.statusTime).status).serialized(pretty: false) + "\n"
            }
            #expect(answer.text == expected)

            // Closed at the status time: now is the close, and the list shows the decision.
            let closed = try await Self.post(
                station, "api/v1/lots/\(example.lot)/close", token: upload, ["at": Self.iso(example.statusTime), "reason": "used"])
            #expect(closed.status == 201, "\(closed.text)")
            #expect(try closed.json()["reason"] as? String == "used")
            let plain = try await request(station.base.appendingPathComponent("api/v1/lots/\(example.lot)"), token: reader)
            #expect(plain.text == expected)
            let list = try await request(station.base.appendingPathComponent("api/v1/lots"), token: reader)
            #expect(list.status == 200)
            let lots = try #require(try list.json()["lots"] as? [[String: Any]])
            #expect(lots.map { $0["lot"] as? String } == [example.lot])
            #expect(lots.first?["decision"] as? String == example.figures["decision"])
            #expect(abs((lots.first?["consumed"] as? Double ?? -1) - 0.5) < 0.00005)
            // A closed lot takes no more moves.
            let late = try await Self.post(
                station, "api/v1/lots/\(example.lot)/moves", token: upload, ["logger": NSNull(), "at": Self.iso(example.statusTime)])
            #expect(late.status == 409, "\(late.text)")
            // The lot report for the reviewer, in the caller's language, under a checkpoint.
            for (language, word) in [("en", "USABLE"), ("ja", "使用可")] {
                var components = try #require(
                    URLComponents(url: station.base.appendingPathComponent("api/v1/lots/\(example.lot)/report.html"), resolvingAgainstBaseURL: false))
                components.queryItems = [URLQueryItem(name: "lang", value: language)]
                let html = try await request(try #require(components.url), token: reader)
                #expect(html.status == 200 && html.text.contains(word) && html.text.contains("depot-fridge"), "\(html.status)")
            }
            let pdf = try await request(station.base.appendingPathComponent("api/v1/lots/\(example.lot)/report.pdf"), token: reader)
            #expect(pdf.status == 200 && pdf.body.starts(with: Data("%PDF".utf8)))
            #expect(try await request(station.base.appendingPathComponent("api/v1/lots/\(example.lot)/report.png"), token: reader).status == 404)
            // Every write is a leaf of the record, and the record still holds together.
            #expect(try await station.archive.verify().problems.isEmpty)
        }
    }

    @Test(
        "a lot's journey and a logger's record as EPCIS 2.0 over the API: the command line's events, valid, another site's unreachable",
        arguments: Engine.allCases)
    func epcis(engine: Engine) async throws {
        let example = try StabilityExample.load()
        try await withStation(engine) { station in
            try await Self.keepExample(station, example)
            let reader = try #require(station.tokens["north-read"])
            let southReader = try #require(station.tokens["south-read"])
            let fridge = try #require(example.legs.compactMap(\.logger).first)
            // North names itself by a GLN's Digital Link and the fridge by a GIAI.
            let northID = try Self.siteID(station, "north")
            let (place, giai) = ("https://id.gs1.org/414/4012345000054", "https://id.gs1.org/8004/4012345fridge7")
            try station.archive.withStore { store in
                try EPCISExport.identify(.location, as: place, siteID: northID, by: "QA", in: store)
                try EPCISExport.identify(.logger(fridge), as: "urn:epc:id:giai:4012345.fridge7", siteID: northID, by: "QA", in: store)
            }
            let lot = try await request(station.base.appendingPathComponent("api/v1/lots/\(example.lot)/epcis"), token: reader)
            #expect(lot.status == 200, "\(lot.text)")
            #expect(lot.header("Content-Type") == "application/ld+json; charset=utf-8")
            let logger = try await request(station.base.appendingPathComponent("api/v1/loggers/\(fridge)/epcis"), token: reader)
            #expect(logger.status == 200, "\(logger.text)")

            // The same events the rule book gives the command line (the export's moment aside).
            func eventIDs(_ document: [String: Any]) -> [String] {
                (((document["epcisBody"] as? [String: Any])?["eventList"] as? [[String: Any]]) ?? []).compactMap { $0["eventID"] as? String }
            }
            let names = EPCISExport.Names(place: place, devices: [fridge: giai])
            let expected: (lot: [String], logger: [String])
            do {
                let archive = try Archive.open(station.archive.location)
                defer { archive.close() }
                expected = (
                    try EPCISExport.lotEvents(.init(lotID: example.lot, siteID: northID, names: names), archive: archive).map(\.eventID),
                    try EPCISExport.loggerEvents(.init(loggerID: fridge, names: names), archive: archive).map(\.eventID)
                )
            }
            let (lotIDs, loggerIDs) = (eventIDs(try lot.json()), eventIDs(try logger.json()))
            #expect(!expected.lot.isEmpty && lotIDs == expected.lot)
            #expect(!expected.logger.isEmpty && loggerIDs == expected.logger)
            let lotEvents = ((try lot.json()["epcisBody"] as? [String: Any])?["eventList"] as? [[String: Any]]) ?? []
            #expect(lotEvents.allSatisfy { ($0["readPoint"] as? [String: Any])?["id"] as? String == place })
            #expect(lotEvents.contains { $0["coldtap:logger"] as? String == giai })
            #expect(logger.text.contains("\"deviceID\":\"\(giai)\""))
            let lotPath = station.archive.path("lot.jsonld")
            let loggerPath = station.archive.path("logger.jsonld")
            try lot.body.write(to: URL(fileURLWithPath: lotPath))
            try logger.body.write(to: URL(fileURLWithPath: loggerPath))
            if let result = try EPCISValidator.validate([lotPath, loggerPath]) {
                #expect(result.passed, "\(result.output)")
            }

            // Another site's reader meets what an unknown name meets, and no name.
            let southLot = try await request(station.base.appendingPathComponent("api/v1/lots/\(example.lot)/epcis"), token: southReader)
            let noLot = try await request(station.base.appendingPathComponent("api/v1/lots/NOSUCH-1/epcis"), token: southReader)
            #expect(southLot.status == 404 && southLot.text == noLot.text && !southLot.text.contains(example.lot), "\(southLot.text)")
            let southLogger = try await request(station.base.appendingPathComponent("api/v1/loggers/\(fridge)/epcis"), token: southReader)
            #expect(southLogger.status == 404 && !southLogger.text.contains(fridge), "\(southLogger.text)")
            // A period that is not one is refused in words; an unknown query field too.
            var components = try #require(
                URLComponents(url: station.base.appendingPathComponent("api/v1/loggers/\(fridge)/epcis"), resolvingAgainstBaseURL: false))
            components.queryItems = [URLQueryItem(name: "from", value: "yesterday")]
            let badPeriod = try await request(try #require(components.url), token: reader)
            #expect(badPeriod.status == 400 && badPeriod.text.contains("from"), "\(badPeriod.text)")
            components.queryItems = [URLQueryItem(name: "samples", value: "1")]
            #expect(try await request(try #require(components.url), token: reader).status == 400)
        }
    }

    @Test("sites cannot see or move each other's lots, nor move a lot onto another site's logger", arguments: Engine.allCases)
    func siteIsolation(engine: Engine) async throws {
        let example = try StabilityExample.load()
        try await withStation(engine) { station in
            try await Self.keepExample(station, example)
            let north = try #require(station.tokens["north-upload"])
            let south = try #require(station.tokens["south-upload"])
            let southReader = try #require(station.tokens["south-read"])
            let fridge = try #require(example.legs.first { $0.logger != nil })
            let uploaded = try await request(
                station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: south,
                headers: ["Content-Type": "application/octet-stream", UploadHeader.loggerID: "south-fridge"], body: try LoggerFiles.hourly(fridge.samples))
            #expect(uploaded.status == 201, "\(uploaded.text)")

            func noName(_ answer: Answer, _ names: [String]) {
                #expect(answer.status == 404, "\(answer.text)")
                for name in names { #expect(!answer.text.contains(name), "\(answer.text)") }
            }
            let seen = try await request(station.base.appendingPathComponent("api/v1/lots/\(example.lot)"), token: southReader)
            noName(seen, [example.lot])
            let report = try await request(station.base.appendingPathComponent("api/v1/lots/\(example.lot)/report.pdf"), token: southReader)
            #expect(report.text == seen.text)
            let unknown = try await request(station.base.appendingPathComponent("api/v1/lots/NOSUCH-1"), token: southReader)
            #expect(unknown.text == seen.text)
            noName(
                try await Self.post(station, "api/v1/lots/\(example.lot)/moves", token: south, ["logger": "south-fridge", "at": Self.iso(example.statusTime)]),
                [example.lot, "south-fridge"])
            noName(
                try await Self.post(station, "api/v1/lots/\(example.lot)/close", token: south, ["at": Self.iso(example.statusTime), "reason": "used"]),
                [example.lot])
            let southList = try await request(station.base.appendingPathComponent("api/v1/lots"), token: southReader)
            #expect(southList.status == 200)
            #expect((try southList.json()["lots"] as? [Any])?.isEmpty == true)

            // South's own lot of the same name is its own; onto north's logger it cannot go.
            let own = try await Self.post(station, "api/v1/lots", token: south, ["lot": example.lot, "product": "example-2-8"])
            #expect(own.status == 201, "\(own.text)")
            let ontoNorth = try await Self.post(
                station, "api/v1/lots/\(example.lot)/moves", token: south, ["logger": fridge.logger ?? "", "at": Self.iso(example.statusTime)])
            noName(ontoNorth, [fridge.logger ?? "", example.lot])
            let ontoNobody = try await Self.post(
                station, "api/v1/lots/\(example.lot)/moves", token: south, ["logger": "no-such-logger", "at": Self.iso(example.statusTime)])
            #expect(ontoNobody.text == ontoNorth.text)
            // North cannot move its lot onto south's logger either.
            noName(
                try await Self.post(station, "api/v1/lots/\(example.lot)/moves", token: north, ["logger": "south-fridge", "at": Self.iso(example.statusTime)]),
                ["south-fridge", example.lot])
            // North's lot is as it was: four moves, its status the document's.
            let archive = try Archive.open(station.archive.location)
            defer { archive.close() }
            #expect(try archive.lotMoves(example.lot, siteID: try Self.siteID(station, "north")).count == example.legs.count)
            #expect(try archive.lotMoves(example.lot, siteID: try Self.siteID(station, "south")).isEmpty)
        }
    }

    @Test("what the lot routes refuse: scopes, bodies, names, products, duplicates", arguments: [Engine.sqlite])
    func refusals(engine: Engine) async throws {
        try await withStation(engine) { station in
            let upload = try #require(station.tokens["north-upload"])
            let reader = try #require(station.tokens["north-read"])
            func expect(_ answer: Answer, _ status: Int, mentions: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
                #expect(answer.status == status, "\(answer.text)", sourceLocation: sourceLocation)
                if let mentions { #expect(answer.text.contains(mentions), "\(answer.text)", sourceLocation: sourceLocation) }
                if status >= 400 { #expect((try? answer.json())?["error"] != nil, sourceLocation: sourceLocation) }
            }
            let before = try station.archive.fingerprint()
            expect(try await Self.post(station, "api/v1/lots", token: reader, ["lot": "L1", "product": "example-2-8"]), 403)
            expect(try await Self.post(station, "api/v1/lots", token: upload, ["lot": 5, "product": "example-2-8"]), 400, mentions: "\\\"lot\\\"")
            expect(try await Self.post(station, "api/v1/lots", token: upload, ["lot": "a lot", "product": "example-2-8"]), 400, mentions: "\\\"lot\\\"")
            expect(
                try await Self.post(station, "api/v1/lots", token: upload, ["lot": "L1", "product": "example-2-8", "colour": "red"]), 400, mentions: "colour")
            expect(
                try await Self.post(station, "api/v1/lots", token: upload, ["lot": "L1", "product": "example-2-8", "quantity": 1.5]), 400, mentions: "quantity")
            expect(
                try await Self.post(station, "api/v1/lots", token: upload, ["lot": "L1", "product": "example-2-8", "quantity": true]), 400, mentions: "quantity"
            )
            expect(try await Self.post(station, "api/v1/lots", token: upload, ["lot": "L1", "product": "nonesuch"]), 422, mentions: "nonesuch")
            let notJSON = try await request(
                station.base.appendingPathComponent("api/v1/lots"), method: "POST", token: upload, headers: ["Content-Type": "application/json"],
                body: Data("[1]".utf8))
            expect(notJSON, 400)
            expect(try await request(station.base.appendingPathComponent("api/v1/lots/a%20lot"), token: reader), 400)
            expect(try await request(station.base.appendingPathComponent("api/v1/lots"), method: "DELETE", token: upload), 405)
            #expect(try station.archive.fingerprint() == before)

            expect(try await Self.post(station, "api/v1/lots", token: upload, ["lot": "L1", "product": "example-2-8"]), 201)
            expect(try await Self.post(station, "api/v1/lots", token: upload, ["lot": "L1", "product": "vvm7"]), 409)
            expect(try await Self.post(station, "api/v1/lots/L1/moves", token: upload, ["at": "2026-03-02T22:00:00Z"]), 400, mentions: "logger")
            expect(try await Self.post(station, "api/v1/lots/L1/moves", token: upload, ["logger": NSNull(), "at": "yesterday"]), 400, mentions: "at")
            expect(try await Self.post(station, "api/v1/lots/L1/moves", token: upload, ["logger": NSNull(), "at": "1999-01-01T00:00:00Z"]), 422)
            expect(
                try await Self.post(station, "api/v1/lots/L1/close", token: upload, ["at": "2026-03-02T22:00:00Z", "reason": "lost"]), 400, mentions: "reason")
            expect(try await Self.post(station, "api/v1/lots/L1/moves", token: upload, ["logger": NSNull(), "at": "2026-03-02T22:00:00Z"]), 201)
            expect(try await Self.post(station, "api/v1/lots/L1/close", token: upload, ["at": "2026-03-01T22:00:00Z", "reason": "used"]), 422)
            var query = URLComponents(url: station.base.appendingPathComponent("api/v1/lots/L1"), resolvingAgainstBaseURL: false)!
            query.queryItems = [URLQueryItem(name: "at", value: "soon")]
            expect(try await request(query.url!, token: reader), 400, mentions: "at")
        }
    }
}

/// The lot pages: the list from the overview's tab, a lot's page with its decision, budget
/// bar, legs and loggers; another site's lot is the same "not found" page as none.
@Suite("Station lot pages", .serialized)
struct StationLotPagesTests {
    @Test("the lots tab and a lot's page: decision, budget bar, the legs over their loggers, the largest consumers")
    func lotPages() async throws {
        let example = try StabilityExample.load()
        try await withStation(.sqlite) { station in
            try await StationLotTests.keepExample(station, example)
            let upload = try #require(station.tokens["north-upload"])
            let closed = try await StationLotTests.post(
                station, "api/v1/lots/\(example.lot)/close", token: upload, ["at": StationLotTests.iso(example.statusTime), "reason": "used"])
            #expect(closed.status == 201, "\(closed.text)")
            let cookie = try signInWithToken(station, try #require(station.tokens["north-read"]))

            let overview = try page(station, "GET", "/", cookie: cookie)
            #expect(overview.status == 200)
            #expect(overview.body.contains("<a href=\"/lots\">Lots</a>"))
            let list = try page(station, "GET", "/lots", cookie: cookie)
            #expect(list.status == 200)
            #expect(list.body.contains("href=\"/lots/\(example.lot)\""))
            #expect(list.body.contains("class=\"verdict v-OK\">USABLE<"))
            #expect(list.body.contains("<svg class=\"budget\""))

            let lot = try page(station, "GET", "/lots/\(example.lot)", cookie: cookie)
            #expect(lot.status == 200)
            let html = lot.body
            #expect(html.contains("<div class=\"banner v-OK\">USABLE"))
            #expect(html.contains("<svg class=\"budget wide\"") && html.contains("class=\"f-shade s-inconclusive unknown\""))
            #expect(html.contains("<svg class=\"chart journey\""))
            for logger in example.legs.compactMap(\.logger) {
                #expect(html.contains("<a href=\"/loggers/\(logger)\">\(logger)</a>"), "leg logger \(logger)")
            }
            #expect(html.contains("class=\"f-gap unlogged\""))
            // The depot's 3 hours at 27 °C consumed the most: first among the highlighted.
            #expect(html.contains("#1 0.25"))
            #expect(html.components(separatedBy: "class=\"f-shade s-fail consumer\"").count - 1 == 3)
            #expect(html.contains("<td>&gt; 25 °C and ≤ 30 °C</td><td class=\"num\">3 h</td><td class=\"num\">12 h</td><td class=\"num\">0.25</td>"))
            #expect(html.contains("<ul class=\"reasons\">"))
            #expect(!html.contains("<script"))
            if let folder = ProcessInfo.processInfo.environment["COLDTAP_KEEP_LOT_PAGE"] {
                try Data(html.utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent("lot.html"))
                try Data(list.body.utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent("lots.html"))
            }

            // Another site's lot, and no lot, are the same page.
            let southCookie = try signInWithToken(station, try #require(station.tokens["south-read"]))
            let other = try page(station, "GET", "/lots/\(example.lot)", cookie: southCookie)
            let none = try page(station, "GET", "/lots/NOSUCH-1", cookie: southCookie)
            #expect(other.status == 404 && none.status == 404)
            func main(_ answer: PageAnswer) -> String { answer.body.components(separatedBy: "<main>").last ?? "" }
            #expect(main(other) == main(none) && !main(other).contains(example.lot))
            #expect(try page(station, "GET", "/lots", cookie: southCookie).body.contains("This site has no lots yet."))
        }
    }
}
