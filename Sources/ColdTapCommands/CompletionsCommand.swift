import Foundation

/// `coldtap completions SHELL`: a completion script made from the option tables.
public enum CompletionsCommand: Command {
    public static let name = "completions"
    public static let forms = [
        CommandForm(
            positionals: "SHELL",
            positionalHelp: [("SHELL", "bash, zsh or fish")],
            summary: "print a shell completion script for coldtap's commands, options and their values",
            options: [])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let words = try arguments.positionals(min: 1, max: 1, what: "SHELL (bash, zsh or fish)")
        try arguments.finish()
        guard let shell = CommandHelp.Shell(rawValue: words[0].lowercased()) else {
            throw CommandError.usage("No completions for '\(words[0])'; say bash, zsh or fish.")
        }
        console.write(Data(CommandHelp.completions(shell).utf8))
    }
}
