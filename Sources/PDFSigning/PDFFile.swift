import Foundation

/// What the signer needs of a PDF: its newest trailer, where each object is (from the chain of
/// classic cross-reference tables, newest first) and the objects themselves, read on demand
/// (docs/pdf-signatures.md, "What the signer reads"). Built from untrusted bytes: every offset is
/// checked against the file before it is followed, and every refusal is a typed error naming
/// the byte where it was found.
struct PDFFile {
    let bytes: [UInt8]
    /// Where the newest cross-reference table starts (the number after `startxref`).
    let newestSectionOffset: Int
    /// The newest trailer dictionary.
    let trailer: PDFDictionary
    /// Each object in use, as the newest table that mentions it says: where it starts and its generation.
    let locations: [Int: (offset: Int, generation: Int)]

    /// An incremental chain longer than this is refused rather than walked (a `/Prev` loop
    /// through different offsets would otherwise go on for as long as the file allows).
    static let maximumSections = 4096

    /// Reads the header, `startxref` and every cross-reference table back through `/Prev`.
    /// - Throws: `PDFSigningError.malformedPDF` for bytes that are not such a PDF,
    ///   `.unsupportedPDF` for a cross-reference stream or an encrypted file.
    init(_ data: Data) throws(PDFSigningError) {
        let bytes = [UInt8](data)
        self.bytes = bytes
        guard bytes.count >= 8, bytes.starts(with: Array("%PDF-".utf8)) else {
            throw .malformedPDF(offset: 0, problem: "the file does not start with '%PDF-'")
        }
        let startxref = try Self.startxref(bytes)
        self.newestSectionOffset = startxref

        var locations: [Int: (offset: Int, generation: Int)] = [:]
        var seenNumbers: Set<Int> = []
        var newestTrailer: PDFDictionary?
        var visited: Set<Int> = []
        var next: Int? = startxref
        while let offset = next {
            guard visited.insert(offset).inserted else {
                throw .malformedPDF(offset: offset, problem: "the chain of cross-reference tables comes back to this table")
            }
            guard visited.count <= Self.maximumSections else {
                throw .malformedPDF(offset: offset, problem: "more than \(Self.maximumSections) cross-reference tables")
            }
            let section = try Self.section(bytes, at: offset)
            for entry in section.entries where seenNumbers.insert(entry.number).inserted {
                if let inUse = entry.inUse { locations[entry.number] = inUse }
            }
            if newestTrailer == nil { newestTrailer = section.trailer }
            switch section.trailer["Prev"] {
            case nil: next = nil
            case .integer(let previous)?:
                guard previous >= 0, previous < bytes.count else {
                    throw .malformedPDF(offset: offset, problem: "the trailer's /Prev \(previous) is outside the file (\(bytes.count) bytes)")
                }
                next = previous
            case _?:
                throw .malformedPDF(offset: offset, problem: "the trailer's /Prev is not an offset")
            }
        }
        guard let newestTrailer else { throw .malformedPDF(offset: startxref, problem: "no trailer") }
        if newestTrailer["Encrypt"] != nil {
            throw .unsupportedPDF(offset: startxref, feature: "encryption (/Encrypt in the trailer)")
        }
        self.trailer = newestTrailer
        self.locations = locations
    }

    /// The offset after the last `startxref` (within the last 2 KiB, before `%%EOF`).
    static func startxref(_ bytes: [UInt8]) throws(PDFSigningError) -> Int {
        let keyword = Array("startxref".utf8)
        let tailStart = max(0, bytes.count - 2048)
        var index = bytes.count - keyword.count
        var found: Int?
        while index >= tailStart {
            if bytes[index] == keyword[0], Array(bytes[index..<index + keyword.count]) == keyword {
                found = index
                break
            }
            index -= 1
        }
        guard let found else {
            throw .malformedPDF(offset: tailStart, problem: "no 'startxref' in the last \(bytes.count - tailStart) bytes")
        }
        var scanner = PDFScanner(bytes: bytes, position: found + keyword.count)
        let offset = try scanner.unsignedInteger("the offset of the cross-reference table after 'startxref'")
        guard offset < bytes.count else {
            throw .malformedPDF(offset: found, problem: "startxref \(offset) is outside the file (\(bytes.count) bytes)")
        }
        // White space only: `%%EOF` would be skipped as a comment.
        while let byte = scanner.peek(), PDFScanner.isWhitespace(byte) { scanner.position += 1 }
        guard bytes[scanner.position...].starts(with: Array("%%EOF".utf8)) else {
            throw .malformedPDF(offset: scanner.position, problem: "no '%%EOF' after startxref")
        }
        return offset
    }

    /// One entry of a cross-reference table: an object number and, when in use, where it is.
    struct Entry {
        var number: Int
        var inUse: (offset: Int, generation: Int)?
    }

    /// The cross-reference table at `offset` and the trailer after it.
    /// - Throws: `unsupportedPDF` for a cross-reference stream (`N G obj` where `xref` should be).
    static func section(_ bytes: [UInt8], at offset: Int) throws(PDFSigningError) -> (entries: [Entry], trailer: PDFDictionary) {
        var scanner = PDFScanner(bytes: bytes, position: offset)
        scanner.skipWhitespace()
        let keywordStart = scanner.position
        let keyword = scanner.regularToken()
        guard keyword == Array("xref".utf8) else {
            scanner.position = keywordStart
            if (try? scanner.unsignedInteger("")) != nil, (try? scanner.unsignedInteger("")) != nil, scanner.takeKeyword("obj") {
                throw .unsupportedPDF(offset: keywordStart, feature: "a cross-reference stream")
            }
            throw .malformedPDF(
                offset: keywordStart, problem: "expected a cross-reference table ('xref'), found \(PDFScanner.describe(keyword, or: scanner.peek()))")
        }
        var entries: [Entry] = []
        while true {
            if scanner.takeKeyword("trailer") { break }
            let first = try scanner.unsignedInteger("the first object number of a cross-reference subsection, or 'trailer'")
            let count = try scanner.unsignedInteger("the entry count of a cross-reference subsection")
            // Each entry is at least 18 bytes ("nnnnnnnnnn ggggg n"): a count the file cannot hold is refused before any loop.
            guard count <= (bytes.count - scanner.position) / 18, first <= 100_000_000 else {
                throw .malformedPDF(offset: scanner.position, problem: "a cross-reference subsection of \(count) entries does not fit in the file")
            }
            for index in 0..<count {
                let entryStart = scanner.position
                let entryOffset = try scanner.unsignedInteger("the offset of a cross-reference entry")
                let generation = try scanner.unsignedInteger("the generation of a cross-reference entry")
                scanner.skipWhitespace()
                let kind = scanner.regularToken()
                switch kind {
                case [UInt8(ascii: "n")]:
                    guard entryOffset < bytes.count, generation <= 65535 else {
                        throw .malformedPDF(offset: entryStart, problem: "object \(first + index) is said to be at byte \(entryOffset), outside the file")
                    }
                    entries.append(Entry(number: first + index, inUse: (entryOffset, generation)))
                case [UInt8(ascii: "f")]:
                    entries.append(Entry(number: first + index, inUse: nil))
                default:
                    throw .malformedPDF(
                        offset: entryStart, problem: "a cross-reference entry ends with \(PDFScanner.describe(kind, or: scanner.peek())), not 'n' or 'f'")
                }
            }
        }
        scanner.skipWhitespace()
        guard scanner.peek() == UInt8(ascii: "<"), scanner.peek(1) == UInt8(ascii: "<") else {
            throw scanner.malformed("expected the trailer dictionary after 'trailer'")
        }
        return (entries, try scanner.dictionary(depth: 0))
    }

    /// The trailer's `/Size`: one more than the highest object number.
    func size() throws(PDFSigningError) -> Int {
        guard let size = trailer["Size"]?.integer, size > 0, size < 10_000_000 else {
            throw .malformedPDF(offset: newestSectionOffset, problem: "the trailer has no valid /Size")
        }
        return size
    }

    /// The indirect object `reference` points at, and where its value ends in the file.
    /// - Throws: `malformedPDF` when the tables do not list it or the bytes there are not it.
    func object(_ reference: PDFReference) throws(PDFSigningError) -> PDFObject {
        guard let location = locations[reference.number], location.generation == reference.generation else {
            throw .malformedPDF(offset: newestSectionOffset, problem: "object \(reference) is not in the cross-reference tables")
        }
        var scanner = PDFScanner(bytes: bytes, position: location.offset)
        let number = try scanner.unsignedInteger("object \(reference.number)'s number, where the cross-reference table puts it")
        let generation = try scanner.unsignedInteger("object \(reference.number)'s generation")
        guard number == reference.number, generation == reference.generation else {
            throw .malformedPDF(
                offset: location.offset, problem: "the cross-reference table puts object \(reference) here, but object \(number) \(generation) is here")
        }
        try scanner.expectKeyword("obj")
        return try scanner.object()
    }

    /// Follows `object` through references (at most a few, to stop a loop) to a direct object.
    func resolve(_ object: PDFObject) throws(PDFSigningError) -> PDFObject {
        var current = object
        var steps = 0
        while case .reference(let reference) = current {
            steps += 1
            guard steps <= 8 else {
                throw .malformedPDF(offset: newestSectionOffset, problem: "object \(reference) is a chain of more than 8 references")
            }
            current = try self.object(reference)
        }
        return current
    }

    /// The dictionary at `reference`.
    /// - Throws: `malformedPDF` naming `what` when it is something else.
    func dictionary(_ reference: PDFReference, what: String) throws(PDFSigningError) -> PDFDictionary {
        guard let dictionary = try object(reference).dictionary else {
            throw .malformedPDF(offset: locations[reference.number]?.offset ?? 0, problem: "\(what) (object \(reference)) is not a dictionary")
        }
        return dictionary
    }

    /// The catalog: the trailer's `/Root`.
    func catalog() throws(PDFSigningError) -> (reference: PDFReference, dictionary: PDFDictionary) {
        guard let root = trailer["Root"]?.reference else {
            throw .malformedPDF(offset: newestSectionOffset, problem: "the trailer has no /Root reference")
        }
        return (root, try dictionary(root, what: "the catalog"))
    }

    /// The first page, found down the page tree by the first of each node's `/Kids`.
    /// - Throws: `malformedPDF` for a tree with no page, a loop or a node that is neither a page nor pages.
    func firstPage(of catalog: PDFDictionary) throws(PDFSigningError) -> (reference: PDFReference, dictionary: PDFDictionary) {
        guard var node = catalog["Pages"]?.reference else {
            throw .malformedPDF(offset: newestSectionOffset, problem: "the catalog has no /Pages reference")
        }
        var visited: Set<PDFReference> = []
        while visited.insert(node).inserted {
            guard visited.count <= PDFScanner.maximumDepth else { break }
            let dictionary = try self.dictionary(node, what: "a node of the page tree")
            let offset = locations[node.number]?.offset ?? 0
            switch dictionary["Type"]?.name {
            case "Page"?:
                return (node, dictionary)
            case "Pages"?:
                guard let kids = try dictionary["Kids"].map({ (kids) throws(PDFSigningError) in try resolve(kids) })?.array else {
                    throw .malformedPDF(offset: offset, problem: "the page tree node \(node) has no /Kids array")
                }
                guard let first = kids.first else { throw .malformedPDF(offset: offset, problem: "the page tree node \(node) has no pages") }
                guard let next = first.reference else {
                    throw .malformedPDF(offset: offset, problem: "the first of \(node)'s /Kids is not a reference")
                }
                node = next
            default:
                throw .malformedPDF(offset: offset, problem: "the page tree node \(node) is neither /Page nor /Pages")
            }
        }
        throw .malformedPDF(offset: newestSectionOffset, problem: "the page tree loops or is deeper than \(PDFScanner.maximumDepth) levels")
    }
}
