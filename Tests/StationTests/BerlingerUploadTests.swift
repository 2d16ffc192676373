import Archive
import ArchiveKit
import ArchiveTestSupport
import ColdTapBase
import Foundation
import StationTestSupport
import TestSupport
import Testing

/// A Berlinger text report uploaded to the station (docs/berlinger.md §7): its times are read
/// in the zone the uploader sends, else in the zone the site set, never a guess; the zone and
/// who gave it are kept with the read; the report of a Fridge-tag 2 judges its days.
@Suite(.serialized) struct BerlingerUploadTests {
    typealias Maker = BerlingerReportMaker

    /// A Fridge-tag 2 of a fridge that stood at 16–19 °C for two days.
    static func warmFridge(serial: String) -> Maker {
        var maker = Maker(
            model: .fridgeTag2, serial: serial, alarms: [.init(type: 1, limit: -0.5, minutes: 60), .init(type: 2, limit: 8, minutes: 600)],
            activation: "2026-03-02 08:30", reportTime: "2026-03-03 17:45")
        maker.days = [
            .init(date: "2026-03-02", min: 16.1, max: 18.9, mean: 17.2, alarms: [(0, nil), (915, "18:30")]),
            .init(date: "2026-03-03", min: 16.0, max: 19.0, mean: 17.5, alarms: [(0, nil), (1065, "00:00")]),
        ]
        return maker
    }

    @Test("the zone from the header, else the site's setting; kept with the read; the days judged", arguments: Engine.allCases)
    func zoneFromHeaderElseSite(engine: Engine) async throws {
        try await withStation(engine) { station in
            let upload = try #require(station.tokens["north-upload"])
            let reader = try #require(station.tokens["north-read"])
            let reads = station.base.appendingPathComponent("api/v1/reads")
            let text = ["Content-Type": "text/plain"]
            let first = Self.warmFridge(serial: "190000000061").report()

            // No zone from anyone: refused, saying what to send.
            var answer = try await request(reads, method: "POST", token: upload, headers: text, body: first)
            #expect(answer.status == 422, "\(answer.text)")
            #expect(answer.text.contains(UploadHeader.loggerTimeZone), "\(answer.text)")
            answer = try await request(
                reads, method: "POST", token: upload, headers: text.merging([UploadHeader.loggerTimeZone: "Mars/Olympus"]) { $1 }, body: first)
            #expect(answer.status == 400, "\(answer.text)")

            answer = try await request(
                reads, method: "POST", token: upload, headers: text.merging([UploadHeader.loggerTimeZone: "Europe/Zurich"]) { $1 }, body: first)
            #expect(answer.status == 201, "\(answer.text)")
            var document = try answer.json()
            #expect(document["verdict"] as? String == "ALARM", "\(answer.text)")
            var zone = (document["read"] as? [String: Any])?["loggerTimeZone"] as? [String: Any]
            #expect(zone?["zone"] as? String == "Europe/Zurich")
            #expect(zone?["source"] as? String == "uploader")

            // The site's zone, set with who set it, for the uploads that send none.
            do {
                let opened = try station.archive.open()
                defer { opened.close() }
                let store = try StationStore(archive: opened)
                let north = try #require(try store.site(named: "north"))
                let kept = try store.setLoggerTimeZone("+01:00", siteID: north.id, setBy: "the test")
                #expect(kept.setting == 1)
                #expect(try store.loggerTimeZone(siteID: north.id)?.zone == "+01:00")
            }
            answer = try await request(reads, method: "POST", token: upload, headers: text, body: Self.warmFridge(serial: "190000000062").report())
            #expect(answer.status == 201, "\(answer.text)")
            document = try answer.json()
            zone = (document["read"] as? [String: Any])?["loggerTimeZone"] as? [String: Any]
            #expect(zone?["zone"] as? String == "+01:00")
            #expect(zone?["source"] as? String == "site")
            // Another site set none: its upload is still refused.
            let south = try #require(station.tokens["south-upload"])
            answer = try await request(reads, method: "POST", token: south, headers: text, body: Self.warmFridge(serial: "190000000063").report())
            #expect(answer.status == 422, "\(answer.text)")

            // The logger's report sees the days and judges them.
            let page = try await request(
                station.base.appendingPathComponent("api/v1/loggers/fridge-tag-2:190000000062/report.html"), token: reader)
            #expect(page.status == 200, "\(page.text.prefix(500))")
            #expect(page.text.contains("ALARM"))

            // The setting is a leaf of the record, and the kept days decode again.
            let opened = try station.archive.open()
            defer { opened.close() }
            let report = try await opened.verify(decoder: ArchivedReads.decoder)
            #expect(report.problems.isEmpty, "\(report.problems)")
            let leaves = try opened.engine.scalarInt("SELECT COUNT(*) FROM record_leaves WHERE kind = 'site_logger_time_zone'")
            #expect(leaves == 1)
            try opened.engine.execute("UPDATE site_logger_time_zones SET zone = 'UTC'")
            let edited = try await opened.verify(decoder: ArchivedReads.decoder)
            #expect(edited.problems.contains { $0.contains("logger time zone setting #1 of site #1") && $0.contains("zone") }, "\(edited.problems)")
        }
    }
}
