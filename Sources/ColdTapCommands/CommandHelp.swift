import Foundation

/// Help pages, synopses and shell completion scripts, all made from the commands' option
/// tables (`Command.forms`), so that what is documented is what is parsed.
public enum CommandHelp {
    /// Synopsis lines are wrapped to this width.
    static let width = 100

    /// `  coldtap decode FILE [--input KIND] ...`, wrapped with continuation lines aligned
    /// after the command words.
    public static func synopsis(command: String, form: CommandForm) -> String {
        let head =
            "  coldtap "
            + ([command, form.verb, form.positionals.isEmpty ? nil : form.positionals]
                .compactMap { $0 }.joined(separator: " "))
        let indent = String(repeating: " ", count: ("  coldtap " + command + (form.verb.map { " " + $0 } ?? "")).count + 1)
        var lines: [String] = []
        var line = head
        for option in form.options {
            let piece = option.synopsis
            if line.count + 1 + piece.count > width {
                lines.append(line)
                line = indent + piece
            } else {
                line += " " + piece
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The help page of `coldtap COMMAND --help`: what it does, usage, the arguments, and
    /// every option with one line of what it does, its default and its accepted values.
    public static func page(_ command: any Command.Type) -> String {
        var out: [String] = []
        for (index, form) in command.forms.enumerated() {
            if index > 0 { out.append("") }
            out.append("OVERVIEW: " + form.summary)
            out.append("")
            out.append("USAGE:")
            out.append(synopsis(command: command.name, form: form))
            if !form.positionalHelp.isEmpty {
                out.append("")
                out.append("ARGUMENTS:")
                out += form.positionalHelp.flatMap { entry(name: $0.0, lines: [$0.1]) }
            }
            out.append("")
            out.append("OPTIONS:")
            for option in form.options {
                var lines = [option.help]
                if let value = option.defaultValue { lines.append("default: \(value)") }
                let choices = option.choices()
                if !choices.isEmpty { lines.append("values: " + choices.joined(separator: ", ")) }
                if option.repeatable { lines.append("may be given more than once") }
                out += entry(
                    name: (option.names.joined(separator: ", ") + " " + option.values.joined(separator: " "))
                        .trimmingCharacters(in: .whitespaces), lines: lines)
            }
            out += entry(name: "-h, --help", lines: ["show this help"])
        }
        return out.joined(separator: "\n")
    }

    /// `  NAME                  first line` and further lines aligned under the first.
    private static func entry(name: String, lines: [String]) -> [String] {
        let column = 28
        let pad = String(repeating: " ", count: column)
        var result: [String] = []
        let label = "  " + name
        let wrapped = lines.flatMap { wrap($0, width: width - column) }
        if label.count + 2 > column {
            result.append(label)
            result += wrapped.map { pad + $0 }
        } else {
            result.append(label + String(repeating: " ", count: column - label.count) + (wrapped.first ?? ""))
            result += wrapped.dropFirst().map { pad + $0 }
        }
        return result
    }

    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(word)
            } else {
                line += (line.isEmpty ? "" : " ") + word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    // MARK: Shell completion

    public enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// A completion script for `shell`: command names, each command's options, and the
    /// values of options that take a fixed list.
    public static func completions(_ shell: Shell) -> String {
        switch shell {
        case .bash: return bash()
        case .zsh: return zsh()
        case .fish: return fish()
        }
    }

    private static func allOptions(_ command: any Command.Type) -> [OptionSpec] {
        var seen: Set<String> = []
        return command.forms.flatMap(\.options).filter { seen.insert($0.displayName).inserted }
    }

    private static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    private static func bash() -> String {
        var out = "# bash completion for coldtap (coldtap completions bash > /etc/bash_completion.d/coldtap)\n"
        out += "_coldtap() {\n"
        out += "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
        out += "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
        out += "        COMPREPLY=($(compgen -W \(quoted((ColdTap.commands.map { $0.name } + ["help", "--version"]).joined(separator: " "))) -- \"$cur\"))\n"
        out += "        return\n    fi\n"
        out += "    case \"${COMP_WORDS[1]}\" in\n"
        for command in ColdTap.commands {
            let options = allOptions(command)
            out += "    \(command.name))\n"
            out += "        case \"$prev\" in\n"
            for option in options where !option.isFlag {
                let choices = option.choices()
                let pattern = option.names.joined(separator: "|")
                if !choices.isEmpty {
                    out += "            \(pattern)) COMPREPLY=($(compgen -W \(quoted(choices.joined(separator: " "))) -- \"$cur\")); return ;;\n"
                } else if option.takesPath {
                    out += "            \(pattern)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
                } else {
                    out += "            \(pattern)) return ;;\n"
                }
            }
            out += "        esac\n"
            let verbs = command.forms.compactMap(\.verb)
            let words = verbs + options.flatMap(\.names) + ["--help"]
            out += "        COMPREPLY=($(compgen -W \(quoted(words.joined(separator: " "))) -- \"$cur\") $(compgen -f -- \"$cur\"))\n"
            out += "        ;;\n"
        }
        out += "    esac\n}\ncomplete -o filenames -F _coldtap coldtap\n"
        return out
    }

    private static func zsh() -> String {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "[", with: "\\[")
                .replacingOccurrences(of: "]", with: "\\]").replacingOccurrences(of: ":", with: "\\:")
        }
        var out = "#compdef coldtap\n# zsh completion for coldtap (coldtap completions zsh > \"${fpath[1]}/_coldtap\")\n"
        out += "_coldtap() {\n    local -a commands\n    commands=(\n"
        for command in ColdTap.commands {
            out += "        '\(command.name):\(escape(command.forms[0].summary))'\n"
        }
        out += "    )\n    if (( CURRENT == 2 )); then\n        _describe 'command' commands\n        return\n    fi\n"
        out += "    case $words[2] in\n"
        for command in ColdTap.commands {
            out += "    \(command.name))\n        _arguments \\\n"
            for option in allOptions(command) {
                for name in option.names {
                    var spec = (option.repeatable ? "*" : "") + "\(name)[\(escape(option.help))]"
                    if !option.isFlag {
                        let choices = option.choices()
                        let action = !choices.isEmpty ? "(\(choices.joined(separator: " ")))" : option.takesPath ? "_files" : " "
                        spec += ":\(escape(option.values[0])):\(action)"
                    }
                    out += "            '\(spec)' \\\n"
                }
            }
            out += "            '*:file:_files'\n        ;;\n"
        }
        out += "    esac\n}\n_coldtap \"$@\"\n"
        return out
    }

    private static func fish() -> String {
        func escape(_ text: String) -> String { "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'" }
        var out = "# fish completion for coldtap (coldtap completions fish > ~/.config/fish/completions/coldtap.fish)\n"
        let names = ColdTap.commands.map { $0.name }.joined(separator: " ")
        for command in ColdTap.commands {
            out += "complete -c coldtap -f -n 'not __fish_seen_subcommand_from \(names)' -a \(command.name) -d \(escape(command.forms[0].summary))\n"
        }
        for command in ColdTap.commands {
            for option in allOptions(command) {
                var line = "complete -c coldtap -n '__fish_seen_subcommand_from \(command.name)'"
                for name in option.names {
                    line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst())"
                }
                if !option.isFlag {
                    line += " -r"
                    let choices = option.choices()
                    if !choices.isEmpty { line += " -f -a \(escape(choices.joined(separator: " ")))" } else if option.takesPath { line += " -F" }
                }
                out += line + " -d \(escape(option.help))\n"
            }
        }
        return out
    }
}
