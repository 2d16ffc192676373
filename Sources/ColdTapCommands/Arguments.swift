/// A small command-line parser: flags (`--json`), options with a value (`--out DIR` or
/// `--out=DIR`), repeatable options and positionals. Take what a command knows, then call
/// `finish()` so that anything left over is a usage error.
public struct Arguments: Sendable {
    /// What is not taken yet, in the order given.
    public private(set) var remaining: [String]

    public init(_ arguments: [String]) {
        remaining = arguments
    }

    /// True when the flag was given (all occurrences are taken).
    public mutating func flag(_ names: String...) -> Bool {
        var found = false
        remaining.removeAll { argument in
            let hit = names.contains(argument)
            if hit { found = true }
            return hit
        }
        return found
    }

    /// The value of an option given at most once.
    /// - Throws: a usage error when the option has no value or is given twice.
    public mutating func option(_ names: String...) throws -> String? {
        let values = try takeValues(names)
        guard values.count <= 1 else {
            throw CommandError.usage("\(names[0]) is given \(values.count) times; give it once.")
        }
        return values.first
    }

    /// All values of a repeatable option, in order.
    public mutating func options(_ names: String...) throws -> [String] {
        try takeValues(names)
    }

    /// Takes the positional arguments (anything not starting with `--`; a lone `-` is a positional).
    /// - Throws: a usage error when there are fewer than `min` or more than `max`.
    public mutating func positionals(min: Int = 0, max: Int = Int.max, what: String = "FILE") throws -> [String] {
        var taken: [String] = []
        var kept: [String] = []
        for argument in remaining {
            if argument == "-" || !argument.hasPrefix("-") { taken.append(argument) } else { kept.append(argument) }
        }
        guard taken.count >= min else { throw CommandError.usage("Missing \(what).") }
        guard taken.count <= max else {
            // `--tz UTC` with an unknown `--tz` leaves `UTC` behind: name the option, not its value.
            if let unknown = kept.first {
                throw CommandError.usage("Unknown option '\(unknown)'.")
            }
            throw CommandError.usage("Unexpected argument '\(taken[max])'.")
        }
        remaining = kept
        return taken
    }

    /// Fails on anything not taken.
    public func finish() throws {
        if let first = remaining.first {
            throw CommandError.usage("Unknown option '\(first)'.")
        }
    }

    private mutating func takeValues(_ names: [String]) throws -> [String] {
        var values: [String] = []
        var kept: [String] = []
        var index = 0
        while index < remaining.count {
            let argument = remaining[index]
            if names.contains(argument) {
                guard index + 1 < remaining.count else {
                    throw CommandError.usage("\(argument) needs a value.")
                }
                values.append(remaining[index + 1])
                index += 2
                continue
            }
            if let name = names.first(where: { argument.hasPrefix($0 + "=") }) {
                values.append(String(argument.dropFirst(name.count + 1)))
            } else {
                kept.append(argument)
            }
            index += 1
        }
        remaining = kept
        return values
    }
}
