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

    /// The help page of `coldtap COMMAND --help`: a one-form command's page, or a group's
    /// overview listing its subcommands briefly.
    public static func page(_ command: any Command.Type) -> String {
        let subcommands = command.subcommands
        guard !subcommands.isEmpty else { return page(command, form: command.forms[0]) }
        var out = ["OVERVIEW: " + command.abstract, "", "USAGE:", "  coldtap \(command.name) SUBCOMMAND [options]", "", "SUBCOMMANDS:"]
        for form in subcommands { out += entry(name: form.verb ?? "", lines: [form.summary]) }
        out.append("")
        out.append("'coldtap \(command.name) SUBCOMMAND --help' explains that subcommand's arguments and options.")
        return out.joined(separator: "\n")
    }

    /// The help page of one form (`coldtap decode --help`, `coldtap lot move --help`): what it
    /// does, usage, the arguments, and every option with one line of what it does, its
    /// default and its accepted values.
    public static func page(_ command: any Command.Type, form: CommandForm) -> String {
        var out: [String] = []
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
        return out.joined(separator: "\n")
    }

    /// What a usage error shows below its message: the synopsis of the form that was used,
    /// or, when a group's subcommand is missing or unknown, the subcommands' names.
    static func usage(_ command: any Command.Type, form: CommandForm?) -> String {
        if let form { return synopsis(command: command.name, form: form) }
        let verbs = command.subcommands.compactMap(\.verb).joined(separator: "|")
        return "  coldtap \(command.name) \(verbs) ...\n'coldtap \(command.name) --help' says what each does."
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

    /// The options of `forms` once each (by their shown name).
    private static func options(of forms: [CommandForm]) -> [OptionSpec] {
        var seen: Set<String> = []
        return forms.flatMap(\.options).filter { seen.insert($0.displayName).inserted }
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
            out += "    \(command.name))\n"
            let subcommands = command.subcommands
            if subcommands.isEmpty {
                out += bashOptions(options(of: command.forms), indent: "        ")
            } else {
                // A group: its verbs first, then the options of the verb given.
                let verbs = subcommands.compactMap(\.verb)
                out += "        if [ \"$COMP_CWORD\" -eq 2 ]; then\n"
                out += "            COMPREPLY=($(compgen -W \(quoted((verbs + ["--help"]).joined(separator: " "))) -- \"$cur\"))\n"
                out += "            return\n        fi\n"
                out += "        case \"${COMP_WORDS[2]}\" in\n"
                for form in subcommands {
                    out += "        \(form.verb ?? ""))\n"
                    out += bashOptions(form.options, indent: "            ")
                    out += "            ;;\n"
                }
                out += "        esac\n"
            }
            out += "        ;;\n"
        }
        out += "    esac\n}\ncomplete -o filenames -F _coldtap coldtap\n"
        return out
    }

    /// The completion of one form's words in bash: the value of the option before the
    /// cursor (its choices, a file, or nothing to offer), else its options and file names.
    private static func bashOptions(_ options: [OptionSpec], indent: String) -> String {
        var out = indent + "case \"$prev\" in\n"
        for option in options where !option.isFlag {
            let choices = option.choices()
            let pattern = option.names.joined(separator: "|")
            if !choices.isEmpty {
                out += indent + "    \(pattern)) COMPREPLY=($(compgen -W \(quoted(choices.joined(separator: " "))) -- \"$cur\")); return ;;\n"
            } else if option.takesPath {
                out += indent + "    \(pattern)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
            } else {
                out += indent + "    \(pattern)) return ;;\n"
            }
        }
        out += indent + "esac\n"
        let words = options.flatMap(\.names) + ["--help"]
        out += indent + "COMPREPLY=($(compgen -W \(quoted(words.joined(separator: " "))) -- \"$cur\") $(compgen -f -- \"$cur\"))\n"
        return out
    }

    private static func zsh() -> String {
        var out = "#compdef coldtap\n# zsh completion for coldtap (coldtap completions zsh > \"${fpath[1]}/_coldtap\")\n"
        out += "_coldtap() {\n    local -a commands\n    commands=(\n"
        for command in ColdTap.commands {
            out += "        '\(command.name):\(zshEscape(command.abstract))'\n"
        }
        out += "    )\n    if (( CURRENT == 2 )); then\n        _describe 'command' commands\n        return\n    fi\n"
        out += "    case $words[2] in\n"
        for command in ColdTap.commands {
            out += "    \(command.name))\n"
            let subcommands = command.subcommands
            if subcommands.isEmpty {
                out += zshArguments(options(of: command.forms), indent: "        ")
            } else {
                out += "        if (( CURRENT == 3 )); then\n            local -a subcommands\n            subcommands=(\n"
                for form in subcommands { out += "                '\(form.verb ?? ""):\(zshEscape(form.summary))'\n" }
                out += "            )\n            _describe 'subcommand' subcommands\n            return\n        fi\n"
                out += "        case $words[3] in\n"
                for form in subcommands {
                    out += "        \(form.verb ?? ""))\n"
                    out += zshArguments(form.options, indent: "            ")
                    out += "            ;;\n"
                }
                out += "        esac\n"
            }
            out += "        ;;\n"
        }
        out += "    esac\n}\n_coldtap \"$@\"\n"
        return out
    }

    private static func zshEscape(_ text: String) -> String {
        text.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "[", with: "\\[")
            .replacingOccurrences(of: "]", with: "\\]").replacingOccurrences(of: ":", with: "\\:")
    }

    /// One form's `_arguments` call: each option name with its help and how its value completes.
    private static func zshArguments(_ options: [OptionSpec], indent: String) -> String {
        var out = indent + "_arguments \\\n"
        for option in options {
            for name in option.names {
                var spec = (option.repeatable ? "*" : "") + "\(name)[\(zshEscape(option.help))]"
                if !option.isFlag {
                    let choices = option.choices()
                    let action = !choices.isEmpty ? "(\(choices.joined(separator: " ")))" : option.takesPath ? "_files" : " "
                    spec += ":\(zshEscape(option.values[0])):\(action)"
                }
                out += indent + "    '\(spec)' \\\n"
            }
        }
        return out + indent + "    '*:file:_files'\n"
    }

    private static func fish() -> String {
        var out = "# fish completion for coldtap (coldtap completions fish > ~/.config/fish/completions/coldtap.fish)\n"
        let names = ColdTap.commands.map { $0.name }.joined(separator: " ")
        for command in ColdTap.commands {
            out += "complete -c coldtap -f -n 'not __fish_seen_subcommand_from \(names)' -a \(command.name) -d \(fishEscape(command.abstract))\n"
        }
        for command in ColdTap.commands {
            let subcommands = command.subcommands
            if subcommands.isEmpty {
                out += fishOptions(options(of: command.forms), condition: "__fish_seen_subcommand_from \(command.name)")
                continue
            }
            let verbs = subcommands.compactMap(\.verb).joined(separator: " ")
            for form in subcommands {
                out +=
                    "complete -c coldtap -f -n '__fish_seen_subcommand_from \(command.name); and not __fish_seen_subcommand_from \(verbs)' -a \(form.verb ?? "") -d \(fishEscape(form.summary))\n"
            }
            for form in subcommands {
                out += fishOptions(
                    form.options, condition: "__fish_seen_subcommand_from \(command.name); and __fish_seen_subcommand_from \(form.verb ?? "")")
            }
        }
        return out
    }

    private static func fishEscape(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// One `complete` line per option, offered when `condition` holds.
    private static func fishOptions(_ options: [OptionSpec], condition: String) -> String {
        var out = ""
        for option in options {
            var line = "complete -c coldtap -n '\(condition)'"
            for name in option.names {
                line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst())"
            }
            if !option.isFlag {
                line += " -r"
                let choices = option.choices()
                if !choices.isEmpty { line += " -f -a \(fishEscape(choices.joined(separator: " ")))" } else if option.takesPath { line += " -F" }
            }
            out += line + " -d \(fishEscape(option.help))\n"
        }
        return out
    }
}
