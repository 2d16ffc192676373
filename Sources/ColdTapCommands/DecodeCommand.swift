import ColdTapKit
import Foundation
import LoggerFormats

/// `coldtap decode`: a dump, NDEF message, URL or hex text → the logger's samples.
public enum DecodeCommand: Command {
    static let jsonOption = OptionSpec.flag("--json", help: "print the log as JSON (UTC times, full precision)")
    static let csvOption = OptionSpec.flag("--csv", help: "print the samples as CSV")
    static let tzOption = OptionSpec.value("--tz", placeholder: "ZONE", help: "write the CSV's times in this zone, with their offset", default: "UTC").typed(
        .zone)

    public static let name = "decode"
    public static let forms = [
        CommandForm(
            positionals: "FILE",
            positionalHelp: [
                (
                    "FILE",
                    "a tag memory dump (raw, hex text or Flipper .nfc), an NDEF message, a cuplTag URL (as a file or given itself), or - for standard input"
                )
            ],
            summary: "decode a logger's samples from a dump, an NDEF message, a cuplTag URL or hex text",
            options: LogInput.optionSpecs + [
                jsonOption,
                csvOption,
                tzOption.spec,
            ])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let json = arguments.isSet(jsonOption)
        let csv = arguments.isSet(csvOption)
        let options = try LogInput.Options.parse(&arguments)
        let zone = try arguments.value(tzOption)
        let path = try arguments.positionals(min: 1, max: 1)[0]
        try arguments.finish()
        if json && csv { throw CommandError.usage("Give --json or --csv, not both.") }
        let loaded = try await LogInput.load(path: path, options: options, console: console)
        if json {
            console.print(LogExport.json(loaded.log, wording: HintWording.logWording).serialized())
        } else if csv {
            console.write(Data(LogExport.csv(loaded.log, timeZone: zone).utf8))
        } else {
            console.print(LogExport.text(loaded.log, input: loaded.inputDescription, wording: HintWording.logWording))
        }
    }
}
