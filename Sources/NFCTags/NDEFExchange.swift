import ColdTapBase
import Foundation
import NDEF

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

/// Reads and writes whole NDEF messages on one tag: a raw tag link (`TransportMessageLink`)
/// or a phone's NDEF API (Core NFC's `NFCNDEFTag` read/write), so message-based protocols run
/// over either.
public protocol NDEFMessageLink: Sendable {
    /// The NDEF message now on the tag, serialized; empty `Data` for an empty TLV.
    /// - Throws: `NDEFExchangeError` (`.tagRemoved`, `.readFailed`).
    func readMessage() async throws -> Data
    /// Writes a serialized NDEF message, its length last.
    /// - Throws: `NDEFExchangeError` (`.tagRemoved`, `.writeFailed`).
    func writeMessage(_ message: Data) async throws
}

/// Talks to a tag that answers NDEF messages with NDEF messages (e.g. NXP NHS31xx loggers,
/// docs/nhs31xx.md §1.3–§1.4): write a message, then read until the message on the tag is
/// an answer. Works over any `NDEFMessageLink`, and so over any `TagTransport` (a reader, a
/// phone's raw tag link, a virtual tag).
public final class NDEFExchangeSession: @unchecked Sendable {
    public let link: any NDEFMessageLink
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
    public init(
        link: any NDEFMessageLink, options: NDEFExchangeOptions = NDEFExchangeOptions(),
        sleep: (@Sendable (Duration) async -> Void)? = nil, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.link = link
        self.options = options
        self.sleep = sleep ?? { duration in try? await Task.sleep(for: duration) }
        self.clock = clock
    }

    /// Over a raw tag link: the Type 2 / Type 5 engines, then the Type 2 fast path.
    public convenience init(
        transport: any TagTransport, options: NDEFExchangeOptions = NDEFExchangeOptions(),
        sleep: (@Sendable (Duration) async -> Void)? = nil, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            link: TransportMessageLink(transport: transport, options: options.tagOptions), options: options,
            sleep: sleep, clock: clock)
    }

    /// Reads the NDEF message now on the tag (empty `Data` for an empty TLV) and records it
    /// as a step without a write.
    /// - Throws: `NDEFExchangeError`.
    @discardableResult
    public func read() async throws -> Data {
        let message = try await counted { try await link.readMessage() }
        record(written: nil, read: message)
        return message
    }

    /// Writes `message` and reads until the tag shows an answer: a non-empty message that
    /// differs from `message` and that `isAnswer` accepts (other messages are polled past).
    /// - Returns: the answer, serialized.
    /// - Throws: `NDEFExchangeError` (`.tagRemoved` says after how many exchanges).
    public func exchange(_ message: Data, isAnswer: @Sendable (Data) -> Bool = { _ in true }) async throws -> Data {
        try await counted { try await link.writeMessage(message) }
        for _ in 0..<max(1, options.maxPolls) {
            if options.pollDelay > .zero { await sleep(options.pollDelay) }
            let answer = try await counted { try await link.readMessage() }
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

    /// Puts this session's exchange count into the link's removal errors.
    private func counted<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch NDEFExchangeError.tagRemoved {
            throw NDEFExchangeError.tagRemoved(afterExchanges: exchangeCount)
        }
    }
}

/// `NDEFMessageLink` over a raw `TagTransport`: the first read and write go through the
/// Type 2 / Type 5 engines (which write the TLV length as 0 first and the real length last);
/// once a Type 2 read has shown where the NDEF TLV sits, messages are written and read on
/// those pages only (`Type2Slot`).
public final class TransportMessageLink: NDEFMessageLink, @unchecked Sendable {
    public let transport: any TagTransport
    public let options: TagReadOptions
    private let slot = LockedValue<Type2Slot?>(nil)

    public init(transport: any TagTransport, options: TagReadOptions = TagReadOptions()) {
        self.transport = transport
        self.options = options
    }

    private var type2Slot: Type2Slot? {
        get { slot.current }
        set { slot.exchange(newValue) }
    }

    public func readMessage() async throws -> Data {
        if let fast = type2Slot {
            do {
                return try await fast.read(transport, options: options)
            } catch Type2Slot.Failure.removed {
                throw NDEFExchangeError.tagRemoved(afterExchanges: 0)
            } catch {
                type2Slot = nil  // fall back to the full read below
            }
        }
        do {
            let result = try await TagReader.read(from: transport, options: options)
            learnSlot(from: result)
            if let bytes = result.ndefMessageBytes { return bytes }
            if let error = result.ndefError { throw NDEFExchangeError.readFailed("the NDEF message is malformed: \(error)") }
            return Data()
        } catch let error as TagReadError {
            if case .tagRemoved = error { throw NDEFExchangeError.tagRemoved(afterExchanges: 0) }
            if case .noAnswer = error { throw NDEFExchangeError.tagRemoved(afterExchanges: 0) }
            throw NDEFExchangeError.readFailed(error.description)
        }
    }

    public func writeMessage(_ message: Data) async throws {
        if let fast = type2Slot {
            do {
                try await fast.write(message, to: transport, options: options)
                return
            } catch Type2Slot.Failure.removed {
                throw NDEFExchangeError.tagRemoved(afterExchanges: 0)
            } catch {
                type2Slot = nil  // the slot moved or the tag refused: the full engine decides
            }
        }
        do {
            try await TagReader.write(message, to: transport, options: options)
        } catch let error as TagWriteError {
            if case .interrupted = error, await isGone() { throw NDEFExchangeError.tagRemoved(afterExchanges: 0) }
            throw NDEFExchangeError.writeFailed(error.description)
        } catch let error as TagReadError {
            if case .tagRemoved = error { throw NDEFExchangeError.tagRemoved(afterExchanges: 0) }
            throw NDEFExchangeError.writeFailed(error.description)
        }
    }

    private func learnSlot(from result: TagReadResult) {
        guard result.technology == .iso14443A, let cc = result.capabilityContainer, cc.isWritable,
            let area = result.dataArea, let tlv = result.tlvs.first(where: { $0.kind == .ndef })
        else { return }
        type2Slot = Type2Slot(tlvOffset: tlv.offset, areaEnd: area.upperBound)
    }

    /// After an interrupted write: does the tag still answer at all?
    private func isGone() async -> Bool {
        do {
            // A plain read of the first page (Type 2 READ) or block (Type 5 READ_SINGLE_BLOCK).
            let probe: [UInt8] = transport.technology == .iso14443A ? [0x30, 0x00] : [0x02, 0x20, 0x00]
            _ = try await transport.send(Data(probe), timeout: options.commandTimeout)
            return false
        } catch {
            return true
        }
    }
}

/// The NDEF TLV slot of a Type 2 tag whose layout a full read has shown: later exchanges write
/// and read only the TLV's pages with WRITE and READ, instead of identifying the chip and
/// walking the TLVs again for each message. The write order is the data pages, then the page
/// holding the TLV header (the length) last, so firmware that reacts to the length page sees
/// a complete message, and a write torn before that page leaves the old message in place.
struct Type2Slot: Sendable {
    enum Failure: Error { case removed, refused }

    /// Byte offset of the TLV's tag byte (`03`).
    let tlvOffset: Int
    /// End of the data area (bytes).
    let areaEnd: Int

    private func send(_ transport: any TagTransport, _ command: [UInt8], options: TagReadOptions) async throws -> [UInt8] {
        var attempts = 0
        while true {
            attempts += 1
            do {
                return Array(try await transport.send(Data(command), timeout: options.commandTimeout))
            } catch TransportError.tagRemoved {
                throw Failure.removed
            } catch {
                if attempts >= max(1, options.maxAttempts) { throw Failure.removed }
            }
        }
    }

    private func readPages(_ transport: any TagTransport, from page: Int, options: TagReadOptions) async throws -> [UInt8] {
        let answer = try await send(transport, [0x30, UInt8(page & 0xFF)], options: options)
        guard answer.count == 16 else { throw Failure.refused }
        return answer
    }

    func read(_ transport: any TagTransport, options: TagReadOptions) async throws -> Data {
        let firstPage = tlvOffset / 4
        var bytes = try await readPages(transport, from: firstPage, options: options)
        let start = tlvOffset % 4
        guard bytes[start] == 0x03 else { throw Failure.refused }
        var length = Int(bytes[start + 1])
        var value = start + 2
        if length == 0xFF {
            length = Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
            value = start + 4
        }
        guard tlvOffset + (value - start) + length <= areaEnd else { throw Failure.refused }
        var page = firstPage + 4
        while bytes.count < value + length {
            bytes += try await readPages(transport, from: page, options: options)
            page += 4
        }
        return Data(bytes[value..<(value + length)])
    }

    func write(_ message: Data, to transport: any TagTransport, options: TagReadOptions) async throws {
        let header: [UInt8] =
            message.count <= 254
            ? [0x03, UInt8(message.count)]
            : [0x03, 0xFF, UInt8(message.count >> 8), UInt8(message.count & 0xFF)]
        var tlv = header + [UInt8](message) + [0xFE]
        guard tlvOffset + tlv.count <= areaEnd else { throw Failure.refused }
        let firstPage = tlvOffset / 4
        // The bytes before the TLV in its first page stay as they are.
        let lead = tlvOffset % 4
        if lead > 0 {
            let current = try await readPages(transport, from: firstPage, options: options)
            tlv = Array(current[0..<lead]) + tlv
        }
        while tlv.count % 4 != 0 { tlv.append(0x00) }
        let pages = (0..<(tlv.count / 4)).map { (firstPage + $0, Array(tlv[($0 * 4)..<($0 * 4 + 4)])) }
        for (page, bytes) in pages.dropFirst() + pages.prefix(1) {
            let answer = try await send(transport, [0xA2, UInt8(page & 0xFF)] + bytes, options: options)
            guard answer.count == 1, answer[0] & 0x0F == 0x0A else { throw Failure.refused }
        }
    }
}
