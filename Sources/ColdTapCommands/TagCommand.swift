/// `coldtap tag`.
public enum TagCommand: Command {
    public static let name = "tag"
    public static let synopsis = "  coldtap tag FILE [--json]                 show what a tag memory dump holds"

    public static func run(_ arguments: Arguments, console: Console) async throws {
        throw CommandError(.failure, "'coldtap tag' is not built yet.")
    }
}
