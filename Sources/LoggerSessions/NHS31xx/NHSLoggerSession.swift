import Foundation
import LoggerFormats
import NDEF
import NFCTags

/// Why talking to an NHS31xx logger failed.
public enum NHSSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The exchange failed (tag removed after N exchanges, no answer, write refused).
    case exchange(NDEFExchangeError)
    /// What the tag sent is malformed (offset inside the frame).
    case malformed(LoggerFormatError)
    /// The initial message shows no NHS31xx answers.
    case notNHS31xx(String)
    /// The logger refused a command with this result code.
    case refused(command: String, NHSResult)

    public var description: String {
        switch self {
        case .exchange(let error): return error.description
        case .malformed(let error): return "the logger sent a malformed answer: \(error)"
        case .notNHS31xx(let why): return "this tag is not an NHS31xx logger: \(why)"
        case .refused(let command, let result): return "the logger refused \(command): \(result.explanation)"
        }
    }
}

/// Progress of a readout: the phase, and samples read of the stored count.
public struct NHSReadProgress: Sendable, Equatable {
    public var phase: String
    public var samplesRead: Int
    public var samplesTotal: Int
    public var exchanges: Int
}

/// Command mode with an NHS31xx logger (docs/nhs31xx.md §1.3–§1.5, §8): one command
/// per written NDEF message, the answer read back, the exchange recorded as a transcript.
public final class NHSLoggerSession: @unchecked Sendable {
    public let exchange: NDEFExchangeSession
    /// The initial message, once read.
    public private(set) var initialMessage: NDEFMessage?

    /// Over any NDEF message link (e.g. a phone's NDEF read/write).
    public init(exchange: NDEFExchangeSession) {
        self.exchange = exchange
    }

    /// - Parameter clock: the reader's clock (for SETCONFIG's time and the drift); a simulation passes its own.
    public init(
        transport: any TagTransport, options: NDEFExchangeOptions = NDEFExchangeOptions(),
        sleep: (@Sendable (Duration) async -> Void)? = nil, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        exchange = NDEFExchangeSession(transport: transport, options: options, sleep: sleep, clock: clock)
    }

    /// Everything read and written so far (docs/nhs31xx.md §7).
    public var transcript: NHSTranscript {
        NHSTranscript(steps: exchange.steps.map { NHSTranscript.Step(write: $0.written, read: $0.read, time: $0.time) })
    }

    /// True when `message` holds the GETVERSION and GETCONFIG answers of an initial message.
    public static func isInitialMessage(_ message: NDEFMessage) -> Bool {
        let ids = Set(NHSReadout.frames(in: message).frames.map(\.frame.id))
        return ids.contains(NHSMessageID.getVersion.rawValue) && ids.contains(NHSMessageID.getConfig.rawValue)
    }

    /// Reads the message the tag shows on arrival and checks it is an NHS31xx initial message.
    /// - Throws: `NHSSessionError`.
    @discardableResult
    public func readInitialMessage() async throws -> NDEFMessage {
        let bytes: Data
        do { bytes = try await exchange.read() } catch let error as NDEFExchangeError { throw NHSSessionError.exchange(error) }
        guard let message = try? NDEFParser.message(from: bytes), Self.isInitialMessage(message) else {
            throw NHSSessionError.notNHS31xx("its NDEF message has no GETVERSION and GETCONFIG answers")
        }
        initialMessage = message
        return message
    }

    /// Takes the initial message a plain read already got (recorded as the first step).
    /// - Throws: `NHSSessionError.notNHS31xx` when it is not an initial message.
    public func adoptInitialMessage(_ bytes: Data) throws {
        guard let message = try? NDEFParser.message(from: bytes), Self.isInitialMessage(message) else {
            throw NHSSessionError.notNHS31xx("its NDEF message has no GETVERSION and GETCONFIG answers")
        }
        exchange.adoptRead(bytes)
        initialMessage = message
    }

    /// Sends one command and returns the tag's answer, parsed. For GETRESPONSE any answer
    /// frame is taken; otherwise only a frame with the command's id (so our own command,
    /// an empty TLV or a stale answer are polled past).
    /// - Throws: `NHSSessionError`.
    public func send(_ command: NHSCommand) async throws -> NHSResponse {
        let frame = command.frame
        let message = NDEFMessage(records: [NDEFRecord(tnf: .media, type: "n/p", payload: Data(frame.bytes))]).serialized()
        let wanted: UInt8? = command.id == .getResponse ? nil : frame.id
        let answer: Data
        do {
            answer = try await exchange.exchange(message) { bytes in
                guard let parsed = try? NDEFParser.message(from: bytes) else { return false }
                return NHSReadout.frames(in: parsed).frames.contains { wanted == nil || $0.frame.id == wanted }
            }
        } catch let error as NDEFExchangeError {
            throw NHSSessionError.exchange(error)
        }
        do {
            let parsed = try NDEFParser.message(from: answer)
            guard let found = NHSReadout.frames(in: parsed).frames.first(where: { wanted == nil || $0.frame.id == wanted }) else {
                throw NHSSessionError.notNHS31xx("the answer holds no response frame")
            }
            return try NHSResponse.parse(found.frame)
        } catch let error as LoggerFormatError {
            throw NHSSessionError.malformed(error)
        } catch let error as NHSSessionError {
            throw error
        } catch {
            throw NHSSessionError.notNHS31xx("the answer is not a valid NDEF message: \(error)")
        }
    }

    /// Sends a command whose answer is result-only and checks it is OK.
    private func expectOK(_ command: NHSCommand) async throws {
        let response = try await send(command)
        guard case .result(_, let result) = response else { return }
        guard result.isOK else { throw NHSSessionError.refused(command: command.id.name, result) }
    }

    /// The command-mode readout: the initial message (its GETCONFIG), GETEVENTS (mask
    /// `0x7FFF9F` info `07`, then mask `0x60` info `0F`, split by side if cut short),
    /// GETMEASUREMENTS at offsets 0, 232, …
    /// until the count is reached or a chunk comes back short.
    /// - Throws: `NHSSessionError`; `.exchange(.tagRemoved)` says after how many exchanges.
    public func readOut(progress: (@Sendable (NHSReadProgress) -> Void)? = nil) async throws -> NHSReadout {
        var readout = NHSReadout()
        let initial: NDEFMessage
        if let shown = initialMessage { initial = shown } else { initial = try await readInitialMessage() }
        do {
            try readout.add(initial, readTime: exchange.steps.last?.time)
        } catch let error as LoggerFormatError {
            throw NHSSessionError.malformed(error)
        }
        let total = Int(readout.config?.count ?? 0)
        func report(_ phase: String) {
            progress?(
                NHSReadProgress(
                    phase: phase, samplesRead: readout.samples.count, samplesTotal: total,
                    exchanges: exchange.exchangeCount))
        }
        report("events")
        // State events once each (every bit but the excursions, which come with their end
        // times next); index 0 always, as index > 0 skips twice (§3.7).
        readout.add(try await send(.getEvents(index: 0, mask: 0x7F_FF9F, info: [.index, .timestamp, .eventNumber])))
        let excursions = try await send(.getEvents(index: 0, mask: 0x60, info: .all))
        if case .events(let answer) = excursions, answer.truncated(requestedMask: 0x60) {
            // Cut short at 475 bytes ("more" ORed into the mask echo): ask for each side alone.
            for mask: UInt32 in [0x20, 0x40] { readout.add(try await send(.getEvents(index: 0, mask: mask, info: .all))) }
        } else {
            readout.add(excursions)
        }
        var offset = 0
        while offset < total {
            report("samples")
            let response = try await send(.getMeasurements(offset: UInt16(clamping: offset)))
            guard case .measurements(let chunk) = response else {
                if case .result(_, let result) = response { throw NHSSessionError.refused(command: "GETMEASUREMENTS", result) }
                break
            }
            readout.add(response)
            if chunk.samples.isEmpty { break }
            offset += chunk.samples.count
            if offset > Int(UInt16.max) { break }
        }
        report("done")
        return readout
    }

    /// SETCONFIG (erases the logger) and, for a start now or after a delay, nothing more.
    /// - Throws: `NHSSessionError.refused` when the answer is not OK.
    public func configure(_ configuration: NHSConfiguration) async throws {
        try await expectOK(.setConfig(configuration))
    }

    /// START (after SETCONFIG with the wait-for-START delay).
    public func start() async throws {
        try await expectOK(.start)
    }

    /// MEASURETEMPERATURE, then GETRESPONSE until its queued answer, skipping the
    /// GETMEASUREMENTS phantom (docs/nhs31xx.md §1.6, §3.8).
    /// - Returns: deci-°C.
    public func measureTemperature(resolution: UInt8 = 5, maxPolls: Int = 10) async throws -> Int16 {
        try await expectOK(.measureTemperature(resolution: resolution))
        for _ in 0..<maxPolls {
            let response = try await send(.getResponse)
            switch response {
            case .temperature(let result, let value):
                guard result.isOK else { throw NHSSessionError.refused(command: "MEASURETEMPERATURE", result) }
                return value
            case .result(let id, let result) where id == NHSMessageID.measureTemperature.rawValue:
                throw NHSSessionError.refused(command: "MEASURETEMPERATURE", result)
            default:
                continue  // nothing queued yet, or a phantom
            }
        }
        throw NHSSessionError.exchange(.noAnswer(polls: maxPolls, afterExchanges: exchange.exchangeCount))
    }
}
