import Foundation
import LoggerFormats
import NFCTags

/// What one tap on an NHS31xx gave: the log, the exchange it was decoded from (the raw read
/// to keep and upload, docs/nhs31xx.md §7), and whether the logger had to be read in
/// automatic mode because writing was refused.
public struct NHSTapRead: Sendable {
    public var log: TemperatureLog
    public var transcript: NHSTranscript
    public var automaticMode: Bool
}

/// An NHS31xx met by a reader that has already read the tag's NDEF message (the iPhone's tag
/// session reads every tag that way first): the session starts from that initial message
/// and runs over the same transport, so the tap needs no second detection.
public enum NHSTap {
    /// How long to wait for the firmware's answer before each poll (as `coldtap read`).
    public static let pollDelay: Duration = .milliseconds(40)

    /// The exchange options for a real tag: `pollDelay` and the default tag options (a
    /// phone passes its own per-command timeout in `tagOptions`).
    public static let defaultOptions = NDEFExchangeOptions(pollDelay: pollDelay)

    /// The reader's clock in whole seconds (the transcript keeps seconds).
    public static let wholeSecondClock: @Sendable () -> Date = {
        Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    /// A command-mode session on `transport` holding `initialMessage` as its first step.
    /// - Throws: `NHSSessionError.notNHS31xx` when the message is not an NHS31xx initial message.
    public static func session(
        on transport: any TagTransport, initialMessage: Data, options: NDEFExchangeOptions = defaultOptions,
        clock: @escaping @Sendable () -> Date = wholeSecondClock
    ) throws -> NHSLoggerSession {
        let session = NHSLoggerSession(transport: transport, options: options, clock: clock)
        try session.adoptInitialMessage(initialMessage)
        return session
    }

    /// The share of a readout done, 0…1, for a progress display: the events are the first
    /// tenth, the samples the rest (a logger without samples is done after its events).
    public static func fraction(_ progress: NHSReadProgress) -> Double {
        if progress.phase == "done" { return 1 }
        guard progress.samplesTotal > 0 else { return progress.phase == "samples" ? 1 : 0.05 }
        let samples = Double(min(progress.samplesRead, progress.samplesTotal)) / Double(progress.samplesTotal)
        return 0.1 + 0.9 * samples
    }

    /// Reads every sample and event: command mode, or automatic mode when the first write
    /// is refused. The log is decoded from the transcript, so decoding the saved transcript
    /// later gives the same log.
    /// - Parameters:
    ///   - progress: each step of the readout (`fraction(_:)` makes it 0…1).
    ///   - keep: given the transcript once the readout is complete, before it is decoded
    ///     (a transcript that does not decode is still worth keeping).
    /// - Throws: `NHSSessionError` (`.exchange(.tagRemoved)` says after how many exchanges),
    ///   `LoggerFormatError` when the transcript does not decode, or what `keep` throws.
    public static func read(
        _ transport: any TagTransport, initialMessage: Data, decodeOptions: DecodeOptions,
        options: NDEFExchangeOptions = defaultOptions, clock: @escaping @Sendable () -> Date = wholeSecondClock,
        progress: (@Sendable (NHSReadProgress) -> Void)? = nil,
        keep: ((NHSTranscript) throws -> Void)? = nil
    ) async throws -> NHSTapRead {
        let session = try session(on: transport, initialMessage: initialMessage, options: options, clock: clock)
        let (_, automatic) = try await session.readOutFallingBack { step in progress?(step) }
        let transcript = session.transcript
        try keep?(transcript)
        let log = try LoggerDecoder.decode(transcript: transcript, options: decodeOptions)
        return NHSTapRead(log: log, transcript: transcript, automaticMode: automatic)
    }

    /// SETCONFIG with the reader's clock: erases the logger and sets it up as `setup` says.
    /// - Throws: `NHSLoggerSetup.Problem` for values the logger cannot take (nothing is
    ///   sent), `NHSSessionError` (`.exchange(.writeFailed)` when the tag may not be written).
    public static func configure(
        _ transport: any TagTransport, initialMessage: Data, setup: NHSLoggerSetup,
        options: NDEFExchangeOptions = defaultOptions,
        clock: @escaping @Sendable () -> Date = wholeSecondClock
    ) async throws {
        let configuration = try setup.configuration(clock: clock())
        let session = try session(on: transport, initialMessage: initialMessage, options: options, clock: clock)
        try await session.configure(configuration)
    }

    /// START, for a logger configured to wait for it.
    /// - Throws: `NHSSessionError` (`.refused` when the logger is not waiting for START).
    public static func start(
        _ transport: any TagTransport, initialMessage: Data, options: NDEFExchangeOptions = defaultOptions,
        clock: @escaping @Sendable () -> Date = wholeSecondClock
    ) async throws {
        try await session(on: transport, initialMessage: initialMessage, options: options, clock: clock).start()
    }
}

/// How a person sets up an NHS31xx (the iPhone's Configure screen), in seconds and °C, and
/// the SETCONFIG it becomes (docs/nhs31xx.md §3.2).
public struct NHSLoggerSetup: Sendable, Equatable {
    public enum Start: Sendable, Equatable {
        /// The first sample one second after configuring.
        case now
        /// The first sample this many seconds after configuring.
        case after(seconds: Int)
        /// Nothing until a START command.
        case onStartCommand
    }

    /// What the logger cannot take; the first one found is thrown.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The interval is not 1…65535 s (0 would stop and erase, which is not a setup).
        case intervalOutOfRange(Int)
        /// A limit outside the sensor's −40…85 °C.
        case limitOutOfRange(Double)
        /// The minimum is not below the maximum.
        case limitsReversed
        /// Only one limit given: the logger checks limits only when it has both.
        case oneLimitOnly
        /// A start delay outside 0…4294967294 s.
        case delayOutOfRange(Int)
        /// A running time outside 0…4294967295 s.
        case runningTimeOutOfRange(Int)

        public var description: String {
            switch self {
            case .intervalOutOfRange(let value): return "the interval must be 1 to 65535 seconds, not \(value)"
            case .limitOutOfRange(let value): return "a limit must be from -40 to 85 °C, not \(value)"
            case .limitsReversed: return "the minimum must be below the maximum"
            case .oneLimitOnly: return "give both limits, or neither"
            case .delayOutOfRange(let value): return "the start delay must be 0 to 4294967294 seconds, not \(value)"
            case .runningTimeOutOfRange(let value): return "the running time must be 0 to 4294967295 seconds, not \(value)"
            }
        }
    }

    /// Seconds between samples.
    public var interval: Int
    /// The logger's own valid range, °C (nil: the logger checks no limits).
    public var validMinimum: Double?
    public var validMaximum: Double?
    public var start: Start
    /// Seconds from the first sample until logging stops; 0 = until the memory is full.
    public var runningTime: Int

    public init(interval: Int, validMinimum: Double? = nil, validMaximum: Double? = nil, start: Start = .now, runningTime: Int = 0) {
        self.interval = interval
        self.validMinimum = validMinimum
        self.validMaximum = validMaximum
        self.start = start
        self.runningTime = runningTime
    }

    /// The first problem, or nil when the setup can be sent.
    public var problem: Problem? {
        do { _ = try configuration(clock: Date(timeIntervalSince1970: 0)); return nil } catch let problem as Problem { return problem } catch { return nil }
    }

    /// SETCONFIG's fields with the reader's clock `clock`.
    /// - Throws: `Problem`.
    public func configuration(clock: Date) throws -> NHSConfiguration {
        guard (1...Int(UInt16.max)).contains(interval) else { throw Problem.intervalOutOfRange(interval) }
        var low: Int16 = 0, high: Int16 = 0
        switch (validMinimum, validMaximum) {
        case let (minimum?, maximum?):
            for value in [minimum, maximum] where !(value.isFinite && value >= -40 && value <= 85) {
                throw Problem.limitOutOfRange(value)
            }
            low = Int16((minimum * 10).rounded())
            high = Int16((maximum * 10).rounded())
            guard low < high else { throw Problem.limitsReversed }
        case (_?, nil), (nil, _?):
            // The tag checks limits only when minimum < maximum: one alone means nothing.
            throw Problem.oneLimitOnly
        case (nil, nil):
            break
        }
        let delay: UInt32
        switch start {
        case .now: delay = 0
        case .after(let seconds):
            guard seconds >= 0, UInt64(seconds) < UInt64(NHSConfiguration.waitForStart) else { throw Problem.delayOutOfRange(seconds) }
            delay = UInt32(seconds)
        case .onStartCommand: delay = NHSConfiguration.waitForStart
        }
        guard runningTime >= 0, UInt64(runningTime) <= UInt64(UInt32.max) else { throw Problem.runningTimeOutOfRange(runningTime) }
        let now = UInt32(clamping: Int64(clock.timeIntervalSince1970.rounded(.down)))
        return NHSConfiguration(
            currentTime: now, interval: UInt16(interval), startDelay: delay, runningTime: UInt32(runningTime),
            validMinimum: low, validMaximum: high)
    }
}
