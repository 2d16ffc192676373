/// `coldtap report`.
public enum ReportCommand: Command {
    public static let name = "report"
    public static let synopsis = "  coldtap report FILE [--profile P|profile.json] [--tz ZONE] [--json] [--out DIR] [--svg --png --pdf --html --csv] [--theme light|dark] [--size WxH] [--lang en|zh-Hans|ja]"

    public static func run(_ arguments: Arguments, console: Console) async throws {
        throw CommandError(.failure, "'coldtap report' is not built yet.")
    }
}
