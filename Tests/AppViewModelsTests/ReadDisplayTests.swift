import ColdChain
import Foundation
import LoggerFormats
import TempChart
import Testing

@testable import AppViewModels

@Suite struct VerdictWordsTests {
    @Test func eachVerdictHasItsWordsSymbolAndTone() {
        #expect(Verdict.ok.title == "Within limits")
        #expect(Verdict.alarm.title == "Alarm")
        #expect(Verdict.inconclusive.title == "Inconclusive")
        #expect([Verdict.ok, .alarm, .inconclusive].map(\.tone) == [.good, .alarm, .caution])
        #expect(Set(Verdict.allCases.map(\.symbol)).count == Verdict.allCases.count)
        #expect(Set(Verdict.allCases.map(\.explanation)).count == Verdict.allCases.count)
        #expect(Verdict.alarm.explanation.contains("Set the goods aside"))
    }

    @Test func theSheetLineNamesTheVerdictAndTheExtremes() {
        let assessment = Assessor.assess(makeLog([3, 5.5, 7]), profile: .vaccineFridge, timeZone: utc)
        #expect(VerdictText.sheet(for: assessment) == "Within limits. Min \(Fmt.temperature(3)), max \(Fmt.temperature(7)).")
    }

    @Test func integrityStatusTitles() {
        #expect(TemperatureLog.Integrity.Status.verified.title == "Verified")
        #expect(TemperatureLog.Integrity.Status.unverified.title == "Not verified")
        #expect(TemperatureLog.Integrity.Status.failed.title == "Failed")
    }
}

@Suite struct StoredReadTests {
    @Test func loggerNameIsModelAndSerialElseTagUIDElseFormat() {
        func name(_ identity: TemperatureLog.LoggerIdentity) -> String { makeRead(makeLog([4], logger: identity)).loggerName }
        #expect(name(.init(tagUID: "E004", vendor: "NXP", model: "NHS3100", serial: "42")) == "NXP NHS3100 42")
        #expect(name(.init(tagUID: "E004", serial: "42")) == "42")
        #expect(name(.init(tagUID: "E004", vendor: "NXP", serial: "")) == "NXP")
        #expect(name(.init(tagUID: "E004")) == "E004")
        #expect(name(.init()) == "test")
    }

    @Test func aReadKeepsItsProfileUnlessThatProfileIsGone() throws {
        let log = makeLog(Array(repeating: 9, count: 30))  // 15 h above 8 °C
        var read = makeRead(log)
        read.profileName = Profile.cdcVaccineFridge.name
        #expect(read.profile(current: .vaccineFridge).name == Profile.cdcVaccineFridge.name)
        read.profileName = "no-longer-built-in"
        #expect(read.profile(current: .vaccineFridge).name == Profile.vaccineFridge.name)
        let assessment = read.assessment(currentProfile: .vaccineFridge, timeZone: utc)
        #expect(assessment.verdict == .alarm)
        #expect(assessment.timeZone == utc)
    }

    @Test func automaticModeIsKeptOnlyForATranscript() {
        #expect(makeRead(makeLog([4]), rawKind: .nhsTranscript, automaticMode: true).automaticMode == true)
        #expect(makeRead(makeLog([4]), rawKind: .nhsTranscript, automaticMode: false).automaticMode == false)
        #expect(makeRead(makeLog([4]), rawKind: .ndefMessage, automaticMode: true).automaticMode == nil)
        #expect(makeRead(makeLog([4]), rawKind: nil, automaticMode: true).automaticMode == nil)
    }

    @Test func theUploadNamesTheAppAndTheTagWhenTheLogNamesNoLogger() {
        let log = makeLog([4], logger: .init(tagUID: "E0040150"))
        let upload = StoredRead.upload(raw: Data([1, 2, 3]), log: log)
        #expect(upload.source == "ColdTap iPhone")
        #expect(upload.loggerID == "E0040150")
        #expect(upload.readTime == log.readTime)
        #expect(upload.raw == Data([1, 2, 3]))
    }

    @Test func theReportLanguageFollowsTheLocalization() {
        #expect(ReportLanguage(localization: "zh-Hans") == .simplifiedChinese)
        #expect(ReportLanguage(localization: "ja") == .japanese)
        #expect(ReportLanguage(localization: "en") == .english)
        #expect(ReportLanguage(localization: "de") == .english)
    }
}

@Suite struct ResultScreenTests {
    /// 2 h at 9 °C inside a day at 5 °C, a missing stretch after it.
    let log = makeLog(
        Array(repeating: 5, count: 4) + Array(repeating: 9, count: 4) + [nil, nil] + Array(repeating: 5, count: 4),
        logger: .init(tagUID: "E0040150"),
        integrity: .init(status: .unverified, detail: "the test format carries no integrity check", hint: .needsSecret))

    func screen(_ read: StoredRead, upload: UploadStatus = .notForUpload, language: ReportLanguage = .english) -> ResultScreen {
        let assessment = read.assessment(currentProfile: .vaccineFridge, timeZone: utc)
        return ResultScreen(read: read, assessment: assessment, upload: upload, timeZone: utc, language: language, hintWords: { "HINT \($0)" })
    }

    @Test func theBannerSaysTheVerdictTheProfileAndTheReasons() {
        let result = screen(makeRead(log))
        let assessment = makeRead(log).assessment(currentProfile: .vaccineFridge, timeZone: utc)
        #expect(result.title == "E0040150")
        #expect(result.banner.title == assessment.verdict.title)
        #expect(result.banner.tone == assessment.verdict.tone)
        #expect(result.banner.profileLine == "Profile vaccine-fridge: 2–8 °C")
        #expect(result.banner.reasons == assessment.reasons.map { "• \($0)" })
    }

    @Test func reasonsFollowTheAppLanguage() {
        let read = makeRead(log)
        let assessment = read.assessment(currentProfile: .vaccineFridge, timeZone: utc)
        let japanese = screen(read, language: .japanese)
        #expect(!japanese.banner.reasons.isEmpty)
        #expect(japanese.banner.reasons != screen(read, language: .english).banner.reasons)
        #expect(
            japanese.banner.reasons == ReportContent.localizedReasons(log: log, assessment: assessment, language: .japanese).map { "• \($0)" })
    }

    @Test func statisticsAreTheTenRowsInOrder() {
        let result = screen(makeRead(log))
        #expect(
            result.statistics.map(\.label) == [
                "Minimum", "Maximum", "Mean", "Mean kinetic temperature", "Time in range", "Time above", "Time below", "Unknown time",
                "Samples", "Period",
            ])
        #expect(result.statistics[0].value == Fmt.temperature(5))
        #expect(result.statistics[1].value == Fmt.temperature(9))
        #expect(result.statistics[8].value == "12 / 14")
        let stats = makeRead(log).assessment(currentProfile: .vaccineFridge, timeZone: utc).statistics
        #expect(result.statistics[9].value == "\(Fmt.dateTime(stats.start, in: utc)) – \(Fmt.dateTime(stats.end, in: utc))")
        #expect(result.chartSummary == "Temperature chart from \(Fmt.temperature(5)) to \(Fmt.temperature(9))")
    }

    @Test func theChartDrawsTheReadWithTheProfilesLimitsInTheScreensLanguage() {
        let read = makeRead(log)
        let japanese = screen(read, language: .japanese)
        #expect(japanese.chart.lowerLimit == 2 && japanese.chart.upperLimit == 8)
        #expect(japanese.chart.excursions.count == japanese.excursions.count)
        #expect(japanese.chart.language == .japanese)
        #expect(japanese.chart.series == ChartSeries(log: log))
        #expect(screen(read).chart.language == .english)
    }

    @Test func anExcursionIsWordedWithItsLimitTimeAndPeak() throws {
        let result = screen(makeRead(log))
        #expect(result.noExcursionsNote == nil)
        let excursion = try #require(result.excursions.first)
        #expect(result.excursions.count == 1)
        #expect(excursion.symbol == "arrow.up.circle.fill")
        #expect(excursion.title == "Above > 8 °C")
        #expect(excursion.timeLine.hasPrefix(Fmt.dateTime(t0.addingTimeInterval(4 * 1800), in: utc) + " for "))
        #expect(excursion.peakLine.hasPrefix("Peak \(Fmt.temperature(9)) at "))
        // The missing samples right after it: it may have lasted longer.
        #expect(excursion.unknownNote != nil)
        #expect(result.gaps.count == 1)
    }

    @Test func noExcursionsIsSaidWithTheBand() {
        let result = screen(makeRead(makeLog([4, 5, 6])))
        #expect(result.excursions.isEmpty)
        #expect(result.noExcursionsNote == "No excursions beyond 2–8 °C.")
        #expect(result.gaps.isEmpty)
    }

    @Test func theLoggerDetailsShowWhatTheReadHas() {
        var read = makeRead(log, resumes: 2, rawKind: .nhsTranscript, automaticMode: true)
        read.log.warnings = []
        let lines = screen(read, upload: .refused("401 token refused")).details
        let rows = lines.compactMap { line -> String? in if case .row(let row) = line { return row.label } else { return nil } }
        #expect(rows == ["Logger", "Format", "Tag UID", "Integrity", "Profile", "Read at", "Time zone", "Station", "Resumed after losing the tag"])
        #expect(lines.contains(.caption("HINT needsSecret")))
        #expect(lines.contains(.row(.init(label: "Integrity", value: "Not verified"))))
        #expect(lines.contains(.row(.init(label: "Station", value: "Refused by the station"))))
        #expect(lines.contains(.caption("401 token refused")))
        #expect(lines.contains(.row(.init(label: "Resumed after losing the tag", value: "2"))))
        #expect(lines.contains { if case .note(_, symbol: "info.circle") = $0 { return true } else { return false } })
    }

    @Test func anUploadedReadSaysWhoUploadedIt() {
        let read = makeRead(makeLog([4, 5, 6]), uploadSHA256: "aa")
        #expect(screen(read, upload: .uploaded(by: "Olli Berg")).details.contains(.row(.init(label: "Station", value: "Uploaded as Olli Berg"))))
        // Sent with a pasted token, or before sign-in: only that it is there.
        #expect(screen(read, upload: .uploaded(by: nil)).details.contains(.row(.init(label: "Station", value: "Uploaded"))))
    }

    @Test func aPlainReadLeavesOutWhatItHasNot() {
        let read = makeRead(makeLog([4, 5, 6]))
        let lines = screen(read).details
        let rows = lines.compactMap { line -> String? in if case .row(let row) = line { return row.label } else { return nil } }
        // No tag UID, no station (never queued), no resumes; no automatic-mode note, no captions.
        #expect(rows == ["Logger", "Format", "Integrity", "Profile", "Read at", "Time zone"])
        #expect(lines.count == rows.count)
    }

    @Test func warningsAreNotesInTheAppLanguage() {
        let warned = makeLog([4, 5], warnings: [.startsBefore2000(first: Date(timeIntervalSince1970: 0))])
        let lines = screen(makeRead(warned)).details
        #expect(
            lines.last
                == .note(LogTexts.warning(.startsBefore2000(first: Date(timeIntervalSince1970: 0)), language: .english), symbol: "exclamationmark.triangle"))
    }
}

@Suite struct ChartInputTests {
    @Test func equalDataWithGapsGiveEqualInputs() {
        let log = makeLog([4, nil, 6, 9, 9])
        let assessment = Assessor.assess(log, profile: .vaccineFridge, timeZone: utc)
        let input = ChartInput(log: log, assessment: assessment, language: .english)
        // NaN marks the gap; the same data must still be the same picture.
        #expect(input == ChartInput(log: log, assessment: assessment, language: .english))
        #expect(input.lowerLimit == 2)
        #expect(input.upperLimit == 8)
        #expect(input.excursions.count == assessment.excursions.count)
        #expect(input != ChartInput(log: log, assessment: assessment, language: .japanese))
        #expect(input != ChartInput(log: makeLog([4, nil, 6, 9, 9.5]), assessment: assessment, language: .english))
        let tokyo = Assessor.assess(log, profile: .vaccineFridge, timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        #expect(input != ChartInput(log: log, assessment: tokyo, language: .english))
    }
}
