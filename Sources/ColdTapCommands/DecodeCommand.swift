/// `coldtap decode`.
public enum DecodeCommand: Command {
    public static let name = "decode"
    public static let synopsis = "  coldtap decode FILE [--input auto|tag2|tag5|ndef|url|hex|flipper] [--read-time ISO8601] [--secret K] [--logger NAME|FILE] [--interval S] [--json|--csv]"

    public static func run(_ arguments: Arguments, console: Console) async throws {
        throw CommandError(.failure, "'coldtap decode' is not built yet.")
    }
}
