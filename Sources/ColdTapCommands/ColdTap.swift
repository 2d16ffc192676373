import Foundation
import NDEF

/// One `coldtap` subcommand.
public protocol Command: Sendable {
    /// The word users type, e.g. `decode`.
    static var name: String { get }
    /// Usage lines shown by `coldtap help` and on a usage error.
    static var synopsis: String { get }
    /// Runs the command.
    /// - Throws: `CommandError` (its status becomes the exit status); an `NDEFError` exits 65.
    static func run(_ arguments: Arguments, console: Console) async throws
}

/// The `coldtap` command line.
public enum ColdTap {
    public static let commands: [any Command.Type] = [
        DemoCommand.self, ReadersCommand.self, ReadCommand.self, DecodeCommand.self, ReportCommand.self,
        TagCommand.self, NDEFCommand.self, WriteCommand.self, EmulateCommand.self,
        ArchiveCommand.self, LoggersCommand.self, HistoryCommand.self, AckCommand.self,
        ServeCommand.self, SiteCommand.self, TokenCommand.self, LoggerCommand.self, WebhookCommand.self, PushCommand.self,
    ]

    public static var usage: String {
        "usage: coldtap COMMAND [options]\n\n" + commands.map { $0.synopsis }.joined(separator: "\n")
            + "\n\nExit status: 0 done, 64 usage error, 65 malformed input, 69 no reader or tag, 74 tag lost mid-read, 1 other."
    }

    /// Runs the command line (without the program name) and returns the exit status.
    public static func main(_ arguments: [String], console: Console) async -> Int32 {
        guard let name = arguments.first else {
            console.error(usage)
            return ExitStatus.usage.rawValue
        }
        if ["help", "--help", "-h"].contains(name) {
            console.print(usage)
            return ExitStatus.success.rawValue
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            console.error("coldtap: unknown command '\(name)'. Run 'coldtap help' for the list.")
            return ExitStatus.usage.rawValue
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            console.print("usage:\n" + command.synopsis)
            return ExitStatus.success.rawValue
        }
        do {
            try await command.run(Arguments(rest), console: console)
            return ExitStatus.success.rawValue
        } catch let error as CommandError {
            console.error("coldtap \(name): \(error.message)")
            if error.status == .usage { console.error("usage:\n" + command.synopsis) }
            return error.status.rawValue
        } catch let error as NDEFError {
            console.error("coldtap \(name): malformed NDEF at \(error)")
            return ExitStatus.dataError.rawValue
        } catch {
            console.error("coldtap \(name): \(error)")
            return ExitStatus.failure.rawValue
        }
    }
}
