/// `coldtap read`.
public enum ReadCommand: Command {
    public static let name = "read"
    public static let synopsis = "  coldtap read [--reader R] [--timeout S] [--out DIR] [--json|--csv] [--profile P] [--secret K] [--save-dump FILE] [--watch]"

    public static func run(_ arguments: Arguments, console: Console) async throws {
        throw CommandError(.failure, "'coldtap read' is not built yet.")
    }
}
