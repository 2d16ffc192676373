/// `coldtap demo`.
public enum DemoCommand: Command {
    public static let name = "demo"
    public static let synopsis = "  coldtap demo                         emulated logger → read → decode → assess → report, no hardware"

    public static func run(_ arguments: Arguments, console: Console) async throws {
        throw CommandError(.failure, "'coldtap demo' is not built yet.")
    }
}
