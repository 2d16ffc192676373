import Foundation
import TestSupport
import Testing

@testable import PDFSigning

/// Reading the PDF to sign: every byte is untrusted, so each malformed or unsupported input is
/// a typed error naming the byte where it was found, never a crash or a guess.
@Suite struct PDFFileTests {
    /// The update's layout without the cryptography (so these run on every platform).
    func prepare(_ pdf: Data) throws(PDFSigningError) -> PDFSignatureUpdate {
        try PDFSignatureUpdate(pdf, fields: PDFSignatureFields(reason: "report", time: Date(timeIntervalSince1970: 0)), capacity: 16)
    }

    func error(_ pdf: Data) -> PDFSigningError? {
        do throws(PDFSigningError) {
            _ = try prepare(pdf)
            return nil
        } catch {
            return error
        }
    }

    @Test func refusesWhatIsNotAPDF() {
        #expect(error(Data("hello, this is no PDF at all".utf8)) == .malformedPDF(offset: 0, problem: "the file does not start with '%PDF-'"))
        #expect(error(Data()) == .malformedPDF(offset: 0, problem: "the file does not start with '%PDF-'"))
    }

    @Test func refusesAFileWithoutStartxref() {
        let pdf = Data("%PDF-1.4\n1 0 obj\n<< >>\nendobj\n%%EOF\n".utf8)
        guard case .malformedPDF(_, let problem)? = error(pdf) else {
            Issue.record("not refused as malformed")
            return
        }
        #expect(problem.contains("startxref"))
    }

    @Test func namesTheOffsetOfAStartxrefOutsideTheFile() throws {
        var text = String(decoding: SigningFixtures.onePagePDF(), as: UTF8.self)
        let range = try #require(text.range(of: "startxref\n"))
        let numberEnd = try #require(text[range.upperBound...].firstIndex(of: "\n"))
        text.replaceSubrange(range.upperBound..<numberEnd, with: "999999")
        let offset = text.utf8.distance(from: text.utf8.startIndex, to: range.lowerBound)
        #expect(error(Data(text.utf8)) == .malformedPDF(offset: offset, problem: "startxref 999999 is outside the file (\(text.utf8.count) bytes)"))
    }

    @Test func refusesACrossReferenceStream() {
        // What a PDF 1.5 writer that compresses its index puts where `xref` would be.
        let body = "%PDF-1.5\n1 0 obj\n<< /Type /XRef /Size 2 /W [1 2 1] /Length 0 >>\nstream\n\nendstream\nendobj\n"
        let pdf = Data((body + "startxref\n9\n%%EOF\n").utf8)
        #expect(error(pdf) == .unsupportedPDF(offset: 9, feature: "a cross-reference stream"))
    }

    @Test func refusesAnEncryptedPDF() {
        let pdf = SigningFixtures.minimalPDF(
            ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>", "<< /Filter /Standard /V 2 >>"],
            trailerExtra: " /Encrypt 3 0 R")
        guard case .unsupportedPDF(_, let feature)? = error(pdf) else {
            Issue.record("an encrypted PDF was not refused")
            return
        }
        #expect(feature.contains("encryption"))
    }

    @Test func refusesACrossReferenceCountTheFileCannotHold() {
        var text = String(decoding: SigningFixtures.onePagePDF(), as: UTF8.self)
        text = text.replacingOccurrences(of: "xref\n0 5\n", with: "xref\n0 999999999\n")
        guard case .malformedPDF(_, let problem)? = error(Data(text.utf8)) else {
            Issue.record("not refused")
            return
        }
        #expect(problem.contains("does not fit in the file"))
    }

    @Test func refusesAChainOfTablesThatLoops() throws {
        let pdf = SigningFixtures.onePagePDF()
        let table = try #require(Int(String(decoding: pdf, as: UTF8.self).components(separatedBy: "startxref\n")[1].prefix { $0.isNumber }))
        var text = String(decoding: pdf, as: UTF8.self)
        text = text.replacingOccurrences(of: "/Root 1 0 R", with: "/Root 1 0 R /Prev \(table)")
        #expect(error(Data(text.utf8)) == .malformedPDF(offset: table, problem: "the chain of cross-reference tables comes back to this table"))
    }

    @Test func refusesAnObjectThatIsNotWhereTheTableSays() throws {
        var text = String(decoding: SigningFixtures.onePagePDF(), as: UTF8.self)
        // Object 1 renumbered in place: the table's offset now finds object 7.
        text = text.replacingOccurrences(of: "1 0 obj\n<< /Type /Catalog", with: "7 0 obj\n<< /Type /Catalog")
        let offset = text.utf8.distance(from: text.utf8.startIndex, to: try #require(text.range(of: "7 0 obj")).lowerBound)
        #expect(error(Data(text.utf8)) == .malformedPDF(offset: offset, problem: "the cross-reference table puts object 1 0 R here, but object 7 0 is here"))
    }

    @Test func refusesAPageTreeThatLoops() {
        let pdf = SigningFixtures.minimalPDF([
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", "<< /Type /Pages /Kids [2 0 R] /Count 1 >>",
        ])
        guard case .malformedPDF(_, let problem)? = error(pdf) else {
            Issue.record("a looping page tree was not refused")
            return
        }
        #expect(problem.contains("loops"))
    }

    @Test func refusesADocumentWithoutPages() {
        let pdf = SigningFixtures.minimalPDF(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"])
        guard case .malformedPDF(_, let problem)? = error(pdf) else {
            Issue.record("a PDF without pages was not refused")
            return
        }
        #expect(problem.contains("has no pages"))
    }

    @Test func refusesNestingDeeperThanItFollows() {
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        let pdf = SigningFixtures.onePagePDF(pageExtra: " /Deep \(deep)")
        guard case .malformedPDF(_, let problem)? = error(pdf) else {
            Issue.record("deep nesting was not refused")
            return
        }
        #expect(problem.contains("nested more than"))
    }

    @Test func refusesASizeBelowTheObjectsThere() {
        var text = String(decoding: SigningFixtures.onePagePDF(), as: UTF8.self)
        text = text.replacingOccurrences(of: "/Size 5", with: "/Size 3")
        guard case .malformedPDF(_, let problem)? = error(Data(text.utf8)) else {
            Issue.record("a /Size below the highest object was not refused")
            return
        }
        #expect(problem.contains("/Size 3"))
    }

    @Test func readsStringsNamesAndNumbersAsWritten() throws {
        let source = Array("<< /A (a\\(b\\)\\101\\\nc) /B <48 65 6c6C6F> /C#20D -1.5 /E [1 0 R 2 true null] >>".utf8)
        var scanner = PDFScanner(bytes: source, position: 0)
        let object = try scanner.object()
        guard case .dictionary(let dictionary) = object else {
            Issue.record("not a dictionary")
            return
        }
        #expect(dictionary["A"] == .string(Array("a(b)Ac".utf8)))
        #expect(dictionary["B"] == .string(Array("Hello".utf8)))
        #expect(dictionary["C D"] == .real(-1.5))
        #expect(dictionary["E"] == .array([.reference(PDFReference(number: 1, generation: 0)), .integer(2), .boolean(true), .null]))
        // Each entry's bytes are kept, so a rewritten object carries them unchanged.
        #expect(dictionary.entries.map { String(decoding: source[$0.source], as: UTF8.self) }.first == "/A (a\\(b\\)\\101\\\nc)")
    }

    // Cairo's reports, the PDFs signed here (on Apple platforms reports are drawn by Core
    // Graphics, and nothing is signed).
    #if os(Linux)
        @Test func readsTheReportsCairoWrites() throws {
            let pdf = try SigningFixtures.reportPDF()
            let file = try PDFFile(pdf)
            let catalog = try file.catalog()
            #expect(catalog.dictionary["Type"] == .name("Catalog"))
            let page = try file.firstPage(of: catalog.dictionary)
            #expect(page.dictionary["Type"] == .name("Page"))
            // The first of /Kids, as Cairo lists them.
            guard case .reference(let pages)? = catalog.dictionary["Pages"], case .array(let kids)? = try file.dictionary(pages, what: "pages")["Kids"] else {
                Issue.record("no page tree")
                return
            }
            #expect(kids.first == .reference(page.reference))
            #expect(try file.size() == (file.locations.keys.max() ?? 0) + 1)
        }

        /// Every prefix of a real report, cut every 97 bytes and in each of its last 40 bytes: a
        /// typed error, unless the cut only took the end of line after `%%EOF`.
        @Test func truncatedReportsAreRefusedWithTypedErrors() throws {
            let pdf = try SigningFixtures.reportPDF()
            let lengths = Array(stride(from: 0, to: pdf.count, by: 97)) + Array(pdf.count - 40..<pdf.count)
            for length in lengths where pdf.prefix(length).suffix(5) != Data("%%EOF".utf8) {
                #expect(error(pdf.prefix(length)) != nil, "a report cut to \(length) of \(pdf.count) bytes was taken")
            }
            #expect(error(pdf) == nil)
        }

        /// Bytes of the index, the trailer and the objects the signer reads, overwritten one at a
        /// time with values that break syntax: each either still reads or is refused with a typed error.
        @Test(.tags(.slow)) func garbledReportsNeverCrashTheReader() throws {
            let pdf = try SigningFixtures.reportPDF()
            let text = String(decoding: pdf, as: UTF8.self)
            let tableStart = text.utf8.distance(from: text.utf8.startIndex, to: try #require(text.range(of: "xref\n", options: .backwards)).lowerBound)
            let file = try PDFFile(pdf)
            let catalog = try file.catalog()
            let page = try file.firstPage(of: catalog.dictionary)
            let objectStarts = [catalog.reference.number, page.reference.number].compactMap { file.locations[$0]?.offset }
            var positions = Array(stride(from: tableStart, to: pdf.count, by: 3))
            for start in objectStarts { positions += Array(start..<min(pdf.count, start + 200)) }
            var outcomes = (updated: 0, refused: 0)
            for position in positions {
                for replacement: UInt8 in [0x00, UInt8(ascii: "<"), UInt8(ascii: ")"), UInt8(ascii: "9"), UInt8(ascii: "/")] {
                    var garbled = pdf
                    garbled[position] = replacement
                    if error(garbled) == nil { outcomes.updated += 1 } else { outcomes.refused += 1 }
                }
            }
            #expect(outcomes.refused > 0 && outcomes.updated > 0)
        }
    #endif
}
