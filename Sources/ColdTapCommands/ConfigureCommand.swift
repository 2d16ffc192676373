import Foundation
import LoggerFormats
import LoggerSessions
import NFCTags

/// `coldtap configure`: SETCONFIG on an NXP NHS31xx logger with the reader's clock
/// (docs/nhs31xx.md §3.2). It erases the logger, so it asks for `--yes` unless the logger is pristine.
public enum ConfigureCommand: Command {
    static let readerOption = OptionSpec.value(
        "--reader", placeholder: "R", help: "the reader to use (a part of its name, as 'coldtap readers' lists it)",
        default: "the first reader with a tag")
    static let intervalOption = OptionSpec.value("--interval", placeholder: "SECONDS", help: "seconds between samples (0 stops logging and erases the logger)")
    static let validMinOption = OptionSpec.value("--valid-min", placeholder: "C", help: "the logger's own lower limit, °C (with --valid-max)")
    static let validMaxOption = OptionSpec.value("--valid-max", placeholder: "C", help: "the logger's own upper limit, °C (with --valid-min)")
    static let startDelayOption = OptionSpec.value(
        "--start-delay", placeholder: "SECONDS", help: "start logging this long after configuring", default: "0: at once")
    static let waitForStartOption = OptionSpec.flag("--wait-for-start", help: "wait for 'coldtap start' instead of a delay")
    static let runningTimeOption = OptionSpec.value("--running-time", placeholder: "SECONDS", help: "stop logging after this long", default: "0: until full")
    static let yesOption = OptionSpec.flag("--yes", help: "erase a logger that holds samples (asked unless it is pristine)")

    public static let name = "configure"
    public static let forms = [
        CommandForm(
            summary: "configure (and erase) an NHS31xx logger with this machine's clock; --interval 0 stops it",
            options: [
                readerOption,
                ReadCommand.timeoutOption.spec,
                intervalOption,
                validMinOption,
                validMaxOption,
                startDelayOption,
                waitForStartOption,
                runningTimeOption,
                yesOption,
            ])
    ]

    /// What to configure, from the command line.
    struct Request: Sendable, Equatable {
        var interval: UInt16
        var startDelay: UInt32 = 0
        var runningTime: UInt32 = 0
        var validMinimum: Int16 = 0
        var validMaximum: Int16 = 0
        var yes = false

        func configuration(clock: Date) -> NHSConfiguration {
            NHSConfiguration(
                currentTime: UInt32(clamping: Int64(clock.timeIntervalSince1970.rounded(.down))), interval: interval,
                startDelay: startDelay, runningTime: runningTime, validMinimum: validMinimum, validMaximum: validMaximum)
        }

        var summary: String {
            var parts = [interval == 0 ? "logging stopped" : "a sample every \(interval) s"]
            if interval > 0 {
                parts.append(
                    startDelay == NHSConfiguration.waitForStart
                        ? "waiting for 'coldtap start'"
                        : startDelay == 0 ? "starting now" : "starting in \(startDelay) s")
                parts.append(runningTime == 0 ? "no end" : "stopping after \(runningTime) s")
                parts.append(
                    validMinimum < validMaximum
                        ? "valid \(NHS31xxLog.celsius(validMinimum)) … \(NHS31xxLog.celsius(validMaximum)) °C" : "no limits")
            }
            return parts.joined(separator: ", ")
        }
    }

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let reader = arguments.value(readerOption)
        let timeout = try ReadCommand.timeout(&arguments)
        let request = try parse(&arguments)
        try arguments.finish()
        try await NHSConnect.withLogger(reader: reader, timeout: timeout, console: console) { session, readerName in
            try await configure(session, request: request, clock: Date(), console: console)
            console.print("Configured the NHS31xx on \(readerName): \(request.summary).")
        }
    }

    static func parse(_ arguments: inout Arguments) throws -> Request {
        func seconds(_ option: OptionSpec, max: UInt64) throws -> UInt64? {
            try arguments.value(option.typed(.seconds(upTo: max)))
        }
        func celsius(_ option: OptionSpec) throws -> Int16? {
            try arguments.value(option.typed(.loggerCelsius)).map { Int16(($0 * 10).rounded()) }
        }
        guard let interval = try seconds(intervalOption, max: UInt64(UInt16.max)) else {
            throw CommandError.usage("configure needs --interval SECONDS (0 stops logging and erases the logger).")
        }
        var request = Request(interval: UInt16(interval))
        let delay = try seconds(startDelayOption, max: UInt64(UInt32.max) - 1)
        let wait = arguments.isSet(waitForStartOption)
        if delay != nil && wait { throw CommandError.usage("Give --start-delay or --wait-for-start, not both.") }
        request.startDelay = wait ? NHSConfiguration.waitForStart : UInt32(delay ?? 0)
        request.runningTime = UInt32(try seconds(runningTimeOption, max: UInt64(UInt32.max)) ?? 0)
        let low = try celsius(validMinOption), high = try celsius(validMaxOption)
        switch (low, high) {
        case let (low?, high?):
            guard low < high else { throw CommandError.usage("--valid-min must be below --valid-max.") }
            (request.validMinimum, request.validMaximum) = (low, high)
        case (nil, nil): break
        default: throw CommandError.usage("Give both --valid-min and --valid-max, or neither.")
        }
        request.yes = arguments.isSet(yesOption)
        return request
    }

    /// Sends SETCONFIG unless the logger holds something and `--yes` was not given.
    /// - Throws: `CommandError.usage` (64) naming what would be erased; the session's errors.
    static func configure(_ session: NHSLoggerSession, request: Request, clock: Date, console: Console) async throws {
        if let config = NHSConnect.config(of: session), !request.yes, config.status != .pristine || config.count > 0 {
            let state = config.status?.state ?? "configured"
            throw CommandError.usage(
                "the logger is \(state) and holds \(config.count) sample(s); configuring erases them and its events. Read it first, then add --yes.")
        }
        do {
            try await session.configure(request.configuration(clock: clock))
        } catch let error as NHSSessionError {
            throw CommandError(error)
        }
    }
}

extension OptionValueParser where Value == UInt64 {
    /// A whole number of seconds from 0 to `max` (the width of the logger's field).
    static func seconds(upTo max: UInt64) -> OptionValueParser {
        OptionValueParser(
            convert: { UInt64($0).flatMap { $0 <= max ? $0 : nil } },
            complaint: { name, text in "\(name) takes a whole number of seconds from 0 to \(max), not '\(text)'." })
    }
}

extension OptionValueParser where Value == Double {
    /// A temperature the NHS31xx can hold as a limit: -40 to 85 °C.
    static let loggerCelsius = OptionValueParser.number({ $0 >= -40 && $0 <= 85 }) { name, text in
        "\(name) takes a temperature in °C from -40 to 85, not '\(text)'."
    }
}
