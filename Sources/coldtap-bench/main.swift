import Foundation

// coldtap-bench SUITE [--json]: each suite measures ColdTap and a reference in the same run.
let arguments = Array(CommandLine.arguments.dropFirst())
FileHandle.standardError.write(Data("usage: coldtap-bench ndef|rf|chart [--json]\n".utf8))
exit(64)
