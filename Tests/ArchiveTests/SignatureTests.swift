import Archive
import ArchiveKit
import ArchiveTestSupport
import ColdTapBase
import ColdTapKit
import Digest
import Foundation
import Testing

/// Electronic signatures over a logger's period (docs/accounts.md, "What is signed"), and
/// what `archive verify` holds the accounts and signatures to, on both engines.
@Suite struct SignatureTests {
    static let password = "correct horse battery"
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt

    /// Logger A: read 1 holds samples 0..<40 (10 to 15 at 12 °C: an excursion of the vaccine
    /// fridge's 2–8 °C), read 2 samples 30..<70; the site north owns it; dana is a reviewer,
    /// olga an operator.
    static func fill(_ test: TestArchive) async throws {
        let archive = try test.open()
        defer { archive.close() }
        for (first, count) in [(0, 40), (30, 40)] {
            var values = LoggerFiles.series(first..<(first + count))
            for index in 10..<16 where index >= first { values[index - first] = 12 }
            let bytes = try LoggerFiles.generic(first: first, temperatures: values)
            let log = try await LogInput.load(content: bytes, name: "A", modificationTime: nil, options: LogInput.Options()).log
            _ = try archive.add(
                NewRead(
                    raw: bytes, inputKind: "ndef", origin: "test", decodeOptions: "{}", log: log, loggerID: "A", profile: .vaccineFridge,
                    timeZone: .gmt))
        }
        let store = try StationStore(archive: archive)
        let north = try store.addSite("north")
        _ = try store.claim(loggerID: "A", siteID: north.id)
        _ = try store.addUser(name: "dana", fullName: "Dana Reviewer", site: north, role: .reviewer, by: "os:test", password: password)
        _ = try store.addUser(name: "olga", fullName: "Olga Operator", site: north, role: .operator, by: "os:test", password: password)
    }

    static func sample(_ index: Int) -> Date { LoggerFiles.start.addingTimeInterval(Double(index * LoggerFiles.interval)) }

    static func draft(
        _ store: StationStore, signer name: String, meaning: SignatureMeaning, comment: String? = nil, subject: SignatureSubject = .review,
        from: Int, to: Int
    ) throws -> SignatureDraft {
        let site = try #require(try store.site(named: "north"))
        let signer = try #require(try store.user(named: name))
        return try PeriodReview.draft(
            store: store, loggerID: "A", site: site, signer: signer, meaning: meaning, comment: comment, subject: subject, from: sample(from),
            to: sample(to), profile: .vaccineFridge, timeZone: berlin)
    }

    /// The read's record leaf: its index and hash.
    static func readLeaf(_ store: StationStore, _ readID: Int64) throws -> (index: Int, hash: String) {
        let (index, leaf) = try #require(try store.archive.leaves(kind: .read, key: "A/\(readID)").first)
        return (index, leaf.hash.hexString(uppercase: false))
    }

    @Test(arguments: Engine.allCases)
    func aSignatureSignsTheStatementOfThePeriodsReadLeaves(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try await Self.fill(test)
            try test.withStore { store in
                let signed = Date(timeIntervalSince1970: 1_767_300_000.123)
                let draft = try Self.draft(store, signer: "dana", meaning: .reviewed, from: 0, to: 20)
                #expect(draft.readIDs == [1], "samples 0..<20 are read 1's only")
                let record = try store.keepSignature(draft, now: signed).signature
                let read1 = try Self.readLeaf(store, 1)
                let expected =
                    [
                        "coldtap-signature/1", "subject=review", "site=1", "logger=A", "from=2026-01-01T00:00:00Z", "to=2026-01-01T03:20:00Z", "signer=1",
                        "name=dana", "printed_name=Dana Reviewer", "role=reviewer", "meaning=reviewed", "signed_ms=1767300000123",
                        "time_zone=Europe/Berlin", "read=1 \(read1.index) \(read1.hash)",
                    ] + draft.assessment.map { "assessment=" + $0 }
                #expect(record.statement == expected.joined(separator: "\n") + "\n")
                #expect(draft.assessment.contains { $0.hasPrefix("excursion=2026-01-01T01:40:00Z") }, "\(draft.assessment)")
                #expect(record.statementSHA256 == SHA256Digest.hex(text: record.statement))
                #expect(record.signedReadIDs == [1] && record.printedName == "Dana Reviewer" && record.role == .reviewer)
                #expect(record.signed == Date(timeIntervalSince1970: Double(1_767_300_000_123) / 1000) && record.timeZone == "Europe/Berlin")
                // Its leaf holds every fact and the statement's SHA-256 (the statement is in the row).
                let leaf = try #require(try store.archive.leaves(kind: .signature, key: "1").first?.1)
                #expect(leaf.value("statement_sha256") == record.statementSHA256 && leaf.value("printed_name") == "Dana Reviewer")
                #expect(leaf.value("comment") == nil)

                // A period both reads meet lists both, oldest first.
                let both = try store.keepSignature(try Self.draft(store, signer: "dana", meaning: .approved, comment: "  fine  ", from: 35, to: 45))
                let read2 = try Self.readLeaf(store, 2)
                #expect(both.signature.signedReadIDs == [1, 2] && both.signature.comment == "fine")
                #expect(both.signature.statement.contains("\nread=1 \(read1.index) \(read1.hash)\nread=2 \(read2.index) \(read2.hash)\n"))
                #expect(both.signature.statement.contains("\ncomment=fine\n"))

                // A rejection and an acknowledgement say why.
                for (meaning, comment) in [(SignatureMeaning.rejected, nil), (.rejected, " \n "), (.acknowledged, nil)] {
                    let refused = #expect(throws: ArchiveError.self) {
                        try store.keepSignature(try Self.draft(store, signer: "dana", meaning: meaning, comment: comment, from: 0, to: 20))
                    }
                    #expect(refused?.kind == .invalidRead && refused?.message.contains("says why") == true)
                }
                #expect(throws: ArchiveError.self) {
                    try store.keepSignature(
                        try Self.draft(store, signer: "dana", meaning: .reviewed, comment: String(repeating: "x", count: 4001), from: 0, to: 20))
                }
                let rejected = try store.keepSignature(
                    try Self.draft(store, signer: "dana", meaning: .rejected, comment: "the excursion is not explained", from: 0, to: 70))
                #expect(rejected.signature.signedReadIDs == [1, 2])
                // No samples, nothing to sign.
                let empty = #expect(throws: ArchiveError.self) { _ = try Self.draft(store, signer: "dana", meaning: .reviewed, from: 100, to: 200) }
                #expect(empty?.kind == .notFound)
                #expect(try store.signatures(loggerID: "A").map(\.id) == [1, 2, 3])
                #expect(try store.signatures(siteID: 1).map(\.meaning) == [.reviewed, .approved, .rejected])
                #expect(try store.signatures(loggerID: "B").isEmpty)
            }
            #expect(try await test.verify().problems.isEmpty)
        }
    }

    @Test(arguments: Engine.allCases)
    func aSignedAcknowledgementKeepsBothOrNeither(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try await Self.fill(test)
            try test.withStore { store in
                let start = Self.sample(10)
                let draft = try Self.draft(
                    store, signer: "olga", meaning: .acknowledged, comment: "moved to the backup fridge", subject: .acknowledgement, from: 10, to: 16)
                let before = try store.archive.recordSize()
                let (signature, acknowledgement) = try store.keepSignature(draft, acknowledging: start)
                let ack = try #require(acknowledgement)
                #expect(ack.by == "Olga Operator" && ack.comment == "moved to the backup fridge" && ack.excursionStart == start)
                #expect(signature.acknowledgementID == ack.id && signature.subject == .acknowledgement && signature.meaning == .acknowledged)
                #expect(try store.archive.acknowledgements(loggerID: "A").map(\.id) == [ack.id])
                #expect(try store.archive.history(loggerID: "A").excursionAcknowledgements.count == 1)
                // The acknowledgement's leaf, then the signature's.
                let size = try store.archive.recordSize()
                #expect(size == before + 2)
                #expect(try store.archive.leaves(kind: .acknowledgement, key: "A/1").first?.0 == before)
                #expect(try store.archive.leaves(kind: .signature, key: "1").first?.0 == before + 1)
                // Refused (no comment): neither is kept.
                var bare = draft
                bare.comment = nil
                #expect(throws: ArchiveError.self) { try store.keepSignature(bare, acknowledging: start) }
                #expect(try store.archive.acknowledgements(loggerID: "A").count == 1 && store.archive.recordSize() == size)
            }
            #expect(try await test.verify().problems.isEmpty)
        }
    }

    /// A logger id may hold any character a tag carries. One ending in a carriage return (which
    /// with the line's end makes one Character) or starting with a combining mark (one
    /// Character with the `=` before it) is read back from its leaves and statements as written.
    @Test(arguments: Engine.allCases)
    func idsThatJoinCharactersAcrossTheLinesReadBackAsWritten(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try await Self.fill(test)
            let odd = ["ward\r", "\u{301}ward", "ward\\\u{301}n"]
            let archive = try test.open()
            for logger in odd {
                let bytes = try LoggerFiles.generic(first: 0, temperatures: LoggerFiles.series(0..<20))
                let log = try await LogInput.load(content: bytes, name: "x", modificationTime: nil, options: LogInput.Options()).log
                _ = try archive.add(
                    NewRead(
                        raw: bytes, inputKind: "ndef", origin: "test", decodeOptions: "{}", log: log, loggerID: logger, profile: .vaccineFridge,
                        timeZone: .gmt))
                #expect(try archive.leaves(kind: .logger, key: logger).count == 1, "\(logger.debugDescription)")
            }
            archive.close()
            try test.withStore { store in
                let north = try #require(try store.site(named: "north"))
                let dana = try #require(try store.user(named: "dana"))
                for logger in odd {
                    _ = try store.claim(loggerID: logger, siteID: north.id)
                    let draft = try PeriodReview.draft(
                        store: store, loggerID: logger, site: north, signer: dana, meaning: .reviewed, comment: "a\rb", from: Self.sample(0),
                        to: Self.sample(20), profile: .vaccineFridge, timeZone: .gmt)
                    let signature = try store.keepSignature(draft).signature
                    #expect(signature.signedReadIDs.count == 1 && signature.loggerID == logger, "\(logger.debugDescription)")
                }
            }
            let problems = try await test.verify().problems
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    /// Quiet edits of the accounts and signatures, and what `verify` names.
    static let edits: [(what: String, named: String)] = [
        ("a role changed by SQL", "user dana (#1) has the role admin, but the record's events give reviewer"),
        ("a password hash swapped by SQL", "user dana (#1)'s password is not the one the record's events set"),
        ("a signature's comment edited by SQL", "signature #1 of A: comment differs from what its statement signed"),
        ("a signed read's leaf rewritten", "signature #1 of A: read #1 is no longer the read it signed"),
    ]

    @Test(arguments: Engine.allCases, 0..<SignatureTests.edits.count)
    func verifyNamesEachQuietEdit(engine: Engine, edit: Int) async throws {
        try await withArchive(engine) { test in
            try await Self.fill(test)
            try test.withStore { store in
                _ = try store.keepSignature(try Self.draft(store, signer: "dana", meaning: .rejected, comment: "unexplained", from: 0, to: 20))
            }
            #expect(try await test.verify().problems.isEmpty)
            let archive = try test.open()
            defer { archive.close() }
            switch edit {
            case 0: try archive.engine.execute("UPDATE users SET role = 'admin' WHERE name = 'dana'")
            case 1:
                try archive.engine.execute(
                    "UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE name = 'olga') WHERE name = 'dana'")
            case 2: try archive.engine.execute("UPDATE signatures SET comment = 'all fine' WHERE signature_id = 1")
            default:
                // The read's leaf rewritten, hash and all, as a forger would to match an edited row.
                let (index, leaf) = try #require(try archive.leaves(kind: .read, key: "A/1").first)
                var forged = leaf
                forged.fields = leaf.fields.map { $0.name == "origin" ? RecordLeaf.Field(name: "origin", value: "elsewhere") : $0 }
                try archive.engine.execute(
                    "UPDATE record_leaves SET leaf = $1, leaf_hash = $2 WHERE leaf_index = $3",
                    [.blob(Data(forged.bytes)), .text(forged.hash.hexString(uppercase: false)), .int(Int64(index))])
            }
            let problems = try await test.verify().problems
            #expect(problems.contains { $0.contains(Self.edits[edit].named) }, "\(Self.edits[edit].what): \(problems)")
        }
    }
}
