import Archive
import ArchiveTestSupport
import CommandTestSupport
import Foundation
import Testing

/// `coldtap ack` before and after the archive has users (issue 43, item 2): before, a typed
/// name is kept marked unsigned with the account that typed it; after, `--by` is refused
/// and an acknowledgement is a user's signature, the password given again.
@Suite struct AckCommandTests {
    static let password = "correct horse battery"
    /// The excursion of the read `addRead` keeps (samples 10 to 15 at 12 °C).
    static let start = "2026-01-01T01:40:00Z"

    /// Logger fridge-1: samples 0..<40 of the reference series, 10..<16 at 12 °C.
    static func addRead(_ archive: TestArchive) async throws {
        var values = LoggerFiles.series(0..<40)
        for index in 10..<16 { values[index] = 12 }
        let file = archive.folder.appendingPathComponent("read.ndef")
        try LoggerFiles.generic(first: 0, temperatures: values).write(to: file)
        let added = await coldtap(["archive", "add", file.path, "--logger-id", "fridge-1", "--archive", archive.location])
        #expect(added.status == 0, "\(added.err)")
    }

    func ack(_ archive: TestArchive, _ who: [String], comment: String = "moved the vials", stdin: String = "") async -> Run {
        await coldtap(
            ["ack", "fridge-1", "--excursion", Self.start, "--comment", comment] + who + ["--archive", archive.location], stdin: Data(stdin.utf8))
    }

    @Test func beforeTheFirstUserATypedNameIsKeptUnsignedWithTheAccountThatTypedIt() async throws {
        let archive = try TestArchive(.sqlite)
        defer { archive.remove() }
        try await Self.addRead(archive)
        let nobodyToSign = await ack(archive, ["--user", "olga", "--password-stdin"], stdin: Self.password + "\n")
        #expect(nobodyToSign.status == 64 && nobodyToSign.err.contains("has no users yet"), "\(nobodyToSign.err)")
        let typed = await ack(archive, ["--by", "Pat Pharmacist"])
        #expect(typed.status == 0, "\(typed.err)")
        #expect(typed.out.contains("by Pat Pharmacist (unsigned, typed by os:"), "\(typed.out)")
        let report = await coldtap(["report", "--logger-id", "fridge-1", "--archive", archive.location])
        #expect(report.out.contains("acknowledged by Pat Pharmacist (unsigned, typed by os:"), "\(report.out)")
        #expect(try await archive.verify().problems.isEmpty)
    }

    @Test func onceTheArchiveHasUsersAnAcknowledgementIsTheSignatureOfOne() async throws {
        let archive = try TestArchive(.sqlite)
        defer { archive.remove() }
        try await Self.addRead(archive)
        #expect(await coldtap(["site", "add", "north", "--archive", archive.location]).status == 0)
        _ = try archive.withStore { store in try store.claim(loggerID: "fridge-1", siteID: #require(try store.site(named: "north")).id) }
        for (name, role) in [("olga", "operator"), ("vic", "viewer")] {
            let added = await coldtap(
                [
                    "user", "add", name, "--site", "north", "--role", role, "--full-name", name.capitalized + " Example", "--password-stdin",
                    "--archive", archive.location,
                ], stdin: Data((Self.password + "\n").utf8))
            #expect(added.status == 0, "\(added.err)")
        }
        let typed = await ack(archive, ["--by", "Pat Pharmacist"])
        #expect(typed.status == 64 && typed.err.contains("give --user NAME"), "\(typed.err)")
        let wrong = await ack(archive, ["--user", "olga", "--password-stdin"], stdin: "not it\n")
        #expect(wrong.status != 0 && wrong.err.contains("wrong user name or password"), "\(wrong.err)")
        let viewer = await ack(archive, ["--user", "vic", "--password-stdin"], stdin: Self.password + "\n")
        #expect(viewer.status != 0 && viewer.err.contains("operator role"), "\(viewer.err)")
        #expect(try archive.withStore { try $0.signatures(loggerID: "fridge-1") }.isEmpty, "a refusal keeps nothing")
        let signed = await ack(archive, ["--user", "olga", "--password-stdin"], stdin: Self.password + "\n")
        #expect(signed.status == 0 && signed.out.contains("by Olga Example"), "\(signed.out) \(signed.err)")
        let signatures = try archive.withStore { try $0.signatures(loggerID: "fridge-1") }
        #expect(signatures.map(\.subject) == [.acknowledgement] && signatures.first?.userName == "olga")
        #expect(try await archive.verify().problems.isEmpty)
    }
}
