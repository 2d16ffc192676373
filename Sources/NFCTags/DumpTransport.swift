import ColdTapBase
import Foundation

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
            var emulator = Type2Emulator(
                memory: bytes, missingPages: missing,
                version: dump.version.map { Array($0) } ?? layout?.version,
                supportsFastRead: true, dynamicLockPage: layout?.dynamicLockPage,
                pagesPerDynamicLockBit: layout?.pagesPerDynamicLockBit ?? 0, writable: false)
            emulator.sectorPageCounts = layout?.sectorPageCounts ?? []
            core = .type2(emulator)
            uid = dump.uid
        case .iso15693:
            let layout = dump.chip?.type5Layout
            let displayUID = dump.uid.map { Array($0) } ?? [UInt8](repeating: 0, count: 8)
            var emulator = Type5Emulator(
                memory: bytes, blockSize: dump.unitSize, missingBlocks: missing,
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
