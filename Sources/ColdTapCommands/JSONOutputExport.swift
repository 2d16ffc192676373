// `JSONValue` lives in JSONOutput so that Station (below the commands) writes
// the same JSON; everything that imports ColdTapCommands still sees them.
@_exported import JSONOutput
