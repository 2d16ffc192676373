import ColdTapCommands
import Foundation

let status = await ColdTap.main(Array(CommandLine.arguments.dropFirst()), console: Console.standard())
exit(status)
