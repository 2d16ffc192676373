import Foundation
import LoggerFormats

/// `coldtap decode`: a dump, NDEF message, URL or hex text → the logger's samples.
public enum DecodeCommand: Command {
    public static let name = "decode"
    public static let synopsis = "  coldtap decode FILE [--input auto|tag2|tag5|ndef|url|hex|flipper|nhs-transcript] [--read-time ISO8601] [--secret K] [--logger NAME|FILE] [--interval S] [--json|--csv]"

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let json = arguments.flag("--json")
        let csv = arguments.flag("--csv")
        let options = try LogInput.Options.parse(&arguments)
        let path = try arguments.positionals(min: 1, max: 1)[0]
        try arguments.finish()
        if json && csv { throw CommandError.usage("Give --json or --csv, not both.") }
        let loaded = try await LogInput.load(path: path, options: options, console: console)
        if json {
            console.print(LogExport.json(loaded.log).serialized())
        } else if csv {
            console.write(Data(LogExport.csv(loaded.log).utf8))
        } else {
            console.print(LogExport.text(loaded.log, input: loaded.inputDescription))
        }
    }
}
