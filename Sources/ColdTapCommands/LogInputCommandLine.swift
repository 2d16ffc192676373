import ColdTapBase
import ColdTapKit
import Foundation
import LoggerFormats

/// The command line's side of loading a log (ColdTapKit's `LogInput`): the decode options it
/// declares and parses, FILE read from disk or standard input, and errors, hints and the
/// log's warnings in its words (they name its options).
extension LogInput {
    static let inputOption = OptionSpec.value(
        "--input", placeholder: "KIND", help: "what FILE holds, instead of working it out",
        default: "auto", choices: { Kind.allCases.map(\.rawValue) })
    static let requireReadTimeOption = OptionSpec.flag(
        "--require-read-time",
        help: "refuse a log whose sample times would be estimates (it has no clock and no --read-time is given)")
    static let readTimeOption = OptionSpec.value(
        "--read-time", placeholder: "ISO8601",
        help: "when the tag was read, e.g. 2024-04-09T08:35:00Z; a log without a clock is dated from it",
        default: "a dump file's modification time, else now (both said as estimates)"
    ).typed(
        .time("is not an ISO 8601 date-time with a time zone; write it like 2024-04-09T08:35:00Z or 2024-04-09T10:35:00+02:00."))
    static let secretOption = OptionSpec.value("--secret", placeholder: "K", help: "the cuplTag's HMAC-MD5 key (ASCII): checks that the log was not altered")
    static let loggerOption = OptionSpec.value(
        "--logger", placeholder: "NAME|FILE",
        help: "decode as this logger format, or with this logger descriptor .json ('coldtap formats' lists both)",
        default: "auto-detected", choices: { LoggerDecoder.builtInNames + ["cupltag-rh"] + BerlingerDecoder.formatNames }, path: true)
    static let intervalOption = OptionSpec.value("--interval", placeholder: "S", help: "seconds between samples, for a log that does not say (0 < S ≤ 2678400)")
        .typed(
            .number({ $0 > 0 && $0 <= DecodeOptions.longestPlausibleInterval }) { name, text in
                "\(name) takes a number of seconds above 0 and up to \(Int(DecodeOptions.longestPlausibleInterval)) (31 days), not '\(text)'."
            })
    static let loggerTZOption = OptionSpec.value(
        "--logger-tz", placeholder: "ZONE",
        help: "the time zone of a logger's wall-clock dates that carry none (SmarTag1, Berlinger reports), e.g. Europe/Paris or +02:00",
        default: "UTC for a SmarTag1; a Berlinger report is refused without it"
    ).typed(.strictZone)

    /// The decode options as `decode` and `report` declare them; `read` leaves out `--input`
    /// and `--require-read-time` (a reader knows what it read and when).
    public static let optionSpecs: [OptionSpec] =
        [
            inputOption
        ] + readOptionSpecs.prefix(1) + [
            requireReadTimeOption
        ] + readOptionSpecs.dropFirst()

    /// The decode options `read` takes.
    public static let readOptionSpecs: [OptionSpec] = [
        readTimeOption.spec,
        secretOption,
        loggerOption,
        intervalOption.spec,
        loggerTZOption.spec,
    ]

    /// Loads FILE (`-` = standard input), works out what it holds unless `options.input`
    /// says, and decodes the log.
    /// - Throws: `CommandError`: `.dataError` (65) for malformed data, naming what and
    ///   where; `.usage` for a forced `--input` that does not fit; `.failure` when FILE
    ///   cannot be read.
    public static func load(path: String, options: Options, console: Console) async throws -> Loaded {
        // A phone shares a cuplTag reading as its URL: take one given in place of FILE as is.
        if isURLArgument(path) {
            var loaded = try await load(
                commandLineContent: Data(path.utf8), name: "the URL given on the command line",
                modificationTime: nil, options: options)
            (loaded.sourceName, loaded.sourceBytes) = (path, Data(path.utf8))
            return loaded
        }
        let content = try InputBytes.read(path, console: console, format: .raw)
        let modified =
            path == "-"
            ? nil
            : (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        let name = path == "-" ? "standard input" : "'\(path)'"
        var loaded = try await load(commandLineContent: content, name: name, modificationTime: modified, options: options)
        (loaded.sourceName, loaded.sourceBytes) = (path == "-" ? "standard input" : path, content)
        return loaded
    }

    /// `load(content:…)` with its errors and the log in the command line's words.
    /// - Throws: `CommandError` (65 for malformed data, 64 for a kind that does not fit).
    public static func load(
        commandLineContent content: Data, name: String, modificationTime: Date?,
        options: Options
    ) async throws -> Loaded {
        do {
            var loaded = try await load(content: content, name: name, modificationTime: modificationTime, options: options)
            loaded.log = HintWording.worded(loaded.log)
            return loaded
        } catch let error as InputError {
            throw CommandError(error)
        }
    }

    /// Maps a decoding error to the command error and exit status of DESIGN.md.
    public static func commandError(_ error: LoggerFormatError) -> CommandError {
        switch error.kind {
        case .unknownLogger: return CommandError.usage(HintWording.describe(error) + ".")
        default: return CommandError.data(HintWording.describe(error) + ".")
        }
    }

    /// True for an `http://` or `https://` URL that is not also the name of a file here.
    static func isURLArgument(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return (lowered.hasPrefix("https://") || lowered.hasPrefix("http://"))
            && !FileManager.default.fileExists(atPath: path)
    }
}

extension LogInput.Options {
    /// Takes `--input`, `--read-time`, `--secret`, `--logger`, `--interval` from `arguments`.
    /// - Throws: `CommandError` (usage) for a bad value; (data error) for a logger
    ///   descriptor file that is invalid, naming the field.
    public static func parse(_ arguments: inout Arguments) throws -> LogInput.Options {
        var options = LogInput.Options()
        if arguments.declares(LogInput.inputOption), let input = arguments.value(LogInput.inputOption) {
            guard let kind = LogInput.Kind(rawValue: input.lowercased()) else {
                throw CommandError.usage("--input must be one of \(LogInput.Kind.allCases.map(\.rawValue).joined(separator: ", ")), not '\(input)'.")
            }
            options.input = kind
        }
        if let date = try arguments.value(LogInput.readTimeOption) {
            // A day of slack for clocks and zones, as the station allows an upload.
            let now = Date()
            guard date <= now.addingTimeInterval(86_400) else {
                throw CommandError.usage(
                    "--read-time \(date.isoUTC) is more than a day after this computer's clock (\(now.isoUTC)): a read cannot have been made later than now. Check the date and its time zone."
                )
            }
            options.readTime = date
        }
        options.secret = arguments.value(LogInput.secretOption)
        options.interval = try arguments.value(LogInput.intervalOption)
        if let logger = arguments.value(LogInput.loggerOption) {
            options.logger = try loggerSelection(logger)
        }
        options.requireReadTime = arguments.declares(LogInput.requireReadTimeOption) && arguments.isSet(LogInput.requireReadTimeOption)
        if arguments.declares(LogInput.loggerTZOption.spec), let zone = try arguments.value(LogInput.loggerTZOption) {
            options.loggerTimeZone = zone
        }
        return options
    }

    /// `NAME` of a built-in format, or a descriptor file (a path ending in `.json` or an existing file).
    static func loggerSelection(_ text: String) throws -> DecodeOptions.LoggerSelection {
        let known = LoggerDecoder.builtInNames + ["cupltag-rh"] + BerlingerDecoder.formatNames
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
}

extension LogInput.Loaded {
    /// What FILE was taken for and why, a kind named with `--input` said so.
    public var inputDescription: String {
        described.text { kind in
            switch kind {
            case .nhsTranscript: return "an NHS31xx exchange transcript (given with --input)"
            case .berlingerReport: return "a Berlinger text report (given with --input)"
            default: return "\(kind.rawValue) (given with --input)"
            }
        }
    }
}

extension CommandError {
    /// An input's error with its hint in the command line's words: 65, or 64 for a kind
    /// that does not fit the input.
    init(_ error: InputError) {
        self.init(
            error.kind == .misuse ? .usage : .dataError,
            error.problem + HintWording.advice(error.hint, after: error.decodingKind) + ".")
    }
}
