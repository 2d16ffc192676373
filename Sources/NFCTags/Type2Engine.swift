import ColdTapBase
import Foundation

/// The Type 2 read, write and dump logic behind `Type2Tag`, over one `TagExchange`.
final class Type2Engine {
    let session: TagExchange
    var identity = TagIdentity(chip: .genericType2)
    var layout: Type2Layout?
    var useFastRead = false
    var maxFastReadPages = 0
    var anomalies: [TagAnomaly] = []
    /// The sector the tag has selected, `nil` when unknown. A tag enters the field in sector
    /// 0; a resumed read may meet a tag left in another sector, so it selects before its
    /// first access.
    var selectedSector: Int?

    init(session: TagExchange) {
        self.session = session
        selectedSector = session.options.resume == nil ? 0 : nil
    }

    var transport: any TagTransport { session.transport }

    func identify() async throws -> TagIdentity {
        identity = TagIdentity(chip: .genericType2, uid: transport.uid)
        session.uid = transport.uid
        session.adoptResume(technology: .iso14443A)
        if transport.limits.carries(Type2Command.Code.getVersion.rawValue) {
            do {
                let (answer, refused) = try await session.exchange(Type2Command.getVersion.bytes) { answer in
                    answer.count == 8 ? .accept : answer.count == 1 ? .refused : .garbled
                }
                if !refused {
                    identity.version = Data(answer)
                    identity.chip = Type2Layout.identify(version: answer) ?? .genericType2
                    if identity.chip == .genericType2 {
                        anomalies.append(
                            TagAnomaly(
                                offset: nil,
                                message: "GET_VERSION answered "
                                    + answer.hexString(separator: " ")
                                    + ", a version ColdTap does not know; read as a generic Type 2 tag"))
                    }
                }
            } catch ExchangeFailure.removed {
                throw session.readError(ExchangeFailure.removed, command: "GET_VERSION", unit: 0)
            } catch is ExchangeFailure {
                // No answer or not carried: a tag without GET_VERSION (e.g. Ultralight) is still a Type 2 tag.
            }
        }
        layout = identity.chip.type2Layout
        session.uncountedUnits = layout?.reservedPages
        let limits = transport.limits
        useFastRead =
            session.options.strategy == .fewestRoundTrips && (layout?.supportsFastRead ?? false)
            && limits.carries(Type2Command.Code.fastRead.rawValue) && limits.maxCommandBytes >= 3 && limits.maxResponseBytes >= 8
        maxFastReadPages = min(limits.maxResponseBytes / 4, layout?.readablePages ?? 0, 256)
        return identity
    }

    /// Makes the pages covering `bytes` known, in the largest commands possible. Pages are
    /// linear (page p of sector s is 256·s + p); no FAST_READ crosses a sector, and pages the
    /// chip does not reach or keeps out of the data area (NT3H2211 between its sectors) are
    /// skipped unless `includeReserved` (a dump) asks for the reachable ones.
    func ensure(_ bytes: Range<Int>, includeReserved: Bool = false) async throws {
        guard let pages = session.memory.unitRange(of: bytes) else { return }
        if pages.upperBound > 255 && (layout?.sectorCount ?? 1) == 1 {
            throw TagReadError.outOfReach(
                "the data continues at page \(pages.upperBound), beyond sector 0 (pages 0–255), "
                    + "and the \(identity.chip.displayName) is not known to answer SECTOR_SELECT")
        }
        var upper = pages.upperBound
        if let layout { upper = min(upper, layout.readablePages - 1) }
        guard pages.lowerBound <= upper else { return }
        let wanted: (Int) -> Bool = { page in
            guard let layout = self.layout else { return true }
            if !layout.isReachable(page) { return false }
            return includeReserved || !(layout.reservedPages?.contains(page) ?? false)
        }
        for run in session.memory.missingRuns(pages.lowerBound...upper) {
            var page = run.lowerBound
            while page <= run.upperBound {
                if session.memory.has(unit: page) || !wanted(page) { page += 1; continue }
                if useFastRead {
                    let sector = page / 256
                    // The wanted pages from here on, within the run and the sector.
                    var last = page
                    while last + 1 <= min(run.upperBound, sector * 256 + 255), last + 1 - page < maxFastReadPages,
                        wanted(last + 1)
                    {
                        last += 1
                    }
                    let count = last - page + 1
                    let end = last
                    try await selectSector(sector, forPage: page)
                    let result: (answer: [UInt8], refused: Bool)
                    do {
                        result = try await session.exchange(Type2Command.fastRead(first: UInt8(page % 256), last: UInt8(end % 256)).bytes) { answer in
                            answer.count == count * 4 ? .accept : answer.count == 1 ? .refused : .garbled
                        }
                    } catch ExchangeFailure.unsupported {
                        try shrinkFastRead(refusedAt: page, answer: nil)
                        continue
                    } catch {
                        throw session.readError(error, command: "FAST_READ", unit: page)
                    }
                    if result.refused {
                        // A lost SECTOR_SELECT packet 2 looks like success, and the chip then
                        // NAKs the next command as a bad packet 2: select again before retrying.
                        if (layout?.sectorCount ?? 1) > 1 { selectedSector = nil }
                        try shrinkFastRead(refusedAt: page, answer: result.answer)
                        continue
                    }
                    for index in 0..<count {
                        session.memory.store(unit: page + index, bytes: result.answer[(index * 4)..<(index * 4 + 4)])
                    }
                    page = end + 1
                } else {
                    try await readWithREAD(page)
                    // READ rolls over within a sector: the next sector starts a new READ.
                    page = min(page + 4, (page / 256 + 1) * 256)
                }
                session.reportProgress()
            }
        }
    }

    /// Selects sector 0 again after an operation that ended in another sector, so that the
    /// next operation on the same connection finds the tag as it enters the field (each
    /// operation assumes sector 0 at its start). The operation's data are complete by then:
    /// a failure here (e.g. the tag leaving) does not fail it.
    func leaveInSectorZero() async {
        guard selectedSector != 0, (layout?.sectorCount ?? 1) > 1 else { return }
        _ = try? await selectSector(0, forPage: 0)
    }

    /// Selects `sector` with SECTOR_SELECT unless the tag is known to be in it: packet 1
    /// `C2 FF` (4-bit ACK), packet 2 the sector number and `00 00 00`, which the tag accepts
    /// by staying silent (a timeout is success, any answer a NAK).
    /// - Throws: `TagReadError.refused` for a NAK, `.tagRemoved` / `.noAnswer` with the
    ///   bytes read so far, `.unsupportedByLink`.
    func selectSector(_ sector: Int, forPage page: Int) async throws {
        // Chips with one sector never need (nor answer) SECTOR_SELECT.
        guard selectedSector != sector, (layout?.sectorCount ?? 1) > 1 else { return }
        guard (0...255).contains(sector) else {
            throw TagReadError.outOfReach("page \(page) lies in sector \(sector), which SECTOR_SELECT cannot name")
        }
        selectedSector = nil
        var attempts = 0
        while true {
            try Task.checkCancellation()
            attempts += 1
            // Packet 1. A NAK may also mean the chip took a repeated packet 1 (after a lost
            // ACK) as a bad packet 2; the NAK resets it, so one NAK is tried again.
            var first: (answer: [UInt8], refused: Bool) = ([], true)
            for _ in 0..<2 where first.refused {
                do {
                    first = try await session.exchange(Type2Command.sectorSelect.bytes) { answer in
                        answer.count == 1 ? (answer[0] & 0x0F == 0x0A ? .accept : .refused) : .garbled
                    }
                } catch {
                    throw session.readError(error, command: "SECTOR_SELECT", unit: page)
                }
            }
            if first.refused {
                throw TagReadError.refused(
                    command: "SECTOR_SELECT", location: "sector \(sector) (packet 1)",
                    status: String(format: "NAK 0x%X", (first.answer.first ?? 0) & 0x0F))
            }
            // Packet 2: silence is the passive ACK. The tag's window is ≈ 1 ms on the air,
            // but the reader (or the phone's OS) reports the silence, so the host waits with
            // the usual command timeout rather than cutting a slow link's own report short.
            session.commandCount += 1
            let answer: [UInt8]
            do {
                answer = Array(
                    try await transport.send(
                        Data(Type2Command.sectorNumber(UInt8(sector)).bytes),
                        timeout: session.options.commandTimeout))
            } catch TransportError.timeout {
                selectedSector = sector
                return
            } catch TransportError.tagRemoved {
                throw session.readError(ExchangeFailure.removed, command: "SECTOR_SELECT", unit: page)
            } catch TransportError.unsupported(let detail) {
                throw TagReadError.unsupportedByLink("SECTOR_SELECT: \(detail)")
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                if attempts >= session.options.maxAttempts {
                    throw session.readError(ExchangeFailure.noAnswer(attempts: attempts), command: "SECTOR_SELECT", unit: page)
                }
                continue
            }
            throw TagReadError.refused(
                command: "SECTOR_SELECT", location: "sector \(sector)",
                status: String(format: "NAK 0x%X", (answer.first ?? 0) & 0x0F))
        }
    }

    /// Halves the FAST_READ range after a refusal; a refused single page is an error naming it.
    private func shrinkFastRead(refusedAt page: Int, answer: [UInt8]?) throws {
        if maxFastReadPages <= 1 {
            guard let answer else {
                useFastRead = false
                return
            }
            throw TagReadError.refused(
                command: "FAST_READ", location: "page \(page)",
                status: String(format: "NAK 0x%X", (answer.first ?? 0) & 0x0F))
        }
        maxFastReadPages /= 2
    }

    private func readWithREAD(_ page: Int) async throws {
        guard transport.limits.carries(Type2Command.Code.read.rawValue) else {
            throw TagReadError.unsupportedByLink("the reader carries neither READ nor FAST_READ")
        }
        try await selectSector(page / 256, forPage: page)
        let result: (answer: [UInt8], refused: Bool)
        do {
            result = try await session.exchange(Type2Command.read(page: UInt8(page % 256)).bytes) { answer in
                answer.count == 16 ? .accept : answer.count == 1 ? .refused : .garbled
            }
        } catch {
            throw session.readError(error, command: "READ", unit: page)
        }
        if result.refused {
            throw TagReadError.refused(
                command: "READ", location: "page \(page)",
                status: String(format: "NAK 0x%X", result.answer[0] & 0x0F))
        }
        let sectorPages = layout?.pages(inSector: page / 256) ?? 256
        for index in 0..<4 {
            let target = page + index
            // READ rolls over at the end of memory (of the sector): pages past it are page 0, 1, … again.
            if page % 256 + index >= sectorPages { break }
            if !session.memory.has(unit: target) {
                session.memory.store(unit: target, bytes: result.answer[(index * 4)..<(index * 4 + 4)])
            }
        }
    }

    /// Reads the CC and walks the TLVs. Returns `nil` for the CC when the tag is not formatted.
    func readLayout(stopAfterNDEF: Bool) async throws -> (CapabilityContainer?, Range<Int>?, TLVWalker.Outcome) {
        if !session.memory.has(unit: 3) && transport.limits.carries(Type2Command.Code.read.rawValue) {
            // One READ brings the CC and the first 12 bytes of TLVs, with the shortest command.
            try await readWithREAD(3)
            session.reportProgress()
        }
        try await ensure(12..<16)
        let head = session.memory.bytes(12..<16) ?? []
        guard let cc = CapabilityContainer.type2(head) else {
            anomalies.append(
                TagAnomaly(
                    offset: 12,
                    message: "page 3 holds "
                        + head.hexString(separator: " ")
                        + ", not a capability container (E1 …): the tag is not NDEF-formatted"))
            return (nil, nil, TLVWalker.Outcome())
        }
        if cc.majorVersion != 1 {
            anomalies.append(TagAnomaly(offset: 13, message: "capability container version \(cc.majorVersion).\(cc.minorVersion); ColdTap knows 1.x"))
        }
        if cc.readAccess != 0 {
            anomalies.append(TagAnomaly(offset: 15, message: String(format: "read access 0x%X is not free access", cc.readAccess)))
        }
        var end = 16 + cc.dataAreaSize
        if let layout, layout.dynamicLockPage != nil || layout.firstConfigPage != nil {
            let userEnd = layout.userAreaEnd
            if end > userEnd {
                anomalies.append(
                    TagAnomaly(
                        offset: 14,
                        message:
                            "the capability container declares \(cc.dataAreaSize) bytes but the \(identity.chip.displayName) has \(layout.userMemoryBytes) bytes of user memory; read up to byte \(userEnd)"
                    ))
                end = userEnd
            }
        }
        if cc.dataAreaSize == 0 {
            anomalies.append(TagAnomaly(offset: 14, message: "the capability container declares a data area of 0 bytes"))
        }
        let area = 16..<max(16, end)
        let chipReserved = layout?.reservedBytes.map { [$0] } ?? []
        // Bytes from the CC (page 3) through the page holding `end`, less pages the chip keeps out.
        func needed(through end: Int) -> Int {
            let pages = 3..<((end + 3) / 4)
            let skipped = layout?.reservedPages.map { $0.clamped(to: pages).count } ?? 0
            return (pages.count - skipped) * 4
        }
        session.bytesNeeded = needed(through: area.upperBound)
        session.neededRange = 12..<area.upperBound
        var walker = TLVWalker(
            area: area, controlTLVsAllowed: true, stopAfterNDEF: stopAfterNDEF,
            addressing: MemoryAddressing(technology: .iso14443A, unitSize: 4))
        walker.chipReserved = chipReserved
        let outcome = try await walker.walk(memory: { self.session.memory }) { range, readAhead in
            if !readAhead {
                self.session.neededRange = 12..<max(range.upperBound, 16)
                self.session.bytesNeeded = needed(through: range.upperBound)
            }
            try await self.ensure(range)
        }
        return (cc, area, outcome)
    }

    func read() async throws -> TagReadResult {
        _ = try await identify()
        let scope = session.options.scope
        let (cc, area, outcome) = try await readLayout(stopAfterNDEF: scope == .ndefMessage)
        if scope == .ndefMessage, session.bytesNeeded != nil {
            session.bytesNeeded = min(session.bytesNeeded ?? 0, session.bytesReadForProgress)
            session.reportProgress()
        }
        await leaveInSectorZero()
        return TagReading.result(
            technology: .iso14443A, identity: identity, unitSize: 4, cc: cc, area: area,
            outcome: outcome, anomalies: anomalies, session: session)
    }

    func dump() async throws -> MemoryDump {
        _ = try await identify()
        let lastPage: Int
        if let layout {
            lastPage = layout.readablePages - 1
        } else {
            try await ensure(12..<16)
            let cc = CapabilityContainer.type2(session.memory.bytes(12..<16) ?? [])
            lastPage = min(255, 3 + (cc?.dataAreaSize ?? 0) / 4)
        }
        try await ensure(0..<((lastPage + 1) * 4), includeReserved: true)
        var memory = Data()
        for page in 0...lastPage {
            memory.append(contentsOf: session.memory.bytes((page * 4)..<(page * 4 + 4)) ?? [0, 0, 0, 0])
        }
        var uid = identity.uid
        if uid == nil, memory.count >= 8 { uid = Data(memory[0..<3]) + Data(memory[4..<8]) }
        await leaveInSectorZero()
        return MemoryDump(
            technology: .iso14443A, memory: memory, unitSize: 4, uid: uid, chip: identity.chip,
            version: identity.version, format: .raw)
    }

    func write(_ message: Data) async throws -> TagWriteResult {
        _ = try await identify()
        // Page 2 (static lock bytes) and the CC come in one READ.
        try await ensure(8..<16)
        let (ccFound, areaFound, outcome) = try await readLayout(stopAfterNDEF: true)
        guard let cc = ccFound, let area = areaFound else { throw TagWriteError.notFormatted }
        guard cc.isWritable else {
            throw TagWriteError.readOnly(String(format: "the capability container's write access is 0x%X", cc.writeAccess))
        }
        let slot = outcome.ndefSlot ?? outcome.end
        let plan = NDEFWritePlan(message: message, slot: slot, area: area, reserved: outcome.reserved)
        guard let addresses = plan.addresses else {
            throw TagWriteError.doesNotFit(messageBytes: message.count, capacityBytes: plan.capacity)
        }
        let pages = Set(addresses.map { $0 / 4 }).sorted()
        try checkLocks(pages: pages)
        // Pages only partly covered keep their other bytes: make them known first.
        for page in pages where !(0..<4).allSatisfy({ addresses.contains(page * 4 + $0) }) {
            try await ensure((page * 4)..<(page * 4 + 4))
        }
        let memory = session.memory
        let order = plan.writeOrder(unitSize: 4) { page in memory.bytes((page * 4)..<(page * 4 + 4)) ?? [0, 0, 0, 0] }
        var written = 0
        for (page, bytes) in order {
            do {
                try await selectSector(page / 256, forPage: page)
            } catch TagReadError.refused(_, let location, let status) {
                throw TagWriteError.refused(location: "SECTOR_SELECT of \(location)", status: status)
            } catch let error as TagReadError {
                if case .unsupportedByLink = error { throw error }
                throw TagWriteError.interrupted(bytesWritten: written, of: order.count * 4)
            }
            let result: (answer: [UInt8], refused: Bool)
            do {
                result = try await session.exchange(Type2Command.write(page: UInt8(page % 256), data: bytes).bytes) { answer in
                    answer.count == 1 ? (answer[0] & 0x0F == 0x0A ? .accept : .refused) : .garbled
                }
            } catch ExchangeFailure.unsupported(let detail) {
                throw TagReadError.unsupportedByLink("WRITE: \(detail)")
            } catch {
                throw TagWriteError.interrupted(bytesWritten: written, of: order.count * 4)
            }
            if result.refused {
                throw TagWriteError.refused(location: "page \(page)", status: String(format: "NAK 0x%X", result.answer[0] & 0x0F))
            }
            written += 4
        }
        await leaveInSectorZero()
        return TagWriteResult(commandCount: session.commandCount, bytesWritten: written)
    }

    /// Refuses pages locked by the static (page 2) or dynamic lock bits.
    private func checkLocks(pages: [Int]) throws {
        if let lock = session.memory.bytes(10..<12) {
            for page in pages where (3...15).contains(page) {
                let bit = page < 8 ? lock[0] >> page & 1 : lock[1] >> (page - 8) & 1
                if bit != 0 { throw TagWriteError.readOnly("page \(page) is locked by the static lock bits") }
            }
        }
        if let layout, let lockPage = layout.dynamicLockPage, layout.pagesPerDynamicLockBit > 0,
            let dynamic = session.memory.bytes((lockPage * 4)..<(lockPage * 4 + 3))
        {
            for page in pages where page >= 16 {
                let bit = (page - 16) / layout.pagesPerDynamicLockBit
                guard bit < 24 else { continue }
                if dynamic[bit / 8] >> (bit % 8) & 1 != 0 {
                    throw TagWriteError.readOnly("page \(page) is locked by the dynamic lock bits")
                }
            }
        }
    }
}
