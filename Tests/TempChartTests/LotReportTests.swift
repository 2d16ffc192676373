import CairoCanvas
import ColdChain
import Foundation
import LoggerFormats
import TestSupport
import Testing

@testable import TempChart

/// The worked example of docs/stability.md §5 as a lot report's content: its legs with the
/// loggers' hourly samples and two made-up reads each.
enum LotReportFixtures {
    static func log(_ samples: [(time: Date, celsius: Double)]) -> TemperatureLog {
        TemperatureLog(
            format: "test", samples: samples.map { TemperatureLog.Sample(time: $0.time, temperature: $0.celsius) }, interval: 3600,
            timeBase: .loggerHeader, integrity: .init(status: .verified, detail: "test"), readTime: samples.last?.time ?? Date())
    }

    /// 64 hex digits that differ with `seed`.
    static func hex(_ seed: Int) -> String {
        (0..<32).map { String(format: "%02x", ($0 * 37 + seed * 11) & 0xFF) }.joined()
    }

    static let zones: [ReportLanguage: String] = [.english: "UTC", .simplifiedChinese: "Asia/Shanghai", .japanese: "Asia/Tokyo"]

    static func content(
        _ language: ReportLanguage, changing change: (inout [StabilityExample.Leg]) -> Void = { _ in }
    ) throws -> LotReportContent {
        let example = try StabilityExample.load()
        let product = try Product.fromJSON(Data(example.productJSON.utf8))
        var described = example.legs
        change(&described)
        let legs = described.map { LotLeg(logger: $0.logger, from: $0.from, to: $0.to, log: $0.logger == nil ? nil : log($0.samples)) }
        let status = LotEvaluation.status(lot: example.lot, product: product, legs: legs, at: example.statusTime)
        var readID: Int64 = 40
        let reportLegs = legs.enumerated().map { index, leg in
            var reads: [LotReportRead] = []
            if leg.logger != nil {
                for part in 0..<2 {
                    readID += 1
                    reads.append(
                        LotReportRead(
                            id: readID, readTime: leg.from.addingTimeInterval(Double(part + 1) * leg.to.timeIntervalSince(leg.from) / 2),
                            readTimeSource: part == 0 ? "tag-read" : "given-by-uploader", sha256: hex(index * 2 + part),
                            chainHash: hex(100 + index * 2 + part)))
                }
            }
            return LotReportLeg(logger: leg.logger, from: leg.from, to: leg.to, log: leg.log, reads: reads)
        }
        return LotReportContent(
            lot: example.lot, product: product, quantity: "200", note: nil, status: status, legs: reportLegs, chainHead: hex(999),
            checkpoint: "coldtap.example/archive\n57\nq2VzdGluZyB0aGUgcm9vdCBoYXNoIG9mIHRoZSByZWNvcmQ=\n\n— coldtap.example/archive AbCdEf0123==",
            generated: example.statusTime.addingTimeInterval(3600), timeZone: TimeZone(identifier: zones[language] ?? "UTC") ?? .gmt,
            language: language)
    }

    /// The visible text of an HTML file: no style, no tags, entities decoded.
    static func visibleText(_ html: String) -> String {
        var text = html.replacingOccurrences(of: "<style>[\\s\\S]*?</style>", with: " ", options: .regularExpression)
        text = text.replacingOccurrences(of: "<title>[\\s\\S]*?</title>", with: " ", options: .regularExpression)
        text = text.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&emsp;", " "), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text
    }

    /// What is left of `text` when the ids, codes and hashes a report shows as they are
    /// are taken out: any word of Latin letters left is English.
    static func latinWords(_ text: String, content: LotReportContent) -> [String] {
        var rest = text
        let ids =
            [content.lot, content.productName, content.timeZone.identifier, content.chainHead, "SHA-256", "ColdTap", "°C", "UTC"]
            + content.legs.compactMap(\.logger) + LotDecision.allCases.map(\.rawValue)
            + content.legs.flatMap(\.reads).flatMap { [$0.sha256, $0.chainHash] } + (content.checkpoint.map { [$0] } ?? [])
        for id in ids.sorted(by: { $0.count > $1.count }) { rest = rest.replacingOccurrences(of: id, with: " ") }
        return rest.matches(of: /[A-Za-z]{2,}/).map { String($0.output) }
    }
}

@Suite struct LotReportTests {
    @Test func theEnglishReasonsAreColdChainsOwn() throws {
        let content = try LotReportFixtures.content(.english)
        let page = LotReportPage(content: content)
        #expect(page.reasonTexts == content.status.reasons.map { $0.english(in: content.timeZone) })
        #expect(page.decisionText == "USABLE")
        #expect(page.bandRows == [["> 8 °C and ≤ 25 °C", "18 h", "3 d", "0.25"], ["> 25 °C and ≤ 30 °C", "3 h", "12 h", "0.25"]])
    }

    @Test(arguments: [ReportLanguage.simplifiedChinese, .japanese])
    func everyReasonIsWordedInTheLanguage(language: ReportLanguage) throws {
        let content = try LotReportFixtures.content(language)
        let page = LotReportPage(content: content)
        // A discard event and an excursion as the evaluation finds them.
        let freeze = try LotReportFixtures.content(language) { legs in legs[3].samples[2].celsius = -0.5 }
        let event = try #require(freeze.status.discardEvents.first)
        let excursion = try #require(content.status.excursions.first { $0.leg == 2 })
        let reasons: [LotReason] = [
            .noJourney, .integrityFailed(logger: "depot-fridge"), .discardLimit(event, logger: "clinic-fridge"), .discardLimit(event, logger: nil),
            .moreDiscardEvents(2), .consumed(0.5, by: .allowances, reviewThreshold: 0.8), .consumed(0.9, by: .kinetics, reviewThreshold: 0.8),
            .legConsumedMost(leg: 2, logger: "depot-fridge", consumed: 0.25), .excursion(excursion, logger: "depot-fridge"),
            .unknownTime(
                seconds: 18_000, legs: [.init(leg: 1, logger: nil, seconds: 16_200), .init(leg: 3, logger: "clinic-fridge", seconds: 1800)],
                countedAs: .band("> 25 °C and ≤ 30 °C", allowanceSeconds: 43_200, kineticsAt: 30),
                worstCaseConsumed: 0.9167, decides: .review),
            .unknownTime(seconds: 7200, legs: [], countedAs: .temperature(30), worstCaseConsumed: 0.6, decides: nil),
            .unknownTime(seconds: 60, legs: [], countedAs: nil, worstCaseConsumed: 0, decides: nil),
        ]
        for reason in reasons {
            let text = page.reasonText(reason)
            #expect(text != reason.english(in: content.timeZone))
            #expect(LotReportFixtures.latinWords(text, content: content).isEmpty, "\(language): \(text)")
        }
        // The same values as the English sentence.
        #expect(page.reasonText(reasons[2]).contains("≤ 0 °C") && page.reasonText(reasons[2]).contains("−0.5 °C"))
        #expect(page.reasonText(reasons[5]).contains("0.5") && page.reasonText(reasons[5]).contains("0.8"))
        #expect(page.reasonText(reasons[8]).contains("0.25") && page.reasonText(reasons[8]).contains("27 °C"))
        #expect(page.reasonText(reasons[9]).contains("0.92") && page.reasonText(reasons[9]).contains("(REVIEW)"))
    }

    @Test(arguments: ReportLanguage.allCases)
    func theHTMLHoldsTheLotTheDecisionTheLegsAndTheReasons(language: ReportLanguage) throws {
        let content = try LotReportFixtures.content(language)
        let page = LotReportPage(content: content)
        let html = page.html()
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<html lang=\"\(language.rawValue)\">"))
        #expect(!html.contains("<script"))
        #expect(html.contains("L-0302") && html.contains("clinic-vaccine"))
        #expect(html.contains("<span class=\"decision\">\(SVGCanvas.escape(page.decisionText))</span>"))
        #expect(html.contains("USABLE"))
        for logger in ["shipper-1", "depot-fridge", "clinic-fridge"] { #expect(html.contains(logger)) }
        for index in 1...4 { #expect(html.contains("<article class=\"leg\" id=\"leg-\(index)\">")) }
        for reason in page.reasonTexts { #expect(html.contains("<li>\(SVGCanvas.escape(reason))</li>")) }
        for read in content.legs.flatMap(\.reads) {
            #expect(html.contains("#\(read.id)") && html.contains(read.sha256) && html.contains(read.chainHash))
        }
        #expect(html.contains(content.chainHead))
        #expect(html.components(separatedBy: "<td class=\"line\"></td>").count - 1 == 4)
        if language != .english {
            #expect(page.decisionText == "\(language.lot.decisions[.usable] ?? "") (USABLE)")
            let english = LotReportFixtures.latinWords(LotReportFixtures.visibleText(html), content: content)
            #expect(english.isEmpty, "\(language): \(english)")
        }
    }

    /// The PDF read back with poppler's pdftotext, as a reviewer's tools would.
    @Test(arguments: ReportLanguage.allCases)
    func thePDFHasItsPagesAndText(language: ReportLanguage) throws {
        let content = try LotReportFixtures.content(language)
        let page = LotReportPage(content: content)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lot-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("lot.pdf")
        let canvas = try CairoCanvas(
            pdfAt: url, width: LotReportPage.a4.width, height: LotReportPage.a4.height,
            cjkFamily: language == .japanese ? "Noto Sans CJK JP" : "Noto Sans CJK SC")
        let pages = page.draw(on: canvas) { canvas.showPage() }
        try canvas.finish()
        let data = try Data(contentsOf: url)
        #expect(data.starts(with: Data("%PDF-".utf8)))
        #expect((data.range(of: Data("NotoSansCJK".utf8)) != nil) == language.usesCJK)
        #expect(pages == 3)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        process.arguments = [url.path, "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self)
        let pageTexts = text.components(separatedBy: "\u{0C}").filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        #expect(pageTexts.count == pages)
        // Every page says which of how many it is.
        for (index, pageText) in pageTexts.enumerated() {
            let footer = language.strings.pageOf.replacingOccurrences(of: "{number}", with: "\(index + 1)")
                .replacingOccurrences(of: "{count}", with: "\(pages)")
            #expect(pageText.filter { !$0.isWhitespace }.contains(footer.filter { !$0.isWhitespace }), "\(language): page \(index + 1)")
        }
        // Wrapped lines (CJK text wraps between any two characters) compared without spaces.
        let flat = text.filter { !$0.isWhitespace }
        func has(_ expected: String) -> Bool { flat.contains(expected.filter { !$0.isWhitespace }) }
        let lot = language.lot
        for expected in [lot.title, "L-0302", "clinic-vaccine", page.decisionText, lot.sectionSignature, lot.decisionConfirmed] + lot.signatureFields {
            #expect(has(expected), "\(language): \(expected)")
        }
        for logger in ["shipper-1", "depot-fridge", "clinic-fridge"] { #expect(has(logger)) }
        for reason in page.reasonTexts { #expect(has(reason), "\(language): \(reason)") }
        for read in content.legs.flatMap(\.reads) { #expect(has(read.sha256) && has(read.chainHash)) }
        #expect(!text.contains("…"))
    }

    @Test func aFreezeAndALongHandOverShowTheirDecisionsAndEvents() throws {
        let freeze = try LotReportFixtures.content(.japanese) { legs in
            legs[3].samples[2].celsius = 0
            legs[3].samples[3].celsius = -0.5
        }
        let discard = LotReportPage(content: freeze)
        #expect(discard.decisionText == "廃棄 (DISCARD)")
        #expect(discard.discardRows.count == 1 && discard.discardRows[0][0] == "区間 4 · clinic-fridge")
        #expect(discard.html().contains(discard.discardRows[0][2]))
        let late = try LotReportFixtures.content(.simplifiedChinese) { legs in
            legs[1].to.addTimeInterval(3 * 3600)
            legs[2].from.addTimeInterval(3 * 3600)
        }
        let inconclusive = LotReportPage(content: late)
        #expect(inconclusive.decisionText == "无法判定 (INCONCLUSIVE)")
        #expect(inconclusive.reasonTexts.last?.hasSuffix("，结论将变为 需复核 (REVIEW)。") == true)
    }

    @Test(arguments: ReportLanguage.allCases)
    func aLotWithoutAJourneyIsDrawnToo(language: ReportLanguage) throws {
        let product = try #require(Product.builtIn(named: "example-2-8"))
        let at = Date(timeIntervalSince1970: 1_772_409_600)
        let status = LotEvaluation.status(lot: "L-empty", product: product, legs: [], at: at)
        let content = LotReportContent(
            lot: "L-empty", product: product, note: "—", status: status, legs: [], chainHead: LotReportFixtures.hex(1), generated: at,
            timeZone: .gmt, language: language)
        let page = LotReportPage(content: content, theme: .dark)
        #expect(status.decision == .inconclusive && page.reasonTexts.count == status.reasons.count)
        let canvas = SVGCanvas(width: LotReportPage.a4.width, height: LotReportPage.a4.height)
        #expect(page.draw(on: canvas) {} == 2)
        #expect(canvas.document().contains(SVGCanvas.escape(page.decisionText)))
        let html = page.html()
        #expect(html.contains(SVGCanvas.escape(page.reasonText(.noJourney))) && html.contains(ChartTheme.dark.background.hexString))
    }

    @Test func aClosingMarkNeverStartsALine() {
        let canvas = SVGCanvas(width: 100, height: 100)
        let font = ChartFont(size: 10)
        #expect(ReportPage.wrap("あいう。えお", width: 30, font: font, canvas: canvas) == ["あいう", "。えお"])
        #expect(LotReportPage.wrap("あいう。えお", width: 30, font: font, canvas: canvas) == ["あいう。", "えお"])
        #expect(LotReportPage.wrap("あいう。", width: 30, font: font, canvas: canvas) == ["あいう。"])
    }
}
