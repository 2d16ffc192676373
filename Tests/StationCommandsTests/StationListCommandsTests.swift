import ArchiveTestSupport
import CommandTestSupport
import Foundation
import StationTestSupport
import Testing

/// The station's list commands print one table style, and the same rows as JSON with --json.
@Suite struct StationListCommandsTests {
    @Test func listsAreTablesAndJSON() async throws {
        try await withStation(.sqlite) { station in
            let location = station.archive.location
            let sites = await coldtap(["site", "list", "--archive", location])
            #expect(sites.status == 0, "\(sites.err)")
            let lines = sites.out.split(separator: "\n")
            #expect(lines.first?.split(separator: " ", omittingEmptySubsequences: true) == ["id", "name", "created"], "\(sites.out)")
            #expect(lines.contains { $0.contains("north") } && lines.contains { $0.contains("south") })
            #expect(!sites.out.contains("\t"))
            let json = await coldtap(["site", "list", "--json", "--archive", location])
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
            #expect((parsed["sites"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["north", "south"])

            let file = station.archive.path("p.json")
            try Data(#"{"name": "ward", "summary": "Ward: 2–6 °C", "band": {"min": 2, "max": 6}, "rules": []}"#.utf8).write(to: URL(fileURLWithPath: file))
            #expect(await coldtap(["profile", "add", file, "--site", "north", "--archive", location]).status == 0)
            #expect(await coldtap(["profile", "add", file, "--site", "north", "--archive", location]).status == 0)
            let profiles = await coldtap(["profile", "list", "--json", "--archive", location])
            let kept = try #require((try JSONSerialization.jsonObject(with: Data(profiles.out.utf8)) as? [String: Any])?["profiles"] as? [[String: Any]])
            // The newest version of each name.
            #expect(kept.count == 1 && kept.first?["version"] as? Int == 2 && kept.first?["name"] as? String == "ward", "\(profiles.out)")
            #expect((kept.first?["addedBy"] as? String)?.isEmpty == false)
            let table = await coldtap(["profile", "list", "--site", "south", "--archive", location])
            #expect(!table.out.contains("ward"))
            // Built-in names are not taken, nor names a URL cannot carry.
            #expect(await coldtap(["profile", "add", file, "--site", "north", "--name", "vaccine-fridge", "--archive", location]).status == 64)
            #expect(await coldtap(["profile", "add", file, "--site", "north", "--name", "../x", "--archive", location]).status == 64)

            // Tokens: every one listed (the operator's with no site), never the token itself.
            let tokens = await coldtap(["token", "list", "--json", "--archive", location])
            let listed = try #require((try JSONSerialization.jsonObject(with: Data(tokens.out.utf8)) as? [String: Any])?["tokens"] as? [[String: Any]])
            #expect(listed.count == 7)
            #expect(listed.filter { $0["scope"] as? String == "operator" }.allSatisfy { $0["site"] is NSNull })
            let tokenTable = await coldtap(["token", "list", "--archive", location])
            for secret in station.tokens.values {
                #expect(!tokens.out.contains(secret) && !tokenTable.out.contains(secret))
            }
            let id = try #require(listed.first { $0["site"] as? String == "north" && $0["scope"] as? String == "upload" }?["id"] as? Int)
            let revoked = await coldtap(["token", "revoke", String(id), "--archive", location])
            #expect(revoked.status == 0, "\(revoked.err)")
            let uploadToken = try #require(station.tokens["north-upload"])
            #expect(try station.archive.withStore { try $0.authenticate(uploadToken) } == nil)
        }
    }
}
