import CairoCanvas
import ColdChain
import Foundation
import Testing

@testable import TempChart

/// Issue 28: the PDF and HTML report show every signature on the period (name, role, time
/// with zone, meaning, comment, what it signs, the hash), or an empty block to sign by hand,
/// after everything else; every PDF page says "Page x of y".
@Suite struct ReportSignatureTests {
    static let generated = Date(timeIntervalSince1970: 1_772_700_000)
    /// 2026-11-30 16:04:00 UTC.
    static let signed = Date(timeIntervalSince1970: 1_796_054_640)

    /// A lower-case hex SHA-256 whose first 16 digits differ for every `index` below 256.
    static func hex(_ index: Int) -> String {
        (0..<32).map { String(format: "%02x", (index * 37 + $0 * 11) & 0xFF) }.joined()
    }

    static func signature(_ index: Int, comment: String? = nil, coversOnlyUpTo: Date? = nil) -> ReportSignature {
        let roles = ["viewer", "operator", "reviewer", "admin"]
        return ReportSignature(
            printedName: "Signer \(index) Müller", role: roles[index % roles.count], signed: signed.addingTimeInterval(Double(index) * 3600),
            timeZone: "Europe/Berlin", meaning: ReportSignature.Meaning.allCases[index % 4], comment: comment,
            subject: "2–4 Mar 2026 (part \(index))", signedSHA256: hex(index), coversOnlyUpTo: coversOnlyUpTo)
    }

    static func page(_ language: ReportLanguage, signatures: [ReportSignature]) -> ReportPage {
        let log = ChartFixtures.fridgeLog()
        var content = ReportContent(log: log, assessment: Assessor.assess(log, profile: .vaccineFridge, timeZone: ChartFixtures.shanghai), language: language)
        content.signatures = signatures
        return ReportPage(content: content, timeZone: ChartFixtures.shanghai, language: language, theme: .light, generated: generated)
    }

    /// The whole report as a PDF through Cairo, read back with poppler's pdftotext in the
    /// order it was drawn: one string per page.
    static func pdfPages(_ page: ReportPage) throws -> (pages: [String], drawn: Int) {
        let canvas = try CairoCanvas(
            pdfWidth: ReportPage.a4.width, height: ReportPage.a4.height,
            cjkFamily: page.language == .japanese ? "Noto Sans CJK JP" : "Noto Sans CJK SC")
        let drawn = page.drawPages(on: canvas) { canvas.showPage() }
        try canvas.finish()
        let pdf = try canvas.pdfData()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-signatures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("report.pdf")
        try pdf.write(to: url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        process.arguments = ["-raw", url.path, "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        var pages = String(decoding: output, as: UTF8.self).components(separatedBy: "\u{0C}")
        if pages.last?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true { pages.removeLast() }
        return (pages, drawn)
    }

    /// Text without white space (wrapped lines, CJK text broken between any two characters).
    static func flat(_ text: String) -> String { text.filter { !$0.isWhitespace } }

    static func pageOf(_ number: Int, _ count: Int, _ language: ReportLanguage) -> String {
        flat(language.strings.pageOf.replacingOccurrences(of: "{number}", with: "\(number)").replacingOccurrences(of: "{count}", with: "\(count)"))
    }

    /// Every page says which page it is of how many, once, and nothing else does.
    static func expectPageNumbers(_ pages: [String], _ language: ReportLanguage) {
        for (index, text) in pages.enumerated() {
            let flatPage = flat(text)
            #expect(flatPage.components(separatedBy: pageOf(index + 1, pages.count, language)).count == 2, "\(language) page \(index + 1)")
            for other in 1...pages.count + 1 where other != index + 1 {
                #expect(!flatPage.contains(pageOf(other, pages.count, language)), "\(language) page \(index + 1) names page \(other)")
            }
        }
    }

    @Test(arguments: ReportLanguage.allCases)
    func withoutSignaturesTheLastSectionIsABlockToSignByHand(language: ReportLanguage) throws {
        let page = Self.page(language, signatures: [])
        let (pages, drawn) = try Self.pdfPages(page)
        #expect(pages.count == drawn && drawn >= 2)
        Self.expectPageNumbers(pages, language)
        let s = language.signatures
        let last = Self.flat(try #require(pages.last))
        // The title, the note and the labelled lines, after the audit trail's input.
        let block = Self.flat(s.section + s.none + s.blankFields.joined() + s.meaningChoices)
        let blockRange = try #require(last.range(of: block), "\(language): \(last)")
        if let input = last.range(of: Self.flat(language.audit.sectionInput)) { #expect(input.upperBound <= blockRange.lowerBound) }
        #expect(pages.dropLast().allSatisfy { !Self.flat($0).contains(Self.flat(s.none)) })

        let html = page.html()
        #expect(html.contains("<section id=\"signatures\"><h2>\(SVGCanvas.escape(s.section))</h2>\n<p class=\"muted\">\(SVGCanvas.escape(s.none))</p>"))
        for field in s.blankFields { #expect(html.contains("<tr><th>\(SVGCanvas.escape(field))</th><td class=\"line\"></td></tr>")) }
        #expect(html.contains("<tr class=\"choices\"><th></th><td class=\"muted\">\(SVGCanvas.escape(s.meaningChoices))</td></tr>"))
        for meaning in ReportSignature.Meaning.allCases { #expect(s.meaningChoices.contains(s.meanings[meaning] ?? "—")) }
        #expect(!html.contains("<article class=\"signature"))
    }

    @Test(arguments: ReportLanguage.allCases)
    func oneSignatureShowsEveryField(language: ReportLanguage) throws {
        let coveredUpTo = ChartFixtures.start.addingTimeInterval(2 * 86_400)
        let signature = Self.signature(2, comment: "Door alarm checked; product kept in quarantine.", coversOnlyUpTo: coveredUpTo)
        let page = Self.page(language, signatures: [signature])
        let (pages, drawn) = try Self.pdfPages(page)
        #expect(pages.count == drawn)
        Self.expectPageNumbers(pages, language)
        let s = language.signatures
        let text = Self.flat(pages.joined())
        #expect(signature.signedText == "2026-11-30 19:04 Europe/Berlin (UTC+01:00)")
        let role = try #require(s.roles["reviewer"])
        let meaning = try #require(s.meanings[.approved])
        // In drawing order: the name with the meaning, then each label with its value.
        let expected =
            "1.\(signature.printedName)\(meaning)" + s.role + role + s.dateTime + signature.signedText + s.subject + signature.subject
            + s.comment + (signature.comment ?? "") + s.sha256 + signature.signedSHA256
        #expect(text.contains(Self.flat(expected)), "\(language): \(text)")
        let note = s.coversOnlyUpTo.replacingOccurrences(of: "{time}", with: page.formatter.dateTime(coveredUpTo))
        #expect(text.contains(Self.flat(note)))
        #expect(!text.contains(Self.flat(s.none)))
        // The section comes last: after the audit trail's input, on the last page.
        let last = Self.flat(try #require(pages.last))
        #expect(last.contains(Self.flat(signature.signedText)))
        if let input = last.range(of: Self.flat(language.audit.sectionInput)), let name = last.range(of: Self.flat(signature.printedName)) {
            #expect(input.upperBound <= name.lowerBound)
        }
        if language != .english {
            #expect(!text.contains("Reviewer") && !text.contains("Approved") && !text.contains("Signatures"))
        }
    }

    /// Many signatures with long comments go on over pages: each one whole, in order, once.
    @Test func manySignaturesContinueOnTheNextPages() throws {
        let long = String(repeating: "The excursion was reviewed against the door log and the product's stability data. ", count: 6)
        let lines = (1...4).map { "Line \($0) of a comment written on several lines." }.joined(separator: "\n")
        let signatures = (0..<30).map { index in
            Self.signature(
                index, comment: index % 3 == 0 ? long : index % 3 == 1 ? lines : nil,
                coversOnlyUpTo: index == 29 ? ChartFixtures.start.addingTimeInterval(86_400) : nil)
        }
        let page = Self.page(.english, signatures: signatures)
        let (pages, drawn) = try Self.pdfPages(page)
        #expect(pages.count == drawn)
        Self.expectPageNumbers(pages, .english)
        let flatPages = pages.map(Self.flat)
        let text = flatPages.joined()
        var previous = text.startIndex
        for (index, signature) in signatures.enumerated() {
            let name = Self.flat("\(index + 1). \(signature.printedName)")
            #expect(text.components(separatedBy: name).count == 2, "signature \(index + 1) is shown once")
            let range = try #require(text.range(of: name))
            #expect(range.lowerBound >= previous, "signature \(index + 1) in order")
            previous = range.upperBound
            let s = ReportLanguage.english.signatures
            let rows = text.contains(Self.flat(s.dateTime + signature.signedText + s.subject + signature.subject))
            #expect(rows, "signature \(index + 1)'s time and subject")
            let comment = signature.comment.map { text.contains(Self.flat(s.comment + $0 + s.sha256)) } ?? true
            #expect(comment, "signature \(index + 1)'s comment whole")
            #expect(text.components(separatedBy: signature.signedSHA256).count == 2)
            // A signature that fits on a page is on one page: its name and its hash together.
            #expect(flatPages.contains { $0.contains(name) && $0.contains(signature.signedSHA256) }, "signature \(index + 1) split")
        }
        #expect(text.contains(Self.flat(page.signatureCoverageNote(signatures[29]) ?? "—")))
        // The signatures take pages of their own after the audit pages.
        let first = try #require(flatPages.firstIndex { $0.contains(Self.flat(signatures[0].printedName)) })
        #expect(pages.count - first >= 3)
    }

    /// Nothing is drawn below the bottom margin (where only the footer goes), on any page,
    /// even for a comment longer than a page.
    @Test func noLineLeavesItsPage() {
        let huge = (1...120).map { "Comment line \($0)." }.joined(separator: "\n")
        let signatures = [Self.signature(0, comment: huge)] + (1..<12).map { Self.signature($0, comment: "Short comment \($0).") }
        let page = Self.page(.english, signatures: signatures)
        let canvas = TextPages(width: ReportPage.a4.width, height: ReportPage.a4.height)
        let drawn = page.drawPages(on: canvas, newPage: canvas.newPage)
        #expect(canvas.pages.count == drawn)
        let bottom = ReportPage.a4.height - 36
        for (index, texts) in canvas.pages.enumerated() {
            let footer = "ColdTap · Page \(index + 1) of \(drawn)"
            #expect(texts.filter { $0.text == footer }.count == 1, "page \(index + 1)")
            for text in texts where text.y > bottom {
                #expect(text.y == bottom + 14, "page \(index + 1): '\(text.text)' at \(text.y)")
            }
        }
        let all = canvas.pages.flatMap { $0.map(\.text) }
        for number in 1...120 { #expect(all.filter { $0 == "Comment line \(number)." }.count == 1) }
        for index in 1..<12 { #expect(all.contains("Short comment \(index).")) }
    }

    @Test(arguments: ReportLanguage.allCases)
    func theHTMLShowsEachSignatureEscaped(language: ReportLanguage) throws {
        var hostile = Self.signature(1, comment: "<script>alert(\"x\")</script> & 'done'", coversOnlyUpTo: ChartFixtures.start)
        hostile.printedName = "Ann <b>Bold</b>"
        hostile.subject = "excursion from 12 Nov 03:10 <i>"
        hostile.role = "auditor<"
        let signatures = [Self.signature(0, comment: nil), hostile, Self.signature(3, comment: "Rejected: see CAPA-12.")]
        let page = Self.page(language, signatures: signatures)
        let html = page.html()
        let s = language.signatures
        func e(_ text: String) -> String { SVGCanvas.escape(text) }
        #expect(!html.contains("<script>alert") && !html.contains("<b>Bold") && !html.contains("<i>"))
        for (index, signature) in signatures.enumerated() {
            let article =
                "<article class=\"signature meaning-\(signature.meaning.rawValue)\" data-sha256=\"\(signature.signedSHA256)\">"
                + "<h3>\(index + 1). \(e(signature.printedName)) <span class=\"meaning\">\(e(page.meaningText(signature.meaning)))</span></h3>"
            #expect(html.contains(article), "\(language): signature \(index + 1)")
            #expect(html.contains("<tr><th>\(e(s.role))</th><td class=\"wrap\">\(e(s.roles[signature.role] ?? signature.role))</td></tr>"))
            #expect(html.contains("<tr><th>\(e(s.dateTime))</th><td class=\"wrap\">\(e(signature.signedText))</td></tr>"))
            #expect(html.contains("<tr><th>\(e(s.subject))</th><td class=\"wrap\">\(e(signature.subject))</td></tr>"))
            #expect(
                html.contains(
                    "<tr><th>\(e(s.sha256))</th><td class=\"hash\"><code title=\"\(signature.signedSHA256)\">\(e(signature.signedSHA256))</code></td></tr>"))
            if let comment = signature.comment {
                #expect(html.contains("<tr><th>\(e(s.comment))</th><td class=\"wrap\">\(e(comment))</td></tr>"))
            }
        }
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;done&apos;"))
        #expect(html.contains("<td class=\"wrap\">auditor&lt;</td>"))
        #expect(html.components(separatedBy: "<tr><th>\(e(s.comment))</th>").count == 3)
        #expect(html.contains("<p class=\"estimated\">\(e(page.signatureCoverageNote(hostile) ?? "—"))</p>"))
        #expect(!html.contains(e(s.none)) && !html.contains("<td class=\"line\">"))
        // Last: after the audit trail and the chart, before the footer.
        let chart = try #require(html.range(of: "<figure id=\"chart\">"))
        let section = try #require(html.range(of: "<section id=\"signatures\">"))
        let footer = try #require(html.range(of: "<footer>"))
        #expect(chart.upperBound < section.lowerBound && section.upperBound < footer.lowerBound)
    }

    @Test func theSigningTimeIsShownInTheSignersZone() {
        func text(_ zone: String) -> String {
            ReportSignature(
                printedName: "A", role: "admin", signed: Self.signed, timeZone: zone, meaning: .reviewed, comment: nil, subject: "s",
                signedSHA256: "ab"
            ).signedText
        }
        #expect(text("Europe/Berlin") == "2026-11-30 17:04 Europe/Berlin (UTC+01:00)")
        #expect(text("Asia/Tokyo") == "2026-12-01 01:04 Asia/Tokyo (UTC+09:00)")
        #expect(text("+05:30") == "2026-11-30 21:34 UTC+05:30")
        #expect(text("UTC-03:00") == "2026-11-30 13:04 UTC-03:00")
        #expect(text("GMT+1") == "2026-11-30 17:04 UTC+01:00")
        #expect(text("-0800") == "2026-11-30 08:04 UTC-08:00")
        #expect(text("UTC") == "2026-11-30 16:04 UTC")
        #expect(text("Z") == "2026-11-30 16:04 UTC")
        // Not a zone: the time in UTC, said so.
        for unknown in ["Mars/Olympus", "+25:00", "+1:5", "", "UTC+", "+01:0a"] { #expect(text(unknown) == "2026-11-30 16:04 UTC", "\(unknown)") }
    }

    /// Every role and meaning has its words in every language, and the pages' footer too.
    @Test func everyLanguageHasEveryWord() {
        for language in ReportLanguage.allCases {
            let s = language.signatures
            for role in ["viewer", "operator", "reviewer", "admin"] { #expect(s.roles[role]?.isEmpty == false, "\(language): \(role)") }
            for meaning in ReportSignature.Meaning.allCases { #expect(s.meanings[meaning]?.isEmpty == false, "\(language): \(meaning)") }
            #expect(Set(s.meanings.values).count == ReportSignature.Meaning.allCases.count)
            #expect(s.coversOnlyUpTo.contains("{time}"))
            #expect(language.strings.pageOf.contains("{number}") && language.strings.pageOf.contains("{count}"))
            #expect(s.blankFields.count == 5 && Set(s.blankFields).count == 5)
            if language != .english {
                let english = SignatureStrings.english
                #expect(s.section != english.section && s.none != english.none && s.roles != english.roles)
            }
        }
    }
}

/// A canvas that keeps each page's texts with their baselines.
final class TextPages: Canvas {
    let width: Double
    let height: Double
    var pages: [[(text: String, y: Double)]] = [[]]

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    func newPage() { pages.append([]) }
    func fill(_ path: ChartPath, color: ChartColor) {}
    func stroke(_ path: ChartPath, color: ChartColor, style: StrokeStyle) {}
    func text(_ string: String, at point: ChartPoint, font: ChartFont, color: ChartColor, anchor: TextAnchor) {
        pages[pages.count - 1].append((string, point.y))
    }
    func textWidth(_ string: String, font: ChartFont) -> Double { TextMetrics.estimatedWidth(string, font: font) }
    func pushClip(_ rect: ChartRect) {}
    func popClip() {}
}
