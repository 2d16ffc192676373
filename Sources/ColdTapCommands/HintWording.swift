import ColdTapBase
import ColdTapKit
import LoggerFormats
import NFCTags

/// The command line's words for the libraries' typed hints (`UserHint`): each names the
/// option that supplies what is missing. The libraries never name options themselves.
enum HintWording {
    /// The option a kind of input is forced with (`--input tag2`, ...).
    static func inputName(_ kind: UserHint.InputKind) -> String {
        switch kind {
        case .type2TagDump: return "tag2"
        case .type5TagDump: return "tag5"
        }
    }

    /// What to append to an error's sentence for its hint (empty without one); `kind` picks
    /// the wording that reads best after that error.
    static func advice(_ hint: UserHint?, after kind: LoggerFormatError.Kind? = nil) -> String {
        switch hint {
        case nil: return ""
        case .needsSecret: return "; give the tag's secret key with --secret KEY"
        case .needsInterval:
            return kind == .intervalUnknown ? "; give it with --interval SECONDS" : "; give the real one with --interval SECONDS"
        case .needsLoggerDescription:
            if case .noFormatMatched? = kind {
                return ". Force one with --logger NAME or describe the layout in a descriptor file"
            }
            return ", or give the layout with --logger FILE.json"
        case .wrongInputKind(let suggested):
            return "; say which it is (--input \(suggested.map(inputName).joined(separator: " or ")))"
        case .nameInputKind: return "; if you know what it holds, say so with --input"
        case .inputKindContradicted(let actual): return ": give --input \(inputName(actual)), or leave --input out"
        case .inputMayBe(let other): return "; if it is a \(other == .type2TagDump ? "Type 2" : "Type 5") dump, give --input \(inputName(other))"
        case .needsReadTime: return "; give the read time with --read-time ISO8601, or leave out --require-read-time"
        case .needsLoggerTimeZone: return "; give the zone the logger's clock ran in with --logger-tz ZONE (e.g. UTC, Europe/Paris or +02:00)"
        }
    }

    /// What an integrity detail gets for its hint.
    static func integrityAdvice(_ hint: UserHint?) -> String {
        hint == .needsSecret ? " (if this tag signs with HMAC-MD5, give its --secret)" : ""
    }

    /// A decoding error in the command line's words.
    static func describe(_ error: LoggerFormatError) -> String {
        error.description + advice(error.hint, after: error.kind)
    }

    /// A dump error in the command line's words.
    static func describe(_ error: MemoryDumpError) -> String {
        error.description + advice(error.hint)
    }

    /// A decoded log in the command line's words: a forced format names `--logger`, a given
    /// interval `--interval`, an integrity hint `--secret` (in the detail and in the warning
    /// made from it). Worded values keep what they word (`.worded`), so other languages still
    /// translate them; everything else is left as the decoder gave it.
    static func worded(_ log: TemperatureLog) -> TemperatureLog {
        var log = log
        if let detection = log.detection, case .forced(let format) = detection.original {
            log.detection = .worded(.forced(format: format), english: "forced with --logger \(format)")
        }
        if log.metadata["intervalSource"]?.text == DecodeOptions.givenIntervalSource {
            log.metadata["intervalSource"] = "--interval"
        }
        let advice = integrityAdvice(log.integrity.hint)
        let original = log.integrity.detail.original
        if !advice.isEmpty {
            log.integrity.detail = .worded(original, english: original.text + advice)
        }
        log.warnings = log.warnings.map { warning in
            switch warning.original {
            case .integrityFailed(let detail) where !advice.isEmpty && detail.original == original:
                return .worded(.integrityFailed(original), english: LogWarning.integrityFailed(log.integrity.detail).text)
            default:
                return worded(warning)
            }
        }
        return log
    }

    /// What the command line calls a read time's source: one given on the command line is
    /// "given with --read-time" (what its JSON has always said).
    static let logWording = LogExport.Wording { source in
        source == .given ? "given with --read-time" : source.description
    }

    /// A warning about a given value in the command line's words (it names the option).
    static func worded(_ warning: LogWarning) -> LogWarning {
        switch warning.original {
        case .givenIntervalNotUsed(let given, let used, let origin):
            return .worded(
                warning.original,
                english: "--interval \(formatSeconds(given)) was not used: "
                    + LogWarning.intervalReason(used: used, from: origin))
        case .secretNotUsed(let format):
            return .worded(warning.original, english: "--secret was not used: only cuplTag logs carry an HMAC to check, and this is a \(format) log")
        default:
            return warning
        }
    }
}
