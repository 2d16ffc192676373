import ColdTapBase
import Foundation

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
    /// What the caller could say to get past the error (for instance which tag type it is).
    public var hint: UserHint?

    public init(_ message: String, line: Int? = nil, offset: Int? = nil, hint: UserHint? = nil) {
        self.message = message
        self.line = line
        self.offset = offset
        self.hint = hint
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
    /// Set when the file ends before what its own header says was read (a copy cut short,
    /// e.g. `head -c`): the pages past its end are not unread, they are lost from the file.
    public var cutOff: DumpCutOff?

    public init(
        technology: TagTechnology, memory: Data, unitSize: Int, uid: Data?, chip: TagChip?, version: Data? = nil,
        systemInfo: Type5SystemInfo? = nil, format: Format, missingUnits: Set<Int> = [],
        header: [DumpHeaderField] = []
    ) {
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
}

/// Where a text dump that is shorter than its own header says ends.
public struct DumpCutOff: Sendable, Equatable {
    /// The last page or block the file holds whole; -1 when it holds none.
    public var lastUnit: Int
    /// The line where the file ends (1-based): the partial one, or the last page's.
    public var line: Int
    /// How many pages or blocks the header says were read, when it says.
    public var unitsSaidRead: Int?
    /// True when the file stops inside a line (`line` is partial).
    public var endsInsideALine: Bool

    public init(lastUnit: Int, line: Int, unitsSaidRead: Int?, endsInsideALine: Bool) {
        self.lastUnit = lastUnit
        self.line = line
        self.unitsSaidRead = unitsSaidRead
        self.endsInsideALine = endsInsideALine
    }
}
