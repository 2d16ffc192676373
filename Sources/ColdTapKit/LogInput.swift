import ColdTapBase
import Foundation
import LoggerFormats
import NDEF
import NFCTags

/// Loading a logger's read from bytes, whatever they hold (a tag memory dump, a Flipper
/// file, an NDEF message, a cuplTag URL, hex text, an NHS31xx transcript), and decoding it:
/// what `coldtap decode`, `report`, `archive add` and a station's upload share. The command
/// line adds its options and file reading (ColdTapCommands' `LogInput+CommandLine`).
public enum LogInput {
    /// What the bytes hold, when the caller says (else `auto`).
    public enum Kind: String, Sendable, CaseIterable {
        case auto, tag2, tag5, ndef, url, hex, flipper
        /// An NHS31xx exchange transcript, JSON Lines (docs/nhs31xx.md §7).
        case nhsTranscript = "nhs-transcript"
        /// A Berlinger Fridge-tag or Q-tag text report (docs/berlinger.md).
        case berlingerReport = "berlinger-report"
    }

    /// How to decode: what the caller says about the input.
    public struct Options: Sendable {
        public var input: Kind = .auto
        /// The read time given; `nil` uses the default (file modification time for dumps, now otherwise).
        public var readTime: Date?
        /// Where a given `readTime` came from (the user, a station's uploader, its arrival).
        public var readTimeSource: DecodeOptions.ReadTimeSource = .given
        public var secret: String?
        /// A format by name, or a logger descriptor.
        public var logger: DecodeOptions.LoggerSelection?
        /// Seconds between samples, for a log that does not say.
        public var interval: TimeInterval?
        /// Refuse a log whose sample times would be estimated from a read time that is not known.
        public var requireReadTime = false
        /// The zone of SmarTag1 dates and Berlinger report times; `nil` takes SmarTag1 dates as
        /// UTC and refuses a Berlinger report.
        public var loggerTimeZone: TimeZone?

        public init(
            input: Kind = .auto, readTime: Date? = nil, secret: String? = nil,
            logger: DecodeOptions.LoggerSelection? = nil, interval: TimeInterval? = nil
        ) {
            self.input = input
            self.readTime = readTime
            self.secret = secret
            self.logger = logger
            self.interval = interval
        }

    }

    /// A decoded log and how it was obtained.
    public struct Loaded: Sendable {
        public var log: TemperatureLog
        /// What the bytes were taken for.
        public var kind: Kind
        /// What the bytes were taken for and why (e.g. "an NDEF message (3 records)").
        public var described: InputDescription
        /// The NDEF message decoded (`nil` for a bare URL).
        public var message: NDEFMessage?
        /// FILE as given (the URL itself, or "standard input") and its bytes, for the report's audit trail.
        public var sourceName = ""
        public var sourceBytes = Data()
    }

    /// As `load(path:options:console:)`, for content already in memory.
    public static func load(content: Data, name: String, modificationTime: Date?, options: Options) async throws -> Loaded {
        guard content.contains(where: { !isWhitespace($0) }) else {
            throw InputError(.malformed, "\(name) is empty; give a tag memory dump, an NDEF message, a cuplTag URL or hex text")
        }
        var loaded = try await loadNonEmpty(content: content, name: name, modificationTime: modificationTime, options: options)
        try requireReadTime(loaded.log, options: options, name: name)
        if options.secret != nil && loaded.log.format != .cupltag {
            loaded.log.warnings.append(.secretNotUsed(format: loaded.log.format.name))
        }
        return loaded
    }

    /// With `requireReadTime`, refuses a log whose times would be estimates.
    /// - Throws: `InputError` (malformed) naming what the times would have been placed from.
    static func requireReadTime(_ log: TemperatureLog, options: Options, name: String) throws {
        guard options.requireReadTime, log.timesEstimated else { return }
        throw InputError(
            .malformed,
            "\(name): the log has no clock and the read time is not known (only \(LogExport.standInPhrase(log)) \(log.readTime.isoUTC)), so its sample times would be estimates",
            hint: .needsReadTime)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// What the caller said or the bytes show, before decoding: the kind, the bytes to
    /// decode (hex text turned into bytes), how it showed, and whether it was only a guess.
    private struct Classified {
        var kind: Kind
        var bytes: Data
        var described: InputDescription
        var guessed: Bool
    }

    private static func loadNonEmpty(content: Data, name: String, modificationTime: Date?, options: Options) async throws -> Loaded {
        let input = try classify(content, name: name, options: options)
        switch input.kind {
        case .url:
            return try loadURL(content, name: name, described: input.described, options: options)
        case .ndef:
            return try loadNDEFMessage(input, content: content, name: name, options: options)
        case .tag2, .tag5, .flipper:
            return try await loadDump(input, content: content, name: name, modificationTime: modificationTime, options: options)
        case .nhsTranscript:
            return try loadTranscript(content, name: name, described: input.described, modificationTime: modificationTime, options: options)
        case .berlingerReport:
            return try loadBerlingerReport(content, name: name, described: input.described, modificationTime: modificationTime, options: options)
        case .hex, .auto:
            throw InputError(.malformed, "\(name) holds neither an NDEF message, a tag dump nor a URL")
        }
    }

    /// Text forms first (a URL, a Flipper file, a transcript), then hex text turned into
    /// bytes, then the binary forms; a kind the caller gave is taken as given.
    private static func classify(_ content: Data, name: String, options: Options) throws -> Classified {
        var kind = options.input
        var found = ""
        if kind == .auto {
            (kind, found) = classifyText(content)
        }
        if kind == .nhsTranscript || kind == .berlingerReport {
            let described = found.isEmpty ? InputDescription(givenKind: kind) : InputDescription(found: found)
            return Classified(kind: kind, bytes: content, described: described, guessed: false)
        }
        var bytes = content
        var hexBytes: Int?
        if kind != .url && kind != .flipper && (kind == .hex || HexText.looksLikeHex(content)) {
            bytes = try HexText.parseHex(content, name: name)
            hexBytes = bytes.count
            if kind == .hex { kind = .auto }
        }
        if kind == .auto {
            let (inner, innerWhy, sure) = classifyBinary(bytes)
            return Classified(kind: inner, bytes: bytes, described: InputDescription(found: innerWhy, hexBytes: hexBytes), guessed: !sure)
        }
        let described = found.isEmpty ? InputDescription(givenKind: kind, hexBytes: hexBytes) : InputDescription(found: found)
        return Classified(kind: kind, bytes: bytes, described: described, guessed: false)
    }

    /// A cuplTag URL as the phone shared it.
    private static func loadURL(_ content: Data, name: String, described: InputDescription, options: Options) throws -> Loaded {
        guard let url = String(data: content, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines) else {
            throw InputError(.malformed, "\(name) is not text, so it cannot be a URL")
        }
        if case .named(let forced)? = options.logger, forced != "cupltag", forced != "cupltag-rh" {
            throw InputError(.misuse, "a bare URL can only be a cuplTag URL, not '\(forced)'")
        }
        do {
            let log = try LoggerDecoder.decode(url: url, options: makeDecodeOptions(options, dumpTime: nil, tagUID: nil))
            return Loaded(log: log, kind: .url, described: described, message: nil)
        } catch let error as LoggerFormatError {
            throw InputError(decoding: error)
        }
    }

    /// An NDEF message; one that does not parse says what the file plainly is when its kind
    /// was only a guess.
    private static func loadNDEFMessage(_ input: Classified, content: Data, name: String, options: Options) throws -> Loaded {
        let message: NDEFMessage
        do {
            message = try NDEFParser.message(from: input.bytes)
        } catch let error as NDEFError {
            // A SmarTag2 writes its record with the message-begin bit cleared: recognised
            // by its own record, never by loosening the parser (docs/smartag.md §4.6).
            if let image = SmarTagImage(ndefMessageBytes: input.bytes) {
                let log = try decodeSmarTag(image, options: makeDecodeOptions(options, dumpTime: nil, tagUID: nil))
                return Loaded(log: log, kind: .ndef, described: input.described, message: nil)
            }
            if input.guessed {
                if let other = LogInput.otherFileKind(content) {
                    throw InputError(
                        .malformed,
                        "\(name) is \(other), not a logger's read: give a tag memory dump, a Flipper .nfc file, an NDEF message, hex text or the cuplTag URL the phone shared"
                    )
                }
                throw InputError(
                    .malformed, "\(name) is no tag dump, URL or hex text, and read as an NDEF message it is malformed at \(error)",
                    hint: .nameInputKind)
            }
            throw InputError(.malformed, "\(name) is not a valid NDEF message: \(error)")
        }
        let log = try decode(message, options: makeDecodeOptions(options, dumpTime: nil, tagUID: nil))
        return Loaded(log: log, kind: .ndef, described: input.described, message: message)
    }

    /// A tag memory dump or a Flipper file: a SmarTag from its memory layout, anything else
    /// read through the virtual tag the dump makes, as a reader would read the tag.
    private static func loadDump(
        _ input: Classified, content: Data, name: String, modificationTime: Date?,
        options: Options
    ) async throws -> Loaded {
        let dump = try parseDump(input, content: content, name: name, options: options)
        // A copy cut short loses what the read held: it is named as such, never blamed on the tag.
        let cutOff = cutOffDescription(dump)
        // A SmarTag is read from its memory layout, not its NDEF lengths (docs/smartag.md §4.5).
        if let image = SmarTagImage(tagMemory: dump.memory) {
            if let cutOff { throw InputError(.malformed, "\(name): \(cutOff)") }
            let uid = dump.uid.map { $0.hexString() }
            let log = try decodeSmarTag(image, options: makeDecodeOptions(options, dumpTime: modificationTime, tagUID: uid))
            let taken = input.kind == .flipper ? .flipper : Kind.tag5
            let chip = (dump.chip?.displayName ?? "ST25DV") + (uid.map { ", UID \($0)" } ?? "")
            return Loaded(log: log, kind: taken, described: input.described.with(detail: chip), message: nil)
        }
        // A file that stops inside the NDEF message is a short copy, whatever the read says.
        if let truncation = truncation(of: dump) {
            throw InputError(.malformed, "\(name): \(cutOff ?? truncation + ": the dump is truncated")")
        }
        let result: TagReadResult
        do {
            result = try await TagReader.read(from: dump.transport())
        } catch let error as TagReadError {
            if let cutOff { throw InputError(.malformed, "\(name): \(cutOff)") }
            if let missing = dump.missingUnitsDescription {
                throw InputError(.malformed, "\(name): the file lacks \(missing) (unread when it was made), which the NDEF message needs: \(error)")
            }
            throw InputError(.malformed, "\(name): the tag image cannot be read: \(error)")
        }
        guard let message = result.ndefMessage else {
            if let error = result.ndefError {
                throw InputError(.malformed, "\(name): the NDEF message in the tag image is malformed at \(error)")
            }
            // Forced to the wrong tag type, a dump shows no NDEF message: say which to try.
            let other: UserHint? =
                options.input == .tag2
                ? .inputMayBe(.type5TagDump)
                : options.input == .tag5 ? .inputMayBe(.type2TagDump) : nil
            throw InputError(.malformed, "\(name): the tag image holds no NDEF message (\(result.chip.displayName))", hint: other)
        }
        let uid = result.uid.map { $0.hexString() }
        // A dump was taken when its file was written; the read time defaults to that.
        var log = try decode(message, options: makeDecodeOptions(options, dumpTime: modificationTime, tagUID: uid))
        log.warnings += result.anomalies.map { .tagImage($0.description) }
        if let cutOff { log.warnings.append(.tagImage(cutOff + "; the NDEF message was whole before that")) }
        let taken = input.kind == .flipper ? .flipper : (dump.technology == .iso14443A ? Kind.tag2 : Kind.tag5)
        let chip = result.chip.displayName + (uid.map { ", UID \($0)" } ?? "")
        return Loaded(log: log, kind: taken, described: input.described.with(detail: chip), message: message)
    }

    /// The dump's memory, checked against the tag type the caller forced.
    private static func parseDump(_ input: Classified, content: Data, name: String, options: Options) throws -> MemoryDump {
        let bytes = input.bytes
        if input.kind == .flipper && classifyText(content).0 != .flipper {
            throw InputError(.malformed, "\(name) is not a Flipper .nfc file (it does not start with 'Filetype: Flipper NFC device')")
        }
        // Forced to one tag type, a dump that is plainly of the other says what it is.
        if options.input == .tag2 || options.input == .tag5, let actual = try? MemoryDump.parse(bytes, hint: .auto),
            (actual.technology == .iso14443A) != (options.input == .tag2)
        {
            let real = actual.technology == .iso14443A ? "Type 2" : "Type 5"
            let chip = actual.chip.map { ", \($0.displayName)" } ?? ""
            throw InputError(
                .malformed, "\(name) is a \(real) tag memory dump (\(bytes.count) bytes\(chip)), not \(options.input == .tag2 ? "Type 2" : "Type 5")",
                hint: .inputKindContradicted(actual: actual.technology == .iso14443A ? .type2TagDump : .type5TagDump))
        }
        let hint: DumpHint
        switch (input.kind, options.input) {
        case (.tag2, .tag2): hint = .type2
        case (.tag5, .tag5): hint = .type5(blockSize: 4)
        default: hint = .auto
        }
        do {
            return try MemoryDump.parse(input.kind == .flipper ? content : bytes, hint: hint)
        } catch let error as MemoryDumpError {
            throw InputError(.malformed, "\(name) is not a valid tag dump: \(error.description)", hint: error.hint)
        }
    }

    /// Where a dump file that is shorter than its own header says ends, in words; `nil` for
    /// a whole file (unread pages a file marks or leaves out are not a cut).
    public static func cutOffDescription(_ dump: MemoryDump) -> String? {
        guard let cut = dump.cutOff else { return nil }
        let noun = dump.technology == .iso14443A ? "page" : "block"
        let end = cut.lastUnit >= 0 ? "after \(noun) \(cut.lastUnit)" : "before \(noun) 0"
        let place = cut.endsInsideALine ? "inside line \(cut.line), \(end)" : "\(end) (line \(cut.line))"
        let said = cut.unitsSaidRead.map { " though its header says \($0) \(noun)s were read" } ?? ""
        return "the file is cut off: it ends \(place)\(said); copy it again in full from where it was made"
    }

    /// "the file ends at page N but the NDEF message needs pages up to M" when the dump's
    /// NDEF TLV (found after the capability container, past null and control TLVs) runs past
    /// the end of the file; `nil` when it fits or the dump holds no NDEF TLV.
    public static func truncation(of dump: MemoryDump) -> String? {
        let memory = Array(dump.memory)
        let unit = max(1, dump.unitSize)
        let noun = dump.technology == .iso14443A ? "page" : "block"
        var index: Int
        if dump.technology == .iso14443A {
            index = 16  // pages 0–3: UID, lock bytes, capability container
        } else {
            // Type 5: a 4-byte capability container, or 8 bytes when its size byte is 0.
            guard memory.count >= 4, memory[0] == 0xE1 || memory[0] == 0xE2 else { return nil }
            index = memory[2] == 0 ? 8 : 4
        }
        func needs(_ endExclusive: Int) -> String {
            "the file ends at \(noun) \(memory.count / unit - 1) but the NDEF message needs \(noun)s up to \((endExclusive - 1) / unit)"
        }
        while index < memory.count {
            let type = memory[index]
            if type == 0x00 { index += 1; continue }
            if type == 0xFE { return nil }
            guard index + 1 < memory.count else { return type == 0x03 ? needs(index + 2) : nil }
            var length = Int(memory[index + 1])
            var header = 2
            if length == 0xFF {
                guard index + 3 < memory.count else { return type == 0x03 ? needs(index + 4) : nil }
                length = Int(memory[index + 2]) << 8 | Int(memory[index + 3])
                header = 4
            }
            let end = index + header + length
            if type == 0x03 { return end > memory.count ? needs(end) : nil }
            index = end
        }
        return nil
    }

    /// Decodes a message read from a tag with the caller's options.
    /// - Parameters:
    ///   - readTime: the default read time when the options give none, and where it came from.
    /// - Throws: `InputError` (malformed, or misuse for an unknown logger name).
    public static func decode(
        _ message: NDEFMessage, options: Options, readTime: Date,
        readTimeSource: DecodeOptions.ReadTimeSource, tagUID: String?
    ) throws -> TemperatureLog {
        var decodeOptions = makeDecodeOptions(options, dumpTime: nil, tagUID: tagUID)
        if options.readTime == nil {
            decodeOptions.readTime = readTime
            decodeOptions.readTimeSource = readTimeSource
        }
        return try decode(message, options: decodeOptions)
    }

    /// Decodes a SmarTag image.
    /// - Throws: `InputError` (malformed) naming the tag-memory address of what is wrong.
    public static func decodeSmarTag(_ image: SmarTagImage, options: DecodeOptions) throws -> TemperatureLog {
        do {
            return try LoggerDecoder.decode(smarTag: image, options: options)
        } catch let error as LoggerFormatError {
            throw InputError(decoding: error)
        }
    }

    public static func decode(_ message: NDEFMessage, options: DecodeOptions) throws -> TemperatureLog {
        do {
            return try LoggerDecoder.decode(message, options: options)
        } catch let error as LoggerFormatError {
            throw InputError(decoding: error)
        }
    }

    /// The `DecodeOptions` for the command-line options; a dump's time is its file's
    /// modification time, anything else defaults to now.
    public static func makeDecodeOptions(_ options: Options, dumpTime: Date?, tagUID: String?) -> DecodeOptions {
        let readTime: Date
        let source: DecodeOptions.ReadTimeSource
        if let given = options.readTime {
            (readTime, source) = (given, options.readTimeSource)
        } else if let dumpTime {
            (readTime, source) = (dumpTime, .fileModificationTime)
        } else {
            (readTime, source) = (Date(), .now)
        }
        var decodeOptions = DecodeOptions(
            readTime: readTime, readTimeSource: source, secret: options.secret, logger: options.logger,
            interval: options.interval, tagUID: tagUID)
        decodeOptions.loggerTimeZone = options.loggerTimeZone
        return decodeOptions
    }

    // MARK: What is FILE?

    /// Text forms: a URL, a Flipper `.nfc` file; otherwise undecided (`.auto`).
    public static func classifyText(_ content: Data) -> (Kind, String) {
        let head = String(decoding: content.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if head.hasPrefix("Filetype: Flipper NFC device") { return (.flipper, "a Flipper Zero .nfc file") }
        if NHSTranscript.looks(like: content) { return (.nhsTranscript, "an NHS31xx exchange transcript (JSON Lines)") }
        if BerlingerDecoder.looks(like: content) { return (.berlingerReport, "a Berlinger text report (starts with 'Device: Q-tag')") }
        let lowered = head.lowercased()
        if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") {
            return (.url, "a bare URL (text starting with \(lowered.hasPrefix("https") ? "https" : "http")://)")
        }
        return (.auto, "")
    }

    /// Binary forms: an NDEF message when it parses strictly, otherwise a tag memory dump
    /// when NFCTags recognises one (Type 2: UID check byte and CC at page 3; Type 5: CC at
    /// block 0), otherwise taken for an NDEF message (whose parse error is then reported).
    /// - Returns: the kind, why, and whether the bytes showed it (`false` for the fallback).
    public static func classifyBinary(_ bytes: Data) -> (Kind, String, Bool) {
        if let message = try? NDEFParser.message(from: bytes) {
            return (.ndef, "an NDEF message (\(message.records.count) record(s), \(bytes.count) bytes)", true)
        }
        if SmarTagImage(ndefMessageBytes: bytes) != nil {
            return (.ndef, "an NDEF message whose ST SmarTag record has the message-begin bit cleared (\(bytes.count) bytes)", true)
        }
        if let dump = try? MemoryDump.parse(bytes, hint: .auto) {
            if dump.technology == .iso14443A {
                return (.tag2, "a Type 2 tag memory dump (\(bytes.count) bytes, \(dump.unitCount) pages)", true)
            }
            return (.tag5, "a Type 5 tag memory dump (\(bytes.count) bytes, \(dump.unitCount) blocks)", true)
        }
        return (.ndef, "bytes that are no tag dump, so taken for an NDEF message", false)
    }

    /// What a file that is not a read plainly is, by its first bytes (images, documents,
    /// archives a user may pick by mistake), or text that is none of the text forms.
    public static func otherFileKind(_ content: Data) -> String? {
        let head = [UInt8](content.prefix(8))
        func starts(_ signature: [UInt8]) -> Bool { head.count >= signature.count && Array(head.prefix(signature.count)) == signature }
        let signatures: [([UInt8], String)] = [
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG image"), ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            (Array("GIF8".utf8), "a GIF image"), (Array("%PDF-".utf8), "a PDF document"), ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive"),
            ([0x50, 0x4B, 0x05, 0x06], "a ZIP archive"), ([0x1F, 0x8B], "a gzip-compressed file"), (Array("SQLite f".utf8), "an SQLite database"),
        ]
        if let match = signatures.first(where: { starts($0.0) }) { return match.1 }
        // Text: valid UTF-8 without control characters other than white space.
        // The 4 kB looked at may end inside a character: up to three bytes less.
        guard let text = (0...3).lazy.compactMap({ String(data: content.prefix(4096 - $0), encoding: .utf8) }).first,
            !text.unicodeScalars.contains(where: { $0.value < 0x20 && !["\n", "\r", "\t"].contains(Character($0)) })
        else { return nil }
        return "text that is neither hex bytes, a URL, a Flipper .nfc file nor an NHS31xx transcript"
    }

    // MARK: File reading
}

extension LogInput {
    /// Decodes an NHS31xx exchange transcript (the raw read of such a logger) into the log
    /// the read gave; its recorded reader times are the read time unless the options give one.
    /// - Throws: `InputError` (malformed) naming the line and offset of what is malformed.
    static func loadTranscript(
        _ content: Data, name: String, described: InputDescription, modificationTime: Date?,
        options: Options
    ) throws -> Loaded {
        var decodeOptions = makeDecodeOptions(options, dumpTime: modificationTime, tagUID: nil)
        if case .named(let forced)? = options.logger, forced != "nhs31xx" {
            throw InputError(.misuse, "an NHS31xx exchange transcript can only be decoded as nhs31xx, not '\(forced)'")
        }
        do {
            let transcript = try NHSTranscript.parse(content)
            decodeOptions.logger = nil
            let log = try LoggerDecoder.decode(transcript: transcript, options: decodeOptions)
            return Loaded(log: log, kind: .nhsTranscript, described: described.with(detail: "\(transcript.steps.count) steps"), message: nil)
        } catch let error as LoggerFormatError {
            throw InputError(decoding: error, context: name)
        }
    }
}

/// What an input was taken for and why, in parts, so that each front end can word the case
/// where its user named the kind (the command line says which option did).
public struct InputDescription: Sendable, Equatable {
    /// What the bytes were found to be and how it showed ("an NDEF message (3 records, 60
    /// bytes)"); `nil` when the caller named the kind.
    public var found: String?
    /// The kind the caller named, when the bytes were taken as that.
    public var givenKind: LogInput.Kind?
    /// The number of bytes, when the input was hex text holding them.
    public var hexBytes: Int?
    /// What the reading showed besides: the chip and UID of a dump, the steps of a transcript.
    public var detail: String?

    public init(found: String? = nil, givenKind: LogInput.Kind? = nil, hexBytes: Int? = nil, detail: String? = nil) {
        self.found = found
        self.givenKind = givenKind
        self.hexBytes = hexBytes
        self.detail = detail
    }

    func with(detail: String) -> InputDescription {
        var copy = self
        copy.detail = detail
        return copy
    }

    /// One phrase, e.g. "hex text (60 bytes) holding an NDEF message (3 records, 60 bytes)";
    /// `given` words a kind the caller named.
    public func text(given: (LogInput.Kind) -> String) -> String {
        (hexBytes.map { "hex text (\($0) bytes) holding " } ?? "") + (found ?? givenKind.map(given) ?? "")
            + (detail.map { " (\($0))" } ?? "")
    }
}
