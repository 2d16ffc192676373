import Foundation

/// A Berlinger Fridge-tag or Q-tag text report read as its tree of `Key: value` lines
/// (docs/berlinger.md §2): nesting by leading spaces, tables (`Data:`, `Marker:`) as
/// TAB-separated rows. Only the grammar is checked here; `BerlingerDecoder` reads the meaning.
struct BerlingerReport {
    /// One line: its number (1-based), its `Key: value` pairs, the deeper lines under it and,
    /// for a table, its TAB-separated rows (the header row first).
    struct Node {
        var line: Int
        var pairs: [(key: String, value: String)]
        var children: [Node] = []
        var rows: [(line: Int, fields: [String])] = []

        /// The first pair's key: what the line opens when it is a block.
        var key: String { pairs.first?.key ?? "" }

        /// The value of `key` in this line's own pairs.
        func own(_ key: String) -> String? { pairs.first { $0.key == key }?.value }

        /// The value of `key` on this line or on one of the lines directly under it.
        func value(_ key: String) -> String? {
            own(key) ?? children.lazy.compactMap { $0.own(key) }.first
        }

        /// The first block directly under this line that opens with `key`.
        func child(_ key: String) -> Node? { children.first { $0.key == key } }

        /// Every line directly under this one that opens with `key`.
        func all(_ key: String) -> [Node] { children.filter { $0.key == key } }
    }

    /// The lines at depth 0, in file order.
    var top: [Node]
    /// The bytes the `Sig:` line signs (from the start through the end of the `Sig Cert:` line),
    /// and those `Sig Cert:` signs (`Cert:` through the `Public Key` line), when present.
    var signedRange: Range<Int>?
    var certificateRange: Range<Int>?

    func block(_ key: String) -> Node? { top.first { $0.key == key } }
    func value(_ key: String) -> String? { top.lazy.compactMap { $0.own(key) }.first }

    /// True when the bytes start as a Berlinger report does (`Device: Q-tag `).
    static func looks(like bytes: Data) -> Bool {
        bytes.prefix(14).elementsEqual("Device: Q-tag ".utf8)
    }

    /// The longest report read: ten times the largest public sample (272 KB).
    static let largestSize = 4 << 20

    /// Reads the line tree.
    /// - Throws: `LoggerFormatError` naming the line: a byte that is not ASCII text, a line
    ///   deeper than the block it is in, a table row outside a table, a pair without `:`, or a
    ///   report that stops before its closing `Sig:` line.
    static func parse(_ bytes: Data, format: String) throws -> BerlingerReport {
        func refuse(_ line: Int, _ detail: String) -> LoggerFormatError {
            LoggerFormatError(.malformed, format: format, field: "line \(line)", detail)
        }
        guard bytes.count <= largestSize else {
            throw LoggerFormatError(.malformed, format: format, "the report is \(bytes.count) bytes, more than any logger writes (\(largestSize))")
        }
        let raw = [UInt8](bytes)
        var lines: [(number: Int, start: Int, end: Int, text: String)] = []
        var start = 0
        var number = 1
        while start < raw.count {
            var end = start
            while end < raw.count && raw[end] != 0x0A { end += 1 }
            var textEnd = end
            if textEnd > start && raw[textEnd - 1] == 0x0D { textEnd -= 1 }
            let slice = raw[start..<textEnd]
            if let bad = slice.firstIndex(where: { $0 != 0x09 && ($0 < 0x20 || $0 > 0x7E) }) {
                throw refuse(number, "byte \(bad - start + 1) of the line (0x\(String(raw[bad], radix: 16))) is not printable ASCII")
            }
            lines.append((number, start, min(end + 1, raw.count), String(decoding: slice, as: UTF8.self)))
            start = end + 1
            number += 1
        }
        var report = BerlingerReport(top: [])
        // The path of open blocks from depth 0 down: path[d] is the node at depth d.
        var path: [Node] = []
        func close(toDepth depth: Int) {
            while path.count > depth {
                let node = path.removeLast()
                if path.isEmpty { report.top.append(node) } else { path[path.count - 1].children.append(node) }
            }
        }
        var certStart: Int?
        for line in lines {
            if line.text.hasPrefix("\t") {
                // A Bool, not the node: a copy of the node held across the append would copy its rows each time.
                let inTable = path.last.map { ($0.key == "Data" || $0.key == "Marker") && $0.children.isEmpty } ?? false
                guard inTable else {
                    throw refuse(line.number, "a table row (starting with TAB) outside a Data: or Marker: table")
                }
                path[path.count - 1].rows.append((line.number, line.text.dropFirst().components(separatedBy: "\t")))
                continue
            }
            let depth = line.text.prefix { $0 == " " }.count
            guard depth <= path.count else {
                throw refuse(line.number, "the line is indented \(depth) spaces, deeper than the block it is in allows (\(path.count))")
            }
            close(toDepth: depth)
            let node = Node(line: line.number, pairs: try pairs(of: line.text.dropFirst(depth), line: line.number, format: format))
            if depth == 0 && node.key == "Cert" { certStart = line.start }
            if depth == 1, node.key == "Public Key", let certStart, report.certificateRange == nil {
                report.certificateRange = certStart..<line.end
            }
            if depth == 0 && node.key == "Sig Cert" { report.signedRange = 0..<line.end }
            path.append(node)
        }
        close(toDepth: 0)
        guard let last = report.top.last, last.key == "Sig", last.line == lines.count else {
            throw refuse(
                lines.count,
                "the report stops here without its closing Sig: line: it was cut off (a complete report ends with Cert:, Sig Cert: and Sig:)")
        }
        return report
    }

    /// `Key: value, Key: value`, `Key:` alone, or `Key:,` as an empty value in a list.
    static func pairs(of text: Substring, line: Int, format: String) throws -> [(key: String, value: String)] {
        guard !text.isEmpty else {
            throw LoggerFormatError(.malformed, format: format, field: "line \(line)", "an empty line, which no report holds")
        }
        var result: [(key: String, value: String)] = []
        for part in text.components(separatedBy: ", ") {
            if part.hasSuffix(":") && !part.dropLast().contains(": ") {
                result.append((String(part.dropLast()), ""))
            } else if let colon = part.range(of: ": ") {
                result.append((String(part[..<colon.lowerBound]), String(part[colon.upperBound...])))
            } else if let previous = result.popLast() {
                // A value that itself holds ", " (a user's string).
                result.append((previous.key, previous.value + ", " + part))
            } else {
                throw LoggerFormatError(.malformed, format: format, field: "line \(line)", "'\(part)' is not a Key: value pair")
            }
        }
        return result
    }
}
