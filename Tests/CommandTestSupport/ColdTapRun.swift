import ColdTapCommands
import Foundation

/// What a `coldtap` command printed and its exit status.
public struct Run {
    public var status: Int32
    public var out: String
    public var err: String
}

/// Runs `coldtap ARGS` in-process, as a user would, with `stdin` as its standard input.
public func coldtap(_ arguments: [String], stdin: Data = Data()) async -> Run {
    let console = Console.capturing(stdin: stdin)
    let status = await ColdTap.main(arguments, console: console)
    return Run(status: status, out: console.output, err: console.errorOutput)
}
