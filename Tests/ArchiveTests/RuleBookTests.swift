import Archive
import ArchiveKit
import ArchiveTestSupport
import ColdChain
import ColdTapBase
import ColdTapKit
import Foundation
import TestSupport
import Testing

/// The rule book's use cases (ArchiveKit's `RuleBook`) on both engines: each rule refuses
/// with its typed error, and what is kept is what the front ends show.
@Suite struct RuleBookTests {
    static let password = "correct horse battery"
    static let zone = TimeZone(identifier: "Europe/Berlin") ?? .gmt

    static func sample(_ index: Int) -> Date { SignatureTests.sample(index) }
    /// Logger A's excursion (samples 10 to 15 at 12 °C) starts here.
    static var excursionStart: Date { sample(10) }

    /// SignatureTests' archive (logger A of site north; dana a reviewer, olga an operator),
    /// and beside it: site south with its reviewer sam, vic a viewer of north, logger B of no site.
    static func fill(_ test: TestArchive) async throws {
        try await SignatureTests.fill(test)
        let archive = try test.open()
        defer { archive.close() }
        let bytes = try LoggerFiles.generic(first: 0, temperatures: LoggerFiles.series(0..<20))
        let log = try await LogInput.load(content: bytes, name: "B", modificationTime: nil, options: LogInput.Options()).log
        _ = try archive.add(
            NewRead(raw: bytes, inputKind: "ndef", origin: "test", decodeOptions: "{}", log: log, loggerID: "B", profile: .vaccineFridge, timeZone: .gmt))
        let store = try StationStore(archive: archive)
        let south = try store.addSite("south")
        let north = try #require(try store.site(named: "north"))
        _ = try store.addUser(name: "sam", fullName: "Sam South", site: south, role: .reviewer, by: "os:test", password: password)
        _ = try store.addUser(name: "vic", fullName: "Vic Viewer", site: north, role: .viewer, by: "os:test", password: password)
    }

    /// Logger A's reads alone, as SignatureTests keeps them: an archive without users.
    static func addReadsOfA(_ archive: Archive) async throws {
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
    }

    static func user(_ store: StationStore, _ name: String) throws -> StationUser { try #require(try store.user(named: name)) }

    static func request(
        start: Date = excursionStart, by: String? = "Pat", comment: String? = "moved the vials", again: Bool = false, signer: StationUser? = nil
    ) -> AcknowledgementRequest {
        AcknowledgementRequest(
            loggerID: "A", excursionStart: start, by: by, comment: comment, again: again, signer: signer, defaultProfile: .vaccineFridge, timeZone: zone)
    }

    static func review(
        _ meaning: SignatureMeaning = .reviewed, comment: String? = nil, loggerID: String = "A", from: Int = 0, to: Int = 20
    ) -> PeriodSignatureRequest {
        PeriodSignatureRequest(
            loggerID: loggerID, meaning: meaning, comment: comment, from: sample(from), to: sample(to), defaultProfile: .vaccineFridge, timeZone: zone)
    }

    @Test(arguments: Engine.allCases)
    func acknowledgingAnExcursionKeepsEachRule(engine: Engine) async throws {
        try await withArchive(engine) { test in
            let archive = try test.open()
            defer { archive.close() }
            try await Self.addReadsOfA(archive)
            do {
                // No excursion near the time given: the known ones are named.
                #expect(
                    throws: AcknowledgementError.noSuchExcursion(loggerID: "A", start: Self.sample(30), profile: .vaccineFridge, known: [Self.excursionStart])
                ) { try RuleBook.acknowledgeExcursion(Self.request(start: Self.sample(30)), archive: archive) }
                #expect(throws: AcknowledgementError.nameMissing) { try RuleBook.acknowledgeExcursion(Self.request(by: "  "), archive: archive) }
                #expect(throws: AcknowledgementError.commentMissing) { try RuleBook.acknowledgeExcursion(Self.request(comment: "\n"), archive: archive) }
                #expect(throws: AcknowledgementError.nameTooLong(maximum: 200)) {
                    try RuleBook.acknowledgeExcursion(Self.request(by: String(repeating: "n", count: 201)), archive: archive)
                }
                // Near the start (within half an interval) finds it; the start kept is the excursion's.
                let first = try RuleBook.acknowledgeExcursion(Self.request(start: Self.excursionStart.addingTimeInterval(120)), archive: archive)
                #expect(first.excursionStart == Self.excursionStart && first.by == "Pat" && first.comment == "moved the vials")
                do {
                    _ = try RuleBook.acknowledgeExcursion(Self.request(), archive: archive)
                    Issue.record("an excursion acknowledged before was acknowledged again without a follow-up")
                } catch AcknowledgementError.alreadyAcknowledged(let loggerID, let start, let earlier) {
                    #expect(loggerID == "A" && start == Self.excursionStart && earlier.by == "Pat")
                }
                let followUp = try RuleBook.acknowledgeExcursion(Self.request(comment: "checked again", again: true), archive: archive)
                #expect(followUp.id == first.id + 1)
                #expect(try archive.history(loggerID: "A").acknowledgements.count == 2)
                // A typed name: the archive has no station tables, so nothing could be signed.
                #expect(try RuleBook.existingAccounts(of: archive) == nil)
            }
        }
    }

    @Test(arguments: Engine.allCases)
    func aSignedAcknowledgementIsTheSignersSignatureAndNeedsTheOperatorRole(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try await Self.fill(test)
            try test.withStore { store in
                let vic = try Self.user(store, "vic")
                #expect(throws: AcknowledgementError.roleTooLow(signer: vic)) {
                    try RuleBook.acknowledgeExcursion(Self.request(signer: vic), archive: store.archive, accounts: store)
                }
                let sam = try Self.user(store, "sam")
                let north = try #require(try store.site(named: "north"))
                #expect(throws: AcknowledgementError.otherSite(loggerID: "A", signer: sam, signerSite: "south", loggerSite: north)) {
                    try RuleBook.acknowledgeExcursion(Self.request(signer: sam), archive: store.archive, accounts: store)
                }
                let olga = try Self.user(store, "olga")
                // The signer's printed name is kept, not a typed one.
                let ack = try RuleBook.acknowledgeExcursion(Self.request(by: "someone else", signer: olga), archive: store.archive, accounts: store)
                #expect(ack.by == "Olga Operator")
                let signature = try #require(try store.signatures(loggerID: "A").first)
                #expect(signature.subject == .acknowledgement && signature.meaning == .acknowledged && signature.acknowledgementID == ack.id)
                #expect(signature.from == Self.excursionStart && signature.userName == "olga" && signature.timeZone == "Europe/Berlin")
            }
            #expect(try await test.verify().problems.isEmpty)
        }
    }

    @Test(arguments: Engine.allCases)
    func beforeUsersATypedNameIsKeptUnsignedAndOnceThereAreUsersItIsRefused(engine: Engine) async throws {
        try await withArchive(engine) { test in
            let archive = try test.open()
            defer { archive.close() }
            try await Self.addReadsOfA(archive)
            #expect(try RuleBook.acknowledgementsAreSigned(archive: archive) == false)
            var typed = Self.request(by: "Pat Pharmacist")
            typed.typedOnAccount = "os:pat"
            let kept = try RuleBook.acknowledgeExcursion(typed, archive: archive)
            #expect(kept.by == "Pat Pharmacist (unsigned, typed by os:pat)")
            // The first user: from now on an acknowledgement is a signature.
            let store = try StationStore(archive: archive)
            let north = try store.addSite("north")
            _ = try store.claim(loggerID: "A", siteID: north.id)
            let olga = try store.addUser(name: "olga", fullName: "Olga Operator", site: north, role: .operator, by: "os:test", password: Self.password).user
            #expect(try RuleBook.acknowledgementsAreSigned(archive: archive))
            #expect(throws: AcknowledgementError.signatureNeeded) { try RuleBook.acknowledgeExcursion(Self.request(again: true), archive: archive) }
            let signed = try RuleBook.acknowledgeExcursion(Self.request(again: true, signer: olga), archive: archive)
            let acknowledgements = try archive.history(loggerID: "A").acknowledgements
            #expect(signed.by == "Olga Operator" && acknowledgements.count == 2)
        }
    }

    @Test(arguments: Engine.allCases)
    func signingAPeriodKeepsEveryReviewRule(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try await Self.fill(test)
            try test.withStore { store in
                let (dana, olga, sam) = (try Self.user(store, "dana"), try Self.user(store, "olga"), try Self.user(store, "sam"))
                #expect(throws: PeriodSignatureError.roleTooLow(signer: olga)) {
                    try RuleBook.signPeriod(Self.review(), signer: olga, accounts: store)
                }
                #expect(throws: PeriodSignatureError.meaningIsAcknowledgement) {
                    try RuleBook.signPeriod(Self.review(.acknowledged, comment: "x"), signer: dana, accounts: store)
                }
                #expect(throws: PeriodSignatureError.emptyPeriod) { try RuleBook.signPeriod(Self.review(from: 20, to: 19), signer: dana, accounts: store) }
                #expect(throws: PeriodSignatureError.commentMissing(meaning: .rejected)) {
                    try RuleBook.signPeriod(Self.review(.rejected, comment: " "), signer: dana, accounts: store)
                }
                #expect(throws: PeriodSignatureError.unknownLogger(loggerID: "C")) {
                    try RuleBook.signPeriod(Self.review(loggerID: "C"), signer: dana, accounts: store)
                }
                #expect(throws: PeriodSignatureError.loggerHasNoSite(loggerID: "B")) {
                    try RuleBook.signPeriod(Self.review(loggerID: "B"), signer: dana, accounts: store)
                }
                let north = try #require(try store.site(named: "north"))
                #expect(throws: PeriodSignatureError.otherSite(loggerID: "A", signer: sam, signerSite: "south", loggerSite: north)) {
                    try RuleBook.signPeriod(Self.review(), signer: sam, accounts: store)
                }
                #expect(try store.signatures(loggerID: "A").isEmpty, "a refused signature keeps nothing")
                let record = try RuleBook.signPeriod(Self.review(.rejected, comment: "  probe was out  "), signer: dana, accounts: store)
                #expect(record.meaning == .rejected && record.comment == "probe was out" && record.siteID == north.id && record.signedReadIDs == [1])
                #expect(record.statement.contains("assessment=profile=\(Profile.vaccineFridge.name)"))
                // A period of one instant (a page showing a single sample: first and last
                // sample are one) is signed, covering the sample at it.
                let instant = try RuleBook.signPeriod(Self.review(from: 5, to: 5), signer: dana, accounts: store)
                #expect(instant.from == instant.to && instant.signedReadIDs == [1])
            }
            #expect(try await test.verify().problems.isEmpty)
        }
    }

    @Test(arguments: Engine.allCases)
    func theLoggerReportIsJudgedByTheLoggersProfileAndSignsItsPDFWithTheNewestMeaning(engine: Engine) async throws {
        try await withArchive(engine) { test in
            try await Self.fill(test)
            try test.withStore { store in
                let archive = store.archive
                // The logger's profile (its newest assessment's), not the default given.
                var report = try RuleBook.loggerReport(
                    loggerID: "A", profile: nil, defaultProfile: .frozen, timeZone: Self.zone, archive: archive)
                #expect(report.profile == .vaccineFridge && report.assessment.excursions.map(\.start) == [Self.excursionStart])
                #expect(report.history.samples.count == 70 && report.signatures.isEmpty)
                #expect(report.pdfSignatureReason() == "report" && report.pdfSignatureReason(given: "checked") == "checked")
                // A profile asked for is the one used.
                let asked = try RuleBook.loggerReport(loggerID: "A", profile: .frozen, defaultProfile: .vaccineFridge, timeZone: Self.zone, archive: archive)
                #expect(asked.profile == .frozen)
                _ = try RuleBook.signPeriod(Self.review(.approved), signer: try Self.user(store, "dana"), accounts: store)
                report = try RuleBook.loggerReport(
                    loggerID: "A", from: Self.sample(0), to: Self.sample(30), profile: nil, defaultProfile: .vaccineFridge, timeZone: Self.zone,
                    archive: archive)
                #expect(report.signatures.count == 1 && report.pdfSignatureReason() == "approved")
                #expect(report.shownSignatures(language: .english).map(\.printedName) == ["Dana Reviewer"])
                let section = report.archiveSection(archive: "the station's archive", record: nil)
                #expect(section.loggerID == "A" && section.openExcursions == [Self.excursionStart])
                // A period the signature does not reach is signed as a plain report.
                let later = try RuleBook.loggerReport(
                    loggerID: "A", from: Self.sample(40), profile: nil, defaultProfile: .vaccineFridge, timeZone: Self.zone, archive: archive)
                #expect(later.pdfSignatureReason() == "report")
            }
        }
    }

    @Test func theProfileOfALoggerIsItsNewestAssessmentsElseTheDefault() throws {
        #expect(RuleBook.profile(for: nil, default: .frozen) == .frozen)
    }

    @Test(arguments: Engine.allCases)
    func lotsAreJudgedWorstFirst(engine: Engine) async throws {
        let example = try StabilityExample.load()
        try await withArchive(engine) { test in
            let archive = try test.open()
            defer { archive.close() }
            try await LotTests.keepExample(archive, example)
            // A second lot of the same product that never moved, and a third closed at once.
            _ = try archive.addLot("spare-1", productName: example.productName, quantity: 10, note: "", by: "QA")
            _ = try archive.addLot("closed-1", productName: example.productName, quantity: 10, note: "", by: "QA")
            try archive.recordMove(lot: "closed-1", kind: .close, at: example.statusTime, reason: .used, by: "nurse", origin: "test")
            let judged = try RuleBook.judgedLots(site: 0, archive: archive)
            #expect(Set(judged.map(\.lot.id)) == [example.lot, "spare-1", "closed-1"])
            for (a, b) in zip(judged, judged.dropFirst()) { #expect(!LotStatus.worstFirst(b.status, a.status), "\(a.lot.id) before \(b.lot.id)") }
            #expect(judged.filter(\.closed).map(\.lot.id) == ["closed-1"])
        }
    }

    @Test(arguments: Engine.allCases)
    func aLotTravelsOnlyWithALoggerOfItsSite(engine: Engine) async throws {
        let example = try StabilityExample.load()
        try await withArchive(engine) { test in
            try await Self.fill(test)
            try test.withStore { store in
                let archive = store.archive
                let north = try #require(try store.site(named: "north"))
                try archive.addProduct(json: example.productJSON, addedBy: "QA")
                _ = try archive.addLot("L-1", siteID: north.id, productName: example.productName, by: "QA")
                func move(_ lot: String, _ logger: String, at index: Int) -> LotMoveRequest {
                    LotMoveRequest(
                        lotID: lot, siteID: north.id, kind: .logger, loggerID: logger, at: Self.sample(index), reason: nil, place: "dock", by: "QA",
                        origin: "test")
                }
                #expect(throws: LotMoveError.noSuchLot(lotID: "L-2")) { try RuleBook.moveLot(move("L-2", "A", at: 0), archive: archive) }
                // B belongs to no site, so not to north.
                #expect(throws: LotMoveError.noSuchLogger(loggerID: "B")) { try RuleBook.moveLot(move("L-1", "B", at: 0), archive: archive) }
                let kept = try RuleBook.moveLot(move("L-1", "A", at: 0), archive: archive, accounts: store)
                #expect(kept.loggerID == "A" && kept.seq == 1 && kept.siteID == north.id)
                // A lot kept without a site travels with any logger kept.
                _ = try archive.addLot("L-0", productName: example.productName, by: "QA")
                var anyLogger = move("L-0", "B", at: 0)
                anyLogger.siteID = 0
                #expect(try RuleBook.moveLot(anyLogger, archive: archive).loggerID == "B")
            }
        }
    }

    @Test func readsFromAFileATagAndAnUploadAreBuiltAlike() async throws {
        let bytes = try LoggerFiles.generic(first: 0, temperatures: LoggerFiles.series(0..<20))
        var options = LogInput.Options()
        options.readTime = LoggerFiles.start.addingTimeInterval(20 * 600)
        let loaded = try await LogInput.load(content: bytes, name: "f", modificationTime: nil, options: options)
        let file = try #require(
            try await RuleBook.newRead(
                from: .file(content: bytes, loaded: loaded, origin: "file f", decoding: ReadDecoding(interval: 600), loggerID: "F"),
                profile: .vaccineFridge, timeZone: .gmt))
        #expect(file.raw == bytes && file.origin == "file f" && file.loggerID == "F")
        #expect(file.decodeOptions == #"{"input":"auto","logger":null,"descriptor":null,"interval":600,"tagUID":null}"#)
        let upload = Upload(raw: bytes, readTime: options.readTime, source: "ward 3", loggerID: "F", secret: nil, siteName: "north")
        let uploaded = try await RuleBook.newRead(from: upload, profile: .vaccineFridge, timeZone: .gmt)
        #expect(uploaded.origin == "station upload by site north from ward 3" && uploaded.inputKind == file.inputKind)
        #expect(uploaded.log.samples == file.log.samples)
        #expect(uploaded.decodeOptions == #"{"input":"auto","logger":null,"descriptor":null,"interval":null,"tagUID":null}"#)
    }
}
