import ColdTapBase
import Foundation

/// What the signature dictionary says besides the signature itself.
struct PDFSignatureFields: Sendable {
    var reason: String
    var name: String?
    var location: String?
    var contactInfo: String?
    var time: Date
}

/// A PDF with the incremental update that signs it appended, its /Contents still a run of
/// zeros (docs/pdf-signatures.md, "The incremental update"): the signature dictionary, an
/// invisible signature field that is also its widget on page 1, page 1 and the catalog
/// rewritten to hold them, a cross-reference table for those four objects and a trailer
/// pointing back at the previous table. The original bytes are kept as they are.
struct PDFSignatureUpdate {
    /// The whole file: the original, then the update.
    private(set) var bytes: [UInt8]
    /// The `<…>` of /Contents, angle brackets included: the one part of the file not signed.
    let contents: Range<Int>
    /// Where `[0 a b c]` of /ByteRange is written, padded with spaces.
    let byteRangeSlot: Range<Int>

    /// The placeholder is this wide, enough for four offsets of ten digits.
    static let byteRangeWidth = 48

    /// The /ByteRange: the bytes before /Contents, and those after it.
    var byteRange: [Int] { [0, contents.lowerBound, contents.upperBound, bytes.count - contents.upperBound] }

    /// The bytes the signature covers: everything but /Contents.
    var signedBytes: [UInt8] { Array(bytes[..<contents.lowerBound]) + Array(bytes[contents.upperBound...]) }

    /// Room for a DER signature of this many bytes (twice as many hex digits).
    var capacity: Int { (contents.count - 2) / 2 }

    /// Appends the update to `pdf` with room for `capacity` bytes of signature.
    /// - Throws: `PDFSigningError.malformedPDF` / `.unsupportedPDF` from reading the PDF.
    init(_ pdf: Data, fields: PDFSignatureFields, capacity: Int) throws(PDFSigningError) {
        let file = try PDFFile(pdf)
        let size = try file.size()
        let catalog = try file.catalog()
        let page = try file.firstPage(of: catalog.dictionary)
        guard page.reference.number != catalog.reference.number else {
            throw .malformedPDF(offset: file.newestSectionOffset, problem: "the catalog \(catalog.reference) is also the first page")
        }
        if let highest = file.locations.keys.max(), highest >= size {
            throw .malformedPDF(offset: file.newestSectionOffset, problem: "the trailer's /Size \(size) is not above object \(highest)")
        }
        let form = try Self.existingForm(catalog.dictionary, in: file)
        let signatureNumber = size
        let fieldNumber = size + 1
        let fieldReference = PDFReference(number: fieldNumber, generation: 0)

        var bytes = file.bytes
        if let last = bytes.last, last != 0x0A, last != 0x0D { bytes.append(0x0A) }
        var offsets: [Int: (offset: Int, generation: Int)] = [:]
        func append(_ text: String) { bytes.append(contentsOf: Array(text.utf8)) }
        func append(source range: Range<Int>) { bytes.append(contentsOf: file.bytes[range]) }

        // The signature dictionary, with the two placeholders whose offsets are kept.
        offsets[signatureNumber] = (bytes.count, 0)
        append("\(signatureNumber) 0 obj\n<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached\n   /ByteRange ")
        let byteRangeStart = bytes.count
        append("[0 0 0 0]" + String(repeating: " ", count: Self.byteRangeWidth - 9))
        let byteRangeSlot = byteRangeStart..<bytes.count
        append("\n   /Contents ")
        let contentsStart = bytes.count
        append("<" + String(repeating: "0", count: 2 * capacity) + ">")
        let contents = contentsStart..<bytes.count
        append("\n   /M \(PDFText.date(fields.time))\n   /Reason \(PDFText.string(fields.reason))")
        if let name = fields.name { append("\n   /Name \(PDFText.string(name))") }
        if let location = fields.location { append("\n   /Location \(PDFText.string(location))") }
        if let contactInfo = fields.contactInfo { append("\n   /ContactInfo \(PDFText.string(contactInfo))") }
        append("\n>>\nendobj\n")

        // The field and its widget, one dictionary: invisible (no area), printed and locked.
        offsets[fieldNumber] = (bytes.count, 0)
        append(
            "\(fieldNumber) 0 obj\n<< /Type /Annot /Subtype /Widget /FT /Sig /T \(PDFText.string(form.freeFieldName))"
                + " /V \(signatureNumber) 0 R /P \(page.reference) /Rect [0 0 0 0] /F 132 >>\nendobj\n")

        // Page 1 with the widget added to its /Annots.
        offsets[page.reference.number] = (bytes.count, page.reference.generation)
        append("\(page.reference.number) \(page.reference.generation) obj\n<<")
        for entry in page.dictionary.entries where entry.key != "Annots" {
            append("\n   ")
            append(source: entry.source)
        }
        let annotations = try Self.references(page.dictionary["Annots"], in: file, what: "page 1's /Annots")
        append("\n   /Annots [" + (annotations + [fieldReference]).map { " \($0)" }.joined() + " ]\n>>\nendobj\n")

        // The catalog with the form that lists the field; SigFlags 3: signatures exist, append only.
        offsets[catalog.reference.number] = (bytes.count, catalog.reference.generation)
        append("\(catalog.reference.number) \(catalog.reference.generation) obj\n<<")
        for entry in catalog.dictionary.entries where entry.key != "AcroForm" {
            append("\n   ")
            append(source: entry.source)
        }
        append("\n   /AcroForm <<")
        for entry in form.otherEntries {
            append(" ")
            append(source: entry.source)
        }
        append(" /Fields [" + (form.fields + [fieldReference]).map { " \($0)" }.joined() + " ] /SigFlags 3 >>\n>>\nendobj\n")

        // The cross-reference table of this update: one subsection per run of numbers.
        let tableOffset = bytes.count
        append("xref\n")
        let numbers = offsets.keys.sorted()
        var index = 0
        while index < numbers.count {
            var end = index
            while end + 1 < numbers.count, numbers[end + 1] == numbers[end] + 1 { end += 1 }
            append("\(numbers[index]) \(end - index + 1)\n")
            for number in numbers[index...end] {
                guard let entry = offsets[number] else { continue }
                append(String(format: "%010d %05d n \n", entry.offset, entry.generation))
            }
            index = end + 1
        }
        append("trailer\n<< /Size \(size + 2) /Prev \(file.newestSectionOffset)")
        for entry in file.trailer.entries where !["Size", "Prev", "XRefStm"].contains(entry.key) {
            append(" ")
            append(source: entry.source)
        }
        append(" >>\nstartxref\n\(tableOffset)\n%%EOF\n")

        self.bytes = bytes
        self.contents = contents
        self.byteRangeSlot = byteRangeSlot
        let byteRangeText = "[" + byteRange.map(String.init).joined(separator: " ") + "]"
        guard byteRangeText.utf8.count <= Self.byteRangeWidth else {
            throw .unsupportedPDF(offset: 0, feature: "a size of \(bytes.count) bytes, too large for this signer's /ByteRange")
        }
        self.bytes.replaceSubrange(
            byteRangeSlot, with: Array(byteRangeText.utf8) + Array(repeating: 0x20, count: Self.byteRangeWidth - byteRangeText.utf8.count))
    }

    /// The file with `signature` (DER) written into /Contents as hex, zeros after it.
    /// - Throws: `PDFSigningError.signatureTooLarge` when it does not fit.
    func filled(with signature: [UInt8]) throws(PDFSigningError) -> Data {
        guard signature.count <= capacity else { throw .signatureTooLarge(needed: signature.count, available: capacity) }
        var result = bytes
        let hex = Array(signature.hexString().utf8)
        result.replaceSubrange(contents.lowerBound + 1..<contents.lowerBound + 1 + hex.count, with: hex)
        return Data(result)
    }

    /// The form already in the catalog, if any: its entries other than /Fields and /SigFlags,
    /// its fields, and the first name `SignatureN` none of them has.
    static func existingForm(
        _ catalog: PDFDictionary, in file: PDFFile
    ) throws(PDFSigningError) -> (otherEntries: [PDFDictionary.Entry], fields: [PDFReference], freeFieldName: String) {
        guard let value = catalog["AcroForm"] else { return ([], [], "Signature1") }
        guard let form = try file.resolve(value).dictionary else {
            throw .malformedPDF(offset: file.newestSectionOffset, problem: "the catalog's /AcroForm is not a dictionary")
        }
        let fields = try references(form["Fields"], in: file, what: "the form's /Fields")
        var names: Set<String> = []
        for field in fields {
            if let name = try file.dictionary(field, what: "a form field")["T"]?.stringBytes { names.insert(PDFText.decode(name)) }
        }
        var number = 1
        while names.contains("Signature\(number)") { number += 1 }
        return (form.entries.filter { $0.key != "Fields" && $0.key != "SigFlags" }, fields, "Signature\(number)")
    }

    /// The references of an array given inline or by reference (none when `value` is absent).
    /// - Throws: `malformedPDF` naming `what` when it is not an array of references.
    static func references(_ value: PDFObject?, in file: PDFFile, what: String) throws(PDFSigningError) -> [PDFReference] {
        guard let value else { return [] }
        guard let array = try file.resolve(value).array else {
            throw .malformedPDF(offset: file.newestSectionOffset, problem: "\(what) is not an array")
        }
        guard array.count <= 100_000 else { throw .malformedPDF(offset: file.newestSectionOffset, problem: "\(what) has \(array.count) entries") }
        var references: [PDFReference] = []
        for element in array {
            guard let reference = element.reference else {
                throw .unsupportedPDF(offset: file.newestSectionOffset, feature: "\(what) holding a direct object instead of a reference")
            }
            references.append(reference)
        }
        return references
    }
}
