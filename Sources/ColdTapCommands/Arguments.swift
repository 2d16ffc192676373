/// One option of a command: its names, the value it takes, one line of what it does, its
/// default and the values it accepts. A command's table of these is the only place an
/// option is declared: parsing, `--help`, the synopsis, the README and the shell
/// completions are all built from it.
public struct OptionSpec: Sendable {
    /// `--out`, or `-o` and `--output`; the first long name is the one shown.
    public var names: [String]
    /// Placeholders of the values it takes (`["DIR"]`, `["TYPE", "FILE"]`); empty for a flag.
    public var values: [String]
    public var help: String
    /// What applies when it is not given, in words; `nil` when nothing needs saying.
    public var defaultValue: String?
    /// The accepted values, when they form a list (profiles, loggers, chips, languages).
    public var choices: @Sendable () -> [String]
    /// May be given more than once.
    public var repeatable: Bool
    /// Completes file names in the shell.
    public var takesPath: Bool
    /// The command cannot run without it: shown without brackets (`--by NAME`).
    public var required = false

    public var isFlag: Bool { values.isEmpty }
    /// The name shown in help and messages: the first long one.
    public var displayName: String { names.first { $0.hasPrefix("--") } ?? names[0] }

    /// A flag: `--json`.
    public static func flag(_ names: String..., help: String) -> OptionSpec {
        OptionSpec(names: names, values: [], help: help, defaultValue: nil, choices: { [] }, repeatable: false, takesPath: false)
    }

    /// An option with one value: `--out DIR`.
    public static func value(
        _ names: String..., placeholder: String, help: String, default defaultValue: String? = nil,
        choices: @escaping @Sendable () -> [String] = { [] }, repeatable: Bool = false,
        path: Bool = false, required: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            names: names, values: [placeholder], help: help, defaultValue: defaultValue, choices: choices,
            repeatable: repeatable, takesPath: path, required: required)
    }

    /// An option with several values in a row: `--mime TYPE FILE`.
    public static func values(
        _ names: String..., placeholders: [String], help: String, repeatable: Bool = true,
        path: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            names: names, values: placeholders, help: help, defaultValue: nil, choices: { [] }, repeatable: repeatable,
            takesPath: path)
    }

    /// The same option with the words of one subcommand (`--at` of `lot close` is when the
    /// journey ended, of `lot status` the time of the status); it is read by the same names.
    public func helping(_ text: String, default defaultValue: String? = nil) -> OptionSpec {
        var copy = self
        copy.help = text
        copy.defaultValue = defaultValue ?? self.defaultValue
        return copy
    }

    /// `[--out DIR]`, `[--json]`, `[--fault F]...`; a required one bare: `--by NAME`.
    var synopsis: String {
        let inner = ([displayName] + values).joined(separator: " ")
        return (required ? inner : "[\(inner)]") + (repeatable ? "..." : "")
    }
}

/// One way of calling a command: `coldtap ndef decode FILE ...` and `coldtap ndef encode ...`
/// are two forms of `ndef`; most commands have one form without a verb.
public struct CommandForm: Sendable {
    /// The word after the command (`decode`), or `nil`.
    public var verb: String?
    /// The positional arguments as shown: `FILE`, `[FILE]`, `DUMP|--logger KIND`.
    public var positionals: String
    /// What the positionals are, for the help page (name, explanation); may be empty.
    public var positionalHelp: [(String, String)]
    public var summary: String
    public var options: [OptionSpec]

    public init(
        verb: String? = nil, positionals: String = "", positionalHelp: [(String, String)] = [], summary: String,
        options: [OptionSpec]
    ) {
        self.verb = verb
        self.positionals = positionals
        self.positionalHelp = positionalHelp
        self.summary = summary
        self.options = options
    }
}

/// The command line of one command, parsed against its option table: flags, options with
/// values (`--out DIR` or `--out=DIR`), repeatable options and positionals. Anything not in
/// the table is a usage error at once. Take what the command knows, then call `finish()`.
public struct Arguments: Sendable {
    /// One option as given, in order.
    public struct Occurrence: Sendable {
        public var name: String
        public var spec: String
        public var values: [String]
    }

    /// The options given, in command-line order.
    public private(set) var occurrences: [Occurrence] = []
    /// The verb of a command with several forms (`decode` of `ndef decode`).
    public var verb: String?
    private var positionalValues: [String] = []
    private var taken: Set<String> = []
    private let table: [OptionSpec]
    private var undeclared: [String] = []

    /// Parses `arguments` against `options`.
    /// - Throws: `CommandError.usage` for an unknown option, a missing value, a value given
    ///   to a flag, or a non-repeatable option given twice.
    public init(_ arguments: [String], options: [OptionSpec]) throws {
        table = options
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionalValues.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let spec = options.first(where: { $0.names.contains(name) }) else {
                throw CommandError.usage("Unknown option '\(name)'.")
            }
            var values: [String] = []
            if spec.isFlag {
                if inline != nil { throw CommandError.usage("\(name) takes no value.") }
            } else if let inline, spec.values.count == 1 {
                values = [inline]
            } else {
                if inline != nil { throw CommandError.usage("\(name) takes \(spec.values.count) values; give them after a space.") }
                guard index + spec.values.count <= arguments.count else {
                    throw CommandError.usage(
                        "\(name) needs \(spec.values.count == 1 ? "a value" : "\(spec.values.count) values") (\(spec.values.joined(separator: " "))).")
                }
                values = Array(arguments[index..<(index + spec.values.count)])
                index += spec.values.count
            }
            occurrences.append(Occurrence(name: name, spec: spec.displayName, values: values))
        }
        for spec in options where !spec.repeatable && !spec.isFlag {
            let count = occurrences.filter { $0.spec == spec.displayName }.count
            if count > 1 { throw CommandError.usage("\(spec.displayName) is given \(count) times; give it once.") }
        }
    }

    /// The declared option that has one of `names`; records the slip when none has.
    private mutating func spec(_ names: [String]) -> OptionSpec? {
        guard let spec = table.first(where: { spec in names.contains { spec.names.contains($0) } }) else {
            undeclared.append(names[0])
            return nil
        }
        taken.insert(spec.displayName)
        return spec
    }

    /// The declared option `option` is (the table's own, by its names); records the slip when
    /// the table does not hold it.
    private mutating func declared(_ option: OptionSpec) -> OptionSpec? { spec(option.names) }

    /// The value of `option` (given at most once: checked when parsing).
    public mutating func value(_ option: OptionSpec) -> String? {
        guard let spec = declared(option) else { return nil }
        return occurrences.last { $0.spec == spec.displayName }?.values.first
    }

    /// True when the flag `option` was given.
    public mutating func isSet(_ option: OptionSpec) -> Bool {
        guard let spec = declared(option) else { return false }
        return occurrences.contains { $0.spec == spec.displayName }
    }

    /// All values of the repeatable `option`, in order.
    public mutating func values(_ option: OptionSpec) -> [String] {
        guard let spec = declared(option) else { return [] }
        return occurrences.filter { $0.spec == spec.displayName }.flatMap(\.values)
    }

    /// True when the command's table declares `option` (for option groups shared by commands
    /// that take only part of them).
    public func declares(_ option: OptionSpec) -> Bool { table.contains { $0.names.contains(option.displayName) } }

    /// Whether `option` was given, without taking it (to choose a path before parsing on).
    public func isGiven(_ option: OptionSpec) -> Bool { occurrences.contains { $0.spec == option.displayName } }

    /// `option`'s last value, without taking it.
    public func peek(_ option: OptionSpec) -> String? { occurrences.last { $0.spec == option.displayName }?.values.first }

    /// The positional arguments (anything not an option; a lone `-` is one; all after `--`).
    /// - Throws: a usage error when there are fewer than `min` or more than `max`.
    public mutating func positionals(min: Int = 0, max: Int = Int.max, what: String = "FILE") throws -> [String] {
        guard positionalValues.count >= min else { throw CommandError.usage("Missing \(what).") }
        guard positionalValues.count <= max else {
            throw CommandError.usage("Unexpected argument '\(positionalValues[max])'.")
        }
        return positionalValues
    }

    /// Marks every option as handled, for a command that walks `occurrences` itself.
    public mutating func takeAll() {
        for occurrence in occurrences { taken.insert(occurrence.spec) }
    }

    /// Fails when the command read an option its table does not declare (a programming
    /// slip the tests catch), or when an option was given that this command ignores.
    public func finish() throws {
        if let name = undeclared.first {
            throw CommandError(.failure, "internal error: the option \(name) is read but not declared in the command's table.")
        }
        if let unused = occurrences.first(where: { !taken.contains($0.spec) }) {
            throw CommandError.usage("\(unused.name) does not apply here.")
        }
    }
}
