/// `coldtap ndef`.
public enum NDEFCommand: Command {
    public static let name = "ndef"
    public static let synopsis = "  coldtap ndef decode FILE [--json] [--lenient] | ndef encode (--text T [--lang L] | --uri U | --mime TYPE FILE | --external TYPE FILE)... [--hex] [-o OUT]"

    public static func run(_ arguments: Arguments, console: Console) async throws {
        throw CommandError(.failure, "'coldtap ndef' is not built yet.")
    }
}
