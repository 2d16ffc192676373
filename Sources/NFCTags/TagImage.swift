import Foundation

/// A Lock Control or Memory Control TLV placed before the NDEF TLV (Type 2 layout tests).
public enum ControlTLV: Sendable, Equatable {
    /// Dynamic lock bits at byte `position`: `lockBits` bits (⌈bits/8⌉ bytes reserved),
    /// each locking 2^`bytesPerLockBitExponent` bytes.
    case lockControl(position: Int, lockBits: Int, bytesPerLockBitExponent: UInt8 = 3)
    /// `size` reserved bytes at byte `position` (1…256).
    case memoryControl(position: Int, size: Int)

    var position: Int {
        switch self {
        case .lockControl(let position, _, _), .memoryControl(let position, _): return position
        }
    }

    /// Bytes of tag memory the TLV reserves.
    public var reservedRange: Range<Int> {
        switch self {
        case .lockControl(let position, let bits, _): return position..<(position + (max(1, bits) + 7) / 8)
        case .memoryControl(let position, let size): return position..<(position + max(1, min(256, size)))
        }
    }

    /// The 5 TLV bytes, or `nil` when the position cannot be expressed as nibble × 2^n + offset.
    func encoded() -> [UInt8]? {
        for exponent in 2...12 {
            let unit = 1 << exponent
            let page = position / unit, offset = position % unit
            guard page < 16, offset < 16 else { continue }
            let positionByte = UInt8(page << 4 | offset)
            switch self {
            case .lockControl(_, let bits, let bytesPerBit):
                return [0x01, 0x03, positionByte, UInt8(bits & 0xFF), bytesPerBit << 4 | UInt8(exponent)]
            case .memoryControl(_, let size):
                return [0x02, 0x03, positionByte, UInt8(size & 0xFF), UInt8(exponent)]
            }
        }
        return nil
    }
}

/// What comes before the NDEF TLV in a built image.
public struct TLVLayout: Sendable, Equatable {
    /// `nil`: the chip's factory control TLVs (NTAG213: `01 03 A0 0C 34`).
    public var controlTLVs: [ControlTLV]?
    /// NULL TLVs before the first TLV.
    public var leadingNulls: Int

    public init(controlTLVs: [ControlTLV]? = nil, leadingNulls: Int = 0) {
        self.controlTLVs = controlTLVs
        self.leadingNulls = leadingNulls
    }

    /// The factory layout of the chip.
    public static let factory = TLVLayout()
    /// The NDEF TLV first, no control TLVs.
    public static let plain = TLVLayout(controlTLVs: [])
}

/// Why an image could not be built.
public enum TagImageError: Error, Sendable, Equatable, CustomStringConvertible {
    case unsupportedChip(TagChip)
    case doesNotFit(messageBytes: Int, capacityBytes: Int)
    case invalidControlTLV(String)
    case invalidUID(String)

    public var description: String {
        switch self {
        case .unsupportedChip(let chip): return "no memory layout is known for \(chip.displayName)"
        case .doesNotFit(let message, let capacity):
            return "the message is \(message) bytes but the tag holds at most \(capacity) bytes"
        case .invalidControlTLV(let detail): return "control TLV: \(detail)"
        case .invalidUID(let detail): return "UID: \(detail)"
        }
    }
}

/// Builds full memory images of NDEF-formatted chips.
public enum TagImage {
    /// A deterministic UID for `chip` (display order; Type 2: 7 bytes from `04`; Type 5: 8 bytes from `E0`).
    public static func defaultUID(for chip: TagChip) -> Data {
        let index = UInt8(TagChip.allCases.firstIndex(of: chip) ?? 0)
        switch chip.technology {
        case .iso14443A: return Data([0x04, 0xC0, 0x1D, 0x7A, 0x9E, 0x21, 0x80 | index])
        case .iso15693:
            let layout = chip.type5Layout
            let maker = layout?.manufacturer ?? 0x07
            let product = layout?.productCode ?? 0x00
            // ICODE SLIX2 carries type bits 01 in UID byte 3 (display order).
            let typeByte: UInt8 = chip == .icodeSLIX2 ? 0x08 : chip == .icodeSLIX ? 0x10 : 0x3C
            return Data([0xE0, maker, product, typeByte, 0x51, 0xC7, 0x2A, index])
        }
    }

    /// The largest NDEF message (bytes) that fits `chip` with `layout`.
    /// - Throws: `TagImageError` for chips without a known layout.
    public static func capacity(for chip: TagChip, layout: TLVLayout = .factory) throws -> Int {
        let plan = try placement(for: chip, layout: layout)
        let available = plan.free.count
        return available - 4 >= 0xFF ? available - 4 : max(0, min(0xFE, available - 2))
    }

    /// A full memory image of `chip` holding `ndefMessage` (serialized NDEF; empty → an
    /// empty NDEF TLV), from page/block 0 (Type 2: UID, lock bytes, CC, data, lock and
    /// config pages).
    /// - Parameters:
    ///   - uid: display order; `nil` for `defaultUID(for:)`.
    ///   - readOnly: CC write access read-only and all lock bits set.
    /// - Throws: `TagImageError.doesNotFit` (both sizes), `.unsupportedChip`, `.invalidUID`.
    public static func memory(
        for chip: TagChip, ndefMessage: Data, uid: Data? = nil, layout: TLVLayout = .factory,
        readOnly: Bool = false
    ) throws -> Data {
        let plan = try placement(for: chip, layout: layout)
        var memory = plan.memory
        let id = Array(uid ?? defaultUID(for: chip))
        var bytes: [UInt8] = []
        let headerLength = ndefMessage.count < 0xFF ? 2 : 4
        if headerLength == 2 {
            bytes = [0x03, UInt8(ndefMessage.count)]
        } else {
            bytes = [0x03, 0xFF, UInt8(ndefMessage.count >> 8 & 0xFF), UInt8(ndefMessage.count & 0xFF)]
        }
        bytes += Array(ndefMessage)
        let capacity = plan.free.count - 4 >= 0xFF ? plan.free.count - 4 : max(0, min(0xFE, plan.free.count - 2))
        guard bytes.count <= plan.free.count, ndefMessage.count <= 0xFFFE else {
            throw TagImageError.doesNotFit(messageBytes: ndefMessage.count, capacityBytes: capacity)
        }
        if bytes.count < plan.free.count { bytes.append(0xFE) }
        for (index, byte) in bytes.enumerated() { memory[plan.free[index]] = byte }
        switch chip.technology {
        case .iso14443A:
            guard id.count == 7 else { throw TagImageError.invalidUID("a Type 2 UID has 7 bytes, not \(id.count)") }
            memory[0] = id[0]; memory[1] = id[1]; memory[2] = id[2]
            memory[3] = 0x88 ^ id[0] ^ id[1] ^ id[2]
            for index in 0..<4 { memory[4 + index] = id[3 + index] }
            memory[8] = id[3] ^ id[4] ^ id[5] ^ id[6]
            memory[9] = 0x48
            if readOnly, let layout = chip.type2Layout {
                memory[10] = 0xFF; memory[11] = 0xFF
                memory[15] = 0x0F
                if let lockPage = layout.dynamicLockPage {
                    memory[lockPage * 4] = 0xFF; memory[lockPage * 4 + 1] = 0xFF; memory[lockPage * 4 + 2] = 0xFF
                }
            }
        case .iso15693:
            guard id.count == 8 else { throw TagImageError.invalidUID("a Type 5 UID has 8 bytes, not \(id.count)") }
            if readOnly { memory[1] = memory[1] & 0xFC | 0x03 }
        }
        return Data(memory)
    }

    /// An NDEF message of exactly `totalBytes` bytes (records of TNF 5, unknown type, with
    /// a counting payload), for filling tags in tests and benchmarks. At least 3 bytes.
    public static func sampleMessage(totalBytes: Int) -> Data {
        let total = max(3, totalBytes)
        func record(payload: Int, begin: Bool, end: Bool) -> [UInt8] {
            var header: UInt8 = 0x05
            if begin { header |= 0x80 }
            if end { header |= 0x40 }
            var out: [UInt8]
            if payload < 256 {
                out = [header | 0x10, 0x00, UInt8(payload)]
            } else {
                out = [
                    header, 0x00, UInt8(payload >> 24 & 0xFF), UInt8(payload >> 16 & 0xFF),
                    UInt8(payload >> 8 & 0xFF), UInt8(payload & 0xFF),
                ]
            }
            out += (0..<payload).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
            return out
        }
        if total <= 258 { return Data(record(payload: total - 3, begin: true, end: true)) }
        if total >= 262 { return Data(record(payload: total - 6, begin: true, end: true)) }
        // 259…261 bytes fit neither a short nor a long single record: split in two short ones.
        return Data(record(payload: total - 13, begin: true, end: false) + record(payload: 4, begin: false, end: true))
    }

    /// The base image (factory pages, CC, control TLVs) and the free addresses, in order,
    /// where the NDEF TLV may go.
    private static func placement(for chip: TagChip, layout: TLVLayout) throws -> (memory: [UInt8], free: [Int]) {
        if let type2 = chip.type2Layout {
            var memory = [UInt8](repeating: 0, count: type2.readablePages * 4)
            memory[12] = 0xE1; memory[13] = 0x10; memory[14] = UInt8(type2.dataAreaBytes / 8); memory[15] = 0x00
            if let lockPage = type2.dynamicLockPage, chip != .nt3h2111, chip != .nt3h2211 { memory[lockPage * 4 + 3] = 0xBD }
            if let config = type2.firstConfigPage, config + 1 < type2.readablePages {
                memory[config * 4 + 3] = 0xFF  // AUTH0: no password protection
            }
            let areaEnd = min(16 + type2.dataAreaBytes, memory.count)
            var cursor = 16
            for _ in 0..<layout.leadingNulls where cursor < areaEnd {
                memory[cursor] = 0x00
                cursor += 1
            }
            // Pages between two parts of user memory (NT3H2211) are never NDEF bytes.
            var reserved: [Range<Int>] = type2.reservedBytes.map { [$0] } ?? []
            if let controls = layout.controlTLVs {
                reserved += try write(controls, into: &memory, at: &cursor, before: areaEnd, markingReserved: true)
            } else {
                for byte in type2.factoryControlTLVs {
                    memory[cursor] = byte
                    cursor += 1
                }
            }
            let free = (cursor..<areaEnd).filter { address in !reserved.contains { $0.contains(address) } }
            return (memory, free)
        }
        if let type5 = chip.type5Layout {
            var memory = [UInt8](repeating: 0, count: type5.memoryBytes)
            for (index, byte) in type5.factoryCC.enumerated() { memory[index] = byte }
            var cursor = type5.factoryCC.count
            for _ in 0..<layout.leadingNulls { cursor += 1 }
            let cc = CapabilityContainer.type5(type5.factoryCC)
            let areaEnd = min(type5.factoryCC.count + (cc?.dataAreaSize ?? 0), memory.count)
            if let controls = layout.controlTLVs {
                _ = try write(controls, into: &memory, at: &cursor, before: areaEnd, markingReserved: false)
            }
            return (memory, Array(cursor..<max(cursor, areaEnd)))
        }
        throw TagImageError.unsupportedChip(chip)
    }

    /// Writes the control TLVs from `cursor` on, advancing it, and returns the ranges they
    /// reserve; with `markingReserved`, reserved bytes inside the data area are set to 5A so
    /// that a reader that does not skip them shows it.
    /// - Throws: `TagImageError.invalidControlTLV` for a position that cannot be encoded or
    ///   TLVs that run past `areaEnd`.
    private static func write(
        _ controls: [ControlTLV], into memory: inout [UInt8], at cursor: inout Int, before areaEnd: Int,
        markingReserved: Bool
    ) throws -> [Range<Int>] {
        var reserved: [Range<Int>] = []
        for control in controls {
            guard let bytes = control.encoded() else {
                throw TagImageError.invalidControlTLV("byte \(control.position) cannot be encoded")
            }
            for byte in bytes {
                guard cursor < areaEnd else { throw TagImageError.invalidControlTLV("no room in the data area") }
                memory[cursor] = byte
                cursor += 1
            }
            let range = control.reservedRange
            reserved.append(range)
            if markingReserved {
                for address in range where address >= cursor && address < areaEnd { memory[address] = 0x5A }
            }
        }
        return reserved
    }
}
