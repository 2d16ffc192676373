/// `coldtap readers`.
public enum ReadersCommand: Command {
    public static let name = "readers"
    public static let synopsis = "  coldtap readers                      list PC/SC readers and whether a tag is present"

    public static func run(_ arguments: Arguments, console: Console) async throws {
        throw CommandError(.failure, "'coldtap readers' is not built yet.")
    }
}
