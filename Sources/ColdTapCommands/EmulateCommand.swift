/// `coldtap emulate`.
public enum EmulateCommand: Command {
    public static let name = "emulate"
    public static let synopsis = "  coldtap emulate FILE|--logger KIND [--vpcd HOST:PORT] [--fault removed-after=N|corrupt-at=N|silent-at=N]"

    public static func run(_ arguments: Arguments, console: Console) async throws {
        throw CommandError(.failure, "'coldtap emulate' is not built yet.")
    }
}
