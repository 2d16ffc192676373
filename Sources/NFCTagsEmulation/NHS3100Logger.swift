import Foundation
import LoggerFormats
import NFCTags

/// The logger inside a virtual NHS3100: configuration, the status state machine, samples,
/// events and the real-time clock of docs/nhs31xx.md §5, on a simulated clock. Time passes
/// only when `advance(to:)` is called, so a test can let days go by in no time.
public struct NHS3100Logger: Sendable {
    /// The world's time (what a correct reader clock shows), epoch seconds.
    public private(set) var now: Double
    /// The temperature at a world time, °C.
    public var temperature: @Sendable (Double) -> Double
    /// How fast the tag's clock runs against the world's: 1 + ppm / 10⁶.
    public var clockRate: Double
    /// Samples the memory holds before FULL (the real capacity is not public; docs/nhs31xx.md §6).
    public var capacity: Int
    /// When true, samples falling due store the 851 placeholder (an NFC field is present, §5.4).
    public var fieldPresent = false

    public private(set) var status: NHSStatus = .pristine
    public private(set) var configTime: UInt32 = 0
    public private(set) var interval: UInt16 = 0
    public private(set) var startDelay: UInt32 = 0
    public private(set) var runningTime: UInt32 = 0
    public private(set) var validMinimum: Int16 = 0
    public private(set) var validMaximum: Int16 = 0
    public private(set) var attainedMinimum: Int16 = NHSConfig.noAttainedMinimum
    public private(set) var attainedMaximum: Int16 = NHSConfig.noAttainedMaximum
    public private(set) var startTime: UInt32 = 0
    public private(set) var samples: [Int16] = []
    /// (absolute number implied by position) event number, tag-clock time, end time for 5/6.
    public private(set) var events: [NHSEventBlock] = []
    /// The most events the EEPROM keeps (§5.5); later ones are dropped.
    public static let eventCapacity = 240

    // The tag clock: rtcBase at world time rtcBaseWorld, running at clockRate.
    private var rtcBase: Double = 0
    private var rtcBaseWorld: Double
    /// Tag-clock time of the next sample, when one is scheduled.
    private var nextSample: Double?
    private var outside: UInt8?  // 5 or 6 while an excursion lasts

    /// - Parameters:
    ///   - now: the world's time at the start, epoch seconds.
    ///   - driftPPM: the tag clock's error; positive runs fast.
    public init(
        now: Double, driftPPM: Double = 0, capacity: Int = 4800,
        temperature: @escaping @Sendable (Double) -> Double = { _ in 5.0 }
    ) {
        self.now = now
        self.rtcBaseWorld = now
        self.clockRate = 1 + driftPPM / 1_000_000
        self.capacity = capacity
        self.temperature = temperature
    }

    /// The tag's clock now, whole seconds.
    public var rtc: UInt32 { UInt32(clamping: Int64((rtcValue(atWorld: now) + 1e-6).rounded(.down))) }

    private func rtcValue(atWorld world: Double) -> Double { rtcBase + (world - rtcBaseWorld) * clockRate }
    private func world(atRTC value: Double) -> Double { rtcBaseWorld + (value - rtcBase) / clockRate }

    /// The temperature the sensor reads now, deci-°C, clamped as the firmware does.
    public var currentReading: Int16 { Self.deci(temperature(now)) }

    static func deci(_ celsius: Double) -> Int16 {
        Int16(max(-400, min(850, (celsius * 10).rounded())))
    }

    /// GETCONFIG's answer now.
    public var config: NHSConfig {
        NHSConfig(
            configTime: configTime, interval: interval, startDelay: startDelay, runningTime: runningTime,
            validMinimum: validMinimum, validMaximum: validMaximum, attainedMinimum: attainedMinimum,
            attainedMaximum: attainedMaximum, count: UInt16(min(samples.count, Int(UInt16.max))), status: status,
            startTime: startTime, currentTime: rtc)
    }

    // MARK: Commands

    /// SETCONFIG: accepted in any state; erases everything and restarts from PRISTINE (§3.2, §5.2).
    public mutating func configure(_ configuration: NHSConfiguration) {
        samples = []
        events = []
        attainedMinimum = NHSConfig.noAttainedMinimum
        attainedMaximum = NHSConfig.noAttainedMaximum
        startTime = 0
        outside = nil
        status = []
        configTime = configuration.currentTime
        rtcBase = Double(max(1, configuration.currentTime))
        rtcBaseWorld = now
        interval = configuration.interval
        startDelay = configuration.startDelay
        runningTime = configuration.runningTime
        validMinimum = configuration.validMinimum
        validMaximum = configuration.validMaximum
        nextSample = nil
        set(.pristine)
        guard interval > 0 else { return }
        set(.configured)
        if startDelay != NHSConfiguration.waitForStart {
            set(.starting)
            nextSample = rtcValue(atWorld: now).rounded(.down) + Double(max(startDelay, 1))
        }
    }

    /// SETCONFIG as if it had been received `seconds` ago, then the logger runs out of the
    /// field until now: a history for demonstrations, without waiting days.
    public mutating func configure(_ configuration: NHSConfiguration, backdatedBy seconds: Double) {
        let until = now
        now -= seconds
        var earlier = configuration
        earlier.currentTime = configuration.currentTime &- UInt32(clamping: Int64(seconds.rounded()))
        let present = fieldPresent
        fieldPresent = false
        configure(earlier)
        advance(to: until)
        fieldPresent = present
    }

    /// START: only when configured and none of STARTING, LOGGING, STOPPED (§3.4).
    public mutating func start() -> NHSResult {
        guard status.contains(.configured), status.isDisjoint(with: [.starting, .logging, .stopped]) else { return .notAllowed }
        set(.starting)
        nextSample = rtcValue(atWorld: now).rounded(.down) + 1
        return .ok
    }

    /// CHECKBATTERY is refused while starting or logging and not stopped.
    public var batteryCheckAllowed: Bool {
        !(status.contains(.starting) || status.contains(.logging)) || status.contains(.stopped)
    }

    /// Power lost while logging: the clock restarts from 0, STOPPED + BOD (§5.2, §5.3).
    public mutating func losePower() {
        rtcBase = 0
        rtcBaseWorld = now
        if status.contains(.logging) || status.contains(.starting) {
            set([.stopped, .brownOut])
        }
        nextSample = nil
    }

    // MARK: Time

    /// Lets the world's clock run to `world` (epoch s), taking every sample that falls due.
    public mutating func advance(to world: Double) {
        guard world > now else { return }
        while let due = nextSample, self.world(atRTC: due) <= world {
            now = self.world(atRTC: due)
            takeSample(atRTC: due)
        }
        now = world
    }

    public mutating func advance(by seconds: Double) { advance(to: now + seconds) }

    private mutating func takeSample(atRTC due: Double) {
        let stamp = UInt32(clamping: Int64(due))
        if !status.contains(.logging) {
            startTime = stamp
            set(.logging)
        }
        let value = fieldPresent ? NHS31xxLog.placeholder : Self.deci(temperature(now))
        if value != NHS31xxLog.placeholder {
            attainedMinimum = min(attainedMinimum, value)
            attainedMaximum = max(attainedMaximum, value)
            validate(value, at: stamp)
        }
        if status.contains(.full) {
            // Still measuring (min/max and excursions above), nothing stored.
        } else if samples.count < capacity {
            samples.append(value)
        } else {
            set([.stopped, .full])
        }
        if runningTime > 0 && UInt64(stamp) >= UInt64(startTime) + UInt64(runningTime) {
            set([.stopped, .expired])
            nextSample = nil
            return
        }
        if status.contains(.stopped) && !status.contains(.full) {
            nextSample = nil
            return
        }
        nextSample = due + Double(interval)
    }

    private mutating func validate(_ value: Int16, at stamp: UInt32) {
        guard validMinimum < validMaximum else { return }
        let side: UInt8? = value > validMaximum ? 5 : value < validMinimum ? 6 : nil
        if side == outside { return }
        if side == nil {
            // Back inside: the latest excursion event gets the time (§5.5).
            if let index = events.lastIndex(where: { $0.number == 5 || $0.number == 6 }) { events[index].endTime = stamp }
        } else if let side {
            status.insert(NHSStatus(rawValue: 1 << UInt32(side)))
            record(side, at: stamp, endTime: 0)
        }
        outside = side
    }

    /// Sets bits, recording an event for each newly set one, in bit order.
    private mutating func set(_ bits: NHSStatus) {
        for bit in 0..<23 where bits.rawValue & (1 << UInt32(bit)) != 0 && status.rawValue & (1 << UInt32(bit)) == 0 {
            status.insert(NHSStatus(rawValue: 1 << UInt32(bit)))
            if bit == 5 || bit == 6 { continue }
            record(UInt8(bit), at: rtc, endTime: nil)
        }
    }

    private mutating func record(_ number: UInt8, at stamp: UInt32, endTime: UInt32?) {
        guard events.count < Self.eventCapacity else { return }
        events.append(NHSEventBlock(index: UInt16(events.count), timestamp: stamp, number: number, endTime: endTime))
    }

    // MARK: GETEVENTS as 12.4 runs it (§3.7)

    /// The GETEVENTS answer, with both quirks: "more" ORed into the mask echo, and an index
    /// above 0 skipping twice.
    public func eventsAnswer(index: UInt16, mask requested: UInt32, info: NHSEventInfo) -> NHSEvents {
        var mask = requested == 0 ? 0x7F_FFFF : requested
        var blocks: [NHSEventBlock] = []
        var size = 9
        var skipped = 0
        for event in events.dropFirst(Int(index)) {
            guard let number = event.number, mask & (1 << UInt32(number)) != 0 else { continue }
            if skipped < Int(index) { skipped += 1; continue }
            var block = NHSEventBlock()
            var blockSize = 0
            if info.contains(.index) { block.index = event.index; blockSize += 2 }
            if info.contains(.timestamp) { block.timestamp = event.timestamp; blockSize += 4 }
            if info.contains(.eventNumber) { block.number = number; blockSize += 1 }
            if info.contains(.data) && NHSEventBlock.hasData(eventNumber: number) {
                block.endTime = event.endTime ?? 0
                blockSize += 4
                // Without the number the block must still be written with its data.
                if !info.contains(.eventNumber) { block.number = number }
            }
            if size + blockSize > 475 {
                mask |= 0x80
                continue
            }
            size += blockSize
            blocks.append(block)
        }
        return NHSEvents(index: index, mask: mask, info: info, blocks: blocks)
    }
}
