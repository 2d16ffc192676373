import ColdTapBase
import Foundation
import LoggerFormats
import NDEF
import NFCTags

/// One `coldtap` command: either one form (`decode FILE ...`) or a group of subcommands
/// (`lot add|move|close|...`), each subcommand a `CommandForm` with its own summary, positionals
/// and option table, so that it parses, documents and reports its own usage alone.
public protocol Command: Sendable {
    /// The word users type, e.g. `decode`.
    static var name: String { get }
    /// One line of what the command is for: the head of a group's help page and the
    /// description shell completions show (a one-form command's summary by default).
    static var abstract: String { get }
    /// How it is called: its positionals and its table of options (one entry per form; a
    /// group has one entry per subcommand, each with its verb).
    static var forms: [CommandForm] { get }
    /// Runs the command on its arguments, parsed against the table of the form used.
    /// - Throws: `CommandError` (its status becomes the exit status); an `NDEFError` exits 65.
    static func run(_ arguments: Arguments, console: Console) async throws
}

extension Command {
    public static var abstract: String { forms[0].summary }

    /// The usage lines of `coldtap help` and the README, built from `forms`.
    public static var synopsis: String { forms.map { CommandHelp.synopsis(command: name, form: $0) }.joined(separator: "\n") }

    /// The subcommands of a group (`lot move`, `user add`); empty for a one-form command.
    public static var subcommands: [CommandForm] { forms.filter { $0.verb != nil } }

    /// The subcommand `verb` names, if the command has one by that word.
    public static func subcommand(_ verb: String) -> CommandForm? { subcommands.first { $0.verb == verb } }
}

/// The `coldtap` command line.
public enum ColdTap {
    /// The version printed by `coldtap --version` and in every report.
    public static let version = ColdTapVersion.current

    public static let commands: [any Command.Type] = [
        DemoCommand.self, ReadersCommand.self, ReadCommand.self, DecodeCommand.self, ReportCommand.self,
        TagCommand.self, NDEFCommand.self, WriteCommand.self, EmulateCommand.self, ProfilesCommand.self,
        FormatsCommand.self, CompletionsCommand.self,
        ArchiveCommand.self, ImportCommand.self, VerifyReportCommand.self, LoggersCommand.self, HistoryCommand.self, AckCommand.self, ReviewCommand.self,
        SignaturesCommand.self,
        ConfigureCommand.self, StartCommand.self, MeasureCommand.self,
        ServeCommand.self, SiteCommand.self, TokenCommand.self, UserCommand.self, SiteProfileCommand.self, LoggerCommand.self, WebhookCommand.self,
        PushCommand.self,
        ProductsCommand.self, ProductCommand.self, LotCommand.self, ExportCommand.self,
    ]

    public static var usage: String {
        "usage: coldtap COMMAND [options]\n\n" + synopsisBlock
            + "\n\n'coldtap COMMAND --help' explains every option; 'coldtap --version' prints the version."
            + "\n\nExit status: 0 done, 2 the verdict is one --fail-on names, 64 usage error, 65 malformed input, 69 no reader or tag, 74 tag lost mid-read, 1 other."
    }

    /// Every command's synopsis: the README's "Command line" block is this text.
    public static var synopsisBlock: String { commands.map { $0.synopsis }.joined(separator: "\n") }

    /// Runs the command line (without the program name) and returns the exit status.
    public static func main(_ arguments: [String], console: Console) async -> Int32 {
        guard let name = arguments.first else {
            console.error(usage)
            return ExitStatus.usage.rawValue
        }
        if ["help", "--help", "-h"].contains(name) {
            if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                let form = arguments.count > 2 ? command.subcommand(arguments[2]) : nil
                console.print(form.map { CommandHelp.page(command, form: $0) } ?? CommandHelp.page(command))
            } else {
                console.print(usage)
            }
            return ExitStatus.success.rawValue
        }
        if name == "--version" || name == "version" {
            console.print("coldtap \(version)")
            return ExitStatus.success.rawValue
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            console.error("coldtap: unknown command '\(name)'. Run 'coldtap help' for the list.")
            return ExitStatus.usage.rawValue
        }
        var rest = Array(arguments.dropFirst())
        // The form the words name: a group's subcommand by its verb, or the one form; nil
        // while a group's verb is missing or unknown.
        var form: CommandForm? = command.subcommands.isEmpty ? command.forms[0] : nil
        if form == nil, let verb = rest.first, let chosen = command.subcommand(verb) {
            form = chosen
            rest.removeFirst()
        }
        if rest.contains("--help") || rest.contains("-h") {
            console.print(form.map { CommandHelp.page(command, form: $0) } ?? CommandHelp.page(command))
            return ExitStatus.success.rawValue
        }
        do {
            guard let form else {
                let verbs = command.subcommands.compactMap { $0.verb.map { "'\($0)'" } }.joined(separator: " or ")
                guard let verb = rest.first else { throw CommandError.usage("Say \(verbs).") }
                throw CommandError.usage("Unknown '\(name)' action '\(verb)'; say \(verbs).")
            }
            var parsed = try Arguments(rest, options: form.options)
            parsed.verb = form.verb
            try await command.run(parsed, console: console)
            return ExitStatus.success.rawValue
        } catch let error as CommandError {
            console.error("coldtap \(name): \(error.message)")
            if error.status == .usage { console.error("usage:\n" + CommandHelp.usage(command, form: form)) }
            return error.status.rawValue
        } catch let error as NDEFError {
            console.error("coldtap \(name): malformed NDEF at \(error)")
            return ExitStatus.dataError.rawValue
        } catch let error as LoggerFormatError {
            console.error("coldtap \(name): \(HintWording.describe(error))")
            return ExitStatus.failure.rawValue
        } catch let error as MemoryDumpError {
            console.error("coldtap \(name): \(HintWording.describe(error))")
            return ExitStatus.failure.rawValue
        } catch {
            console.error("coldtap \(name): \(error)")
            return ExitStatus.failure.rawValue
        }
    }
}
