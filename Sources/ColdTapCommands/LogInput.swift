import ColdTapBase
import Foundation
import LoggerFormats
import NDEF
import NFCTags

/// The part of `coldtap decode` that `coldtap report` and `coldtap read` share: the decode
/// options on the command line, loading FILE (whatever it holds), and decoding it.
public enum LogInput {
    /// What FILE holds (`--input`).
    public enum Kind: String, Sendable, CaseIterable {
        case auto, tag2, tag5, ndef, url, hex, flipper
        /// An NHS31xx exchange transcript, JSON Lines (docs/nhs31xx.md §7).
        case nhsTranscript = "nhs-transcript"
    }

    /// The decode options as `decode` and `report` declare them; `read` leaves out `--input`
    /// and `--require-read-time` (a reader knows what it read and when).
    public static let optionSpecs: [OptionSpec] = [
        .value("--input", placeholder: "KIND", help: "what FILE holds, instead of working it out",
               default: "auto", choices: { Kind.allCases.map(\.rawValue) }),
    ] + readOptionSpecs.prefix(1) + [
        .flag("--require-read-time",
              help: "refuse a log whose sample times would be estimates (it has no clock and no --read-time is given)"),
    ] + readOptionSpecs.dropFirst()

    /// The decode options `read` takes.
    public static let readOptionSpecs: [OptionSpec] = [
        .value("--read-time", placeholder: "ISO8601",
               help: "when the tag was read, e.g. 2024-04-09T08:35:00Z; a log without a clock is dated from it",
               default: "a dump file's modification time, else now (both said as estimates)"),
        .value("--secret", placeholder: "K", help: "the cuplTag's HMAC-MD5 key (ASCII): checks that the log was not altered"),
        .value("--logger", placeholder: "NAME|FILE",
               help: "decode as this logger format, or with this logger descriptor .json ('coldtap formats' lists both)",
               default: "auto-detected", choices: { LoggerDecoder.builtInNames + ["cupltag-rh"] }, path: true),
        .value("--interval", placeholder: "S", help: "seconds between samples, for a log that does not say (0 < S ≤ 2678400)"),
        .value("--logger-tz", placeholder: "ZONE",
               help: "the time zone of a logger's wall-clock dates that carry none (SmarTag1), e.g. Europe/Paris or +02:00",
               default: "UTC"),
    ]

    /// The decode options of the command line.
    public struct Options: Sendable {
        public var input: Kind = .auto
        /// `--read-time`; `nil` uses the default (file modification time for dumps, now otherwise).
        public var readTime: Date?
        /// Where `readTime` came from when it is not `--read-time` (a station's upload).
        public var readTimeSource: DecodeOptions.ReadTimeSource = .given
        public var secret: String?
        /// `--logger NAME|FILE`.
        public var logger: DecodeOptions.LoggerSelection?
        /// `--interval SECONDS`.
        public var interval: TimeInterval?
        /// `--require-read-time`: refuse a log whose sample times would be estimated from a
        /// read time that is not known.
        public var requireReadTime = false
        /// `--logger-tz ZONE`: the zone of SmarTag1 dates; `nil` takes them as UTC.
        public var loggerTimeZone: TimeZone?

        public init(input: Kind = .auto, readTime: Date? = nil, secret: String? = nil,
                    logger: DecodeOptions.LoggerSelection? = nil, interval: TimeInterval? = nil) {
            self.input = input
            self.readTime = readTime
            self.secret = secret
            self.logger = logger
            self.interval = interval
        }

        /// Takes `--input`, `--read-time`, `--secret`, `--logger`, `--interval` from `arguments`.
        /// - Throws: `CommandError` (usage) for a bad value; (data error) for a logger
        ///   descriptor file that is invalid, naming the field.
        public static func parse(_ arguments: inout Arguments) throws -> Options {
            var options = Options()
            if arguments.declares("--input"), let input = try arguments.option("--input") {
                guard let kind = Kind(rawValue: input.lowercased()) else {
                    throw CommandError.usage("--input must be one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")), not '\(input)'.")
                }
                options.input = kind
            }
            if let text = try arguments.option("--read-time") {
                guard let date = parseReadTime(text) else {
                    throw CommandError.usage("--read-time '\(text)' is not an ISO 8601 date-time with a time zone; write it like 2024-04-09T08:35:00Z or 2024-04-09T10:35:00+02:00.")
                }
                // A day of slack for clocks and zones, as the station allows an upload.
                let now = Date()
                guard date <= now.addingTimeInterval(86_400) else {
                    throw CommandError.usage("--read-time \(date.isoUTC) is more than a day after this computer's clock (\(now.isoUTC)): a read cannot have been made later than now. Check the date and its time zone.")
                }
                options.readTime = date
            }
            options.secret = try arguments.option("--secret")
            if let text = try arguments.option("--interval") {
                let longest = DecodeOptions.longestPlausibleInterval
                guard let seconds = Double(text), seconds > 0, seconds <= longest else {
                    throw CommandError.usage("--interval takes a number of seconds above 0 and up to \(Int(longest)) (31 days), not '\(text)'.")
                }
                options.interval = seconds
            }
            if let logger = try arguments.option("--logger") {
                options.logger = try loggerSelection(logger)
            }
            options.requireReadTime = arguments.declares("--require-read-time") && arguments.flag("--require-read-time")
            if arguments.declares("--logger-tz"), let text = try arguments.option("--logger-tz") {
                guard let zone = parseTimeZone(text) else {
                    throw CommandError.usage("--logger-tz '\(text)' is not a time zone; give a name like Europe/Paris or UTC, or an offset like +02:00.")
                }
                options.loggerTimeZone = zone
            }
            return options
        }

        /// An IANA zone name (`Europe/Paris`, `UTC`) or a fixed offset `±HH:MM` / `±HHMM`.
        static func parseTimeZone(_ text: String) -> TimeZone? {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let sign = trimmed.first, sign == "+" || sign == "-" {
                let digits = trimmed.dropFirst().filter { $0 != ":" }
                guard digits.count == 4, digits.allSatisfy(\.isASCII), let value = Int(digits) else { return nil }
                let (hours, minutes) = (value / 100, value % 100)
                guard hours <= 14, minutes < 60 else { return nil }
                return TimeZone(secondsFromGMT: (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
            }
            guard !trimmed.isEmpty, trimmed.count <= 64, trimmed.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/_+-".contains($0)) }) else {
                return nil
            }
            return TimeZone(identifier: trimmed)
        }

        /// `NAME` of a built-in format, or a descriptor file (a path ending in `.json` or an existing file).
        static func loggerSelection(_ text: String) throws -> DecodeOptions.LoggerSelection {
            let known = LoggerDecoder.builtInNames + ["cupltag-rh"]
            if known.contains(text.lowercased()) { return .named(text.lowercased()) }
            if text.hasSuffix(".json") || FileManager.default.fileExists(atPath: text) {
                // Read here, so that a missing file or a directory gets the same message as FILE.
                let data = try InputBytes.readFile(text)
                do {
                    return .descriptor(try LoggerDescriptor.parse(data, source: URL(fileURLWithPath: text).lastPathComponent))
                } catch let error as LoggerFormatError {
                    throw CommandError.data(HintWording.describe(error) + ".")
                }
            }
            throw CommandError.usage("--logger '\(text)' is neither a known format (\(known.joined(separator: ", "))) nor a descriptor file.")
        }

        /// ISO 8601 with `Z` or an offset, fractional seconds allowed.
        static func parseReadTime(_ text: String) -> Date? { ISO8601Time.parse(text) }
    }

    /// A decoded log and how it was obtained.
    public struct Loaded: Sendable {
        public var log: TemperatureLog
        /// What FILE was taken for.
        public var kind: Kind
        /// One phrase: what FILE was taken for and why (e.g. "an NDEF message (3 records)").
        public var inputDescription: String
        /// The NDEF message decoded (`nil` for a bare URL).
        public var message: NDEFMessage?
        /// FILE as given (the URL itself, or "standard input") and its bytes, for the report's audit trail.
        public var sourceName = ""
        public var sourceBytes = Data()
    }

    /// Loads FILE (`-` = standard input), works out what it holds unless `options.input`
    /// says, and decodes the log.
    /// - Throws: `CommandError`: `.dataError` (65) for malformed data, naming what and
    ///   where; `.usage` for a forced `--input` that does not fit; `.failure` when FILE
    ///   cannot be read.
    public static func load(path: String, options: Options, console: Console) async throws -> Loaded {
        // A phone shares a cuplTag reading as its URL: take one given in place of FILE as is.
        if isURLArgument(path) {
            var loaded = try await load(content: Data(path.utf8), name: "the URL given on the command line",
                                        modificationTime: nil, options: options)
            (loaded.sourceName, loaded.sourceBytes) = (path, Data(path.utf8))
            return loaded
        }
        let content = try readFile(path, console: console)
        let modified = path == "-" ? nil
            : (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        let name = path == "-" ? "standard input" : "'\(path)'"
        var loaded = try await load(content: content, name: name, modificationTime: modified, options: options)
        (loaded.sourceName, loaded.sourceBytes) = (path == "-" ? "standard input" : path, content)
        return loaded
    }

    /// As `load(path:options:console:)`, for content already in memory.
    public static func load(content: Data, name: String, modificationTime: Date?, options: Options) async throws -> Loaded {
        guard content.contains(where: { !isWhitespace($0) }) else {
            throw CommandError.data("\(name) is empty; give a tag memory dump, an NDEF message, a cuplTag URL or hex text.")
        }
        var loaded = try await loadNonEmpty(content: content, name: name, modificationTime: modificationTime, options: options)
        try requireReadTime(loaded.log, options: options, name: name)
        if options.secret != nil && loaded.log.format != .cupltag {
            loaded.log.warnings.append(HintWording.worded(.secretNotUsed(format: loaded.log.format.name)))
        }
        return loaded
    }

    /// With `--require-read-time`, refuses a log whose times would be estimates.
    /// - Throws: `CommandError` (data error) naming what the times would have been placed from.
    static func requireReadTime(_ log: TemperatureLog, options: Options, name: String) throws {
        guard options.requireReadTime, log.timesEstimated else { return }
        throw CommandError.data("\(name): the log has no clock and the read time is not known (only \(LogExport.standInPhrase(log)) \(log.readTime.isoUTC)), so its sample times would be estimates; give the read time with --read-time ISO8601, or leave out --require-read-time.")
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func loadNonEmpty(content: Data, name: String, modificationTime: Date?, options: Options) async throws -> Loaded {
        var kind = options.input
        var guessed = false
        var bytes = content
        var why = ""
        if kind == .auto {
            (kind, why) = classifyText(content)
        }
        var hexNote = ""
        if kind == .nhsTranscript {
            return try loadTranscript(content, name: name, why: why.isEmpty ? "an NHS31xx exchange transcript (given with --input)" : why,
                                      modificationTime: modificationTime, options: options)
        }
        if kind != .url && kind != .flipper && (kind == .hex || InputBytes.looksLikeHex(content)) {
            bytes = try InputBytes.parseHex(content, name: name)
            hexNote = "hex text (\(bytes.count) bytes) holding "
            if kind == .hex { kind = .auto }
        }
        if kind == .auto {
            let (inner, innerWhy, sure) = classifyBinary(bytes)
            kind = inner
            why = hexNote + innerWhy
            guessed = !sure
        } else if why.isEmpty {
            why = hexNote + "\(kind.rawValue) (given with --input)"
        }

        switch kind {
        case .url:
            guard let url = String(data: content, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines) else {
                throw CommandError.data("\(name) is not text, so it cannot be a URL.")
            }
            let decodeOptions = makeDecodeOptions(options, dumpTime: nil, tagUID: nil)
            let log: TemperatureLog
            if case .named(let forced)? = options.logger, forced != "cupltag", forced != "cupltag-rh" {
                throw CommandError.usage("a bare URL can only be a cuplTag URL, not '\(forced)'.")
            }
            do {
                log = HintWording.worded(try LoggerDecoder.decode(url: url, options: decodeOptions))
            } catch let error as LoggerFormatError {
                throw commandError(error)
            }
            return Loaded(log: log, kind: .url, inputDescription: why.isEmpty ? "a bare URL" : why, message: nil)
        case .ndef:
            let message: NDEFMessage
            do {
                message = try NDEFParser.message(from: bytes)
            } catch let error as NDEFError {
                // A SmarTag2 writes its record with the message-begin bit cleared: recognised
                // by its own record, never by loosening the parser (docs/smartag.md §4.6).
                if let image = SmarTagImage(ndefMessageBytes: bytes) {
                    let log = try decodeSmarTag(image, options: makeDecodeOptions(options, dumpTime: nil, tagUID: nil))
                    return Loaded(log: log, kind: .ndef, inputDescription: why, message: nil)
                }
                if guessed {
                    if let other = LogInput.otherFileKind(content) {
                        throw CommandError.data("\(name) is \(other), not a logger's read: give a tag memory dump, a Flipper .nfc file, an NDEF message, hex text or the cuplTag URL the phone shared.")
                    }
                    throw CommandError.data("\(name) is no tag dump, URL or hex text, and read as an NDEF message it is malformed at \(error); if you know what it holds, say so with --input.")
                }
                throw CommandError.data("\(name) is not a valid NDEF message: \(error).")
            }
            let log = try decode(message, options: makeDecodeOptions(options, dumpTime: nil, tagUID: nil))
            return Loaded(log: log, kind: .ndef, inputDescription: why, message: message)
        case .tag2, .tag5, .flipper:
            if kind == .flipper && classifyText(content).0 != .flipper {
                throw CommandError.data("\(name) is not a Flipper .nfc file (it does not start with 'Filetype: Flipper NFC device').")
            }
            // Forced to one tag type, a dump that is plainly of the other says what it is.
            if options.input == .tag2 || options.input == .tag5, let actual = try? MemoryDump.parse(bytes, hint: .auto),
               (actual.technology == .iso14443A) != (options.input == .tag2) {
                let real = actual.technology == .iso14443A ? "Type 2" : "Type 5"
                let chip = actual.chip.map { ", \($0.displayName)" } ?? ""
                throw CommandError.data("\(name) is a \(real) tag memory dump (\(bytes.count) bytes\(chip)), not \(options.input == .tag2 ? "Type 2" : "Type 5"): give --input \(real == "Type 2" ? "tag2" : "tag5"), or leave --input out.")
            }
            let hint: DumpHint
            switch (kind, options.input) {
            case (.tag2, .tag2): hint = .type2
            case (.tag5, .tag5): hint = .type5(blockSize: 4)
            default: hint = .auto
            }
            let dump: MemoryDump
            do {
                dump = try MemoryDump.parse(kind == .flipper ? content : bytes, hint: hint)
            } catch let error as MemoryDumpError {
                throw CommandError.data("\(name) is not a valid tag dump: \(HintWording.describe(error)).")
            }
            // A SmarTag is read from its memory layout, not its NDEF lengths (docs/smartag.md §4.5).
            if let image = SmarTagImage(tagMemory: dump.memory) {
                let uid = dump.uid.map { $0.hexString() }
                let log = try decodeSmarTag(image, options: makeDecodeOptions(options, dumpTime: modificationTime, tagUID: uid))
                let taken = kind == .flipper ? .flipper : Kind.tag5
                let chip = (dump.chip?.displayName ?? "ST25DV") + (uid.map { ", UID \($0)" } ?? "")
                return Loaded(log: log, kind: taken, inputDescription: why + " (\(chip))", message: nil)
            }
            // A file that stops inside the NDEF message is a short copy, whatever the read says.
            if let truncation = truncation(of: dump) {
                throw CommandError.data("\(name): \(truncation): the dump is truncated.")
            }
            let result: TagReadResult
            do {
                result = try await TagReader.read(from: dump.transport())
            } catch let error as TagReadError {
                if let missing = dump.missingUnitsDescription {
                    throw CommandError.data("\(name): the file lacks \(missing) (unread when it was made), which the NDEF message needs: \(error).")
                }
                throw CommandError.data("\(name): the tag image cannot be read: \(error).")
            }
            guard let message = result.ndefMessage else {
                if let error = result.ndefError {
                    throw CommandError.data("\(name): the NDEF message in the tag image is malformed at \(error).")
                }
                // Forced to the wrong tag type, a dump shows no NDEF message: say which to try.
                let other = options.input == .tag2 ? "; if it is a Type 5 dump, give --input tag5"
                    : options.input == .tag5 ? "; if it is a Type 2 dump, give --input tag2" : ""
                throw CommandError.data("\(name): the tag image holds no NDEF message (\(result.chip.displayName))\(other).")
            }
            let uid = result.uid.map { $0.hexString() }
            // A dump was taken when its file was written; the read time defaults to that.
            var log = try decode(message, options: makeDecodeOptions(options, dumpTime: modificationTime, tagUID: uid))
            log.warnings += result.anomalies.map { .tagImage($0.description) }
            let taken = kind == .flipper ? .flipper : (dump.technology == .iso14443A ? Kind.tag2 : Kind.tag5)
            let chip = result.chip.displayName + (uid.map { ", UID \($0)" } ?? "")
            return Loaded(log: log, kind: taken, inputDescription: why + " (\(chip))", message: message)
        case .nhsTranscript:
            return try loadTranscript(content, name: name, why: why, modificationTime: modificationTime, options: options)
        case .hex, .auto:
            throw CommandError.data("\(name) holds neither an NDEF message, a tag dump nor a URL.")
        }
    }

    /// "the file ends at page N but the NDEF message needs pages up to M" when the dump's
    /// NDEF TLV (found after the capability container, past null and control TLVs) runs past
    /// the end of the file; `nil` when it fits or the dump holds no NDEF TLV.
    static func truncation(of dump: MemoryDump) -> String? {
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

    /// Decodes a message with the command-line options (used by `coldtap read` after a tag read).
    /// - Parameters:
    ///   - readTime: the default read time when `--read-time` is absent, and where it came from.
    /// - Throws: `CommandError` (`.dataError`, or `.usage` for an unknown logger name).
    public static func decode(_ message: NDEFMessage, options: Options, readTime: Date,
                              readTimeSource: DecodeOptions.ReadTimeSource, tagUID: String?) throws -> TemperatureLog {
        var decodeOptions = makeDecodeOptions(options, dumpTime: nil, tagUID: tagUID)
        if options.readTime == nil {
            decodeOptions.readTime = readTime
            decodeOptions.readTimeSource = readTimeSource
        }
        return try decode(message, options: decodeOptions)
    }

    /// Decodes a SmarTag image with the command-line options.
    /// - Throws: `CommandError` (`.dataError`) naming the tag-memory address of what is wrong.
    static func decodeSmarTag(_ image: SmarTagImage, options: DecodeOptions) throws -> TemperatureLog {
        do {
            return HintWording.worded(try LoggerDecoder.decode(smarTag: image, options: options))
        } catch let error as LoggerFormatError {
            throw commandError(error)
        }
    }

    static func decode(_ message: NDEFMessage, options: DecodeOptions) throws -> TemperatureLog {
        do {
            return HintWording.worded(try LoggerDecoder.decode(message, options: options))
        } catch let error as LoggerFormatError {
            throw commandError(error)
        }
    }

    /// The `DecodeOptions` for the command-line options; a dump's time is its file's
    /// modification time, anything else defaults to now.
    static func makeDecodeOptions(_ options: Options, dumpTime: Date?, tagUID: String?) -> DecodeOptions {
        let readTime: Date
        let source: DecodeOptions.ReadTimeSource
        if let given = options.readTime {
            (readTime, source) = (given, options.readTimeSource)
        } else if let dumpTime {
            (readTime, source) = (dumpTime, .fileModificationTime)
        } else {
            (readTime, source) = (Date(), .now)
        }
        var decodeOptions = DecodeOptions(readTime: readTime, readTimeSource: source, secret: options.secret, logger: options.logger,
                                          interval: options.interval, tagUID: tagUID)
        decodeOptions.loggerTimeZone = options.loggerTimeZone
        return decodeOptions
    }

    /// Maps a decoding error to the command error and exit status of DESIGN.md.
    public static func commandError(_ error: LoggerFormatError) -> CommandError {
        switch error.kind {
        case .unknownLogger: return CommandError.usage(HintWording.describe(error) + ".")
        default: return CommandError.data(HintWording.describe(error) + ".")
        }
    }

    // MARK: What is FILE?

    /// Text forms: a URL, a Flipper `.nfc` file; otherwise undecided (`.auto`).
    static func classifyText(_ content: Data) -> (Kind, String) {
        let head = String(decoding: content.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if head.hasPrefix("Filetype: Flipper NFC device") { return (.flipper, "a Flipper Zero .nfc file") }
        if NHSTranscript.looks(like: content) { return (.nhsTranscript, "an NHS31xx exchange transcript (JSON Lines)") }
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
    static func classifyBinary(_ bytes: Data) -> (Kind, String, Bool) {
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
    static func otherFileKind(_ content: Data) -> String? {
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
              !text.unicodeScalars.contains(where: { $0.value < 0x20 && !["\n", "\r", "\t"].contains(Character($0)) }) else { return nil }
        return "text that is neither hex bytes, a URL, a Flipper .nfc file nor an NHS31xx transcript"
    }

    // MARK: File reading

    /// True for an `http://` or `https://` URL that is not also the name of a file here.
    static func isURLArgument(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return (lowered.hasPrefix("https://") || lowered.hasPrefix("http://"))
            && !FileManager.default.fileExists(atPath: path)
    }

    private static func readFile(_ path: String, console: Console) throws -> Data {
        try InputBytes.read(path, console: console, format: .raw)
    }
}

extension LogInput {
    /// Decodes an NHS31xx exchange transcript (the raw read of such a logger) into the log
    /// the read gave; its recorded reader times are the read time unless `--read-time` is given.
    /// - Throws: `CommandError.data` naming the line and offset of what is malformed.
    static func loadTranscript(_ content: Data, name: String, why: String, modificationTime: Date?,
                               options: Options) throws -> Loaded {
        var decodeOptions = makeDecodeOptions(options, dumpTime: modificationTime, tagUID: nil)
        if case .named(let forced)? = options.logger, forced != "nhs31xx" {
            throw CommandError.usage("an NHS31xx exchange transcript can only be decoded as nhs31xx, not '\(forced)'.")
        }
        do {
            let transcript = try NHSTranscript.parse(content)
            decodeOptions.logger = nil
            let log = HintWording.worded(try LoggerDecoder.decode(transcript: transcript, options: decodeOptions))
            return Loaded(log: log, kind: .nhsTranscript, inputDescription: why + " (\(transcript.steps.count) steps)", message: nil)
        } catch let error as LoggerFormatError {
            throw CommandError.data("\(name): " + HintWording.describe(error) + ".")
        }
    }
}
