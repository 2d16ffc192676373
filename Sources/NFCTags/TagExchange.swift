import Foundation

/// Tag memory known so far, page by page (or block by block).
struct SparseMemory {
    let unitSize: Int
    private(set) var units: [Int: [UInt8]] = [:]

    init(unitSize: Int) {
        self.unitSize = max(1, unitSize)
    }

    var knownBytes: Int { units.count * unitSize }

    mutating func store(unit: Int, bytes: ArraySlice<UInt8>) {
        guard bytes.count == unitSize, unit >= 0 else { return }
        units[unit] = Array(bytes)
    }

    func has(unit: Int) -> Bool { units[unit] != nil }

    func byte(at address: Int) -> UInt8? {
        guard address >= 0 else { return nil }
        return units[address / unitSize]?[address % unitSize]
    }

    /// Bytes of `range` when every one is known.
    func bytes(_ range: Range<Int>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        for address in range {
            guard let byte = byte(at: address) else { return nil }
            out.append(byte)
        }
        return out
    }

    /// Maximal runs of units in `range` that are not known yet.
    func missingRuns(_ range: ClosedRange<Int>) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        var start: Int?
        for unit in range {
            if units[unit] == nil {
                if start == nil { start = unit }
            } else if let first = start {
                runs.append(first...(unit - 1))
                start = nil
            }
        }
        if let first = start { runs.append(first...range.upperBound) }
        return runs
    }

    func unitRange(of bytes: Range<Int>) -> ClosedRange<Int>? {
        guard !bytes.isEmpty, bytes.lowerBound >= 0 else { return nil }
        return (bytes.lowerBound / unitSize)...((bytes.upperBound - 1) / unitSize)
    }
}

/// Why one exchange failed, before it is turned into a public error.
enum ExchangeFailure: Error {
    case removed
    case noAnswer(attempts: Int)
    case unsupported(String)
}

/// The answer of one exchange as the command's checker sees it.
enum AnswerCheck {
    case accept
    /// The tag said no (NAK, error flag): not retried.
    case refused
    /// Wrong length or shape: retried like a timeout.
    case garbled
}

/// One read or write of one tag (its commands and answers; "session" is kept for NDEF
/// exchanges with a logger, `NDEFExchangeSession`): counts commands, retries within bounds, keeps what was
/// read and reports progress. Lives inside a single task.
final class TagExchange {
    let transport: any TagTransport
    let options: TagReadOptions
    let progress: TagReadProgressHandler?
    var memory: SparseMemory
    var commandCount = 0
    /// Bytes the read needs in all, once known.
    var bytesNeeded: Int?
    /// Byte range the read needs (for progress), once known.
    var neededRange: Range<Int>?
    var uid: Data?
    /// Units outside the data a read needs even inside `neededRange` (NT3H2211's pages
    /// between its sectors): never counted as read.
    var uncountedUnits: Range<Int>?
    private var lastReported = -1

    init(transport: any TagTransport, options: TagReadOptions, unitSize: Int, progress: TagReadProgressHandler?) {
        self.transport = transport
        self.options = options
        self.progress = progress
        self.memory = SparseMemory(unitSize: unitSize)
    }

    /// Loads the units of an interrupted read of the same tag.
    func adoptResume(technology: TagTechnology) {
        guard let resume = options.resume, resume.technology == technology, resume.unitSize == memory.unitSize,
            resume.uid == nil || uid == nil || resume.uid == uid
        else { return }
        for (unit, bytes) in resume.units { memory.store(unit: unit, bytes: Array(bytes)[...]) }
    }

    /// Sends one command with bounded retries.
    /// - Returns: the answer and whether the tag refused it.
    func exchange(_ command: [UInt8], check: ([UInt8]) -> AnswerCheck) async throws -> (answer: [UInt8], refused: Bool) {
        var attempts = 0
        while true {
            try Task.checkCancellation()
            attempts += 1
            commandCount += 1
            let answer: [UInt8]
            do {
                answer = Array(try await transport.send(Data(command), timeout: options.commandTimeout))
            } catch let error as TransportError {
                switch error {
                case .tagRemoved: throw ExchangeFailure.removed
                case .unsupported(let detail): throw ExchangeFailure.unsupported(detail)
                case .timeout, .linkFailure:
                    if attempts >= options.maxAttempts { throw ExchangeFailure.noAnswer(attempts: attempts) }
                    continue
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                if attempts >= options.maxAttempts { throw ExchangeFailure.noAnswer(attempts: attempts) }
                continue
            }
            switch check(answer) {
            case .accept: return (answer, false)
            case .refused: return (answer, true)
            case .garbled:
                if attempts >= options.maxAttempts { throw ExchangeFailure.noAnswer(attempts: attempts) }
            }
        }
    }

    var partial: PartialRead {
        PartialRead(
            technology: transport.technology, uid: uid, unitSize: memory.unitSize,
            units: memory.units.mapValues { Data($0) })
    }

    /// Bytes read that the read needs (all bytes read before the need is known).
    var bytesReadForProgress: Int {
        guard let range = neededRange, let units = memory.unitRange(of: range) else { return memory.knownBytes }
        return units.reduce(0) { count, unit in
            count + (memory.has(unit: unit) && !(uncountedUnits?.contains(unit) ?? false) ? memory.unitSize : 0)
        }
    }

    func reportProgress() {
        guard let progress else { return }
        let read = bytesReadForProgress
        guard read != lastReported else { return }
        lastReported = read
        progress(TagReadProgress(bytesRead: read, totalBytes: bytesNeeded))
    }

    func interruption(at unit: Int) -> TagReadInterruption {
        let name = transport.technology == .iso14443A ? "page" : "block"
        return TagReadInterruption(
            bytesRead: bytesReadForProgress, bytesNeeded: bytesNeeded,
            commandsSent: commandCount, stoppedAt: "\(name) \(unit)", partial: partial)
    }

    /// Turns an exchange failure during a read into the public error.
    func readError(_ failure: Error, command: String, unit: Int) -> Error {
        guard let failure = failure as? ExchangeFailure else { return failure }
        switch failure {
        case .removed: return TagReadError.tagRemoved(interruption(at: unit))
        case .noAnswer(let attempts): return TagReadError.noAnswer(command: command, attempts: attempts, interruption(at: unit))
        case .unsupported(let detail): return TagReadError.unsupportedByLink("\(command): \(detail)")
        }
    }
}

/// Walks the TLVs of a data area, fetching bytes on demand.
struct TLVWalker {
    /// Byte range of the data area in tag memory.
    var area: Range<Int>
    /// Type 2 tags carry Lock/Memory Control TLVs; on Type 5 they are anomalies.
    var controlTLVsAllowed: Bool
    var stopAfterNDEF: Bool
    /// Bytes per unit, to turn the position field of control TLVs into addresses.
    var addressing: MemoryAddressing
    /// Bytes the chip itself keeps out of the data area (NT3H2211's pages between sectors).
    var chipReserved: [Range<Int>] = []

    struct Outcome {
        var tlvs: [TLVEntry] = []
        var ndefBytes: Data?
        var anomalies: [TagAnomaly] = []
        var reserved: [Range<Int>] = []
        /// Address where the walk stopped (after the NDEF TLV, at the terminator, or the end).
        var end: Int = 0
        /// Address of the first NDEF TLV's T byte, or where one may be written (the
        /// terminator or the end of the TLVs), for writing.
        var ndefSlot: Int?
    }

    /// - Parameter ensure: makes the bytes of a range known (reading ahead when `readAhead`).
    func walk(
        memory: () -> SparseMemory,
        ensure: (Range<Int>, _ readAhead: Bool) async throws -> Void
    ) async throws -> Outcome {
        var out = Outcome()
        out.reserved = chipReserved
        var cursor = area.lowerBound
        func byte(_ address: Int) async throws -> UInt8 { try await self.byte(address, memory: memory, ensure: ensure) }

        while true {
            cursor = Self.skipReserved(cursor, out.reserved)
            guard cursor < area.upperBound else {
                if out.ndefSlot == nil { out.ndefSlot = cursor }
                break
            }
            let start = cursor
            let kind = TLVEntry.Kind(tag: try await byte(start))
            if kind == .null || kind == .terminator {
                out.tlvs.append(TLVEntry(kind: kind, offset: start, length: 0, valueOffset: start + 1, controlValue: Data(), reservedArea: nil))
                cursor = start + 1
                guard kind == .terminator else { continue }
                if out.ndefSlot == nil { out.ndefSlot = start }
                if !stopAfterNDEF { try await checkAfterTerminator(from: cursor, outcome: &out, ensure: ensure, memory: memory) }
                break
            }
            guard let (length, valueStart) = try await readLength(of: kind, at: start, outcome: &out, byte: byte) else { break }
            let valueAddresses = Self.addresses(from: valueStart, count: length, reserved: out.reserved)
            let valueEnd = (valueAddresses.last.map { $0 + 1 }) ?? valueStart
            if valueEnd > area.upperBound {
                noteOverrun(of: kind, at: start, length: length, valueStart: valueStart, outcome: &out)
                break
            }
            var entry = TLVEntry(kind: kind, offset: start, length: length, valueOffset: valueStart, controlValue: Data(), reservedArea: nil)
            switch kind {
            case .lockControl, .memoryControl:
                try await readControl(&entry, at: valueAddresses, outcome: &out, byte: byte)
            case .ndef:
                try await readNDEF(
                    at: start, value: valueStart..<valueEnd, addresses: valueAddresses, outcome: &out, memory: memory, ensure: ensure)
            case .proprietary, .null, .terminator:
                break
            case .unknown(let tag):
                out.anomalies.append(
                    TagAnomaly(offset: start, message: String(format: "unknown TLV type 0x%02X (%d bytes); skipped by its length", tag, length)))
            }
            out.tlvs.append(entry)
            cursor = valueEnd
            if kind == .ndef && stopAfterNDEF && out.ndefBytes != nil { break }
        }
        out.end = cursor
        return out
    }

    /// The first address at or after `address` that no reserved range holds.
    static func skipReserved(_ address: Int, _ reserved: [Range<Int>]) -> Int {
        var next = address
        var moved = true
        while moved {
            moved = false
            for range in reserved where range.contains(next) {
                next = range.upperBound
                moved = true
            }
        }
        return next
    }

    /// Physical addresses of `count` logical bytes starting at `start`, reserved bytes skipped.
    static func addresses(from start: Int, count: Int, reserved: [Range<Int>]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(count)
        var address = start
        while result.count < count {
            address = skipReserved(address, reserved)
            result.append(address)
            address += 1
        }
        return result
    }

    /// The byte at `address`, read ahead from the tag when it is not known yet.
    private func byte(
        _ address: Int, memory: () -> SparseMemory, ensure: (Range<Int>, _ readAhead: Bool) async throws -> Void
    ) async throws -> UInt8 {
        if let known = memory().byte(at: address) { return known }
        try await ensure(address..<min(address + 16, area.upperBound), true)
        guard let known = memory().byte(at: address) else {
            throw TagReadError.malformed("the tag did not return this byte", offset: address)
        }
        return known
    }

    /// The length field after the tag byte at `start`: one byte, or FF and two bytes big-endian.
    /// - Returns: the length and where the value starts; `nil` (an anomaly noted) when the
    ///   field runs past the data area.
    private func readLength(
        of kind: TLVEntry.Kind, at start: Int, outcome out: inout Outcome, byte: (Int) async throws -> UInt8
    ) async throws -> (length: Int, valueStart: Int)? {
        let lengthAddresses = Self.addresses(from: start + 1, count: 1, reserved: out.reserved)
        guard let firstLengthAddress = lengthAddresses.first, firstLengthAddress < area.upperBound else {
            out.anomalies.append(TagAnomaly(offset: start, message: "the \(kind.name) TLV's length field runs past the end of the data area"))
            return nil
        }
        var length = Int(try await byte(firstLengthAddress))
        var valueStart = firstLengthAddress + 1
        if length == 0xFF {
            let wide = Self.addresses(from: firstLengthAddress + 1, count: 2, reserved: out.reserved)
            guard let last = wide.last, last < area.upperBound else {
                out.anomalies.append(TagAnomaly(offset: start, message: "the \(kind.name) TLV's 3-byte length field runs past the end of the data area"))
                return nil
            }
            length = Int(try await byte(wide[0])) << 8 | Int(try await byte(wide[1]))
            valueStart = last + 1
            if length < 0xFF {
                out.anomalies.append(TagAnomaly(offset: start, message: "the \(kind.name) TLV uses the 3-byte length form for \(length) bytes"))
            }
        }
        return (length, valueStart)
    }

    /// A TLV whose value runs past the data area: said with the bytes that do remain.
    private func noteOverrun(of kind: TLVEntry.Kind, at start: Int, length: Int, valueStart: Int, outcome out: inout Outcome) {
        let available =
            area.upperBound > valueStart
            ? (valueStart..<area.upperBound).filter { address in !out.reserved.contains { $0.contains(address) } }.count
            : 0
        out.anomalies.append(
            TagAnomaly(
                offset: start,
                message:
                    "the \(kind.name) TLV declares \(length) bytes but only \(available) remain in the data area (it runs past the end at byte \(area.upperBound))"
            ))
        if kind == .ndef && out.ndefSlot == nil { out.ndefSlot = start }
    }

    /// A Lock or Memory Control TLV: the bytes it reserves (Type 2 only, 3 value bytes).
    private func readControl(
        _ entry: inout TLVEntry, at valueAddresses: [Int], outcome out: inout Outcome, byte: (Int) async throws -> UInt8
    ) async throws {
        let kind = entry.kind, start = entry.offset, length = entry.length
        if !controlTLVsAllowed {
            out.anomalies.append(TagAnomaly(offset: start, message: "a \(kind.name) TLV in a Type 5 tag (not defined there); skipped"))
            return
        }
        guard length == 3 else {
            out.anomalies.append(TagAnomaly(offset: start, message: "the \(kind.name) TLV has \(length) value bytes instead of 3; ignored"))
            return
        }
        var value: [UInt8] = []
        for address in valueAddresses { value.append(try await byte(address)) }
        entry.controlValue = Data(value)
        let pageExponent = Int(value[2] & 0x0F)
        let position = Int(value[0] >> 4) * (1 << pageExponent) + Int(value[0] & 0x0F)
        let size: Int
        if kind == .lockControl {
            let bits = value[1] == 0 ? 256 : Int(value[1])
            size = (bits + 7) / 8
        } else {
            size = value[1] == 0 ? 256 : Int(value[1])
        }
        let reserved = position..<(position + size)
        entry.reservedArea = reserved
        if reserved.overlaps(area) { out.reserved.append(reserved) }
    }

    /// The first NDEF TLV's message (read at once); a second one is an anomaly.
    private func readNDEF(
        at start: Int, value range: Range<Int>, addresses valueAddresses: [Int], outcome out: inout Outcome, memory: () -> SparseMemory,
        ensure: (Range<Int>, _ readAhead: Bool) async throws -> Void
    ) async throws {
        guard out.ndefBytes == nil else {
            out.anomalies.append(TagAnomaly(offset: start, message: "a second NDEF TLV (\(valueAddresses.count) bytes); only the first is read"))
            return
        }
        out.ndefSlot = start
        if !valueAddresses.isEmpty { try await ensure(range, false) }
        let known = memory()
        var value: [UInt8] = []
        value.reserveCapacity(valueAddresses.count)
        for address in valueAddresses {
            guard let byte = known.byte(at: address) else {
                throw TagReadError.malformed("the tag did not return this byte of the NDEF message", offset: address)
            }
            value.append(byte)
        }
        out.ndefBytes = Data(value)
    }

    private func checkAfterTerminator(
        from address: Int, outcome: inout Outcome,
        ensure: (Range<Int>, Bool) async throws -> Void,
        memory: () -> SparseMemory
    ) async throws {
        guard address < area.upperBound else { return }
        try await ensure(address..<area.upperBound, false)
        let known = memory()
        var firstNonZero: Int?
        var count = 0
        for candidate in address..<area.upperBound where !outcome.reserved.contains(where: { $0.contains(candidate) }) {
            if let byte = known.byte(at: candidate), byte != 0 {
                count += 1
                if firstNonZero == nil { firstNonZero = candidate }
            }
        }
        if let firstNonZero {
            outcome.anomalies.append(
                TagAnomaly(offset: firstNonZero, message: "\(count) non-zero byte(s) after the Terminator TLV (left over from an older message?)"))
        }
    }
}
