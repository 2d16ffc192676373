import TempChart
import Testing

/// `--lang`, `?lang=` and the pages' `Accept-Language` take a language by its BCP 47 tag.
@Suite struct ReportLanguageTests {
    @Test(arguments: [
        ("en", ReportLanguage.english), ("en-GB", .english), ("en_US", .english), ("EN", .english),
        ("ja", .japanese), ("ja-JP", .japanese),
        ("zh", .simplifiedChinese), ("zh-CN", .simplifiedChinese), ("zh-Hans", .simplifiedChinese), ("zh-Hans-SG", .simplifiedChinese),
        ("zh-hans-tw", .simplifiedChinese),
    ])
    func tagsNameTheirLanguage(tag: String, language: ReportLanguage) {
        #expect(ReportLanguage(languageTag: tag) == language)
    }

    @Test(arguments: ["zh-Hant", "zh-TW", "zh-HK", "zh-Hant-TW", "fr", "de-DE", "", "-", "en--GB", "english", "e"])
    func otherTagsAreNone(tag: String) {
        #expect(ReportLanguage(languageTag: tag) == nil)
    }
}
