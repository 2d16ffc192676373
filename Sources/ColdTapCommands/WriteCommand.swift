/// `coldtap write`.
public enum WriteCommand: Command {
    public static let name = "write"
    public static let synopsis = "  coldtap write [--reader R] FILE|--text T|--uri U   write an NDEF message to a tag and verify it"

    public static func run(_ arguments: Arguments, console: Console) async throws {
        throw CommandError(.failure, "'coldtap write' is not built yet.")
    }
}
