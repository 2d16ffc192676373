import ColdTapBase
import ColdTapKit
import Digest
import Foundation
import LoggerFormats
import TestSupport
import Testing

@testable import ColdTapCommands

/// `coldtap decode` and `report` of Berlinger text reports (docs/berlinger.md): the zone
/// required and kept, the device signature checked (our own key pairs; the public reports
/// beside the repository when present), a summary-only log judged and drawn.
@Suite struct BerlingerCommandTests {
    typealias Maker = BerlingerReportMaker

    static func warmFridgeTag2() -> Maker {
        var maker = Maker(
            model: .fridgeTag2, serial: "190000000021", alarms: [.init(type: 1, limit: -0.5, minutes: 60), .init(type: 2, limit: 8, minutes: 600)],
            activation: "2026-03-02 08:30", reportTime: "2026-03-05 17:45")
        maker.days = [
            .init(date: "2026-03-02", min: 16.1, max: 18.9, mean: 17.2, alarms: [(0, nil), (915, "18:30")]),
            .init(date: "2026-03-03", min: 16.0, max: 19.0, mean: 17.5, alarms: [(0, nil), (1440, "00:00")]),
            .init(date: "2026-03-04", min: 16.6, max: 18.4, mean: 17.6, alarms: [(0, nil), (1440, "00:00")]),
            .init(date: "2026-03-05", min: 16.4, max: 18.2, mean: 17.0, alarms: [(0, nil), (1065, "00:00")]),
        ]
        return maker
    }

    /// Two little-endian 32-byte numbers as the device prints them.
    static func printed(_ pair: [UInt8]) -> String {
        (Array(pair[0..<32].reversed()) + Array(pair[32..<64].reversed())).hexString(uppercase: false)
    }

    /// Signs as a device of a lot whose certificate `root` signed.
    static func signer(lot: ECDSAP256.KeyPair, root: ECDSAP256.KeyPair) -> Maker.Signer {
        Maker.Signer(
            publicKey: printed(lot.publicKey),
            signCertificate: { printed(root.signature(digest: BerlingerSignature.digest($0)) ?? []) },
            signReport: { printed(lot.signature(digest: BerlingerSignature.digest($0)) ?? []) })
    }

    @Test func decodeRefusesWithoutAZoneNamingTheOption() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let maker = Self.warmFridgeTag2()
        let path = try files.write(maker.fileName, maker.report())
        let result = await runColdTap(["decode", path, "--json"])
        #expect(result.status == 65)
        #expect(result.err.contains("--logger-tz"), "\(result.err)")
        #expect(result.err.contains("no time zone"), "\(result.err)")
    }

    @Test func decodeJSONHasTheDaysTheZoneAndTheDevice() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let maker = Self.warmFridgeTag2()
        let path = try files.write(maker.fileName, maker.report())
        let result = await runColdTap(["decode", path, "--logger-tz", "Europe/Berlin", "--json"])
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "fridge-tag-2")
        let logger = try #require(object["logger"] as? [String: Any])
        #expect(logger["vendor"] as? String == "Berlinger")
        #expect(logger["model"] as? String == "Q-tag Fridge-tag 2")
        #expect(logger["serial"] as? String == "190000000021")
        #expect(logger["firmware"] as? String == "9.9t0")
        #expect(object["loggerTimeZone"] as? String == "Europe/Berlin")
        #expect((object["timeBaseDetail"] as? String)?.contains("Europe/Berlin") == true)
        let days = try #require(object["dailySummaries"] as? [[String: Any]])
        #expect(days.count == 4)
        #expect(days.first?["date"] as? String == "2026-03-02")
        #expect(days.first?["minTime"] as? String == "2026-03-02T04:10:00Z")
        let alarms = try #require(days.first?["alarms"] as? [[String: Any]])
        #expect(alarms.map { $0["alarm"] as? String } == ["low", "high"])
        #expect(alarms[1]["seconds"] as? Double == 54_900)
        #expect(alarms[1]["allowedSeconds"] as? Double == 36_000)
        #expect(alarms[1]["start"] as? String == "2026-03-02T07:30:00Z")
        #expect((object["integrity"] as? [String: Any])?["status"] as? String == "failed")
        // The zone set by a fixed offset is kept as given.
        let offset = await runColdTap(["decode", path, "--logger-tz", "+05:30", "--json"])
        #expect(offset.out.contains("\"loggerTimeZone\""), "\(offset.err)")
    }

    @Test func formatsListsTheFourReports() async {
        let result = await runColdTap(["formats"])
        for name in ["fridge-tag-2", "fridge-tag-2l", "fridge-tag-ul", "q-tag-clm-doc"] {
            #expect(result.out.contains("  \(name) "), "\(name)")
        }
    }

    @Test func ourOwnSignedReportVerifiesUnderItsRootAndFailsWhenAltered() throws {
        let root = try #require(ECDSAP256.KeyPair())
        let lot = try #require(ECDSAP256.KeyPair())
        let report = Self.warmFridgeTag2().report(signer: Self.signer(lot: lot, root: root))
        #expect(BerlingerSignature.check(report, roots: [root.publicKey]).status == .verified)
        // Berlinger's root did not sign our certificate.
        let foreign = BerlingerSignature.check(report)
        #expect(foreign.status == .unverified)
        #expect(foreign.detail.text.contains("no known root"))
        // One digit changed in a day's maximum.
        var text = String(decoding: report, as: UTF8.self)
        text = text.replacingOccurrences(of: "Max T: +19.0", with: "Max T: +18.0")
        let altered = BerlingerSignature.check(Data(text.utf8), roots: [root.publicKey])
        #expect(altered.status == .failed)
        // Another lot's key under the same root does not hold for this report's bytes.
        let other = try #require(ECDSAP256.KeyPair())
        var swapped = String(decoding: report, as: UTF8.self)
        swapped = swapped.replacingOccurrences(of: Self.printed(lot.publicKey), with: Self.printed(other.publicKey))
        #expect(BerlingerSignature.check(Data(swapped.utf8), roots: [root.publicKey]).status != .verified)
    }

    /// The public reports in the workspace's shared folder (SharedFacts: `../shared` beside
    /// the repository, or `COLDTAP_SHARED`, which `.ci/run` sets).
    static var sharedReports: URL? {
        SharedFacts.file("berlinger/SOURCES.md").url?.deletingLastPathComponent()
    }

    @Test func thePublicReportsVerifyAndAChangedDigitFails() throws {
        guard let folder = Self.sharedReports else {
            print("BerlingerCommandTests: ../shared/berlinger is absent beside the repository; the public reports' signatures were not checked")
            return
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".txt") }.sorted()
        #expect(files.count == 6)
        for file in files {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            let integrity = BerlingerSignature.check(data)
            #expect(integrity.status == .verified, "\(file): \(integrity.detail.text)")
            var bytes = [UInt8](data)
            let digit = try #require(bytes.firstIndex(of: UInt8(ascii: "7")))
            bytes[digit] = UInt8(ascii: "6")
            #expect(BerlingerSignature.check(Data(bytes)).status == .failed, "\(file)")
        }
    }

    @Test func reportOfAWarmFridgeTag2IsAnAlarmAndDrawsTheDays() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let maker = Self.warmFridgeTag2()
        let path = try files.write(maker.fileName, maker.report())
        let result = await runColdTap(["report", path, "--logger-tz", "UTC", "--profile", "vaccine-fridge", "--json"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("\"ALARM\""), "\(result.out.prefix(600))")
        #expect(result.out.contains("daily summary"))
        let png = files.directory.appendingPathComponent("days.png").path
        let drawn = await runColdTap(["report", path, "--logger-tz", "UTC", "--profile", "vaccine-fridge", "--png", "-o", png])
        #expect(drawn.status == 0, "\(drawn.err)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        if let keep = ProcessInfo.processInfo.environment["COLDTAP_KEEP_BERLINGER_PNG"] {
            try bytes.write(to: URL(fileURLWithPath: keep))
        }
    }
}
