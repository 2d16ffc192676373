import Foundation
import LoggerFormats
import NDEF
import NFCTags

/// A virtual NHS3100 running the tlogger firmware, as a Type 2 tag behind `TagTransport`
/// (docs/nhs31xx.md §1, §4, §5): the shared-memory layout, the initial message at every tap,
/// the automatic-mode script until the first write, a command run whenever page 6 is written
/// with a non-zero length, one answer per command, the 20-byte queue and GETRESPONSE, the
/// GETMEASUREMENTS phantom, and the logger of `NHS3100Logger` on a simulated clock.
public actor VirtualNHS3100: TagTransport {
    public nonisolated let technology: TagTechnology = .iso14443A
    public nonisolated let limits: LinkLimits
    public nonisolated let uid: Data?

    /// The logger; change it (let time pass, set the temperature) with `update`.
    public private(set) var logger: NHS3100Logger
    public var version = NHSVersion(
        softwareMajor: 2012, softwareMinor: 19, apiMajor: 6, apiMinor: 1,
        deviceID: NHSVersion.nhs3100DeviceID)
    /// What the tag does wrong (NFCTags' one fault model). Commands count from the tap (the
    /// NHS3100 reboots in every field), and so do command messages for `unansweredCommand`.
    public private(set) var faults: TagFaults
    /// Type 2 commands answered since the start, and their modelled air time.
    public private(set) var commandCount = 0
    public private(set) var airTimeMicroseconds: Double = 0
    /// Command messages the firmware ran (writes of page 6 with a non-zero length).
    public private(set) var commandWrites = 0
    public private(set) var isRemoved = false
    /// Whether automatic mode still runs (until the first write after a tap).
    public var automaticModeRunning: Bool { script != nil }

    /// Pages 0…229: UID, lock bytes, CC, 512 bytes of shared memory (pages 4–131), and the
    /// registers up to the dynamic lock bytes at page 0xE2, read as zeros.
    private var memory: [UInt8]
    private static let pageCount = 0xE6
    private static let sharedPages = 4..<132
    private var queue: [[UInt8]] = []
    private var script: AutomaticScript?
    private var tapCommands = 0
    private var tapWrites = 0
    /// The message now in memory: where its last payload byte sits, for read detection.
    private var shownLastPage = 6
    private var sawPage6 = false

    /// - Parameters:
    ///   - uid: 7 bytes; the check bytes are computed.
    ///   - logger: the logger's state and simulated clock.
    public init(
        uid: [UInt8] = [0x04, 0xAB, 0x12, 0xA1, 0xB2, 0xC3, 0xD4], logger: NHS3100Logger,
        version: NHSVersion? = nil, faults: TagFaults = .none, limits: LinkLimits? = nil
    ) {
        if let version { self.version = version }
        let id = uid.count == 7 ? uid : [0x04, 0xAB, 0x12, 0xA1, 0xB2, 0xC3, 0xD4]
        self.uid = Data(id)
        // As a phone or a PC/SC short APDU carries: commands up to 64 bytes, answers up to 256.
        self.limits = limits ?? LinkLimits(maxCommandBytes: 64, maxResponseBytes: 256)
        self.logger = logger
        self.faults = faults
        var memory = [UInt8](repeating: 0, count: Self.pageCount * 4)
        let bcc0 = 0x88 ^ id[0] ^ id[1] ^ id[2]
        let bcc1 = id[3] ^ id[4] ^ id[5] ^ id[6]
        memory.replaceSubrange(
            0..<16,
            with: [
                id[0], id[1], id[2], bcc0, id[3], id[4], id[5], id[6],
                bcc1, 0x48, 0x00, 0x00,
                // The real CC is not public (docs/nhs31xx.md §6): NDEF 1.0, 512 bytes, read/write.
                0xE1, 0x10, 0x40, 0x00,
            ])
        self.memory = memory
    }

    /// When set, the logger follows this clock (epoch seconds): before each command it runs to
    /// the clock's time, and (with `tapEndsAfterIdle`) a pause that long without commands
    /// counts as the tag having left the field: the next command finds it rebooted (§1.4).
    /// A link that cannot show the field going away (vpcd) needs that. For `coldtap emulate`.
    private var wallClock: (@Sendable () -> Double)?
    private var tapEndsAfterIdle: Double?
    private var lastCommandTime: Double?
    /// When set, the next SETCONFIG is taken as given that many seconds ago (a demo history).
    private var backdateNextConfiguration: Double?

    /// Makes the tag follow `clock` (see `wallClock`); `idle` seconds without commands end a tap.
    public func follow(clock: @escaping @Sendable () -> Double, tapEndsAfterIdle idle: Double? = nil) {
        wallClock = clock
        tapEndsAfterIdle = idle
    }

    /// The next SETCONFIG will be taken as received `seconds` ago, the logger running since.
    public func backdateNextConfiguration(by seconds: Double) { backdateNextConfiguration = seconds }

    private func followWallClock() {
        guard let wallClock else { return }
        let time = wallClock()
        if let last = lastCommandTime, let idle = tapEndsAfterIdle, time - last >= idle {
            logger.fieldPresent = false
            logger.advance(to: time)
            isRemoved = false
            bootIntoField()
        } else {
            logger.advance(to: time)
        }
        lastCommandTime = time
    }

    /// The first boot happens when the tag is first used (an actor's init cannot run its methods).
    private var booted = false
    private func bootIfNeeded() {
        if !booted { bootIntoField() }
    }

    // MARK: Test and emulator controls

    /// Changes the logger (e.g. `$0.advance(by: 86_400)`); the tag is out of the field meanwhile
    /// unless it was left in it.
    public func update(_ change: @Sendable (inout NHS3100Logger) -> Void) {
        bootIfNeeded()
        change(&logger)
    }

    public func setFaults(_ plan: TagFaults) { faults = plan }

    /// The tag leaves the field: it sleeps; time may pass.
    public func remove() {
        bootIfNeeded()
        isRemoved = true
        logger.fieldPresent = false
    }

    /// The tag enters the field again: it reboots and shows a fresh initial message.
    public func tap() {
        isRemoved = false
        bootIntoField()
    }

    /// The simulated world's clock (what a correct reader clock shows now).
    public var worldTime: Date { Date(timeIntervalSince1970: logger.now) }

    /// The shared memory as a reader would read it (pages 0–131).
    public var sharedMemory: Data {
        bootIfNeeded()
        return Data(memory[0..<(132 * 4)])
    }

    private func bootIntoField() {
        booted = true
        logger.fieldPresent = true
        queue = []
        tapCommands = 0
        tapWrites = 0
        memory.replaceSubrange(16..<24, with: [0x01, 0x03, 0xE8, 0x0E, 0x46, 0xFD, 0x01, 0x00])
        script = AutomaticScript(count: logger.samples.count)
        showInitialMessage()
    }

    // MARK: TagTransport

    /// The real chip's bytes 4–6 are not public: vendor NXP, type 04, subtype 06, protocol 03
    /// as NXP's app checks; a storage byte no NTAG uses, so readers take it for a generic Type 2 tag.
    static let getVersionAnswer: [UInt8] = [0x00, 0x04, 0x04, 0x06, 0x00, 0x00, 0x10, 0x03]

    public func send(_ command: Data, timeout: Duration) async throws -> Data {
        let bytes = Array(command)
        guard let code = bytes.first else { throw TransportError.unsupported("an empty command") }
        guard bytes.count <= limits.maxCommandBytes else {
            throw TransportError.unsupported("a \(bytes.count)-byte command exceeds the link's \(limits.maxCommandBytes) bytes")
        }
        bootIfNeeded()
        followWallClock()
        if isRemoved { throw TransportError.tagRemoved }
        tapCommands += 1
        if faults.removes(tapCommands) {
            remove()
            throw TransportError.tagRemoved
        }
        if faults.silences(tapCommands) { throw TransportError.timeout }
        commandCount += 1
        let answer: [UInt8]?
        var processing = 0.0
        switch code {
        case 0x60:
            // Ultralight GET_VERSION as NXP's Android app expects it (docs/nhs31xx.md §4.1).
            answer = Self.getVersionAnswer
        case 0x30 where bytes.count == 2:
            answer = read(from: Int(bytes[1]), through: Int(bytes[1]) + 3, wrap: true)
        case 0x3A where bytes.count == 3:
            answer = read(from: Int(bytes[1]), through: Int(bytes[2]), wrap: false)
        case 0xA2 where bytes.count == 6 && faults.tears(tapCommands):
            // Two of the four bytes reach the page, then the tag is gone.
            let page = Int(bytes[1])
            if Self.sharedPages.contains(page) { memory.replaceSubrange((page * 4)..<(page * 4 + 2), with: bytes[2..<4]) }
            remove()
            throw TransportError.tagRemoved
        case 0xA2 where bytes.count == 6:
            processing = AirTime.type2WriteTime
            answer = [write(page: Int(bytes[1]), Array(bytes[2..<6])) ? 0x0A : 0x00]
        default:
            answer = [0x00]
        }
        let reply = answer ?? [0x00]
        airTimeMicroseconds += AirTime.iso14443Exchange(
            commandBytes: bytes.count, answerBytes: reply.count == 1 ? nil : reply.count,
            processing: processing)
        guard reply.count <= limits.maxResponseBytes else {
            throw TransportError.linkFailure("a \(reply.count)-byte answer exceeds the link's \(limits.maxResponseBytes) bytes")
        }
        return Data(try faults.received(reply, at: tapCommands))
    }

    // MARK: Memory

    private func read(from first: Int, through last: Int, wrap: Bool) -> [UInt8]? {
        guard first < Self.pageCount, first <= last, wrap || last < Self.pageCount else { return nil }
        var out: [UInt8] = []
        for page in first...last {
            let index = wrap ? page % Self.pageCount : page
            out += memory[(index * 4)..<(index * 4 + 4)]
        }
        noteRead(pages: first...last)
        return out
    }

    /// Automatic mode: a read of page 6 and then of the page with the last payload byte is a
    /// complete read; the next message follows. The firmware takes page 6 alone for a message
    /// of ≤ 29 bytes, but it then needs milliseconds to write the next one, time in which a
    /// reader finishes its READs; an emulator that answers at once would tear the reader's
    /// second READ, so here every message waits for its last payload page (docs/nhs31xx.md §4.2).
    private func noteRead(pages: ClosedRange<Int>) {
        guard script != nil else { return }
        if pages.contains(6) { sawPage6 = true }
        guard sawPage6, pages.contains(shownLastPage) else { return }
        advanceScript()
    }

    private func write(page: Int, _ bytes: [UInt8]) -> Bool {
        guard Self.sharedPages.contains(page) else { return false }
        memory.replaceSubrange((page * 4)..<(page * 4 + 4), with: bytes)
        script = nil  // any write ends automatic mode until the next boot
        if page == 6 && bytes[0] == 0x03 && (bytes[1] != 0 || (bytes[1] == 0xFF && (bytes[2] != 0 || bytes[3] != 0))) {
            tapWrites += 1
            commandWrites += 1
            if !faults.leavesUnanswered(commandMessage: tapWrites) { runCommands() }
        }
        return true
    }

    /// Runs the message in the TLV at page 6, as the firmware does (docs/nhs31xx.md §1.3).
    private func runCommands() {
        let base = 24
        guard memory[base] == 0x03 else { return }
        var length = Int(memory[base + 1])
        var start = base + 2
        if length == 0xFF {
            length = Int(memory[base + 2]) << 8 | Int(memory[base + 3])
            start = base + 4
        }
        guard length > 0, length <= 68, start + length <= 132 * 4 else { return }
        guard let message = try? NDEFParser.message(from: Data(memory[start..<(start + length)])) else { return }
        for record in message.records {
            switch record.tnf {
            case .empty, .media, .external: continue
            case .wellKnown where record.isWellKnown("T") || record.isWellKnown("U"): continue
            default: return
            }
        }
        for record in message.records where record.tnf == .media {
            guard let frame = try? NHSFrame(bytes: record.payload) else { continue }
            let answers = handle(frame)
            guard let first = answers.first else { continue }
            show([first])
            for later in answers.dropFirst() { enqueue(later) }
        }
    }

    /// Lays `frames` out from page 6 as one message: each a long `n/p` record, then `FE`.
    private func show(_ frames: [[UInt8]]) {
        let message = NDEFMessage(records: frames.map { NDEFRecord(tnf: .media, type: "n/p", payload: Data($0)) })
        show(message, longRecords: Set(message.records.indices))
    }

    /// - Parameter longRecords: the records written in the long form (SR = 0); the others short.
    private func show(_ message: NDEFMessage, longRecords: Set<Int>) {
        let bytes = Self.serialize(message, longRecords: longRecords)
        var tlv: [UInt8] = bytes.count <= 254 ? [0x03, UInt8(bytes.count)] : [0x03, 0xFF, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)]
        tlv += bytes
        tlv.append(0xFE)
        let end = min(24 + tlv.count, 132 * 4)
        memory.replaceSubrange(24..<end, with: tlv.prefix(end - 24))
        let lastPayloadByte = 24 + tlv.count - 2
        shownLastPage = lastPayloadByte / 4
        sawPage6 = false
    }

    /// Records as the firmware writes them: answers in the long form (SR = 0), the initial
    /// message's records short except its last (docs/nhs31xx.md §1.2, §4.1).
    static func serialize(_ message: NDEFMessage, longRecords: Set<Int>) -> [UInt8] {
        var out: [UInt8] = []
        for (index, record) in message.records.enumerated() {
            var header = record.tnf.rawValue
            if index == 0 { header |= 0x80 }
            if index == message.records.count - 1 { header |= 0x40 }
            let length = record.payload.count
            if longRecords.contains(index) || length > 255 {
                out += [
                    header, UInt8(record.type.count), UInt8(length >> 24 & 0xFF), UInt8(length >> 16 & 0xFF),
                    UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
                ]
            } else {
                out += [header | 0x10, UInt8(record.type.count), UInt8(length)]
            }
            out += record.type
            out += record.payload
        }
        return out
    }

    private func enqueue(_ frame: [UInt8]) {
        let used = queue.reduce(0) { $0 + 1 + $1.count }
        if used + 1 + frame.count > 20 { queue = [] }
        queue.append(frame)
    }

    // MARK: Messages

    private func result(_ id: UInt8, _ code: NHSResult, _ more: [UInt8] = []) -> [UInt8] {
        var writer = NHSFieldWriter()
        writer.u32(code.rawValue)
        return [id, 0x01] + writer.bytes + more
    }

    /// The answers to one command frame: the first goes into memory, the rest are queued.
    private func handle(_ frame: NHSFrame) -> [[UInt8]] {
        let command: NHSCommand
        do {
            command = try NHSCommand.parse(frame)
        } catch let refusal as NHSCommand.Refusal {
            return [result(frame.id, refusal.result)]
        } catch {
            return [result(frame.id, .unknownCommand)]
        }
        let id = command.id.rawValue
        switch command {
        case .getResponse:
            return [queue.isEmpty ? result(id, .noResponse) : queue.removeFirst()]
        case .getVersion:
            return [[id, 0x01] + version.payload]
        case .getUID:
            var writer = NHSFieldWriter()
            for word in [UInt32(0x0011_2233), 0x4455_6677, 0x8899_AABB, UInt32(uid?.reduce(0) { $0 &* 31 &+ UInt32($1) } ?? 0)] {
                writer.u32(word)
            }
            return [[id, 0x01] + writer.bytes]
        case .getNFCUID:
            return [[id, 0x01] + Array(memory[0..<8])]
        case .checkBattery:
            guard logger.batteryCheckAllowed else { return [result(id, .notAllowed)] }
            var writer = NHSFieldWriter()
            writer.i32(-1)
            return [result(id, .ok), result(id, .ok, writer.bytes)]
        case .getCalibrationTimestamp:
            var writer = NHSFieldWriter()
            writer.u32(1_577_836_800)  // factory calibration, 2020-01-01
            return [result(id, .ok, writer.bytes)]
        case .getMeasurements(let offset):
            return [measurements(offset: offset), result(id, .badLength)]  // the phantom, §1.6
        case .getConfig:
            return [[id, 0x01] + logger.config.payload]
        case .setConfig(let configuration):
            if let history = backdateNextConfiguration {
                backdateNextConfiguration = nil
                logger.configure(configuration, backdatedBy: history)
            } else {
                logger.configure(configuration)
            }
            return [result(id, .ok)]
        case .measureTemperature(let resolution):
            guard (2...7).contains(resolution) else { return [result(id, .badParameter)] }
            let reading = logger.currentReading
            var writer = NHSFieldWriter()
            writer.i16(reading)
            return [result(id, .ok), result(id, reading == -1 ? .badParameter : .ok, writer.bytes)]
        case .start:
            return [result(id, logger.start())]
        case .getEvents(let index, let mask, let info):
            return [[id, 0x01] + logger.eventsAnswer(index: index, mask: mask, info: info).payload]
        case .getPeriodicData(let which, let format, let offset):
            guard which == 1 else { return [result(id, .badParameter)] }
            guard format == 0 else { return [result(id, .notImplemented)] }
            let chunk = chunkSamples(offset: offset)
            var writer = NHSFieldWriter()
            writer.u32(0)
            writer.u8(which)
            writer.u8(format)
            writer.u16(offset)
            for sample in chunk { writer.i16(sample) }
            return [[id, 0x01] + writer.bytes]
        default:
            return [result(id, .unknownCommand)]
        }
    }

    private func chunkSamples(offset: UInt16) -> [Int16] {
        let start = Int(offset)
        guard start < logger.samples.count else { return [] }
        return Array(logger.samples[start..<min(logger.samples.count, start + 232)])
    }

    private func measurements(offset: UInt16) -> [UInt8] {
        [NHSMessageID.getMeasurements.rawValue, 0x01] + NHSMeasurements(offset: offset, samples: chunkSamples(offset: offset)).payload
    }

    // MARK: Initial message and automatic mode (§4)

    private func initialMessage() -> NDEFMessage {
        let config = logger.config
        func text(_ lines: [String], slot: Int) -> NDEFRecord {
            var body: [UInt8] = []
            for (index, line) in lines.enumerated() {
                var bytes = Array(line.utf8.prefix(slot))
                bytes += [UInt8](repeating: 0, count: slot - bytes.count)
                if index < lines.count - 1 { bytes[slot - 1] = 0x0A }
                body += bytes
            }
            return NDEFRecord(tnf: .wellKnown, type: "T", payload: Data([0x02, 0x65, 0x6E] + body))
        }
        var records = [NDEFRecord(tnf: .media, type: "t/demo.nhs.nxp", payload: Data([0x02, 0x01] + version.payload))]
        records.append(text([stateLine(config)], slot: 46))
        let problems = (5...11).filter { ((config.status?.rawValue ?? 0) & (1 << UInt32($0))) != 0 }
        if !problems.isEmpty {
            records.append(text(problems.map { "Alert: \(NHSStatus.name(ofBit: $0))" }, slot: 46))
        }
        var temperature = "Temperature now \(NHS31xxLog.celsius(logger.currentReading)) C"
        if let low = config.attainedMinimum, let high = config.attainedMaximum, low < high {
            temperature += "\nLowest \(NHS31xxLog.celsius(low)) C\nHighest \(NHS31xxLog.celsius(high)) C"
        }
        return finish(records + [text([temperature], slot: 59)], config: config)
    }

    private func finish(_ records: [NDEFRecord], config: NHSConfig) -> NDEFMessage {
        NDEFMessage(
            records: records + [
                NDEFRecord(tnf: .media, type: "n/p", payload: Data([0x0A, 0x01] + memory[0..<8])),
                NDEFRecord(tnf: .media, type: "n/p", payload: Data([0x48, 0x01] + config.payload)),
            ])
    }

    private func stateLine(_ config: NHSConfig) -> String {
        let status = config.status ?? []
        let count = config.count
        if status.contains(.stopped) { return "Stopped with \(count) samples" }
        if status.contains(.logging) {
            let seconds = Int(config.currentTime) - Int(config.startTime ?? 0)
            let (value, unit): (Int, String) =
                seconds < 180
                ? (seconds, "s")
                : seconds < 10_800
                    ? (seconds / 60, "min")
                    : seconds < 259_200 ? (seconds / 3600, "h") : (seconds / 86_400, "days")
            return "Logging for \(value) \(unit), \(count) samples"
        }
        if status.contains(.starting) { return "Logging, no sample yet" }
        if status.contains(.configured) { return "Configured, waiting for start" }
        return "Not configured"
    }

    private func showInitialMessage() {
        let message = initialMessage()
        show(message, longRecords: [message.records.count - 1])
    }

    private func advanceScript() {
        guard var current = script else { return }
        current.reads += 1
        let next: [UInt8]?
        switch current.reads {
        case 1: next = nil
        case 2: next = [0x5B, 0x01] + logger.eventsAnswer(index: 0, mask: 0x7F_FF9F, info: [.index, .timestamp, .eventNumber]).payload
        case 3: next = [0x5B, 0x01] + logger.eventsAnswer(index: 0, mask: 0x60, info: .all).payload
        default:
            if let offset = current.nextChunk() {
                enqueue(result(NHSMessageID.getMeasurements.rawValue, .badLength))
                next = measurements(offset: offset)
            } else {
                next = queue.isEmpty ? result(NHSMessageID.getResponse.rawValue, .noResponse) : queue.removeFirst()
            }
        }
        script = current
        // The TLV is emptied, then the next message written.
        memory[25] = 0x00
        if let next { show([next]) } else { showInitialMessage() }
    }
}

/// Where automatic mode stands (docs/nhs31xx.md §4.2).
struct AutomaticScript: Sendable {
    var reads = 0
    /// Offsets newest first; for an exact multiple of 232 the firmware loops over them.
    let offsets: [UInt16]
    let loops: Bool
    var position = 0

    init(count: Int) {
        var offsets: [UInt16] = []
        var remaining = count
        while remaining >= 232 {
            remaining -= 232
            offsets.append(UInt16(remaining))
        }
        if count > 0 && remaining > 0 { offsets.append(0) }
        self.offsets = offsets
        loops = count > 0 && count % 232 == 0
    }

    mutating func nextChunk() -> UInt16? {
        guard !offsets.isEmpty else { return nil }
        if position >= offsets.count {
            guard loops else { return nil }
            position = 0
        }
        defer { position += 1 }
        return offsets[position]
    }
}
