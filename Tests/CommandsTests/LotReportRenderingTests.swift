import ColdChain
import ColdTapKit
import Digest
import Foundation
import LoggerFormats
import TempChart
import TestSupport
import Testing

/// The lot report as every front end gets it, in bytes (`LotReportRendering`): the worked
/// example of docs/stability.md §5 in each language, the PDF read back with pdftotext.
@Suite struct LotReportRenderingTests {
    static func content(_ language: ReportLanguage) throws -> LotReportContent {
        let example = try StabilityExample.load()
        let product = try Product.fromJSON(Data(example.productJSON.utf8))
        let legs = example.legs.map { leg in
            LotLeg(
                logger: leg.logger, from: leg.from, to: leg.to,
                log: leg.logger == nil
                    ? nil
                    : TemperatureLog(
                        format: "test", samples: leg.samples.map { TemperatureLog.Sample(time: $0.time, temperature: $0.celsius) }, interval: 3600,
                        timeBase: .loggerHeader, integrity: .init(status: .verified, detail: "test"), readTime: leg.to))
        }
        let status = LotEvaluation.status(lot: example.lot, product: product, legs: legs, at: example.statusTime)
        let reportLegs = legs.enumerated().map { index, leg in
            let reads =
                leg.logger == nil
                ? []
                : [
                    LotReportRead(
                        id: Int64(index + 1), readTime: leg.to, readTimeSource: "tag-read", sha256: SHA256Digest.hex(Array("raw \(index)".utf8)),
                        chainHash: SHA256Digest.hex(Array("row \(index)".utf8)))
                ]
            return LotReportLeg(logger: leg.logger, from: leg.from, to: leg.to, log: leg.log, reads: reads)
        }
        return LotReportContent(
            lot: example.lot, product: product, status: status, legs: reportLegs, chainHead: SHA256Digest.hex(Array("head".utf8)),
            generated: example.statusTime, timeZone: TimeZone(identifier: "UTC") ?? .gmt, language: language)
    }

    @Test(arguments: ReportLanguage.allCases)
    func thePDFAndTheHTMLOfTheWorkedExample(language: ReportLanguage) throws {
        let content = try Self.content(language)
        let page = LotReportPage(content: content)
        let rendering = LotReportRendering()
        let html = String(decoding: try rendering.render(.html, content), as: UTF8.self)
        #expect(html.contains("<html lang=\"\(language.rawValue)\">") && html.contains("L-0302") && html.contains("USABLE"))
        for reason in page.reasonTexts { #expect(html.contains(SVGCanvas.escape(reason))) }

        let pdf = try rendering.render(.pdf, content)
        #expect(pdf.starts(with: Data("%PDF-".utf8)))
        #expect(String(decoding: pdf.suffix(8), as: UTF8.self).contains("%%EOF"))
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let text = try ReportAuditTests.pdfText(try files.write(LotReportRendering.fileStem(lot: content.lot) + LotReportFileKind.pdf.fileSuffix, pdf))
        let pages = text.components(separatedBy: "\u{0C}").filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        #expect(pages.count == 3)
        let flat = text.filter { !$0.isWhitespace }
        for expected in [language.lot.title, "L-0302", page.decisionText, content.chainHead] + content.legs.compactMap(\.logger) {
            #expect(flat.contains(expected.filter { !$0.isWhitespace }), "\(language): \(expected)")
        }
        #expect(pages.last?.filter { !$0.isWhitespace }.contains(language.lot.sectionSignature.filter { !$0.isWhitespace }) == true)
    }

    @Test func theFileNameAndKinds() {
        #expect(LotReportRendering.fileStem(lot: "L-0302") == "lot-L-0302")
        #expect(LotReportRendering.fileStem(lot: "a/b c") == "lot-a_b_c")
        #expect(LotReportFileKind.pdf.contentType == "application/pdf" && LotReportFileKind.html.fileSuffix == "-lot-report.html")
    }
}
