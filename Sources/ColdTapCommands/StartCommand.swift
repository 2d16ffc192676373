import Foundation
import LoggerFormats
import LoggerSessions

/// `coldtap start`: START on an NHS31xx configured with `--wait-for-start` (docs/nhs31xx.md §3.4).
public enum StartCommand: Command {
    static let readerOption = OptionSpec.value(
        "--reader", placeholder: "R", help: "the reader to use (a part of its name, as 'coldtap readers' lists it)",
        default: "the first reader with a tag")

    public static let name = "start"
    public static let forms = [
        CommandForm(
            summary: "start an NHS31xx logger configured with --wait-for-start",
            options: [
                readerOption,
                ReadCommand.timeoutOption.spec,
            ])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let reader = arguments.value(readerOption)
        let timeout = try ReadCommand.timeout(&arguments)
        try arguments.finish()
        try await NHSConnect.withLogger(reader: reader, timeout: timeout, console: console) { session, readerName in
            try await start(session)
            console.print("Started the NHS31xx on \(readerName): its first sample follows in about 1 s.")
        }
    }

    /// - Throws: `CommandError` (1) when the logger refuses: it starts only when configured to wait.
    static func start(_ session: NHSLoggerSession) async throws {
        do {
            try await session.start()
        } catch NHSSessionError.refused(_, let result) where result == .notAllowed {
            throw CommandError(.failure, "the logger refused START: it starts only after 'coldtap configure --wait-for-start', and only once.")
        } catch let error as NHSSessionError {
            throw CommandError(error)
        }
    }
}
