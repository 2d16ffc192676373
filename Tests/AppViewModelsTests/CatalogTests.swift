#if !canImport(Darwin)
    import ColdChain
    import Foundation
    import LoggerFormats
    import LoggerSessions
    import Testing

    @testable import AppViewModels
    @testable import StationClient

    /// The view models' texts are looked up in the app's String Catalog on the iPhone: every key
    /// they ask for here (Linux's stand-in notes each one, interpolations as `%@` / `%lld`) must
    /// be in Apps/iOS/ColdTap/Resources/Localizable.xcstrings, or the phone shows English.
    @Suite struct CatalogTests {
        static let catalog = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Apps/iOS/ColdTap/Resources/Localizable.xcstrings")

        func catalogKeys() throws -> Set<String> {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.catalog)) as? [String: Any]
            return Set((object?["strings"] as? [String: Any] ?? [:]).keys)
        }

        /// Asks every view model for every text it can give.
        func wordEverything() {
            for verdict in Verdict.allCases { _ = (verdict.title, verdict.explanation) }
            for status in [TemperatureLog.Integrity.Status.verified, .unverified, .failed] { _ = status.title }
            let log = makeLog(
                [5, 9, 9, nil, 1, 1, 5], logger: .init(tagUID: "E0"), integrity: .init(status: .failed, detail: "x", hint: .needsSecret),
                warnings: [.startsBefore2000(first: Date(timeIntervalSince1970: 0))])
            let read = makeRead(log, resumes: 1, uploadSHA256: "aa", rawKind: .nhsTranscript, automaticMode: true)
            let assessment = read.assessment(currentProfile: .vaccineFridge, timeZone: utc)
            _ = VerdictText.sheet(for: assessment)
            for upload in [UploadStatus.notForUpload, .sample, .waiting, .refused("r"), .uploaded(by: nil), .uploaded(by: "U")] {
                _ = (upload.badge, upload.detail)
                _ = ResultScreen(read: read, assessment: assessment, upload: upload, timeZone: utc, language: .english, hintWords: { _ in "" })
            }
            let calm = makeRead(makeLog([4]))
            _ = ResultScreen(
                read: calm, assessment: calm.assessment(currentProfile: .vaccineFridge, timeZone: utc), upload: .notForUpload, timeZone: utc,
                hintWords: { _ in "" })
            for problem: NHSLoggerSetup.Problem in [
                .intervalOutOfRange(0), .limitOutOfRange(99), .limitsReversed, .oneLimitOnly, .delayOutOfRange(-1), .runningTimeOutOfRange(-1),
            ] {
                _ = ConfigureForm.text(for: problem)
            }
            for state in [ScanState.idle, .reading] {
                for canRead in [true, false] { _ = ScanScreen(state: state, canReadTags: canRead, profileName: "p") }
            }
            _ = HistoryScreen(readCount: 0, unreadableCount: 2, stationProblem: "p", readsWaiting: 1, saveError: nil)
            _ = HistoryFolder.saveFailure(CocoaError(.fileWriteOutOfSpace))
            let url = URL(string: "https://station.example.org")!
            for sending in [true, false] {
                _ = StationSummary(stationURL: url, waitingCount: 1, refusedCount: 1, lastProblem: nil, isSending: sending)
            }
            var result = UploadQueue.FlushResult()
            result.rejected = [("aa", "r")]
            _ = UploadTexts.problem(after: result)
            result.lastError = .unreachable("x")
            _ = UploadTexts.problem(after: result)
            result.lastError = .recordInconsistent("x")
            _ = UploadTexts.problem(after: result)
            _ = UploadTexts.queueUnavailable(CocoaError(.fileNoSuchFile))
            _ = UploadTexts.notQueued(CocoaError(.fileNoSuchFile))
            _ = TimeZoneChoices.phoneZone(utc)
            let sample = StoredRead(readAt: t0, log: makeLog([4]), profileName: "p", timeZoneIdentifier: "UTC", sample: true)
            _ = ResultScreen(read: sample, assessment: assessment, upload: .sample, timeZone: utc, hintWords: { _ in "" })
            _ = ReadRowDisplay(read: sample, verdict: .ok, upload: .sample, timeZone: utc)
            _ = SampleRead.problem(CocoaError(.fileNoSuchFile))
            _ = ShareSheetScreen(written: nil)
            _ = ShareSheetScreen(written: .init(files: [.pdf: url, .csv: url], problem: "p"))
            HandOverScreenTests.wordEverything()
            StationSignInFormTests.wordEverything()
        }

        @Test func everyKeyTheViewModelsUseIsInTheAppsCatalog() throws {
            wordEverything()
            let used = LocalizationKeysUsed.all
            let known = try catalogKeys()
            #expect(used.count >= 60)
            #expect(used.subtracting(known).sorted() == [])
            // An integer interpolation is a %lld key, as on the iPhone.
            #expect(used.contains("%lld saved reads could not be opened by this version of ColdTap; they are kept unchanged."))
        }
    }
#endif
