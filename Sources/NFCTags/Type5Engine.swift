import ColdTapBase
import Foundation

/// ISO 15693 error codes as people read them.
func iso15693ErrorName(_ code: UInt8) -> String {
    let name: String
    switch code {
    case 0x01: name = "command not supported"
    case 0x02: name = "command not recognized"
    case 0x03: name = "option not supported"
    case 0x0F: name = "unknown error"
    case 0x10: name = "block not available"
    case 0x11: name = "block already locked"
    case 0x12: name = "block locked"
    case 0x13: name = "programming failed"
    case 0x14: name = "lock failed"
    default: name = "error"
    }
    return String(format: "ISO 15693 error 0x%02X, %@", code, name)
}

final class Type5Engine {
    let session: TagExchange
    var identity = TagIdentity(chip: .genericType5)
    var layout: Type5Layout?
    var blockSize: Int?
    var blockCount: Int?
    var maxBlocksPerRead = 1
    var sectorBlocks: Int?
    /// `nil` until the CC says; identification decides the first read.
    var multipleAllowed = false
    var anomalies: [TagAnomaly] = []
    private var uidOnAir: [UInt8]?

    init(session: TagExchange) {
        self.session = session
    }

    var transport: any TagTransport { session.transport }
    var options: TagReadOptions { session.options }

    private func request(_ command: Type5Command) -> [UInt8] {
        command.request(addressedTo: options.addressed ? uidOnAir : nil)
    }

    func identify() async throws -> TagIdentity {
        uidOnAir = transport.uid.map { Array($0) }
        let displayUID = transport.uid.map { Data($0.reversed()) }
        identity = TagIdentity(chip: .genericType5, uid: displayUID)
        session.uid = displayUID
        if transport.limits.carries(Type5Command.Code.getSystemInfo.rawValue) {
            do {
                let (answer, refused) = try await session.exchange(request(.getSystemInfo)) { answer in
                    guard let flags = answer.first else { return .garbled }
                    if flags & 0x01 != 0 { return answer.count >= 2 ? .refused : .garbled }
                    return Type5SystemInfo.parse(answer) != nil ? .accept : .garbled
                }
                if !refused, let info = Type5SystemInfo.parse(answer) {
                    identity.systemInfo = info
                    if info.uid.contains(where: { $0 != 0 }) {
                        identity.uid = info.uid
                        session.uid = info.uid
                        if uidOnAir == nil { uidOnAir = Array(info.uid.reversed()) }
                    }
                    blockSize = info.blockSize
                    blockCount = info.blockCount
                }
            } catch ExchangeFailure.removed {
                throw session.readError(ExchangeFailure.removed, command: "GET_SYSTEM_INFO", unit: 0)
            } catch is ExchangeFailure {
                // Some tags do not implement GET_SYSTEM_INFO: the CC and the block answers tell the rest.
            }
        }
        identity.chip = Type5Layout.identify(
            uidDisplayOrder: identity.uid.map { Array($0) } ?? [],
            blockCount: blockCount, blockSize: blockSize)
        layout = identity.chip.type5Layout
        if let layout, blockSize == nil {
            blockSize = layout.blockSize
            blockCount = layout.blockCount
        }
        // A 1-byte count tops out at 256 blocks: larger chips are checked against the CC later.
        if let layout, let reported = blockCount, reported != layout.blockCount,
            !(reported == 256 && layout.blockCount > 256)
        {
            anomalies.append(
                TagAnomaly(
                    offset: nil, message: "GET_SYSTEM_INFO reports \(reported) blocks; the \(identity.chip.displayName) datasheet says \(layout.blockCount)"))
        }
        let isST = identity.uid.map { $0.count == 8 && $0[$0.startIndex + 1] == 0x02 } ?? false
        sectorBlocks = layout?.sectorBlocks ?? (isST ? 32 : nil)
        multipleAllowed = options.strategy == .fewestRoundTrips && layout != nil && transport.limits.carries(Type5Command.Code.readMultipleBlocks.rawValue)
        configureMaxBlocks()
        if let blockSize { session.memory = SparseMemory(unitSize: blockSize) }
        session.adoptResume(technology: .iso15693)
        return identity
    }

    private func configureMaxBlocks() {
        let size = blockSize ?? 4
        var count = min(256, max(1, (transport.limits.maxResponseBytes - 1) / size))
        if let chipMax = layout?.maxBlocksPerRead { count = min(count, chipMax) }
        if let learned = options.learnedLimits?.blocksPerRead(for: identity.chip) { count = min(count, learned) }
        maxBlocksPerRead = count
    }

    /// Learns the block size from a READ_SINGLE_BLOCK of block 0 when GET_SYSTEM_INFO did not say.
    private func learnBlockSize() async throws {
        guard blockSize == nil else { return }
        let result: (answer: [UInt8], refused: Bool)
        do {
            result = try await session.exchange(request(.readSingleBlock(block: 0, extended: false))) { answer in
                guard let flags = answer.first else { return .garbled }
                if flags & 0x01 != 0 { return answer.count >= 2 ? .refused : .garbled }
                return (2...33).contains(answer.count) ? .accept : .garbled
            }
        } catch {
            throw session.readError(error, command: "READ_SINGLE_BLOCK", unit: 0)
        }
        if result.refused {
            throw TagReadError.refused(command: "READ_SINGLE_BLOCK", location: "block 0", status: iso15693ErrorName(result.answer[1]))
        }
        let size = result.answer.count - 1
        blockSize = size
        session.memory = SparseMemory(unitSize: size)
        session.adoptResume(technology: .iso15693)
        session.memory.store(unit: 0, bytes: result.answer[1...])
        configureMaxBlocks()
        session.reportProgress()
    }

    /// Makes the blocks covering `bytes` known.
    func ensure(_ bytes: Range<Int>) async throws {
        try await learnBlockSize()
        guard let blocks = session.memory.unitRange(of: bytes) else { return }
        var upper = blocks.upperBound
        if let blockCount { upper = min(upper, blockCount - 1) }
        guard blocks.lowerBound <= upper else { return }
        if upper > 0xFFFF {
            throw TagReadError.malformed(
                "the data area reaches block \(upper), beyond the 65,536 blocks ISO 15693 can address",
                offset: upper * session.memory.unitSize)
        }
        let size = session.memory.unitSize
        for run in session.memory.missingRuns(blocks.lowerBound...upper) {
            var block = run.lowerBound
            while block <= run.upperBound {
                var count = multipleAllowed ? min(maxBlocksPerRead, run.upperBound - block + 1) : 1
                if let sector = sectorBlocks { count = min(count, sector - block % sector) }
                if block + count - 1 > 255 && !transport.limits.carries(Type5Command.Code.extendedReadMultipleBlocks.rawValue) { count = 1 }
                let last = block + count - 1
                let extended = last > 255
                if extended
                    && !(transport.limits.carries(Type5Command.Code.extendedReadSingleBlock.rawValue)
                        || transport.limits.carries(Type5Command.Code.extendedReadMultipleBlocks.rawValue))
                {
                    throw TagReadError.unsupportedByLink("block \(last) needs the extended read commands (0x30/0x33)")
                }
                let command: [UInt8]
                let name: String
                if count > 1 {
                    name = extended ? "EXTENDED_READ_MULTIPLE_BLOCKS" : "READ_MULTIPLE_BLOCKS"
                    command = request(.readMultipleBlocks(first: block, count: count, extended: extended))
                } else {
                    name = extended ? "EXTENDED_READ_SINGLE_BLOCK" : "READ_SINGLE_BLOCK"
                    command = request(.readSingleBlock(block: block, extended: extended))
                }
                let expected = 1 + count * size
                let result: (answer: [UInt8], refused: Bool)
                do {
                    result = try await session.exchange(command) { answer in
                        guard let flags = answer.first else { return .garbled }
                        if flags & 0x01 != 0 { return answer.count >= 2 ? .refused : .garbled }
                        return answer.count == expected ? .accept : .garbled
                    }
                } catch ExchangeFailure.unsupported where count > 1 {
                    halve(from: count)
                    continue
                } catch {
                    throw session.readError(error, command: name, unit: block)
                }
                if result.refused {
                    if count > 1 {
                        halve(from: count)
                        continue
                    }
                    throw TagReadError.refused(command: name, location: "block \(block)", status: iso15693ErrorName(result.answer[1]))
                }
                for index in 0..<count {
                    session.memory.store(unit: block + index, bytes: result.answer[(1 + index * size)..<(1 + (index + 1) * size)])
                }
                block = last + 1
                session.reportProgress()
            }
        }
    }

    private func halve(from count: Int) {
        maxBlocksPerRead = max(1, count / 2)
        options.learnedLimits?.remember(maxBlocksPerRead, for: identity.chip)
    }

    func readLayout(stopAfterNDEF: Bool) async throws -> (CapabilityContainer?, Range<Int>?, TLVWalker.Outcome) {
        try await learnBlockSize()
        let size = session.memory.unitSize
        // Before the CC says whether MBREAD exists, an unidentified tag gets single reads.
        try await ensure(0..<(multipleAllowed ? max(16, size) : size))
        var head = session.memory.bytes(0..<min(8, max(4, size))) ?? []
        if head.count >= 4, head[2] == 0, head.count < 8 {
            try await ensure(0..<8)
            head = session.memory.bytes(0..<8) ?? head
        }
        guard let cc = CapabilityContainer.type5(head) else {
            anomalies.append(
                TagAnomaly(
                    offset: 0,
                    message: "block 0 holds "
                        + head.prefix(4).hexString(separator: " ")
                        + ", not a capability container (E1/E2 …): the tag is not NDEF-formatted"))
            return (nil, nil, TLVWalker.Outcome())
        }
        if cc.majorVersion != 1 {
            anomalies.append(TagAnomaly(offset: 1, message: "capability container version \(cc.majorVersion).\(cc.minorVersion); ColdTap knows 1.x"))
        }
        if cc.readAccess != 0 {
            anomalies.append(TagAnomaly(offset: 1, message: "read access \(cc.readAccess) is not free access"))
        }
        // MBREAD in the CC decides from here on.
        multipleAllowed =
            options.strategy == .fewestRoundTrips && cc.supportsReadMultiple
            && transport.limits.carries(Type5Command.Code.readMultipleBlocks.rawValue)
        let ccLength = cc.bytes.count
        if let count = blockCount, count == 256, cc.usesTwoByteBlockNumbers, ccLength + cc.dataAreaSize > count * size {
            // GET_SYSTEM_INFO's 1-byte block count cannot say more than 256 (ST25DV16K/64K
            // report 256 there); the E2 capability container gives the real size.
            var corrected = (ccLength + cc.dataAreaSize + size - 1) / size
            let uid = identity.uid.map { Array($0) } ?? []
            let rechecked = Type5Layout.identify(uidDisplayOrder: uid, blockCount: corrected, blockSize: size)
            if let checkedLayout = rechecked.type5Layout, checkedLayout.blockSize == size {
                corrected = min(corrected, checkedLayout.blockCount)
                identity.chip = rechecked
                layout = checkedLayout
                sectorBlocks = checkedLayout.sectorBlocks ?? sectorBlocks
                configureMaxBlocks()
            }
            blockCount = corrected
            anomalies.append(
                TagAnomaly(
                    offset: nil,
                    message:
                        "GET_SYSTEM_INFO reports 256 blocks (the most its 1-byte count can say); the capability container's size is used: \(corrected) blocks"))
        }
        var end = ccLength + cc.dataAreaSize
        if let blockCount {
            let memoryBytes = blockCount * size
            if cc.dataAreaSize > memoryBytes {
                anomalies.append(
                    TagAnomaly(offset: 2, message: "the capability container declares \(cc.dataAreaSize) bytes but the tag has \(memoryBytes) bytes of memory"))
            }
            end = min(end, memoryBytes)
            if blockCount > 256 && !cc.usesTwoByteBlockNumbers {
                anomalies.append(
                    TagAnomaly(
                        offset: 0, message: "the tag has \(blockCount) blocks but its capability container starts with E1 (1-byte block numbers), not E2"))
            }
        }
        let area = ccLength..<max(ccLength, end)
        session.neededRange = 0..<area.upperBound
        session.bytesNeeded = blocksBytes(area.upperBound)
        let walker = TLVWalker(
            area: area, controlTLVsAllowed: false, stopAfterNDEF: stopAfterNDEF,
            addressing: MemoryAddressing(technology: .iso15693, unitSize: size))
        let outcome = try await walker.walk(memory: { self.session.memory }) { range, readAhead in
            if !readAhead {
                self.session.neededRange = 0..<range.upperBound
                self.session.bytesNeeded = self.blocksBytes(range.upperBound)
            }
            try await self.ensure(range)
        }
        return (cc, area, outcome)
    }

    private func blocksBytes(_ end: Int) -> Int {
        let size = session.memory.unitSize
        return (end + size - 1) / size * size
    }

    func read() async throws -> TagReadResult {
        _ = try await identify()
        let (cc, area, outcome) = try await readLayout(stopAfterNDEF: options.scope == .ndefMessage)
        if options.scope == .ndefMessage, let needed = session.bytesNeeded {
            session.bytesNeeded = min(needed, session.bytesReadForProgress)
            session.reportProgress()
        }
        return TagReading.result(
            technology: .iso15693, identity: identity, unitSize: session.memory.unitSize, cc: cc,
            area: area, outcome: outcome, anomalies: anomalies, session: session)
    }

    /// - Parameter afterRead: true right after `read()` on this engine: the tag is already
    ///   identified and the blocks read stay in the session, so only the others are read.
    func dump(afterRead: Bool = false) async throws -> MemoryDump {
        if !afterRead { _ = try await identify() }
        try await learnBlockSize()
        let size = session.memory.unitSize
        var count = blockCount
        if count == nil {
            try await ensure(0..<8)
            if let cc = CapabilityContainer.type5(session.memory.bytes(0..<8) ?? []) {
                count = (cc.bytes.count + cc.dataAreaSize + size - 1) / size
            }
        }
        let blocks = max(1, count ?? 1)
        multipleAllowed =
            multipleAllowed
            || (options.strategy == .fewestRoundTrips && transport.limits.carries(Type5Command.Code.readMultipleBlocks.rawValue) && layout != nil)
        try await ensure(0..<(blocks * size))
        var memory = Data()
        for block in 0..<blocks {
            memory.append(contentsOf: session.memory.bytes((block * size)..<((block + 1) * size)) ?? Array(repeating: 0, count: size))
        }
        return MemoryDump(
            technology: .iso15693, memory: memory, unitSize: size, uid: identity.uid, chip: identity.chip,
            systemInfo: identity.systemInfo, format: .raw)
    }

    func write(_ message: Data) async throws -> TagWriteResult {
        _ = try await identify()
        let (ccFound, areaFound, outcome) = try await readLayout(stopAfterNDEF: true)
        guard let cc = ccFound, let area = areaFound else { throw TagWriteError.notFormatted }
        guard cc.isWritable else {
            throw TagWriteError.readOnly("the capability container's write access is \(cc.writeAccess)")
        }
        let size = session.memory.unitSize
        let slot = outcome.ndefSlot ?? outcome.end
        let plan = NDEFWritePlan(message: message, slot: slot, area: area, reserved: [])
        guard let addresses = plan.addresses else {
            throw TagWriteError.doesNotFit(messageBytes: message.count, capacityBytes: plan.capacity)
        }
        let blocks = Set(addresses.map { $0 / size }).sorted()
        if let last = blocks.last, last > 0xFFFF {
            throw TagReadError.malformed(
                "the data area reaches block \(last), beyond the 65,536 blocks ISO 15693 can address",
                offset: last * size)
        }
        for block in blocks where !(0..<size).allSatisfy({ addresses.contains(block * size + $0) }) {
            try await ensure((block * size)..<((block + 1) * size))
        }
        let memory = session.memory
        let order = plan.writeOrder(unitSize: size) { block in
            memory.bytes((block * size)..<((block + 1) * size)) ?? Array(repeating: 0, count: size)
        }
        var written = 0
        for (block, bytes) in order {
            let command = request(.writeSingleBlock(block: block, data: bytes, extended: block > 255))
            let result: (answer: [UInt8], refused: Bool)
            do {
                result = try await session.exchange(command) { answer in
                    guard let flags = answer.first else { return .garbled }
                    if flags & 0x01 != 0 { return answer.count >= 2 ? .refused : .garbled }
                    return .accept
                }
            } catch ExchangeFailure.unsupported(let detail) {
                throw TagReadError.unsupportedByLink("WRITE_SINGLE_BLOCK: \(detail)")
            } catch {
                throw TagWriteError.interrupted(bytesWritten: written, of: order.count * size)
            }
            if result.refused {
                throw TagWriteError.refused(location: "block \(block)", status: iso15693ErrorName(result.answer[1]))
            }
            written += size
        }
        return TagWriteResult(commandCount: session.commandCount, bytesWritten: written)
    }
}
