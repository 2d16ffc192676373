import ColdTapBase
import Foundation
import LoggerFormats
import LoggerSessions

/// `coldtap measure`: a live reading from an NHS31xx (MEASURETEMPERATURE, the answer fetched
/// with GETRESPONSE; docs/nhs31xx.md §3.8).
public enum MeasureCommand: Command {
    static let readerOption = OptionSpec.value(
        "--reader", placeholder: "R", help: "the reader to use (a part of its name, as 'coldtap readers' lists it)",
        default: "the first reader with a tag")
    static let jsonOption = OptionSpec.flag("--json", help: "print the measurement as JSON")

    public static let name = "measure"
    public static let forms = [
        CommandForm(
            summary: "read the temperature an NHS31xx logger measures now (MEASURETEMPERATURE, answer fetched with GETRESPONSE)",
            options: [
                readerOption,
                ReadCommand.timeoutOption.spec,
                jsonOption,
            ])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let reader = arguments.value(readerOption)
        let timeout = try ReadCommand.timeout(&arguments)
        let json = arguments.isSet(jsonOption)
        try arguments.finish()
        try await NHSConnect.withLogger(reader: reader, timeout: timeout, console: console) { session, _ in
            let value = try await measure(session)
            console.print(text(value, json: json, time: Date()))
        }
    }

    static func measure(_ session: NHSLoggerSession) async throws -> Int16 {
        do {
            return try await session.measureTemperature()
        } catch let error as NHSSessionError {
            throw CommandError(error)
        }
    }

    static func text(_ deci: Int16, json: Bool, time: Date) -> String {
        if json {
            return JSONValue.object([("time", .string(time.isoUTC)), ("temperature", .number(Double(deci) / 10))]).serialized()
        }
        return "Temperature: \(NHS31xxLog.celsius(deci)) °C"
    }
}
