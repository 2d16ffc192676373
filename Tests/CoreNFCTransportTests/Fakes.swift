import Foundation
import NFCTags

@testable import CoreNFCTransport

/// A lock-protected box for fakes shared between the test and the code under test.
final class Locked<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T
    init(_ value: T) { self.value = value }
    func with<R>(_ body: (inout T) -> R) -> R {
        lock.lock(); defer { lock.unlock() }
        return body(&value)
    }
    var get: T { with { $0 } }
}

/// A session clock the test moves by hand (fake tags move it by the air time of each command).
final class ManualClock: SessionClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Double = 1000
    private var sleepers: [Int: (deadline: Double, continuation: CheckedContinuation<Void, Error>)] = [:]
    private var nextID = 0

    func now() -> Double {
        lock.lock(); defer { lock.unlock() }
        return current
    }

    func advance(by seconds: Double) {
        lock.lock()
        current += seconds
        let due = sleepers.filter { $0.value.deadline <= current }
        for id in due.keys { sleepers[id] = nil }
        lock.unlock()
        for sleeper in due.values { sleeper.continuation.resume() }
    }

    private func takeID() -> Int {
        lock.lock(); defer { lock.unlock() }
        nextID += 1
        return nextID
    }

    func sleep(until deadline: Double) async throws {
        let id = takeID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                lock.lock()
                if current >= deadline || Task.isCancelled {
                    lock.unlock()
                    continuation.resume()
                    return
                }
                sleepers[id] = (deadline, continuation)
                lock.unlock()
            }
        } onCancel: {
            lock.lock()
            let sleeper = sleepers.removeValue(forKey: id)
            lock.unlock()
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}

/// NTAG213 as it answers Core NFC: 45 pages, GET_VERSION `00 04 04 02 01 00 0F 03`,
/// factory capability container `E1 10 12 00` (NXP NTAG213/215/216 datasheet values).
final class FakeNTAG213: MiFareTagLink, @unchecked Sendable {
    let identifier: Data
    let pages: [[UInt8]]
    /// The only framing this tag answers (nil: both); a wrongly framed command gets no answer.
    let framing: MiFareFraming?
    let sent = Locked<[Data]>([])
    /// Failures by call number (0-based), thrown instead of answering.
    let failures: Locked<[Int: CoreNFCFailure]>
    let clock: ManualClock?
    let secondsPerCommand: Double

    /// - Parameter userMemory: bytes from page 4 on (the TLV area); the factory TLVs by default.
    init(
        userMemory: [UInt8]? = nil, failures: [Int: CoreNFCFailure] = [:], clock: ManualClock? = nil,
        secondsPerCommand: Double = 0.01, framing: MiFareFraming? = nil,
        uid: Data = Data([0x04, 0x5A, 0x1C, 0x32, 0x6B, 0x4F, 0x80])
    ) {
        self.identifier = uid
        self.framing = framing
        self.failures = Locked(failures)
        self.clock = clock
        self.secondsPerCommand = secondsPerCommand
        let uid = identifier
        let bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
        let bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
        var memory: [[UInt8]] = [
            [uid[0], uid[1], uid[2], bcc0], [uid[3], uid[4], uid[5], uid[6]], [bcc1, 0x48, 0x00, 0x00],
            [0xE1, 0x10, 0x12, 0x00], [0x01, 0x03, 0xA0, 0x0C], [0x34, 0x03, 0x00, 0xFE],
        ]
        if let userMemory {
            memory.removeLast(2)
            var bytes = userMemory
            while bytes.count % 4 != 0 { bytes.append(0) }
            for start in stride(from: 0, to: bytes.count, by: 4) { memory.append(Array(bytes[start..<start + 4])) }
        }
        while memory.count < 45 { memory.append([UInt8(memory.count), 0, 0, 0]) }
        pages = Array(memory.prefix(45))
    }

    func sendMiFareCommand(_ packet: Data) async throws -> Data {
        let call = sent.with {
            $0.append(packet); return $0.count - 1
        }
        clock?.advance(by: secondsPerCommand)
        if let failure = failures.with({ $0.removeValue(forKey: call) }) { throw failure }
        var bytes = Array(packet)
        let bareLength = [0x60: 1, 0x30: 2, 0x3A: 3][Int(bytes.first ?? 0)] ?? bytes.count
        let carriesCRC =
            bytes.count == bareLength + 2
            && ISO14443ACRC.checksum(of: Data(bytes.prefix(bareLength))) == Data(bytes.suffix(2))
        switch framing {
        case .withCRC?:
            guard carriesCRC else { throw CoreNFCFailure(.tagResponseError) }  // no answer
            bytes.removeLast(2)
        case .bare?:
            guard bytes.count == bareLength else { throw CoreNFCFailure(.tagResponseError) }
        case nil:
            if carriesCRC { bytes.removeLast(2) }
        }
        switch bytes.first {
        case 0x60:
            return Data([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03])
        case 0x30 where bytes.count >= 2:
            return Data((0..<4).flatMap { pages[(Int(bytes[1]) + $0) % pages.count] })
        case 0x3A where bytes.count >= 3:
            let start = Int(bytes[1]), end = Int(bytes[2])
            guard start <= end, end < pages.count else { return Data([0x00]) }  // NAK: invalid argument
            return Data(pages[start...end].flatMap { $0 })
        default:
            return Data([0x00])
        }
    }
}

/// An ISO 15693 tag with the behaviour of an ST25DV64K on an iPhone: 2048 blocks of 4 bytes,
/// CC `E2 40 00 01 00 00 04 00`, multi-block reads of at most `maxBlocksPerRead` (error 0x0F
/// above), optionally an iOS on which extended multi-block reads are rejected.
final class FakeST25DV: ISO15693TagLink, @unchecked Sendable {
    /// Core NFC's order: 0xE0 first.
    let identifier = Data([0xE0, 0x02, 0x26, 0x00, 0x12, 0x34, 0x56, 0x78])
    let blockSize = 4
    let totalBlocks: Int
    let maxBlocksPerRead: Int
    let extendedMultipleWorks: Bool
    let calls = Locked<[String]>([])
    let flagsSeen = Locked<[ISO15693RequestFlags]>([])
    /// Whether Core NFC's raw `sendRequest` reaches this tag (refused: Core NFC rejects it
    /// with error 1 before anything goes on the air, as on a system that cannot send it).
    enum RawRequests { case refused, answered }
    let rawRequests: RawRequests
    let rawRefusals = Locked(0)
    let written = Locked<[Int: Data]>([:])
    /// Failures by call number (0-based).
    let failures: Locked<[Int: CoreNFCFailure]>
    let clock: ManualClock?
    let secondsPerCommand: Double

    /// Tag memory from block 0; blocks past it read as a recognisable pattern.
    let memory: [UInt8]?

    init(
        totalBlocks: Int = 2048, maxBlocksPerRead: Int = 32, extendedMultipleWorks: Bool = true, memory: [UInt8]? = nil,
        failures: [Int: CoreNFCFailure] = [:], clock: ManualClock? = nil, secondsPerCommand: Double = 0.01,
        rawRequests: RawRequests = .refused
    ) {
        self.rawRequests = rawRequests
        self.memory = memory
        self.totalBlocks = totalBlocks
        self.maxBlocksPerRead = maxBlocksPerRead
        self.extendedMultipleWorks = extendedMultipleWorks
        self.failures = Locked(failures)
        self.clock = clock
        self.secondsPerCommand = secondsPerCommand
    }

    func block(_ number: Int) -> Data {
        if let data = written.get[number] { return data }
        if let memory, number * 4 < memory.count {
            return Data((0..<4).map { number * 4 + $0 < memory.count ? memory[number * 4 + $0] : 0 })
        }
        switch number {
        case 0: return Data([0xE2, 0x40, 0x00, 0x01])
        case 1: return Data([0x00, 0x00, 0x04, 0x00])
        default: return Data([UInt8(number & 0xFF), UInt8(number >> 8), 0xA5, 0x5A])
        }
    }

    private func enter(_ name: String, _ flags: ISO15693RequestFlags) throws {
        let call = calls.with {
            $0.append(name); return $0.count - 1
        }
        flagsSeen.with { $0.append(flags) }
        clock?.advance(by: secondsPerCommand)
        if let failure = failures.with({ $0.removeValue(forKey: call) }) { throw failure }
    }

    private func check(_ blocks: Range<Int>) throws {
        guard blocks.lowerBound >= 0, blocks.upperBound <= totalBlocks else {
            throw CoreNFCFailure(.tagResponseError, iso15693ErrorCode: 0x10)
        }
    }

    /// The tag's own answers to raw requests: response flags 0x00 and data, or 0x01 and an
    /// ISO 15693 error code (0x0F too many blocks, 0x10 block not available, 0x01 unknown command).
    func sendRequest(requestFlags: UInt8, commandCode: UInt8, data: Data) async throws -> (responseFlags: UInt8, data: Data) {
        guard rawRequests == .answered else {
            rawRefusals.with { $0 += 1 }
            throw CoreNFCFailure(.unsupportedFeature)
        }
        let flags = ISO15693RequestFlags(rawValue: requestFlags)
        var p = Array(data)
        let airUID = Array(identifier.reversed())
        if flags.contains(.address) {
            // A request addressed to another UID gets no answer.
            guard p.count >= 8, Array(p.prefix(8)) == airUID else { throw CoreNFCFailure(.tagResponseError) }
            p.removeFirst(8)
        }
        func blocks(_ range: Range<Int>) -> (UInt8, Data) {
            guard range.count <= maxBlocksPerRead else { return (0x01, Data([0x0F])) }
            guard range.lowerBound >= 0, range.upperBound <= totalBlocks else { return (0x01, Data([0x10])) }
            return (0x00, range.reduce(into: Data()) { $0 += block($1) })
        }
        switch commandCode {
        case 0x2B:
            try enter("raw info", flags)
            let last = totalBlocks - 1
            // DSFID, AFI, memory size (2-byte count as ST's chips give it), IC reference.
            return (0x00, Data([0x1F] + airUID + [0x00, 0x00, UInt8(last & 0xFF), UInt8(last >> 8), UInt8(blockSize - 1), 0x26]))
        case 0x20 where p.count >= 1:
            try enter("raw single \(p[0])", flags)
            return blocks(Int(p[0])..<Int(p[0]) + 1)
        case 0x23 where p.count >= 2:
            let first = Int(p[0]), count = Int(p[1]) + 1
            try enter("raw multiple \(first)+\(count)", flags)
            return blocks(first..<first + count)
        case 0x30 where p.count >= 2:
            let number = Int(p[0]) | Int(p[1]) << 8
            try enter("raw extSingle \(number)", flags)
            return blocks(number..<number + 1)
        case 0x33 where p.count >= 4:
            let first = Int(p[0]) | Int(p[1]) << 8, count = (Int(p[2]) | Int(p[3]) << 8) + 1
            try enter("raw extMultiple \(first)+\(count)", flags)
            return blocks(first..<first + count)
        case 0x21 where p.count >= 2:
            try enter("raw write \(p[0])", flags)
            written.with { $0[Int(p[0])] = Data(p[1...]) }
            return (0x00, Data())
        default:
            try enter(String(format: "raw %02X", commandCode), flags)
            return (0x01, Data([0x01]))
        }
    }

    func systemInfo(requestFlags: ISO15693RequestFlags) async throws -> ISO15693SystemInfo {
        try enter("info", requestFlags)
        return ISO15693SystemInfo(
            dataStorageFormatIdentifier: 0, applicationFamilyIdentifier: 0,
            blockSize: blockSize, totalBlocks: totalBlocks, icReference: 0x26)
    }

    func readSingleBlock(requestFlags: ISO15693RequestFlags, blockNumber: UInt8) async throws -> Data {
        try enter("single \(blockNumber)", requestFlags)
        try check(Int(blockNumber)..<Int(blockNumber) + 1)
        return block(Int(blockNumber))
    }

    func readMultipleBlocks(requestFlags: ISO15693RequestFlags, blocks: Range<Int>) async throws -> [Data] {
        try enter("multiple \(blocks.lowerBound)+\(blocks.count)", requestFlags)
        guard blocks.upperBound <= 256 else { throw CoreNFCFailure(.parameterOutOfBound) }
        guard blocks.count <= maxBlocksPerRead else { throw CoreNFCFailure(.tagResponseError, iso15693ErrorCode: 0x0F) }
        try check(blocks)
        return blocks.map(block)
    }

    func extendedReadSingleBlock(requestFlags: ISO15693RequestFlags, blockNumber: Int) async throws -> Data {
        try enter("extSingle \(blockNumber)", requestFlags)
        try check(blockNumber..<blockNumber + 1)
        return block(blockNumber)
    }

    func extendedReadMultipleBlocks(requestFlags: ISO15693RequestFlags, blocks: Range<Int>) async throws -> [Data] {
        try enter("extMultiple \(blocks.lowerBound)+\(blocks.count)", requestFlags)
        // iOS 13 sent the first block in one byte: ST25DV64K answers with error 0x0F.
        guard extendedMultipleWorks else { throw CoreNFCFailure(.tagResponseError, iso15693ErrorCode: 0x0F) }
        guard blocks.count <= maxBlocksPerRead else { throw CoreNFCFailure(.tagResponseError, iso15693ErrorCode: 0x0F) }
        try check(blocks)
        return blocks.map(block)
    }

    func writeSingleBlock(requestFlags: ISO15693RequestFlags, blockNumber: UInt8, data: Data) async throws {
        try enter("write \(blockNumber)", requestFlags)
        written.with { $0[Int(blockNumber)] = data }
    }

    func extendedWriteSingleBlock(requestFlags: ISO15693RequestFlags, blockNumber: Int, data: Data) async throws {
        try enter("extWrite \(blockNumber)", requestFlags)
        written.with { $0[blockNumber] = data }
    }

    func customCommand(requestFlags: ISO15693RequestFlags, code: UInt8, parameters: Data) async throws -> Data {
        try enter(String(format: "custom %02X %@", code, parameters.map { String(format: "%02X", $0) }.joined()), requestFlags)
        return Data([0x5A])
    }
}

/// A tag reader session that records what the controller does and replays detections:
/// the first when started, the next one each time polling restarts.
final class FakeTagSession: TagReaderSessionLink, @unchecked Sendable {
    let alerts = Locked<[String]>([])
    let connects = Locked(0)
    let restarts = Locked(0)
    let ended = Locked<(success: Bool, message: String)?>(nil)
    private let detections: Locked<[[DetectedTag]]>
    private let connectFailures: Locked<[CoreNFCFailure]>
    let events: AsyncStream<TagSessionEvent>
    private let continuation: AsyncStream<TagSessionEvent>.Continuation

    init(detections: [[DetectedTag]], connectFailures: [CoreNFCFailure] = []) {
        self.detections = Locked(detections)
        self.connectFailures = Locked(connectFailures)
        (events, continuation) = AsyncStream<TagSessionEvent>.makeStream()
    }

    func start() {
        continuation.yield(.becameActive)
        detectNext()
    }

    func send(_ event: TagSessionEvent) { continuation.yield(event) }

    private func detectNext() {
        if let next = detections.with({ $0.isEmpty ? nil : $0.removeFirst() }) {
            continuation.yield(.detected(next))
        }
    }

    func setAlertMessage(_ message: String) { alerts.with { $0.append(message) } }

    /// Connects that never call back (Core NFC when the session ends mid-connect).
    let connectHangs = Locked(0)

    func connect(to tag: DetectedTag) async throws {
        connects.with { $0 += 1 }
        if connectHangs.with({ hangs in
            guard hangs > 0 else { return false }
            hangs -= 1
            return true
        }) {
            try await Task.sleep(for: .seconds(3600))
        }
        if let failure = connectFailures.with({ $0.isEmpty ? nil : $0.removeFirst() }) { throw failure }
    }

    func restartPolling() {
        restarts.with { $0 += 1 }
        if detections.with({ $0.isEmpty }) {
            // Nothing comes near the phone any more: Core NFC ends the session at 60 s.
            continuation.yield(.invalidated(CoreNFCFailure(.sessionTimeout)))
            continuation.finish()
        } else {
            detectNext()
        }
    }

    func invalidate(successMessage: String) {
        ended.with { $0 = (true, successMessage) }
        continuation.finish()
    }

    func invalidate(errorMessage: String) {
        ended.with { $0 = (false, errorMessage) }
        continuation.finish()
    }
}

/// A minimal Type 5 reader standing in for the NFCTags planner: GET_SYSTEM_INFO, then
/// READ_MULTIPLE_BLOCKS (or the extended form above block 255) in chunks, halving the chunk
/// when the tag answers with an error. Progress is reported per chunk.
struct PlannerError: Error, Equatable { var detail: String }

func readType5(
    _ transport: any TagTransport, chunk: Int = 32, blocksToRead: Int? = nil,
    progress: @Sendable (Double) -> Void
) async throws -> Data {
    let info = try await transport.send(Data([0x02, 0x2B]), timeout: .seconds(1))
    guard info.count >= 14, info[0] == 0x00, info[1] & 0x04 != 0 else { throw PlannerError(detail: "no memory size") }
    let twoByteCount = info[1] & 0x10 != 0
    let offset = 10 + (info[1] & 0x01 != 0 ? 1 : 0) + (info[1] & 0x02 != 0 ? 1 : 0)
    let blocks = (twoByteCount ? Int(info[offset]) | Int(info[offset + 1]) << 8 : Int(info[offset])) + 1
    let total = min(blocks, blocksToRead ?? blocks)
    var memory = Data()
    var size = chunk
    var next = 0
    while next < total {
        let count = min(size, total - next)
        let request: Data
        if next + count > 256 {
            request = Data([0x02, 0x33, UInt8(next & 0xFF), UInt8(next >> 8), UInt8((count - 1) & 0xFF), UInt8((count - 1) >> 8)])
        } else {
            request = Data([0x02, 0x23, UInt8(next), UInt8(count - 1)])
        }
        let answer = try await transport.send(request, timeout: .seconds(1))
        guard let flags = answer.first else { throw PlannerError(detail: "empty answer") }
        if flags & 0x01 != 0 {
            guard size > 1 else { throw PlannerError(detail: "tag error \(answer.dropFirst().first ?? 0)") }
            size /= 2
            continue
        }
        memory += answer.dropFirst()
        next += count
        progress(Double(next) / Double(total))
    }
    return memory
}
