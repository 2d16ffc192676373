import Foundation

/// One step of an NDEF exchange: what was written (nil for a plain read) and what was read.
public struct NDEFExchangeStep: Sendable, Equatable {
    /// The serialized NDEF message written, or `nil` for a read without a write.
    public var written: Data?
    /// The serialized NDEF message read back; empty for an empty NDEF TLV.
    public var read: Data
    /// The host's clock after the read.
    public var time: Date

    public init(written: Data?, read: Data, time: Date) {
        self.written = written
        self.read = read
        self.time = time
    }
}

/// How an exchange waits for the tag's answer.
public struct NDEFExchangeOptions: Sendable {
    /// Reads after a write before giving up on an answer (NXP's app re-reads 8–10 times).
    public var maxPolls: Int
    /// Pause before each read that follows a write (the firmware answers within a few
    /// milliseconds; NXP's app waits 40–70 ms). Zero for virtual tags.
    public var pollDelay: Duration
    /// Options for each read and write (retries, per-command timeout).
    public var tagOptions: TagReadOptions

    public init(maxPolls: Int = 10, pollDelay: Duration = .milliseconds(40), tagOptions: TagReadOptions = TagReadOptions()) {
        self.maxPolls = maxPolls
        self.pollDelay = pollDelay
        self.tagOptions = tagOptions
    }
}

/// Why an exchange did not complete.
public enum NDEFExchangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The tag left the field; `exchanges` completed before that.
    case tagRemoved(afterExchanges: Int)
    /// After a write, `polls` reads never showed an answer.
    case noAnswer(polls: Int, afterExchanges: Int)
    /// The write itself failed (read-only, too long, refused...).
    case writeFailed(String)
    /// A read failed for another reason than removal (malformed TLV, link limits...).
    case readFailed(String)

    public var description: String {
        switch self {
        case .tagRemoved(let count): return "the tag was removed after \(count) exchange(s); hold it still on the reader and try again"
        case .noAnswer(let polls, let count):
            return "the tag did not answer the command (\(polls) read(s) showed only what was written) after \(count) completed exchange(s)"
        case .writeFailed(let detail): return "writing the command failed: \(detail)"
        case .readFailed(let detail): return "reading the answer failed: \(detail)"
        }
    }
}

/// Talks to a tag that answers NDEF messages with NDEF messages (e.g. NXP NHS31xx loggers,
/// docs/nhs31xx.md §1.3–§1.4): write a message, then read until the message on the tag is
/// an answer. Writes go through the Type 2/Type 5 write engine, which writes the TLV length
/// as 0 first and the real length last (the order such firmware reacts to). Works over any
/// `TagTransport`: a reader, a phone link, a virtual tag.
public final class NDEFExchangeSession: @unchecked Sendable {
    public let transport: any TagTransport
    public let options: NDEFExchangeOptions
    /// Called after each completed exchange with the number done so far.
    public var progress: (@Sendable (Int) -> Void)?
    /// Every step so far, in order (the raw read of a message-based logger).
    public private(set) var steps: [NDEFExchangeStep] = []
    /// Completed exchanges (a write answered, or a plain read).
    public var exchangeCount: Int { steps.count }
    private let sleep: @Sendable (Duration) async -> Void
    private let clock: @Sendable () -> Date

    /// - Parameters:
    ///   - sleep: how to wait `pollDelay` (tests and virtual tags may pass a no-op).
    ///   - clock: the host's clock, stamped on each step (a simulation passes its own).
    public init(transport: any TagTransport, options: NDEFExchangeOptions = NDEFExchangeOptions(),
                sleep: (@Sendable (Duration) async -> Void)? = nil, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.transport = transport
        self.options = options
        self.sleep = sleep ?? { duration in try? await Task.sleep(for: duration) }
        self.clock = clock
    }

    /// Reads the NDEF message now on the tag (empty `Data` for an empty TLV) and records it
    /// as a step without a write.
    /// - Throws: `NDEFExchangeError`.
    @discardableResult
    public func read() async throws -> Data {
        let message = try await readMessage()
        record(written: nil, read: message)
        return message
    }

    /// Writes `message` and reads until the tag shows an answer: a non-empty message that
    /// differs from `message` and that `isAnswer` accepts (other messages are polled past).
    /// - Returns: the answer, serialized.
    /// - Throws: `NDEFExchangeError` (`.tagRemoved` says after how many exchanges).
    public func exchange(_ message: Data, isAnswer: @Sendable (Data) -> Bool = { _ in true }) async throws -> Data {
        do {
            try await TagReader.write(message, to: transport, options: options.tagOptions)
        } catch let error as TagWriteError {
            if case .interrupted = error, await isGone() { throw NDEFExchangeError.tagRemoved(afterExchanges: exchangeCount) }
            throw NDEFExchangeError.writeFailed(error.description)
        } catch let error as TagReadError {
            if case .tagRemoved = error { throw NDEFExchangeError.tagRemoved(afterExchanges: exchangeCount) }
            throw NDEFExchangeError.writeFailed(error.description)
        }
        for _ in 0..<max(1, options.maxPolls) {
            if options.pollDelay > .zero { await sleep(options.pollDelay) }
            let answer = try await readMessage()
            if !answer.isEmpty && answer != message && isAnswer(answer) {
                record(written: message, read: answer)
                return answer
            }
        }
        throw NDEFExchangeError.noAnswer(polls: max(1, options.maxPolls), afterExchanges: exchangeCount)
    }

    /// Records a read made before this session existed (e.g. the first read that showed what
    /// the tag is), so that the steps hold the whole tap.
    public func adoptRead(_ message: Data) {
        record(written: nil, read: message)
    }

    private func record(written: Data?, read: Data) {
        steps.append(NDEFExchangeStep(written: written, read: read, time: clock()))
        progress?(steps.count)
    }

    private func readMessage() async throws -> Data {
        do {
            let result = try await TagReader.read(from: transport, options: options.tagOptions)
            if let bytes = result.ndefMessageBytes { return bytes }
            if let error = result.ndefError { throw NDEFExchangeError.readFailed("the NDEF message is malformed: \(error)") }
            return Data()
        } catch let error as TagReadError {
            if case .tagRemoved = error { throw NDEFExchangeError.tagRemoved(afterExchanges: exchangeCount) }
            if case .noAnswer = error { throw NDEFExchangeError.tagRemoved(afterExchanges: exchangeCount) }
            throw NDEFExchangeError.readFailed(error.description)
        }
    }

    /// After an interrupted write: does the tag still answer at all?
    private func isGone() async -> Bool {
        do {
            // A plain read of the first page (Type 2 READ) or block (Type 5 READ_SINGLE_BLOCK).
            let probe: [UInt8] = transport.technology == .iso14443A ? [0x30, 0x00] : [0x02, 0x20, 0x00]
            _ = try await transport.send(Data(probe), timeout: options.tagOptions.commandTimeout)
            return false
        } catch {
            return true
        }
    }
}
