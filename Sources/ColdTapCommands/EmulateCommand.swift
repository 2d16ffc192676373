import ColdTapBase
import Foundation
import NDEF
import NFCTags
import NFCTagsEmulation
import PCSC

/// `coldtap emulate`: serves a virtual tag to pcscd through vsmartcard's vpcd, as the card
/// side of vpcd's socket protocol, so that any PC/SC application sees a contactless reader
/// with a logger on it.
public enum EmulateCommand: Command {
    static let loggerOption = OptionSpec.value(
        "--logger", placeholder: "KIND",
        help: "serve a built-in logger instead of FILE (nhs3100: a virtual NXP NHS3100 that answers commands and follows this machine's clock)",
        choices: { DemoLogger.allCases.map(\.rawValue) + [NHSDemo.loggerName] })
    static let chipOption = OptionSpec.value(
        "--chip", placeholder: "CHIP", help: "the chip to emulate", default: "the logger's own, or the smallest that holds FILE",
        choices: { TagChip.emulated.map(\.rawValue) })
    static let vpcdOption = OptionSpec.value("--vpcd", placeholder: "HOST:PORT", help: "where vpcd listens", default: "127.0.0.1:35963")
    static let faultOption = OptionSpec.value(
        "--fault", placeholder: "FAULT",
        help:
            "misbehave: removed-after=N, truncated-answer=N, flipped-bit=N, silent=N[xK], torn-write=N or (nhs3100) unanswered-command=N (N: commands, or command messages; corrupt-at=N and silent-at=N still work)",
        repeatable: true)
    static let demoHistoryOption = OptionSpec.value(
        "--demo-history", placeholder: "SECONDS",
        help: "with --logger nhs3100: the logger was configured this long ago, so it has a history to read"
    ).typed(.number({ $0 >= 0 && $0 <= 366 * 86_400 }) { name, text in "\(name) takes seconds from 0 to a year, not '\(text)'." })
    static let traceOption = OptionSpec.flag("--trace", help: "print every command and answer on standard error")

    public static let name = "emulate"
    public static let forms = [
        CommandForm(
            positionals: "[FILE]",
            positionalHelp: [("FILE", "a tag memory dump or an NDEF message to serve; or give --logger")],
            summary: "serve a virtual tag (a dump, an NDEF message or a built-in logger) to pcscd through vsmartcard's vpcd",
            options: [
                loggerOption,
                chipOption,
                vpcdOption,
                faultOption,
                demoHistoryOption.spec,
                traceOption,
            ])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let loggerName = arguments.value(loggerOption)
        let chipName = arguments.value(chipOption)
        let endpointText = arguments.value(vpcdOption)
        let faultTexts = arguments.values(faultOption)
        let trace = arguments.isSet(traceOption)
        let history = try arguments.value(demoHistoryOption)
        let files = try arguments.positionals(max: 1)
        try arguments.finish()
        let faults: TagFaults
        do {
            faults = try TagFaults(parsing: faultTexts)
        } catch let error as TagFaults.ParseError {
            throw CommandError.usage(error.description + ".")
        }
        if loggerName?.lowercased() == NHSDemo.loggerName {
            guard files.isEmpty, chipName == nil else {
                throw CommandError.usage("--logger nhs3100 serves a virtual NHS3100 and takes no FILE or --chip.")
            }
            return try await NHSDemo.emulate(
                endpointText: endpointText, history: history, faults: faults, trace: trace,
                console: console)
        }
        guard history == nil else { throw CommandError.usage("--demo-history is for --logger nhs3100 only.") }

        let endpoint =
            try endpointText.map { text -> VPCDEndpoint in
                guard let endpoint = VPCDEndpoint(text) else {
                    throw CommandError.usage("--vpcd takes HOST:PORT (e.g. 127.0.0.1:35963), not '\(text)'.")
                }
                return endpoint
            } ?? .standard
        let chip = try chipName.map(VirtualTags.chip(named:))
        let source: VirtualTags.Source
        switch (files.first, loggerName) {
        case let (file?, nil): source = .file(file)
        case let (nil, logger?): source = .logger(try VirtualTags.logger(named: logger))
        case (nil, nil): throw CommandError.usage("Give a FILE to serve or --logger KIND.")
        case (_?, _?): throw CommandError.usage("Give a FILE or --logger, not both.")
        }
        let made = try VirtualTags.make(source, chip: chip, readTime: Date(), faults: faults, console: console)
        let emulator = ContactlessReaderEmulator(tag: made.tag)
        var tracer: (@Sendable (String) -> Void)?
        if trace { tracer = { @Sendable line in console.error(line) } }
        let client = VirtualCardClient(emulator: emulator, endpoint: endpoint, trace: tracer)
        console.error(
            "Serving \(made.description) to vpcd at \(endpoint)"
                + (faults.isEmpty ? "" : " with faults \(faultTexts.joined(separator: ","))") + "; press Ctrl-C to stop.")
        let outcome: VirtualCardOutcome
        do {
            outcome = try await client.run()
        } catch let error as VirtualCardError {
            throw CommandError(.unavailable, error.description)
        }
        switch outcome {
        case .closed(let apdus):
            console.error("vpcd closed the connection after \(apdus) command APDU(s).")
        case .tagRemoved(let apdus):
            console.error("The tag left the field after \(apdus) command APDU(s) (fault).")
        }
    }
}

/// Virtual tags for `emulate` and `demo`: from a dump, an NDEF message file or a built-in logger.
enum VirtualTags {
    enum Source {
        case file(String)
        case logger(DemoLogger)
    }

    struct Made {
        var tag: VirtualTag
        /// e.g. "an NTAG216 (UID 04…) holding a dtn1 logger".
        var description: String
    }

    /// A chip by name, ignoring case, spaces, `-` and `_` (`ntag216`, `ICODE-SLIX2`, `st25dv64k`).
    static func chip(named text: String) throws -> TagChip {
        let wanted = normalized(text)
        let emulated = TagChip.emulated
        guard let chip = emulated.first(where: { normalized($0.rawValue) == wanted || normalized($0.displayName) == wanted })
        else {
            throw CommandError.usage("--chip '\(text)' is not an emulated chip; use one of \(emulated.map(\.rawValue).joined(separator: ", ")).")
        }
        return chip
    }

    static func logger(named text: String) throws -> DemoLogger {
        guard let logger = DemoLogger(rawValue: text.lowercased()) else {
            throw CommandError.usage("--logger '\(text)' is not a built-in logger; use one of \(DemoLogger.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return logger
    }

    private static func normalized(_ text: String) -> String {
        text.lowercased().filter { $0.isLetter || $0.isNumber }
    }

    /// Builds the virtual tag.
    /// - Throws: `CommandError` (65 for a malformed file, 64 for a chip that cannot hold it).
    /// - Parameter faults: what the tag does wrong; a silent command takes the reader's whole
    ///   timeout, as a hung tag would.
    static func make(
        _ source: Source, chip: TagChip?, readTime: Date, faults: TagFaults = .none,
        console: Console
    ) throws -> Made {
        switch source {
        case .logger(let logger) where logger.isSmarTag:
            let tag = try smarTag(logger, readTime: readTime, series: DemoLogger.temperatures, chip: chip, faults: faults)
            return Made(tag: tag, description: "\(describe(tag)) holding a built-in \(logger.rawValue) logger")
        case .logger(let logger):
            let chip = try chip ?? self.chip(named: logger.defaultChip)
            let message: Data
            do {
                message = try logger.message(readTime: readTime).encoded()
            } catch {
                throw CommandError(.failure, "the built-in \(logger.rawValue) logger could not be encoded: \(error).")
            }
            let tag = try tagHolding(message, chip: chip, faults: faults, what: "a \(logger.rawValue) logger")
            return Made(tag: tag, description: "\(describe(tag)) holding a built-in \(logger.rawValue) logger")
        case .file(let path):
            let content = try InputBytes.readFile(path)
            if (try? NDEFParser.message(from: content)) != nil, !looksLikeDump(content) {
                let chip = chip ?? .ntag216
                let tag = try tagHolding(content, chip: chip, faults: faults, what: "'\(path)'")
                return Made(tag: tag, description: "\(describe(tag)) holding the NDEF message in '\(path)'")
            }
            let dump: MemoryDump
            do {
                dump = try MemoryDump.parse(content, hint: chip.map { .chip($0) } ?? .auto)
            } catch let error as MemoryDumpError {
                throw CommandError.data("'\(path)' is neither an NDEF message nor a tag dump: \(HintWording.describe(error)).")
            }
            var dumpChip = chip ?? dump.chip
            var memory = dump.memory
            var assumption: String?
            if let known = dumpChip, memory.count < known.imageBytes ?? 0 {
                // --chip (or the dump's own GET_VERSION) names a chip larger than the file: the rest was never read.
                let unit = known.technology == .iso14443A ? 4 : max(1, dump.unitSize)
                let missing = (known.imageBytes ?? 0) - memory.count
                assumption =
                    "'\(path)' is \(memory.count) bytes, \(missing) fewer than an \(known.displayName) holds: "
                    + "\(known.technology == .iso14443A ? "pages" : "blocks") \(memory.count / unit)–\((memory.count + missing) / unit - 1) were added as erased"
                memory += Data(count: missing)
            } else if dumpChip == nil, let inferred = dump.inferredChip() {
                dumpChip = inferred.chip
                memory = inferred.memory
                assumption =
                    "'\(path)' is \(dump.memory.count) bytes, the size of no chip; taken for an \(inferred.chip.displayName) "
                    + "because \(inferred.assumption) (give --chip to choose another)"
            }
            guard let dumpChip, dumpChip.type2Layout != nil || dumpChip.type5Layout != nil else {
                throw CommandError.usage(
                    "the chip of '\(path)' is not known; say which with --chip (\(TagChip.emulated.map(\.rawValue).joined(separator: ", "))).")
            }
            do {
                let tag = try VirtualTag(chip: dumpChip, memory: memory, uid: dump.uid, faults: faults, waitsWhenSilent: true)
                if let assumption { console.error("coldtap emulate: \(assumption).") }
                return Made(tag: tag, description: "\(describe(tag)) with the memory of '\(path)'")
            } catch {
                throw CommandError.usage("'\(path)' does not fit a \(dumpChip.displayName): \(error); give the right --chip.")
            }
        }
    }

    /// A virtual ST25DV64K whose memory a SmarTag logger wrote (docs/smartag.md).
    /// - Throws: `CommandError` (usage) for a `chip` other than the ST25DV64K.
    static func smarTag(
        _ logger: DemoLogger, readTime: Date, series: [Double], chip: TagChip?,
        faults: TagFaults = .none
    ) throws -> VirtualTag {
        guard chip == nil || chip == .st25dv64k else {
            throw CommandError.usage("a \(logger.rawValue) logger writes an ST25DV64K's memory; leave out --chip or give st25dv64k.")
        }
        let uid = TagImage.defaultUID(for: .st25dv64k)
        let memory = logger.smarTagMemory(readTime: readTime, series: series, uid: uid)
        do {
            return try VirtualTag(chip: .st25dv64k, memory: memory, uid: uid, faults: faults, waitsWhenSilent: true)
        } catch {
            throw CommandError(.failure, "the built-in \(logger.rawValue) logger could not be built: \(error).")
        }
    }

    private static func tagHolding(_ message: Data, chip: TagChip, faults: TagFaults, what: String) throws -> VirtualTag {
        do {
            return try VirtualTag.make(chip: chip, ndefMessage: message, faults: faults, waitsWhenSilent: true)
        } catch {
            throw CommandError.usage("\(what) does not fit on a \(chip.displayName): \(error); choose a larger --chip.")
        }
    }

    private static func looksLikeDump(_ content: Data) -> Bool {
        (try? MemoryDump.parse(content)) != nil
    }

    /// e.g. "a virtual ST25DV64K (UID E002…)"; Type 5 UIDs shown MSB first as people write them.
    static func describe(_ tag: VirtualTag) -> String {
        let uid = tag.uid.map { tag.technology == .iso15693 ? Data($0.reversed()) : $0 }
        return "a virtual \(tag.chip.displayName) (UID \(uid.map { $0.hexString() } ?? "unknown"))"
    }
}
