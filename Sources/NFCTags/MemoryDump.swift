import Foundation
import NDEF

/// What the caller knows about a raw dump's technology.
public enum DumpHint: Sendable, Equatable {
    /// Decide from the bytes (see `MemoryDump.parse`).
    case auto
    /// Type 2 pages from page 0.
    case type2
    /// Type 5 blocks from block 0 of this size.
    case type5(blockSize: Int)
    /// A dump of this chip.
    case chip(TagChip)
}

/// A malformed dump file, naming the line, page/block or byte offset.
public struct MemoryDumpError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// 1-based line of a text dump.
    public var line: Int?
    /// Byte offset in a binary dump (or in tag memory).
    public var offset: Int?

    public init(_ message: String, line: Int? = nil, offset: Int? = nil) {
        self.message = message
        self.line = line
        self.offset = offset
    }

    public var description: String {
        if let line { return "line \(line): \(message)" }
        if let offset { return "byte \(offset): \(message)" }
        return message
    }
}

/// One `Key: Value` header line of a text dump.
public struct DumpHeaderField: Sendable, Equatable {
    public var key: String
    public var value: String
    public var line: Int
}

/// A full memory image of a tag: raw binary (nfc-mfultralight, Proxmark) or a Flipper Zero
/// `.nfc` file. Read it with `TagReader.read(from: dump.transport())`, the same code as a
/// live tag.
public struct MemoryDump: Sendable, Equatable {
    public enum Format: String, Sendable, Equatable {
        /// Pages/blocks from 0, nothing else (nfc-mfultralight, Proxmark `hf 15 dump`, old Proxmark mfu).
        case raw
        /// Proxmark3 `hf mfu dump` binary: a 56-byte header (GET_VERSION, counters, signature), then pages.
        case proxmark
        /// Flipper Zero `.nfc` text.
        case flipper
    }

    public var technology: TagTechnology
    /// Pages (Type 2) or blocks (Type 5) from 0.
    public var memory: Data
    /// 4 for Type 2 pages; the block size for Type 5.
    public var unitSize: Int
    /// Pages/blocks the file does not hold (Flipper `??`, or fewer pages read than the chip has).
    public var missingUnits: Set<Int>
    /// UID in display order (Type 5: `E0` first), when the file says it.
    public var uid: Data?
    /// The chip the file names (or the hint), if any.
    public var chip: TagChip?
    /// GET_VERSION answer stored in the file (Proxmark header, Flipper `Mifare version`).
    public var version: Data?
    public var systemInfo: Type5SystemInfo?
    public var format: Format
    /// Header lines of a text dump.
    public var header: [DumpHeaderField]

    public init(technology: TagTechnology, memory: Data, unitSize: Int, uid: Data?, chip: TagChip?, version: Data? = nil,
                systemInfo: Type5SystemInfo? = nil, format: Format, missingUnits: Set<Int> = [],
                header: [DumpHeaderField] = []) {
        self.technology = technology
        self.memory = memory
        self.unitSize = unitSize
        self.uid = uid
        self.chip = chip
        self.version = version
        self.systemInfo = systemInfo
        self.format = format
        self.missingUnits = missingUnits
        self.header = header
    }

    /// Pages or blocks in the image.
    public var unitCount: Int { memory.count / max(1, unitSize) }

    /// The pages or blocks the file marks unread (`??` in a Flipper file) as ranges, e.g.
    /// "pages 120–134" or "blocks 3, 7–9"; `nil` when every unit is present.
    public var missingUnitsDescription: String? {
        guard !missingUnits.isEmpty else { return nil }
        var ranges: [ClosedRange<Int>] = []
        for unit in missingUnits.sorted() {
            if let last = ranges.last, last.upperBound + 1 == unit {
                ranges[ranges.count - 1] = last.lowerBound...unit
            } else {
                ranges.append(unit...unit)
            }
        }
        let noun = technology == .iso14443A ? "page" : "block"
        let list = ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }
        return (missingUnits.count == 1 ? noun : noun + "s") + " " + list.joined(separator: ", ")
    }

    /// A transport whose answers come from this image (writes are refused).
    public func transport(limits: LinkLimits? = nil) -> DumpTransport {
        DumpTransport(dump: self, limits: limits)
    }

    /// Parses a dump file.
    ///
    /// A file starting with `Filetype: Flipper NFC device` is a Flipper `.nfc` file: `Page N:`
    /// lines make a Type 2 dump, `Block N:` lines or `Data Content:` a Type 5 dump, and the
    /// header (Device type, UID, Mifare version, Block Size/Count, DSFID, AFI, IC Reference)
    /// fills the rest. Anything else is raw binary, told apart like this unless `hint`
    /// says: a Proxmark3 mfu header (56 bytes, then pages whose UID check byte BCC0 is
    /// right) → Type 2; BCC0 right at byte 3 and a Type 2 CC (`E1`) at byte 12 → Type 2;
    /// a Type 5 CC (`E1`/`E2`, version 1) at byte 0 → Type 5 with 4-byte blocks; BCC0
    /// right alone → Type 2; otherwise the file is refused (pass a hint). A raw Type 2 dump
    /// without a stored GET_VERSION answer whose size is exactly that of one known chip
    /// (NTAG213 180 bytes, NTAG215 540, NTAG216 924, NT3H2111 936, …) is taken as that chip.
    /// - Throws: `MemoryDumpError` naming the line, page/block or byte offset.
    public static func parse(_ data: Data, hint: DumpHint = .auto) throws -> MemoryDump {
        let prefix = Data("Filetype: Flipper NFC device".utf8)
        let start = data.prefix(3) == Data([0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        if start.prefix(prefix.count) == prefix {
            return try parseFlipper(String(decoding: start, as: UTF8.self), hint: hint)
        }
        return try parseRaw(Array(data), hint: hint)
    }

    // MARK: Raw binary

    private static func bccValid(_ bytes: [UInt8], at base: Int) -> Bool {
        guard bytes.count >= base + 9 else { return false }
        let bcc0 = 0x88 ^ bytes[base] ^ bytes[base + 1] ^ bytes[base + 2]
        let bcc1 = bytes[base + 4] ^ bytes[base + 5] ^ bytes[base + 6] ^ bytes[base + 7]
        return bytes[base + 3] == bcc0 && bytes[base + 8] == bcc1
    }

    static func parseRaw(_ bytes: [UInt8], hint: DumpHint) throws -> MemoryDump {
        guard !bytes.isEmpty else { throw MemoryDumpError("the dump is empty", offset: 0) }
        let proxmarkHeader = 56
        let isProxmark = bytes.count >= proxmarkHeader + 16 && (bytes.count - proxmarkHeader) % 4 == 0
            && bccValid(bytes, at: proxmarkHeader) && !bccValid(bytes, at: 0)
        var technology: TagTechnology
        var blockSize = 4
        var chip: TagChip?
        switch hint {
        case .type2: technology = .iso14443A
        case .type5(let size): technology = .iso15693; blockSize = size
        case .chip(let hinted):
            technology = hinted.technology
            chip = hinted
            blockSize = hinted.type5Layout?.blockSize ?? 4
        case .auto:
            let type2 = bccValid(bytes, at: 0) && bytes.count % 4 == 0
            let type5 = (bytes[0] == 0xE1 || bytes[0] == 0xE2) && bytes.count >= 4 && bytes[1] >> 6 == 1
            if isProxmark || (type2 && bytes.count >= 16 && bytes[12] == 0xE1) {
                technology = .iso14443A
            } else if type5 {
                technology = .iso15693
            } else if type2 {
                technology = .iso14443A
            } else {
                throw MemoryDumpError("cannot tell a Type 2 from a Type 5 dump: byte 3 is not the UID check byte "
                    + "(BCC0) of a Type 2 tag and byte 0 is not a Type 5 capability container (E1/E2); "
                    + "say which it is (--input tag2 or tag5)", offset: 0)
            }
        }
        guard blockSize >= 1 && blockSize <= 32 else {
            throw MemoryDumpError("a block size of \(blockSize) bytes is outside 1…32")
        }
        if technology == .iso14443A {
            var version: Data?
            var pages = bytes
            var format = Format.raw
            if isProxmark {
                version = Data(bytes[0..<8])
                if version?.allSatisfy({ $0 == 0 }) == true { version = nil }
                pages = Array(bytes[proxmarkHeader...])
                format = .proxmark
            }
            guard pages.count % 4 == 0 else {
                let end = pages.count - pages.count % 4
                throw MemoryDumpError("the dump ends inside page \(end / 4) (\(pages.count) bytes is not a whole number of 4-byte pages)",
                                      offset: end + (isProxmark ? proxmarkHeader : 0))
            }
            guard pages.count >= 16 else {
                throw MemoryDumpError("a Type 2 dump needs pages 0–3 (16 bytes); this one has \(pages.count)", offset: pages.count)
            }
            if chip == nil, let version { chip = Type2Layout.identify(version: Array(version)) }
            if chip == nil {
                // Without a stored GET_VERSION answer, a dump of exactly one known chip's size is that chip.
                let sized = TagChip.allCases.filter { $0.type2Layout?.readablePages == pages.count / 4 }
                if sized.count == 1 { chip = sized[0] }
            }
            let uid = Data(pages[0..<3] + pages[4..<8])
            return MemoryDump(technology: .iso14443A, memory: Data(pages), unitSize: 4, uid: uid, chip: chip,
                              version: version, format: format)
        }
        guard bytes.count % blockSize == 0 else {
            let end = bytes.count - bytes.count % blockSize
            throw MemoryDumpError("the dump ends inside block \(end / blockSize) (\(bytes.count) bytes is not a whole number of \(blockSize)-byte blocks)", offset: end)
        }
        return MemoryDump(technology: .iso15693, memory: Data(bytes), unitSize: blockSize, uid: nil, chip: chip,
                          format: .raw)
    }

    // MARK: Flipper Zero

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
        for (token, chip) in [("NTAG210", TagChip.ntag210), ("NTAG212", .ntag212), ("NTAG213", .ntag213),
                              ("NTAG215", .ntag215), ("NTAG216", .ntag216), ("SLIX2", .icodeSLIX2),
                              ("SLIX", .icodeSLIX), ("ST25DV64K", .st25dv64k), ("ST25DV16K", .st25dv16k),
                              ("ST25DV04K", .st25dv04k)] where compact.contains(token) {
            return chip
        }
        return nil
    }

    static func parseFlipper(_ text: String, hint: DumpHint) throws -> MemoryDump {
        var header: [DumpHeaderField] = []
        var pages: [(number: Int, bytes: [UInt8?], line: Int)] = []
        var blocks: [(number: Int, bytes: [UInt8?], line: Int)] = []
        var dataContent: (bytes: [UInt8?], line: Int)?
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline }).enumerated() {
            let lineNumber = index + 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else {
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
                let bytes = try hexBytes(value[...], line: lineNumber, what: "\(unit) \(number)")
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
                throw MemoryDumpError("a '\(deviceType.value)' dump is not an NFC Forum Type 2 or Type 5 tag",
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
            guard memory.count >= 16 else {
                throw MemoryDumpError("a Type 2 dump needs pages 0–3; this one has \(pages.count) page(s)", line: pages.last?.line)
            }
            return MemoryDump(technology: .iso14443A, memory: Data(memory), unitSize: 4,
                              uid: uid.map { Data($0) } ?? Data(memory[0..<3] + memory[4..<8]), chip: chip,
                              version: version.map { Data($0) }, format: .flipper, missingUnits: missing, header: header)
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
                throw MemoryDumpError("Data Content ends inside block \(content.bytes.count / size) (\(content.bytes.count) bytes, \(size)-byte blocks)", line: content.line)
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
        let info = Type5SystemInfo(uid: Data(uid ?? [UInt8](repeating: 0, count: 8)), dsfid: hexField("DSFID"),
                                   afi: hexField("AFI"), blockSize: size, blockCount: memory.count / size,
                                   icReference: hexField("IC Reference"))
        if chip == nil, let uid {
            let identified = Type5Layout.identify(uidDisplayOrder: uid, blockCount: memory.count / size, blockSize: size)
            if identified.type5Layout != nil { chip = identified }
        }
        return MemoryDump(technology: .iso15693, memory: Data(memory), unitSize: size, uid: uid.map { Data($0) },
                          chip: chip, systemInfo: info, format: .flipper, missingUnits: missing, header: header)
    }

    // MARK: Writing

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

/// A transport whose answers come from a memory dump: the same commands, limits and error
/// answers as the chip (reads of pages/blocks the file lacks are refused), and writes refused.
/// GET_VERSION is answered with the version the file stores, else that of the chip the dump
/// names (or was inferred from its size), else NAK; GET_SYSTEM_INFO with the file's UID (zeros
/// when it has none) and geometry.
public struct DumpTransport: TagTransport {
    public let dump: MemoryDump
    public let technology: TagTechnology
    public let limits: LinkLimits
    /// UID as anticollision would give it (Type 5: LSB first).
    public let uid: Data?
    private let core: EmulatorCore
    /// The one piece of a dump's chip that changes: the sector SECTOR_SELECT chose (NT3H2211).
    private let sectorState = LockedValue<(sector: Int, awaitingNumber: Bool)>((0, false))

    /// - Parameter limits: default: commands up to 255 bytes, answers up to 1024 bytes.
    public init(dump: MemoryDump, limits: LinkLimits? = nil) {
        var dump = dump
        dump.unitSize = dump.technology == .iso14443A ? 4 : min(32, max(1, dump.unitSize))
        self.dump = dump
        self.technology = dump.technology
        self.limits = limits ?? LinkLimits(maxCommandBytes: 255, maxResponseBytes: 1024)
        var bytes = Array(dump.memory)
        var missing = dump.missingUnits
        switch dump.technology {
        case .iso14443A:
            let layout = dump.chip?.type2Layout
            if let layout, layout.readablePages * 4 > bytes.count {
                for page in (bytes.count / 4)..<layout.readablePages { missing.insert(page) }
                bytes += [UInt8](repeating: 0, count: layout.readablePages * 4 - bytes.count)
            }
            var emulator = Type2Emulator(memory: bytes, missingPages: missing,
                                         version: dump.version.map { Array($0) } ?? layout?.version,
                                         supportsFastRead: true, dynamicLockPage: layout?.dynamicLockPage,
                                         pagesPerDynamicLockBit: layout?.pagesPerDynamicLockBit ?? 0, writable: false)
            emulator.sectorPageCounts = layout?.sectorPageCounts ?? []
            core = .type2(emulator)
            uid = dump.uid
        case .iso15693:
            let layout = dump.chip?.type5Layout
            let displayUID = dump.uid.map { Array($0) } ?? [UInt8](repeating: 0, count: 8)
            var emulator = Type5Emulator(memory: bytes, blockSize: dump.unitSize, missingBlocks: missing,
                                         uid: displayUID.count == 8 ? displayUID : [UInt8](repeating: 0, count: 8),
                                         sectorBlocks: layout?.sectorBlocks, maxBlocksPerRead: layout?.maxBlocksPerRead,
                                         supportsExtended: true, writable: false)
            emulator.dsfid = dump.systemInfo?.dsfid ?? 0
            emulator.afi = dump.systemInfo?.afi ?? 0
            emulator.icReference = dump.systemInfo?.icReference ?? layout?.icReference ?? 0
            core = .type5(emulator)
            uid = dump.uid.map { Data($0.reversed()) }
        }
    }

    /// Answers from the file.
    /// - Throws: `TransportError.timeout` where the chip would stay silent.
    public func send(_ command: Data, timeout: Duration) async throws -> Data {
        let answer = sectorState.withLock { state -> [UInt8]? in
            var copy = core
            copy.sectorState = state
            let answer = copy.respond(Array(command), torn: false).bytes
            state = copy.sectorState
            return answer
        }
        guard let answer else { throw TransportError.timeout }
        return Data(answer)
    }
}

