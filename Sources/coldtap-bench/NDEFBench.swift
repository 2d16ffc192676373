import Foundation

func runNDEFBench(json: Bool) async throws {
    throw BenchError.notBuilt("NDEF")
}
