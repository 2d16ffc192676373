import ColdTapBase
import Foundation
import LoggerFormats
import LoggerSessions
import NDEF
import NFCTags

/// What a complete read of a logger gave.
public struct LoggerRead: Sendable {
    /// The tag read: its chip, UID and NDEF message (for an NHS31xx, the initial message).
    public var result: TagReadResult
    public var log: TemperatureLog
    public var readTime: Date
    /// What the archive keeps as the raw read when it is not the NDEF message read from the
    /// tag: for a logger that answers commands, the exchange transcript (JSON Lines).
    public var transcript: Data?
    /// For a logger that writes its tag's memory itself (ST SmarTag, docs/smartag.md): the
    /// memory read, which alone decodes to the log (its NDEF message may not).
    public var memory: MemoryDump?
    /// An NHS31xx read in automatic mode (its write was refused): read-only, successive reads.
    public var automaticMode = false

    /// The raw read that decodes to the log, as the archive, the station and the report's
    /// audit keep it: the transcript, the SmarTag memory as a Flipper file (its UID with it),
    /// or the NDEF message; `nil` when the tag held none.
    public var rawRead: (bytes: Data, kind: LogInput.Kind)? {
        if let transcript { return (transcript, .nhsTranscript) }
        if let memory { return (Data(memory.flipperText().utf8), .flipper) }
        return result.ndefMessageBytes.map { (Data($0), .ndef) }
    }
}

/// A tag that held no log to decode, although it answered.
public enum LoggerReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The tag holds no NDEF message (`chip` names it).
    case noNDEFMessage(chip: String)
    /// The tag's NDEF message does not parse.
    case malformedMessage(chip: String, detail: String)

    public var description: String {
        switch self {
        case .noNDEFMessage(let chip): return "the \(chip) holds no NDEF message, so there is no log to decode"
        case .malformedMessage(let chip, let detail): return "the NDEF message on the \(chip) is malformed: \(detail)"
        }
    }
}

/// Secret keys for loggers that sign their data (cuplTag), by label: a logger's serial
/// number or its tag's UID in hex, as a user files them.
public struct SecretKeys: Sendable, Equatable {
    public var byLabel: [String: String]

    public init(byLabel: [String: String] = [:]) {
        self.byLabel = byLabel
    }

    /// The key for a tag before decoding: by its UID, or the only key when there is one.
    func key(tagUID: String?) -> String? {
        tagUID.flatMap { byLabel[$0] } ?? (byLabel.count == 1 ? byLabel.values.first : nil)
    }
}

/// How far a read has got, for a progress display.
public enum LoggerReadProgress: Sendable {
    /// The tag's NDEF message (or memory) being read.
    case tag(TagReadProgress)
    /// An NHS31xx readout, step by step.
    case commands(NHSReadProgress)

    /// 0…1 when known.
    public var fraction: Double? {
        switch self {
        case .tag(let step): return step.fraction
        case .commands(let step): return NHSTap.fraction(step)
        }
    }
}

/// From tag to log over any transport (Core NFC, a PC/SC reader, a virtual tag): NFCTags
/// reads the NDEF message in as few round trips as the chip and link allow, LoggerFormats
/// decodes it. A SmarTag's whole memory is read when its record shows. A logger that answers
/// commands (NXP NHS31xx) shows an initial message instead: LoggerSessions reads it out over
/// the same connection, in automatic mode when writing is refused. What the command line's
/// `read` and the iPhone app do with one tap.
public struct LoggerReader: Sendable {
    /// The decode options (a given read time, logger, interval, secret).
    public var options: LogInput.Options
    /// Keys tried when `options.secret` is not given.
    public var secrets: SecretKeys
    /// The tag commands: strategy, timeouts, retries, resumption.
    public var tagOptions: TagReadOptions
    /// An NHS31xx exchange: the wait for the firmware's answer, and the tag commands.
    public var exchangeOptions: NDEFExchangeOptions
    /// Read NHS31xx loggers through `ReadOnlyTransport`: never written, so in automatic mode.
    public var readLoggersWithoutWriting: Bool

    public init(
        options: LogInput.Options = LogInput.Options(), secrets: SecretKeys = SecretKeys(),
        tagOptions: TagReadOptions = TagReadOptions(), exchangeOptions: NDEFExchangeOptions = NHSTap.defaultOptions,
        readLoggersWithoutWriting: Bool = false
    ) {
        self.options = options
        self.secrets = secrets
        self.tagOptions = tagOptions
        self.exchangeOptions = exchangeOptions
        self.readLoggersWithoutWriting = readLoggersWithoutWriting
    }

    /// Reads and decodes one logger.
    /// - Parameters:
    ///   - progress: how far the read has got.
    ///   - keep: when given, handed the read as a file once it is complete and before it is
    ///     decoded (a tag that is no logger is still worth a file): an NHS31xx's transcript,
    ///     else the tag's whole memory as a Flipper file (read for it when the log did not
    ///     need it). Decoding that file gives the same log.
    /// - Throws: `TagReadError` (the tag left or refused; nothing was kept), `NHSSessionError`,
    ///   `LoggerReadError` when the tag holds no message, `InputError` when its message is
    ///   not a log this ColdTap decodes, or what `keep` throws.
    public func read(
        from transport: any TagTransport, progress: @escaping @Sendable (LoggerReadProgress) -> Void = { _ in },
        keep: ((Data) throws -> Void)? = nil
    ) async throws -> LoggerRead {
        // A SmarTag's log is bounded by its memory layout, not by its NDEF lengths
        // (docs/smartag.md §4.5): seeing its record, the rest of the memory is read too.
        let (result, memory) = try await TagReader.readNDEFThenMemory(
            from: transport, options: tagOptions,
            progress: { progress(.tag($0)) }
        ) { result in
            result.ndefMessageBytes.map { SmarTagImage(ndefMessageBytes: $0) != nil } ?? false
        }
        if let message = result.ndefMessage, NHSLoggerSession.isInitialMessage(message), let initial = result.ndefMessageBytes {
            return try await readCommandLogger(transport, initial: initial, result: result, progress: progress, keep: keep)
        }
        if let keep {
            var whole = memory
            if whole == nil { whole = try await TagReader.dump(transport, options: tagOptions) }
            if let whole { try keep(Data(whole.flipperText().utf8)) }
        }
        // Whole seconds, so that decoding a saved file of the read with this read time gives the same log.
        let readTime = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let uid = result.uid.map { $0.hexString() }
        if let memory, let image = SmarTagImage(tagMemory: memory.memory) {
            var decodeOptions = LogInput.makeDecodeOptions(options, dumpTime: nil, tagUID: uid)
            if options.readTime == nil { (decodeOptions.readTime, decodeOptions.readTimeSource) = (readTime, .tagRead) }
            decodeOptions.secret = decodeOptions.secret ?? secrets.key(tagUID: uid)
            // No NDEF anomalies: the log was not read through the NDEF view, and decoding the
            // saved memory gives the same log.
            let log = try LogInput.decodeSmarTag(image, options: decodeOptions)
            return LoggerRead(result: result, log: log, readTime: readTime, memory: memory)
        }
        guard let bytes = result.ndefMessageBytes else {
            throw LoggerReadError.noNDEFMessage(chip: result.chip.displayName)
        }
        guard let message = result.ndefMessage else {
            let detail = result.ndefError.map { "\($0)" } ?? "\(bytes.count) bytes that do not parse"
            throw LoggerReadError.malformedMessage(chip: result.chip.displayName, detail: detail)
        }
        var log = try decode(message, readTime: readTime, tagUID: uid)
        // Worded as loading a dump words them, so both give the same log.
        log.warnings += result.anomalies.map { .tagImage($0.description) }
        return LoggerRead(result: result, log: log, readTime: readTime)
    }

    /// Decodes a message with the given secret, else the key filed for the tag's UID (or the
    /// only key); a log that then names a serial with a key of its own is decoded again with it.
    public func decode(_ message: NDEFMessage, readTime: Date, tagUID: String?) throws -> TemperatureLog {
        var given = options
        given.secret = options.secret ?? secrets.key(tagUID: tagUID)
        let log = try LogInput.decode(message, options: given, readTime: readTime, readTimeSource: .tagRead, tagUID: tagUID)
        if given.secret == nil, let serial = log.logger.serial, let secret = secrets.byLabel[serial] {
            given.secret = secret
            return try LogInput.decode(message, options: given, readTime: readTime, readTimeSource: .tagRead, tagUID: tagUID)
        }
        return log
    }

    /// The readout of an NHS31xx (docs/nhs31xx.md §8), the log decoded from its transcript,
    /// so that decoding the saved transcript gives the same log. The reader's clock is the
    /// given read time when there is one (the clock of a simulated tag), else whole seconds.
    private func readCommandLogger(
        _ transport: any TagTransport, initial: Data, result: TagReadResult,
        progress: @escaping @Sendable (LoggerReadProgress) -> Void,
        keep: ((Data) throws -> Void)?
    ) async throws -> LoggerRead {
        var decodeOptions = LogInput.makeDecodeOptions(options, dumpTime: nil, tagUID: nil)
        decodeOptions.logger = nil
        let given = options.readTime
        let link: any TagTransport = readLoggersWithoutWriting ? ReadOnlyTransport(transport) : transport
        let tap: NHSTapRead
        do {
            tap = try await NHSTap.read(
                link, initialMessage: initial, decodeOptions: decodeOptions, options: exchangeOptions,
                clock: { given ?? NHSTap.wholeSecondClock() }, progress: { progress(.commands($0)) },
                keep: keep.map { keep in { try keep(Data($0.jsonLines.utf8)) } })
        } catch let error as LoggerFormatError {
            throw InputError(decoding: error)
        }
        let transcript = Data(tap.transcript.jsonLines.utf8)
        return LoggerRead(
            result: result, log: tap.log, readTime: tap.transcript.lastTime ?? Date(), transcript: transcript,
            automaticMode: tap.automaticMode)
    }
}
