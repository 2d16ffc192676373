import Foundation

/// What an emulated tag does with one command.
package enum EmulatedAnswer: Equatable {
    /// A frame of data (Type 5: response flags first).
    case data([UInt8])
    /// Type 2 4-bit ACK (0xA).
    case ack
    /// Type 2 4-bit NAK with its code (0x0 invalid argument, 0x1 CRC, 0x5 write error).
    case nak(UInt8)
    /// No answer at all.
    case silent

    package var bytes: [UInt8]? {
        switch self {
        case .data(let bytes): return bytes
        case .ack: return [0x0A]
        case .nak(let code): return [code & 0x0F]
        case .silent: return nil
        }
    }
}

/// A Type 2 chip's command set over a memory image (NTAG21x / NTAG I2C plus behaviour).
package struct Type2Emulator: Sendable {
    var memory: [UInt8]
    /// Pages present in the source (dumps may miss some); `nil` means all.
    var missingPages: Set<Int> = []
    var version: [UInt8]?
    var supportsFastRead: Bool
    var dynamicLockPage: Int?
    var pagesPerDynamicLockBit: Int
    var writable: Bool
    /// Reachable pages of each sector for chips with SECTOR_SELECT (NTAG I2C plus 2k:
    /// `[0xEA, 0x100]`); `memory` then holds the sectors one after another, 256 pages each
    /// (pages a sector does not reach answer NAK). Empty: no sectors.
    package var sectorPageCounts: [Int] = []
    var sectored: Bool { sectorPageCounts.count > 1 }
    /// The sector READ/FAST_READ/WRITE address (0 after power-up).
    var selectedSector = 0
    /// True between SECTOR_SELECT packet 1 (`C2 FF`, ACKed) and packet 2.
    var awaitingSectorNumber = false

    package init(
        memory: [UInt8], missingPages: Set<Int> = [], version: [UInt8]?, supportsFastRead: Bool, dynamicLockPage: Int?,
        pagesPerDynamicLockBit: Int, writable: Bool
    ) {
        self.memory = memory
        self.missingPages = missingPages
        self.version = version
        self.supportsFastRead = supportsFastRead
        self.dynamicLockPage = dynamicLockPage
        self.pagesPerDynamicLockBit = pagesPerDynamicLockBit
        self.writable = writable
    }

    /// Pages in the whole image.
    var totalPages: Int { memory.count / 4 }
    /// Sectors of the image (1 without SECTOR_SELECT).
    var sectorCount: Int { sectored ? sectorPageCounts.count : 1 }
    /// First linear page of the selected sector.
    var sectorBase: Int { sectored ? selectedSector * 256 : 0 }
    /// Pages READ/FAST_READ/WRITE reach in the selected sector.
    var pageCount: Int {
        guard sectored, sectorPageCounts.indices.contains(selectedSector) else { return totalPages }
        return max(0, min(sectorPageCounts[selectedSector], totalPages - sectorBase))
    }

    private func page(_ index: Int) -> ArraySlice<UInt8> { memory[(index * 4)..<(index * 4 + 4)] }

    func isLocked(_ page: Int) -> Bool {
        guard memory.count >= 12 else { return false }
        if (3...15).contains(page) {
            let bit = page < 8 ? memory[10] >> page & 1 : memory[11] >> (page - 8) & 1
            if bit != 0 { return true }
        }
        if page >= 16, let lockPage = dynamicLockPage, pagesPerDynamicLockBit > 0, lockPage * 4 + 3 <= memory.count,
            page < lockPage
        {
            let bit = (page - 16) / pagesPerDynamicLockBit
            if bit < 24, memory[lockPage * 4 + bit / 8] >> (bit % 8) & 1 != 0 { return true }
        }
        return false
    }

    /// - Parameter torn: a WRITE stores only its first two bytes (the field went away mid-programming).
    mutating func respond(_ frame: [UInt8], torn: Bool = false) -> EmulatedAnswer {
        guard !frame.isEmpty else { return .silent }
        let wasAwaitingSectorNumber = awaitingSectorNumber
        awaitingSectorNumber = false
        guard let command = Type2Command(parsing: frame, awaitingSectorNumber: wasAwaitingSectorNumber) else { return .nak(0x0) }
        switch command {
        case .sectorNumber(let sector):
            // SECTOR_SELECT packet 2. Success is a passive ACK (silence); a sector the chip
            // does not have is NAKed.
            guard Int(sector) < sectorCount else { return .nak(0x0) }
            selectedSector = Int(sector)
            return .silent
        case .sectorSelect:
            guard sectored else { return .nak(0x0) }
            awaitingSectorNumber = true
            return .ack
        case .getVersion:
            guard let version else { return .nak(0x0) }
            return .data(version)
        case .read(let page):
            let start = Int(page)
            guard start < pageCount else { return .nak(0x0) }
            var out: [UInt8] = []
            for offset in 0..<4 {
                // Roll-over at the end of memory (of the selected sector).
                let index = sectorBase + (start + offset) % pageCount
                if missingPages.contains(index) { return .nak(0x0) }
                out += self.page(index)
            }
            return .data(out)
        case .fastRead(let firstPage, let lastPage):
            guard supportsFastRead else { return .nak(0x0) }
            let start = Int(firstPage), end = Int(lastPage)
            guard start <= end, end < pageCount else { return .nak(0x0) }
            let first = sectorBase + start, last = sectorBase + end
            if (first...last).contains(where: { missingPages.contains($0) }) { return .nak(0x0) }
            return .data(Array(memory[(first * 4)..<((last + 1) * 4)]))
        case .write(let page, let data):
            guard Int(page) < pageCount else { return .nak(0x0) }
            let index = sectorBase + Int(page)
            guard writable, index >= 2, !isLocked(index) else { return .nak(0x0) }
            let base = index * 4
            let count = torn ? 2 : 4
            switch index {
            case 2:
                // Only the lock bytes are writable, and lock bits are one-time programmable.
                for offset in 2..<4 where offset < count { memory[base + offset] |= data[offset] }
            case 3:
                for offset in 0..<count { memory[base + offset] |= data[offset] }  // the CC is OTP
            case _ where index == dynamicLockPage:
                for offset in 0..<min(3, count) { memory[base + offset] |= data[offset] }
            default:
                for offset in 0..<count { memory[base + offset] = data[offset] }
            }
            return .ack
        }
    }
}

/// An ISO 15693 chip's command set over a memory image.
package struct Type5Emulator: Sendable {
    var memory: [UInt8]
    var blockSize: Int
    var missingBlocks: Set<Int> = []
    /// UID in display order (`E0` first); all zero when unknown.
    var uid: [UInt8]
    var dsfid: UInt8 = 0
    var afi: UInt8 = 0
    package var icReference: UInt8 = 0
    var answersSystemInfo = true
    var sectorBlocks: Int?
    var maxBlocksPerRead: Int?
    var supportsExtended: Bool
    var supportsReadMultiple = true
    package var lockedBlocks: Set<Int> = []
    var writable: Bool

    package init(
        memory: [UInt8], blockSize: Int, missingBlocks: Set<Int> = [], uid: [UInt8], sectorBlocks: Int?,
        maxBlocksPerRead: Int?, supportsExtended: Bool, writable: Bool
    ) {
        self.memory = memory
        self.blockSize = blockSize
        self.missingBlocks = missingBlocks
        self.uid = uid
        self.sectorBlocks = sectorBlocks
        self.maxBlocksPerRead = maxBlocksPerRead
        self.supportsExtended = supportsExtended
        self.writable = writable
    }

    var blockCount: Int { memory.count / max(1, blockSize) }

    private func error(_ code: UInt8) -> EmulatedAnswer { .data([0x01, code]) }

    private func blocks(_ first: Int, _ count: Int, securityStatus: Bool) -> EmulatedAnswer {
        guard blockSize >= 1, count >= 1, first >= 0, first + count <= blockCount else { return error(0x10) }
        if let limit = maxBlocksPerRead, count > limit { return error(0x0F) }
        if let sector = sectorBlocks, first / sector != (first + count - 1) / sector { return error(0x10) }
        if (first..<(first + count)).contains(where: { missingBlocks.contains($0) }) { return error(0x10) }
        var out: [UInt8] = [0x00]
        for block in first..<(first + count) {
            if securityStatus { out.append(lockedBlocks.contains(block) ? 0x01 : 0x00) }
            out += memory[(block * blockSize)..<((block + 1) * blockSize)]
        }
        return .data(out)
    }

    private mutating func write(_ block: Int, _ data: ArraySlice<UInt8>, torn: Bool) -> EmulatedAnswer {
        guard blockSize >= 1, block < blockCount, data.count == blockSize else { return error(0x10) }
        guard writable, !lockedBlocks.contains(block) else { return error(0x12) }
        let count = torn ? blockSize / 2 : blockSize
        for (offset, byte) in data.prefix(count).enumerated() { memory[block * blockSize + offset] = byte }
        return .data([0x00])
    }

    mutating func respond(_ frame: [UInt8], torn: Bool = false) -> EmulatedAnswer {
        guard let request = Type5Command.Request(parsing: frame) else { return .silent }
        // Addressed: a tag answers only its own UID (LSB first on the air).
        if let address = request.uid, address != uid.reversed() { return .silent }
        // A command the chip lacks is refused whatever its parameters.
        switch Type5Command.Code(rawValue: request.code) {
        case .getSystemInfo?: guard answersSystemInfo else { return error(0x01) }
        case .readMultipleBlocks?: guard supportsReadMultiple else { return error(0x01) }
        case .extendedReadSingleBlock?, .extendedWriteSingleBlock?: guard supportsExtended else { return error(0x01) }
        case .extendedReadMultipleBlocks?: guard supportsExtended, supportsReadMultiple else { return error(0x01) }
        case .readSingleBlock?, .writeSingleBlock?: break
        case nil: return error(0x01)
        }
        guard let command = request.command else { return error(0x02) }
        let securityStatus = request.wantsSecurityStatus
        switch command {
        case .getSystemInfo:
            let twoByteCount = blockCount > 256
            var out: [UInt8] = [0x00, 0x0F | (twoByteCount ? 0x10 : 0x00)]
            out += uid.reversed()
            out += [dsfid, afi]
            let countField = max(0, blockCount - 1)
            out +=
                twoByteCount
                ? [UInt8(truncatingIfNeeded: countField), UInt8(truncatingIfNeeded: countField >> 8)]
                : [UInt8(truncatingIfNeeded: countField)]
            out += [UInt8(truncatingIfNeeded: max(0, blockSize - 1)) & 0x1F, icReference]
            return .data(out)
        case .readSingleBlock(let block, _):
            return blocks(block, 1, securityStatus: securityStatus)
        case .readMultipleBlocks(let first, let count, _):
            return blocks(first, count, securityStatus: securityStatus)
        case .writeSingleBlock(let block, let data, _):
            guard data.count == blockSize else { return error(0x02) }
            return write(block, data[...], torn: torn)
        }
    }
}

/// Either emulator, plus the air time of each exchange.
package enum EmulatorCore: Sendable {
    case type2(Type2Emulator)
    case type5(Type5Emulator)

    package var technology: TagTechnology {
        switch self {
        case .type2: return .iso14443A
        case .type5: return .iso15693
        }
    }

    package var memory: [UInt8] {
        switch self {
        case .type2(let emulator): return emulator.memory
        case .type5(let emulator): return emulator.memory
        }
    }

    /// A Type 2 chip's SECTOR_SELECT state: the selected sector and whether packet 2 is due.
    package var sectorState: (sector: Int, awaitingNumber: Bool) {
        get {
            if case .type2(let emulator) = self { return (emulator.selectedSector, emulator.awaitingSectorNumber) }
            return (0, false)
        }
        set {
            if case .type2(var emulator) = self {
                emulator.selectedSector = newValue.sector
                emulator.awaitingSectorNumber = newValue.awaitingNumber
                self = .type2(emulator)
            }
        }
    }

    /// The tag re-enters the field: a Type 2 chip starts again in sector 0.
    package mutating func powerCycle() {
        if case .type2(var emulator) = self {
            emulator.selectedSector = 0
            emulator.awaitingSectorNumber = false
            self = .type2(emulator)
        }
    }

    package mutating func respond(_ command: [UInt8], torn: Bool) -> EmulatedAnswer {
        switch self {
        case .type2(var emulator):
            let answer = emulator.respond(command, torn: torn)
            self = .type2(emulator)
            return answer
        case .type5(var emulator):
            let answer = emulator.respond(command, torn: torn)
            self = .type5(emulator)
            return answer
        }
    }

    package static func isWrite(_ command: [UInt8], technology: TagTechnology) -> Bool {
        switch technology {
        case .iso14443A: return Type2Command.isWrite(command)
        case .iso15693: return Type5Command.isWrite(command)
        }
    }

}
