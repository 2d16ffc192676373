import ColdChain
import Foundation
import LoggerFormats
import Testing

@testable import TempChart

/// Decoder-supplied texts are values: English is their own `text` (the words of JSON
/// output), Chinese and Japanese are written from the same values, and stored logs keep
/// them typed while older plain sentences still read.
@Suite struct LogTextsTests {
    static let time = Date(timeIntervalSince1970: 1_775_692_800)  // 2026-04-09T00:00:00Z

    /// One of every typed warning (not `.worded` / `.text`).
    static let everyWarning: [LogWarning] = [
        .timesEstimated(readTime: time, source: .fileModificationTime),
        .timesFromReadTime(readTime: time),
        .startsBefore2000(first: Date(timeIntervalSince1970: 900_000_000)),
        .startsAfterReadTime(first: time.addingTimeInterval(3600), readTime: time),
        .readTimeBeforeNewest(readTime: time, newest: time.addingTimeInterval(600)),
        .givenIntervalNotUsed(given: 7, used: 600, from: .url),
        .givenIntervalNotUsed(given: 7, used: 60, from: .log(source: "header field 'interval'")),
        .implausibleDeviceInterval(key: "INTERVAL", value: "1e300"),
        .partialSampleAtEnd(bytes: 1, offset: 10),
        .outsideSensorRange(count: 3, minimum: -50, maximum: 100),
        .integrityFailed(.mismatch(method: "MD5", stored: [1, 2, 3], computed: [4, 5, 6], keyGiven: false)),
        .secretTooLong(bytes: 20),
        .secretNotUsed(format: "dtn1"),
        .nhsBrownOut, .nhsMemoryFull,
        .nhsConfigResult(.notAllowed),
        .nhsRefused(NHSRefusal(message: "MEASURETEMPERATURE", result: .sensorBusy)),
        .nhsNoStartTime, .nhsClockLost,
        .nhsReadTimeFarFromClock(readTime: time, source: .given, driftSeconds: 86_400),
        .nhsPlaceholders(count: 2), .nhsOutsideSensorRange(count: 1),
        .nhsUnread(numbers: [3...3, 5...9], stored: 40),
        .nhsLoggedDuringRead(count: 2, counted: 38),
        .nhsEventsCutShort,
        .tagImage("byte 16: the capability container's magic byte is 0x00"),
        .archiveConflicts(count: 2), .archiveGaps(count: 1),
    ]

    static let everyDetail: [TemperatureLog.Integrity.Detail] = [
        .verified(method: "HMAC-MD5"),
        .mismatch(method: "HMAC-MD5", stored: [0xAB], computed: [0xCD], keyGiven: true),
        .noCheck(format: "generic16"), .nhsNoCheck,
        .archiveAllVerified, .archiveReadFailed, .archiveNotAllVerified(reads: 3),
    ]

    static let everyDetection: [TemperatureLog.Detection] = [
        .forced(format: "generic16"), .forcedDescriptor(name: "acme"), .detected(format: "dtn1", reason: "a Text record"),
        .bareURL, .nhsTranscript(steps: 12), .archiveStitched(reads: 2),
    ]

    static func hasCJK(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value) }
    }

    @Test(arguments: [ReportLanguage.simplifiedChinese, .japanese])
    func everyWarningIsWrittenInTheLanguage(language: ReportLanguage) {
        for warning in Self.everyWarning {
            let text = LogTexts.warning(warning, language: language)
            #expect(Self.hasCJK(text), "\(language.rawValue) has no words of its own for \(warning): \(text)")
            #expect(text != warning.text)
        }
        for detail in Self.everyDetail where detail != .verified(method: "HMAC-MD5") {
            #expect(Self.hasCJK(LogTexts.integrity(detail, language: language)), "\(detail)")
        }
        for detection in Self.everyDetection {
            #expect(Self.hasCJK(LogTexts.detection(detection, language: language)), "\(detection)")
        }
        for humidity in [false, true] {
            #expect(Self.hasCJK(LogTexts.model(.cuplTagHDC2021(humidity: humidity), language: language)))
        }
        #expect(LogTexts.model(.named("NHS3100"), language: language) == "NHS3100")
        for bit in 0..<23 {
            let detail = TemperatureLog.Event.Detail.nhsStatus(bit: bit, clockSinceReboot: 12, stillOut: true)
            #expect(Self.hasCJK(LogTexts.event(detail, language: language)))
        }
    }

    @Test func aModelIsStoredAsItsEnglishNameAndReadBackTyped() throws {
        let model = TemperatureLog.LoggerIdentity.Model.cuplTagHDC2021(humidity: true)
        let stored = try JSONEncoder().encode(model)
        #expect(String(decoding: stored, as: UTF8.self) == #""HDC2021 temperature + humidity""#)
        #expect(try JSONDecoder().decode(TemperatureLog.LoggerIdentity.Model.self, from: stored) == model)
    }

    @Test func englishIsTheValuesOwnText() {
        for warning in Self.everyWarning {
            #expect(LogTexts.warning(warning, language: .english) == warning.text)
        }
        #expect(
            LogWarning.nhsUnread(numbers: [3...3, 5...9], stored: 40).text
                == "6 of the 40 stored sample(s) were not read (numbers 3, 5–9, 0 = oldest)")
        #expect(
            LogWarning.integrityFailed(.mismatch(method: "MD5", stored: [0xAB, 0x01], computed: [0xCD, 0x02], keyGiven: true)).text
                == "integrity check failed: MD5 mismatch: the end-stop holds ab01 but the data gives cd02 (wrong secret, or the data was altered); the samples are shown but must not be trusted"
        )
        #expect(
            TemperatureLog.Event.Detail.nhsStatus(bit: 5, clockSinceReboot: nil, stillOut: true).text
                == "a sample above the valid maximum; still out of limits when read")
    }

    @Test func aWordedValueKeepsItsEnglishAndIsTranslatedFromWhatItWords() {
        let plain = LogWarning.givenIntervalNotUsed(given: 7, used: 600, from: .url)
        let worded = LogWarning.worded(plain, english: "--interval 7 s was not used: the URL gives 10 min")
        #expect(worded.text == "--interval 7 s was not used: the URL gives 10 min")
        #expect(worded.original == plain)
        #expect(LogTexts.warning(worded, language: .japanese) == LogTexts.warning(plain, language: .japanese))
        #expect(LogTexts.warning(worded, language: .english) == worded.text)
        // An untyped sentence (a log stored by an older version) stays as it was stored.
        #expect(LogTexts.warning(.text("something old"), language: .simplifiedChinese) == "something old")
    }

    @Test func storedLogsKeepTheValuesAndOlderPlainSentencesStillRead() throws {
        var log = TemperatureLog(
            format: "nhs31xx", samples: [.init(time: Self.time, temperature: 4)], interval: 600,
            timeBase: .loggerClock,
            integrity: .init(
                status: .failed, detail: .mismatch(method: "MD5", stored: [1], computed: [2], keyGiven: false),
                hint: .needsSecret),
            readTime: Self.time, warnings: Self.everyWarning + [.worded(.nhsClockLost, english: "x"), .text("old")],
            detection: .worded(.forced(format: "nhs31xx"), english: "forced with --logger nhs31xx"))
        log.events = [.init(time: Self.time, name: "temperatureTooHigh", detail: .nhsStatus(bit: 5, clockSinceReboot: nil, stillOut: false))]
        let again = try JSONDecoder().decode(TemperatureLog.self, from: JSONEncoder().encode(log))
        #expect(again == log)

        // A log as versions before typed texts stored it: every text a plain string.
        var object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(log)) as? [String: Any])
        object["warnings"] = ["the logger's clock was lost", "tag image: byte 3: odd"]
        object["detection"] = "forced as nhs31xx"
        object["integrity"] = ["status": "failed", "detail": "MD5 mismatch"]
        object["events"] = [["name": "logging", "detail": "logging started"]]
        let old = try JSONDecoder().decode(TemperatureLog.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.warnings == [.text("the logger's clock was lost"), .text("tag image: byte 3: odd")])
        #expect(old.detection == .text("forced as nhs31xx"))
        #expect(old.integrity.detail == .text("MD5 mismatch") && old.integrity.hint == nil)
        #expect(old.events.first?.detail == .text("logging started") && old.events.first?.time == nil)
    }

    @Test func storedUnreadRangesAreCheckedWhenRead() throws {
        // A stored range whose bounds are out of order is refused as damaged data, not trusted.
        let damaged = #"{"nhsUnread": {"numbers": [[9, 3]], "stored": 40}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(LogWarning.self, from: Data(damaged.utf8)) }
    }

    @Test func aChineseReportWordsTheDecodersWarningsAndIntegrity() throws {
        let detail = TemperatureLog.Integrity.Detail.mismatch(method: "MD5", stored: [1], computed: [2], keyGiven: false)
        let log = TemperatureLog(
            format: "cupltag", samples: (0..<6).map { .init(time: Self.time.addingTimeInterval(Double($0) * 600), temperature: 5) },
            interval: 600, timeBase: .loggerHeader, integrity: .init(status: .failed, detail: detail),
            readTime: Self.time.addingTimeInterval(3600), warnings: [.integrityFailed(detail), .nhsMemoryFull])
        let utc = try #require(TimeZone(identifier: "UTC"))
        let assessment = Assessor.assess(log, profile: .vaccineFridge, timeZone: utc)
        func page(_ language: ReportLanguage) -> String {
            ReportPage(
                content: ReportContent(log: log, assessment: assessment, language: language), timeZone: utc,
                language: language, theme: .light
            ).html()
        }
        let html = page(.simplifiedChinese)
        #expect(html.contains("完整性校验失败：MD5 不符"))
        #expect(html.contains("记录仪存储已满"))
        #expect(!html.contains("integrity check failed"))
        #expect(!html.contains("must not be trusted"))
        let english = page(.english)
        #expect(english.contains("integrity check failed: MD5 mismatch"))
    }

    /// The time base says whether the read time it dates the samples from was given or is an
    /// estimate (and from what), in every language.
    @Test func aReadTimeBaseSaysWhetherTheReadTimeWasGiven() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        func timeBase(estimated: Bool, _ language: ReportLanguage) -> String? {
            var log = TemperatureLog(
                format: "generic16", samples: (0..<6).map { .init(time: Self.time.addingTimeInterval(Double($0) * 600), temperature: 5) },
                interval: 600, timeBase: .readTime, integrity: .init(status: .unverified, detail: "test"),
                readTime: Self.time.addingTimeInterval(3000))
            log.readTimeSource = estimated ? .fileModificationTime : .given
            log.timesEstimated = estimated
            let assessment = Assessor.assess(log, profile: .vaccineFridge, timeZone: utc)
            let page = ReportPage(
                content: ReportContent(log: log, assessment: assessment, language: language), timeZone: utc, language: language, theme: .light)
            return page.loggerRows.first { $0.0 == language.strings.timeBase }?.1
        }
        #expect(timeBase(estimated: false, .english) == "from the read time (given)")
        #expect(timeBase(estimated: true, .english)?.hasPrefix("estimated from the read time (") == true)
        #expect(timeBase(estimated: true, .english)?.contains("modification") == true, "\(timeBase(estimated: true, .english) ?? "")")
        #expect(timeBase(estimated: false, .simplifiedChinese) == "按读取时间（已给出）")
        #expect(timeBase(estimated: true, .japanese)?.hasPrefix("読み取り時刻から推定（") == true)
    }

    /// The period is first sample – last sample: nothing dated after the last sample (which
    /// an auditor would read as after the read).
    @Test func thePeriodEndsAtTheLastSample() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let log = TemperatureLog(
            format: "generic16", samples: (0..<6).map { .init(time: Self.time.addingTimeInterval(Double($0) * 600), temperature: 5) },
            interval: 600, timeBase: .loggerHeader, integrity: .init(status: .unverified, detail: "test"),
            readTime: Self.time.addingTimeInterval(3000))
        let page = ReportPage(
            content: ReportContent(log: log, assessment: Assessor.assess(log, profile: .vaccineFridge, timeZone: utc), language: .english),
            timeZone: utc, language: .english, theme: .light)
        let period = try #require(page.statisticsRows.first { $0.0 == "Period" }?.1)
        let last = page.formatter.dateTime(Self.time.addingTimeInterval(3000))
        #expect(period.hasSuffix(String(last.dropFirst(5))), "\(period) should end at \(last)")
        #expect(!period.hasSuffix(String(page.formatter.dateTime(Self.time.addingTimeInterval(3600)).dropFirst(5))))
    }
}
