import ColdTapBase
import Foundation

/// Flipper Zero `.nfc` files: reading them and writing them back.
extension MemoryDump {
    private static func hexBytes(_ text: Substring, line: Int, what: String) throws -> [UInt8?] {
        var out: [UInt8?] = []
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            if token == "??" {
                out.append(nil)
            } else if token.count == 2, let byte = UInt8(token, radix: 16) {
                out.append(byte)
            } else {
                throw MemoryDumpError("\(what): '\(token)' is not a hex byte", line: line)
            }
        }
        return out
    }

    private static func chipNamed(_ name: String) -> TagChip? {
        let compact = name.uppercased().replacingOccurrences(of: " ", with: "")
        if compact.contains("I2CPLUS1K") || compact.contains("NT3H2111") { return .nt3h2111 }
        if compact.contains("I2CPLUS2K") || compact.contains("NT3H2211") { return .nt3h2211 }
        for (token, chip) in [
            ("NTAG210", TagChip.ntag210), ("NTAG212", .ntag212), ("NTAG213", .ntag213),
            ("NTAG215", .ntag215), ("NTAG216", .ntag216), ("SLIX2", .icodeSLIX2),
            ("SLIX", .icodeSLIX), ("ST25DV64K", .st25dv64k), ("ST25DV16K", .st25dv16k),
            ("ST25DV04K", .st25dv04k),
        ] where compact.contains(token) {
            return chip
        }
        return nil
    }

    static func parseFlipper(_ text: String, hint: DumpHint) throws -> MemoryDump {
        var header: [DumpHeaderField] = []
        var pages: [(number: Int, bytes: [UInt8?], line: Int)] = []
        var blocks: [(number: Int, bytes: [UInt8?], line: Int)] = []
        var dataContent: (bytes: [UInt8?], line: Int)?
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline })
        // A file cut inside a line (no newline at its end): that last line is not judged as a
        // malformed one but as where the copy stops.
        let partialLine: Int? = (text.last.map { !$0.isNewline } ?? false) ? lines.count : nil
        var endsInsideALine = false
        for (index, rawLine) in lines.enumerated() {
            let lineNumber = index + 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else {
                if lineNumber == partialLine, !pages.isEmpty {
                    endsInsideALine = true
                    continue
                }
                throw MemoryDumpError("'\(line.prefix(40))' is not a 'Key: value' line", line: lineNumber)
            }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            var isMemoryLine = false
            for (prefix, isPage) in [("Page ", true), ("Block ", false)] where key.hasPrefix(prefix) {
                // "Page 12" / "Block 7"; "Block Count" and "Block Size" are header lines.
                let numberText = key.dropFirst(prefix.count)
                guard numberText.first?.isNumber == true else { continue }
                guard let number = Int(numberText), number >= 0 else {
                    throw MemoryDumpError("'\(key)' has no valid number", line: lineNumber)
                }
                let unit = isPage ? "page" : "block"
                let parsed = try? hexBytes(value[...], line: lineNumber, what: "\(unit) \(number)")
                if lineNumber == partialLine, isPage, parsed?.count != 4 {
                    endsInsideALine = true
                    isMemoryLine = true
                    continue
                }
                let bytes = try parsed ?? hexBytes(value[...], line: lineNumber, what: "\(unit) \(number)")
                if isPage { pages.append((number, bytes, lineNumber)) } else { blocks.append((number, bytes, lineNumber)) }
                isMemoryLine = true
            }
            if isMemoryLine { continue }
            if key == "Data Content" {
                dataContent = (try hexBytes(value[...], line: lineNumber, what: "Data Content"), lineNumber)
                continue
            }
            header.append(DumpHeaderField(key: key, value: value, line: lineNumber))
        }
        func field(_ key: String) -> DumpHeaderField? { header.first { $0.key == key } }
        func bytes(_ key: String) throws -> [UInt8]? {
            guard let entry = field(key) else { return nil }
            let parsed = try hexBytes(entry.value[...], line: entry.line, what: key)
            guard parsed.allSatisfy({ $0 != nil }) else {
                throw MemoryDumpError("\(key) has unknown (??) bytes", line: entry.line)
            }
            return parsed.compactMap { $0 }
        }
        let deviceType = field("Device type")
        if let deviceType {
            let value = deviceType.value.lowercased()
            for unsupported in ["classic", "desfire", "felica", "st25tb", "14443-3b", "14443-4", "em4100", "iso14443-4a"]
            where value.contains(unsupported) {
                throw MemoryDumpError(
                    "a '\(deviceType.value)' dump is not an NFC Forum Type 2 or Type 5 tag",
                    line: deviceType.line)
            }
        }
        var chip: TagChip?
        if case .chip(let hinted) = hint { chip = hinted }
        if chip == nil, let named = field("NTAG/Ultralight type") { chip = chipNamed(named.value) }
        if chip == nil, let deviceType { chip = chipNamed(deviceType.value) }
        let version = try bytes("Mifare version")
        if let version, let identified = Type2Layout.identify(version: version) { chip = chip ?? identified }
        let uid = try bytes("UID")

        if !pages.isEmpty {
            if !blocks.isEmpty || dataContent != nil {
                throw MemoryDumpError("the file has both Page and Block lines", line: blocks.first?.line ?? dataContent?.line)
            }
            var memory: [UInt8] = []
            var missing = Set<Int>()
            for (expected, page) in pages.enumerated() {
                guard page.number == expected else {
                    throw MemoryDumpError("page \(page.number) is out of order (page \(expected) expected)", line: page.line)
                }
                guard page.bytes.count == 4 else {
                    throw MemoryDumpError("page \(page.number) has \(page.bytes.count) bytes instead of 4", line: page.line)
                }
                if page.bytes.contains(where: { $0 == nil }) { missing.insert(page.number) }
                memory += page.bytes.map { $0 ?? 0 }
            }
            if let total = field("Pages total").flatMap({ Int($0.value) }), total > pages.count, total <= 1024 {
                for number in pages.count..<total { missing.insert(number) }
                memory += [UInt8](repeating: 0, count: (total - pages.count) * 4)
            }
            // Fewer pages held than the header says were read: the copy was cut, not the read.
            let saidRead = field("Pages read").flatMap { Int($0.value) }
            let held = pages.filter { !$0.bytes.contains(where: { $0 == nil }) }.count
            var cutOff: DumpCutOff?
            if endsInsideALine || (saidRead.map { $0 > held } ?? false) {
                cutOff = DumpCutOff(
                    lastUnit: pages.count - 1, line: endsInsideALine ? lines.count : pages.last?.line ?? lines.count, unitsSaidRead: saidRead,
                    endsInsideALine: endsInsideALine)
            }
            guard memory.count >= 16 else {
                if let cutOff {
                    throw MemoryDumpError(
                        "the file is cut off after \(pages.count) page(s) (a Type 2 dump needs pages 0–3)\(cutOff.unitsSaidRead.map { "; its header says \($0) were read" } ?? "")",
                        line: cutOff.line)
                }
                throw MemoryDumpError("a Type 2 dump needs pages 0–3; this one has \(pages.count) page(s)", line: pages.last?.line)
            }
            var dump = MemoryDump(
                technology: .iso14443A, memory: Data(memory), unitSize: 4,
                uid: uid.map { Data($0) } ?? Data(memory[0..<3] + memory[4..<8]), chip: chip,
                version: version.map { Data($0) }, format: .flipper, missingUnits: missing, header: header)
            dump.cutOff = cutOff
            return dump
        }

        var blockSize = field("Block Size").flatMap { UInt8($0.value, radix: 16) }.map(Int.init)
        if case .type5(let size) = hint { blockSize = blockSize ?? size }
        var memory: [UInt8] = []
        var missing = Set<Int>()
        if !blocks.isEmpty {
            let size = blockSize ?? blocks[0].bytes.count
            for (expected, block) in blocks.enumerated() {
                guard block.number == expected else {
                    throw MemoryDumpError("block \(block.number) is out of order (block \(expected) expected)", line: block.line)
                }
                guard block.bytes.count == size, size > 0 else {
                    throw MemoryDumpError("block \(block.number) has \(block.bytes.count) bytes instead of \(size)", line: block.line)
                }
                if block.bytes.contains(where: { $0 == nil }) { missing.insert(block.number) }
                memory += block.bytes.map { $0 ?? 0 }
            }
            blockSize = size
        } else if let content = dataContent {
            guard let size = blockSize, size > 0 else {
                throw MemoryDumpError("Data Content without a Block Size line", line: content.line)
            }
            guard content.bytes.count % size == 0 else {
                throw MemoryDumpError(
                    "Data Content ends inside block \(content.bytes.count / size) (\(content.bytes.count) bytes, \(size)-byte blocks)", line: content.line)
            }
            if let count = field("Block Count").flatMap({ Int($0.value) }), count * size != content.bytes.count {
                throw MemoryDumpError("Data Content holds \(content.bytes.count / size) blocks but Block Count says \(count)", line: content.line)
            }
            for (index, byte) in content.bytes.enumerated() where byte == nil { missing.insert(index / size) }
            memory = content.bytes.map { $0 ?? 0 }
        } else {
            throw MemoryDumpError("the file has no Page, Block or Data Content lines", line: deviceType?.line)
        }
        guard let size = blockSize, size >= 1, size <= 32 else {
            throw MemoryDumpError("the block size is outside 1…32 bytes", line: field("Block Size")?.line)
        }
        let hexField: (String) -> UInt8? = { key in field(key).flatMap { UInt8($0.value, radix: 16) } }
        let info = Type5SystemInfo(
            uid: Data(uid ?? [UInt8](repeating: 0, count: 8)), dsfid: hexField("DSFID"),
            afi: hexField("AFI"), blockSize: size, blockCount: memory.count / size,
            icReference: hexField("IC Reference"))
        if chip == nil, let uid {
            let identified = Type5Layout.identify(uidDisplayOrder: uid, blockCount: memory.count / size, blockSize: size)
            if identified.type5Layout != nil { chip = identified }
        }
        return MemoryDump(
            technology: .iso15693, memory: Data(memory), unitSize: size, uid: uid.map { Data($0) },
            chip: chip, systemInfo: info, format: .flipper, missingUnits: missing, header: header)
    }

    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.hexString(separator: " ")
    }

    /// The image as a Flipper Zero `.nfc` file (Version 4): `Page N:` lines for Type 2,
    /// `Data Content:` for Type 5.
    public func flipperText() -> String {
        var lines = ["Filetype: Flipper NFC device", "Version: 4", "# Written by ColdTap"]
        let units = Array(memory)
        switch technology {
        case .iso14443A:
            lines.append("Device type: NTAG/Ultralight")
            lines.append("UID: " + MemoryDump.hex(uid ?? Data(units.prefix(3) + units.dropFirst(4).prefix(4))))
            lines += ["ATQA: 00 44", "SAK: 00", "# Mifare Ultralight specific data", "Data format version: 2"]
            if let chip { lines.append("NTAG/Ultralight type: " + chip.displayName.split(separator: " ")[0]) }
            if let version { lines.append("Mifare version: " + MemoryDump.hex(version)) }
            lines.append("Pages total: \(unitCount)")
            lines.append("Pages read: \(unitCount - missingUnits.count)")
            for page in 0..<unitCount {
                let text = missingUnits.contains(page) ? "?? ?? ?? ??" : MemoryDump.hex(units[(page * 4)..<(page * 4 + 4)])
                lines.append("Page \(page): \(text)")
            }
        case .iso15693:
            lines.append("Device type: ISO15693-3")
            lines.append("UID: " + MemoryDump.hex(uid ?? Data(repeating: 0, count: 8)))
            lines.append("DSFID: " + [systemInfo?.dsfid ?? 0].hexString())
            lines.append("AFI: " + [systemInfo?.afi ?? 0].hexString())
            lines.append("IC Reference: " + [systemInfo?.icReference ?? 0].hexString())
            lines += ["Lock DSFID: false", "Lock AFI: false"]
            lines.append("Block Count: \(unitCount)")
            lines.append("Block Size: " + String(format: "%02X", unitSize))
            var content: [String] = []
            for (index, byte) in units.enumerated() {
                content.append(missingUnits.contains(index / unitSize) ? "??" : CollectionOfOne(byte).hexString())
            }
            lines.append("Data Content: " + content.joined(separator: " "))
            lines.append("Security Status: " + Array(repeating: "00", count: unitCount).joined(separator: " "))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
