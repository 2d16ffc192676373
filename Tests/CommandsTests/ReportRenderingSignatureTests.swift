import ColdChain
import ColdTapKit
import Foundation
import LoggerFormats
import TempChart
import TestSupport
import Testing

/// The signatures a front end passes to `ReportRendering` reach the PDF and the HTML; every
/// PDF page is numbered "Page x of y".
@Suite struct ReportRenderingSignatureTests {
    static func subject(signatures: [ReportSignature]) -> ReportRendering.Subject {
        let start = Date(timeIntervalSince1970: 1_775_001_600)
        let samples = (0..<96).map { TemperatureLog.Sample(time: start.addingTimeInterval(Double($0) * 900), temperature: $0 % 40 == 0 ? 9 : 5) }
        let log = TemperatureLog(
            format: "test", samples: samples, interval: 900, timeBase: .loggerHeader, integrity: .init(status: .verified, detail: "test"),
            readTime: start.addingTimeInterval(96 * 900))
        let utc = TimeZone(identifier: "UTC") ?? .gmt
        return ReportRendering.Subject(
            log: log, assessment: Assessor.assess(log, profile: .vaccineFridge, timeZone: utc), signatures: signatures,
            generated: start.addingTimeInterval(100 * 900))
    }

    static let signature = ReportSignature(
        printedName: "Dana Reviewer", role: "reviewer", signed: Date(timeIntervalSince1970: 1_775_100_000), timeZone: "Asia/Tokyo",
        meaning: .reviewed, comment: "Checked with the fridge's log book.", subject: "1–2 Apr 2026",
        signedSHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")

    static func pdfPages(_ pdf: Data) throws -> [String] {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let text = try ReportAuditTests.pdfText(try files.write("report.pdf", pdf))
        return text.components(separatedBy: "\u{0C}").filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
    }

    @Test(arguments: [ReportLanguage.english, .japanese])
    func theSignaturesReachThePDFAndTheHTML(language: ReportLanguage) throws {
        let rendering = ReportRendering(language: language)
        let subject = Self.subject(signatures: [Self.signature])
        let pages = try Self.pdfPages(try rendering.render(.pdf, of: subject))
        #expect(pages.count >= 2)
        for (index, page) in pages.enumerated() {
            let footer = language.strings.pageOf.replacingOccurrences(of: "{number}", with: "\(index + 1)")
                .replacingOccurrences(of: "{count}", with: "\(pages.count)")
            #expect(page.contains(footer), "\(language): page \(index + 1)")
        }
        let last = try #require(pages.last).filter { !$0.isWhitespace }
        let s = language.signatures
        for expected in [
            s.section, Self.signature.printedName, Self.signature.signedText, Self.signature.signedSHA256, Self.signature.subject,
            Self.signature.comment ?? "", s.meanings[.reviewed] ?? "", s.roles["reviewer"] ?? "",
        ] {
            #expect(last.contains(expected.filter { !$0.isWhitespace }), "\(language): \(expected)")
        }
        #expect(Self.signature.signedText == "2026-04-02 12:20 Asia/Tokyo (UTC+09:00)")

        let html = String(decoding: try rendering.render(.html, of: subject), as: UTF8.self)
        #expect(html.contains("data-sha256=\"\(Self.signature.signedSHA256)\"") && html.contains(SVGCanvas.escape(Self.signature.printedName)))
        #expect(!html.contains("<td class=\"line\">"))
    }

    @Test func withoutSignaturesTheReportHasTheBlockToSignByHand() throws {
        let rendering = ReportRendering()
        let subject = Self.subject(signatures: [])
        let pages = try Self.pdfPages(try rendering.render(.pdf, of: subject))
        let last = try #require(pages.last).filter { !$0.isWhitespace }
        let s = ReportLanguage.english.signatures
        for expected in [s.section, s.none] + s.blankFields { #expect(last.contains(expected.filter { !$0.isWhitespace }), "\(expected)") }
        #expect(pages.last?.contains("Page \(pages.count) of \(pages.count)") == true)
        let html = String(decoding: try rendering.render(.html, of: subject), as: UTF8.self)
        #expect(html.components(separatedBy: "<td class=\"line\"></td>").count - 1 == s.blankFields.count)
    }
}
