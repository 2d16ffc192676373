import Foundation
import NFCTags

/// One exchange as the virtual tag saw it.
public struct VirtualExchange: Sendable, Equatable {
    public var command: Data
    /// `nil` when the tag did not answer or was gone.
    public var answer: Data?
    /// Modeled air time of the exchange in microseconds.
    public var airTimeMicroseconds: Double
}

/// An in-memory emulator of a real chip (NTAG213/215/216, NT3H2111, NT3H2211 with its two
/// sectors and SECTOR_SELECT, ICODE SLIX2, ST25DV64K, or any image with a known layout)
/// that answers the real command sets with the real limits and error answers, counts
/// commands, adds up modeled air time and host latency, and injects faults.
public actor VirtualTag: TagTransport {
    public nonisolated let technology: TagTechnology
    public nonisolated let limits: LinkLimits
    /// UID as the anticollision gives it (Type 5: LSB first, as on the air).
    public nonisolated let uid: Data?
    public nonisolated let chip: TagChip

    private var core: EmulatorCore
    /// Faults still to come.
    public private(set) var faults: TagFaults
    /// When true, a silent command takes the reader's whole timeout in real time (as a
    /// dead tag does towards real software such as pcscd); otherwise only the modeled time.
    public private(set) var waitsWhenSilent: Bool
    /// Host (operating system, reader) latency added per command to `modeledTime`.
    public private(set) var hostLatency: Duration
    /// When true, `send` also sleeps for the modeled air time and host latency (for
    /// emulation towards real software such as pcscd).
    public private(set) var paced: Bool
    /// Commands received, retries included.
    public private(set) var commandCount = 0
    /// Modeled air time of all exchanges, in microseconds.
    public private(set) var airTimeMicroseconds: Double = 0
    /// Every exchange, in order.
    public private(set) var exchanges: [VirtualExchange] = []
    /// True once the tag has left the field (fault); `reinsert()` brings it back.
    public private(set) var isRemoved = false

    /// Default link: answers up to 256 bytes (a phone carries FAST_READ of 64 pages; a
    /// PC/SC short APDU carries 256 bytes), commands up to 64 bytes, any command code.
    public static func defaultLimits(for technology: TagTechnology) -> LinkLimits {
        LinkLimits(maxCommandBytes: 64, maxResponseBytes: 256)
    }

    /// A virtual `chip` holding `memory` (a full image from page/block 0, as `TagImage.memory`
    /// builds it or a dump holds it).
    /// - Parameters:
    ///   - uid: display order; `nil` takes it from Type 2 pages 0–1, or `TagImage.defaultUID`.
    /// - Throws: `TagImageError.unsupportedChip` for chips without a known layout, or when
    ///   the image size does not match the chip.
    ///   - faults: what goes wrong, and at which command.
    public init(
        chip: TagChip, memory: Data, uid: Data? = nil, limits: LinkLimits? = nil, faults: TagFaults = .none,
        hostLatency: Duration = .zero, paced: Bool = false, waitsWhenSilent: Bool = false
    ) throws {
        self.chip = chip
        self.technology = chip.technology
        self.limits = limits ?? VirtualTag.defaultLimits(for: chip.technology)
        self.faults = faults
        self.waitsWhenSilent = waitsWhenSilent
        self.hostLatency = hostLatency
        self.paced = paced
        let bytes = Array(memory)
        if let layout = chip.type2Layout {
            guard bytes.count == layout.readablePages * 4 else {
                throw TagImageError.invalidUID("a \(chip.displayName) image has \(layout.readablePages * 4) bytes, not \(bytes.count)")
            }
            var emulator = Type2Emulator(
                memory: bytes, version: layout.version, supportsFastRead: layout.supportsFastRead,
                dynamicLockPage: layout.dynamicLockPage,
                pagesPerDynamicLockBit: layout.pagesPerDynamicLockBit, writable: true)
            emulator.sectorPageCounts = layout.sectorPageCounts
            core = .type2(emulator)
            self.uid = uid ?? Data(bytes[0..<3] + bytes[4..<8])
        } else if let layout = chip.type5Layout {
            guard bytes.count == layout.memoryBytes else {
                throw TagImageError.invalidUID("a \(chip.displayName) image has \(layout.memoryBytes) bytes, not \(bytes.count)")
            }
            let display = Array(uid ?? TagImage.defaultUID(for: chip))
            guard display.count == 8 else { throw TagImageError.invalidUID("a Type 5 UID has 8 bytes") }
            var emulator = Type5Emulator(
                memory: bytes, blockSize: layout.blockSize, uid: display,
                sectorBlocks: layout.sectorBlocks, maxBlocksPerRead: layout.maxBlocksPerRead,
                supportsExtended: layout.supportsExtendedCommands, writable: true)
            emulator.icReference = layout.icReference
            if bytes.count > 1, bytes[1] & 0x03 == 0x03 {
                emulator.lockedBlocks = Set(0..<layout.blockCount)
            }
            core = .type5(emulator)
            self.uid = Data(display.reversed())
        } else {
            throw TagImageError.unsupportedChip(chip)
        }
    }

    /// A virtual `chip` holding `ndefMessage`, built by `TagImage.memory(for:ndefMessage:uid:layout:readOnly:)`.
    /// - Throws: `TagImageError`.
    public static func make(
        chip: TagChip, ndefMessage: Data, uid: Data? = nil, layout: TLVLayout = .factory,
        readOnly: Bool = false, limits: LinkLimits? = nil, faults: TagFaults = .none,
        hostLatency: Duration = .zero, paced: Bool = false, waitsWhenSilent: Bool = false
    ) throws -> VirtualTag {
        let memory = try TagImage.memory(for: chip, ndefMessage: ndefMessage, uid: uid, layout: layout, readOnly: readOnly)
        return try VirtualTag(
            chip: chip, memory: memory, uid: uid, limits: limits, faults: faults, hostLatency: hostLatency,
            paced: paced, waitsWhenSilent: waitsWhenSilent)
    }

    /// The memory as it is now (after writes).
    public var memory: Data { Data(core.memory) }

    /// Modeled air time plus host latency for every command.
    public var modeledTime: Duration {
        .microseconds(airTimeMicroseconds) + hostLatency * commandCount
    }

    /// Replaces the fault plan; command numbers keep counting from the commands already received.
    public func setFaults(_ faults: TagFaults) { self.faults = faults }
    /// Sets the host latency added per command to `modeledTime`.
    public func setHostLatency(_ latency: Duration) { hostLatency = latency }

    /// Puts the tag back in the field: clears the removal and numbers faults from the next
    /// command; a sectored chip starts again in sector 0.
    public func reinsert() {
        isRemoved = false
        core.powerCycle()
        faults = faults.afterReinsertion
    }

    /// Zeroes the command counter, air time and exchange log.
    public func resetCounters() {
        commandCount = 0
        airTimeMicroseconds = 0
        exchanges = []
    }

    /// Answers one command like the chip would. A SECTOR_SELECT packet 2 that the chip
    /// accepts is answered by silence (`.timeout`), modeled as ≈ 1 ms of air time.
    /// - Throws: `TransportError.tagRemoved` once removed, `.timeout` for a silent command,
    ///   `.linkFailure` for a garbled 1-byte answer or an answer longer than the link carries,
    ///   `.unsupported` for commands the link does not carry.
    public func send(_ command: Data, timeout: Duration) async throws -> Data {
        let bytes = Array(command)
        guard let code = technology == .iso14443A ? bytes.first : (bytes.count > 1 ? bytes[1] : nil) else {
            throw TransportError.unsupported("an empty command")
        }
        guard bytes.count <= limits.maxCommandBytes else {
            throw TransportError.unsupported("a \(bytes.count)-byte command exceeds the link's \(limits.maxCommandBytes) bytes")
        }
        guard limits.carries(code) else {
            throw TransportError.unsupported(String(format: "the link does not carry command 0x%02X", code))
        }
        commandCount += 1
        let number = commandCount
        if isRemoved || faults.removes(number) {
            isRemoved = true
            exchanges.append(VirtualExchange(command: command, answer: nil, airTimeMicroseconds: 0))
            throw TransportError.tagRemoved
        }
        if faults.silences(number) {
            let time = AirTime.unanswered(technology: technology, commandBytes: bytes.count, wait: timeout.microseconds)
            record(command, nil, time)
            if waitsWhenSilent && !paced { try await Task.sleep(for: timeout) }
            try await pace(time)
            throw TransportError.timeout
        }
        let torn = faults.tears(number) && EmulatorCore.isWrite(bytes, technology: technology)
        // SECTOR_SELECT packet 2: a reader takes ≈ 1 ms of silence as the passive ACK.
        let passiveACK = core.sectorState.awaitingNumber
        let answer = core.respond(bytes, torn: torn)
        let wait = passiveACK ? min(timeout.microseconds, AirTime.type2PassiveACKWait) : timeout.microseconds
        let time = EmulatorCore.airTime(command: bytes, answer: answer, technology: technology, wait: wait)
        if torn {
            isRemoved = true
            record(command, nil, time)
            throw TransportError.tagRemoved
        }
        guard var reply = answer.bytes else {
            record(command, nil, time)
            try await pace(time)
            throw TransportError.timeout
        }
        guard reply.count <= limits.maxResponseBytes else {
            record(command, nil, time)
            throw TransportError.linkFailure("a \(reply.count)-byte answer exceeds the link's \(limits.maxResponseBytes) bytes")
        }
        if faults.alters(number) {
            record(command, nil, time)
            reply = try faults.received(reply, at: number)
        } else {
            record(command, Data(reply), time)
        }
        try await pace(time)
        return Data(reply)
    }

    private func record(_ command: Data, _ answer: Data?, _ time: Double) {
        airTimeMicroseconds += time
        exchanges.append(VirtualExchange(command: command, answer: answer, airTimeMicroseconds: time))
    }

    private func pace(_ microseconds: Double) async throws {
        guard paced else { return }
        try await Task.sleep(for: .microseconds(microseconds) + hostLatency)
    }
}
